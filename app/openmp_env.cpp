#include "openmp_env.h"

#include <unistd.h>

#include <cstdlib>

namespace gl::app {

void ensurePassiveOpenMpWaiting(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY")) return;
  if (setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // exec failed (no /proc): go on with the default policy.
}

}  // namespace gl::app
