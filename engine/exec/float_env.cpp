#include "engine/exec/float_env.h"

#include <omp.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define GL_HAVE_MXCSR 1
#endif

namespace gl {

namespace {

#ifdef GL_HAVE_MXCSR
constexpr unsigned kFlushBits = 0x8040;  // FTZ (bit 15) | DAZ (bit 6)
#endif

// Each thread keeps the mode it had before the run, to put it back after.
thread_local bool flushedHere = false;
thread_local unsigned savedMode = 0;

void flushThisThread() {
#ifdef GL_HAVE_MXCSR
  if (flushedHere) return;
  savedMode = _mm_getcsr();
  _mm_setcsr(savedMode | kFlushBits);
  flushedHere = true;
#endif
}

void restoreThisThread() {
#ifdef GL_HAVE_MXCSR
  if (!flushedHere) return;
  _mm_setcsr(savedMode);
  flushedHere = false;
#endif
}

}  // namespace

DenormalsFlushed::DenormalsFlushed(bool on, int threads) : on_(on), threads_(threads) {
  if (!on_) return;
  flushThisThread();
  if (threads_ > 1) {
#pragma omp parallel num_threads(threads_)
    flushThisThread();
  }
}

DenormalsFlushed::~DenormalsFlushed() {
  if (!on_) return;
  // The calling thread is restored after the region, not in it: LLVM's libomp copies the
  // caller's MXCSR to the team at the fork and back onto the caller at the join (its
  // KMP_INHERIT_FP_CONTROL), which undid a restore made inside the region.
  if (threads_ > 1) {
#pragma omp parallel num_threads(threads_)
    if (omp_get_thread_num() != 0) restoreThisThread();
  }
  restoreThisThread();
}

bool DenormalsFlushed::active() {
#ifdef GL_HAVE_MXCSR
  return (_mm_getcsr() & kFlushBits) == kFlushBits;
#else
  return false;
#endif
}

}  // namespace gl
