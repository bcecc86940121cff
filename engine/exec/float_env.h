#pragma once
// Flush-to-zero and denormals-are-zero for a run, as TensorFlow sets them on CPU: a float that
// underflows becomes 0 instead of a denormal (seed-a's adjoint ends at 0, the closed form, not
// at 5.6e-45), and denormal inputs cost no microcode assists. RunOptions::flushDenormals turns
// it off for teaching. On CPUs without SSE control registers it does nothing.
namespace gl {

// Sets FTZ/DAZ on the calling thread and on the OpenMP pool's `threads` threads for its
// lifetime, then restores every thread's previous mode.
class DenormalsFlushed {
 public:
  DenormalsFlushed(bool on, int threads);
  ~DenormalsFlushed();
  DenormalsFlushed(const DenormalsFlushed&) = delete;
  DenormalsFlushed& operator=(const DenormalsFlushed&) = delete;

  // True when the calling thread flushes denormals now.
  static bool active();

 private:
  bool on_;
  int threads_;
};

}  // namespace gl
