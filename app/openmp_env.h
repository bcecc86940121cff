#pragma once
// OpenMP reads its wait policy once, when the runtime loads, before main() runs.

namespace gl::app {

// Restarts the process with OMP_WAIT_POLICY=PASSIVE unless the user chose a policy: OpenMP
// threads that spin while waiting turn a core taken by another program (the window's own
// thread, a compiler) into a many-fold slowdown of every parallel region. Returns only when no
// restart happened (the policy was set, or exec failed).
void ensurePassiveOpenMpWaiting(char** argv);

}  // namespace gl::app
