#include "allocator.h"

#ifdef GRADLAB_JEMALLOC
#include <dlfcn.h>
#include <jemalloc/jemalloc.h>

// jemalloc under the program, not glibc's malloc. The engine allocates a few small vectors per
// op, from several threads. Under glibc, the window's run thread got up to 40 % slower than the
// same run on a fresh thread (ui_time_gui_runs, seed-b's backward_passes: 5.4-6.2 s against
// 4.0-4.5 s), once the recording runs had fragmented its arena; jemalloc's thread caches do
// not degrade that way (3.36 s against 3.24 s), and `gradlab bench` ran seed-b 18-25 % faster.
//
// Read by jemalloc when it starts. Freed pages stay with the process, as the engine's buffer
// pool keeps freed tensors: handing them back after the default 10 s cost ~20,000 page faults
// (~6 us each on these VMs) on every window run of seed-b, whose runs come ~10 s apart.
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1";
#endif

namespace gl::app {

std::string allocatorDescription() {
#ifdef GRADLAB_JEMALLOC
  const char* version = nullptr;
  size_t size = sizeof version;
  ssize_t decay = 0;
  size_t decaySize = sizeof decay;
  if (mallctl("version", &version, &size, nullptr, 0) != 0 || !version) return "jemalloc";
  const bool kept = mallctl("opt.dirty_decay_ms", &decay, &decaySize, nullptr, 0) == 0 && decay < 0;
  return std::string("jemalloc ") + version + (kept ? ", freed pages kept" : "");
#else
  return "the C library's malloc (sanitizer build)";
#endif
}

std::string allocatorForChildren() {
#ifdef GRADLAB_JEMALLOC
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&mallctl), &info) == 0 || !info.dli_fname) return "";
  return std::string("LD_PRELOAD=") + info.dli_fname + " MALLOC_CONF=" + malloc_conf + " ";
#else
  return "";
#endif
}

}  // namespace gl::app
