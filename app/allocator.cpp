#include "allocator.h"

#include <string_view>

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
//
// Its memory comes in transparent huge pages (Debian's kernel gives them to who asks:
// `madvise`): a first touch faults once per 2 MiB instead of once per 4 KiB. Seed-c's three
// variants in a fresh `gradlab run`, started right after another: ~90,000 faults and 0.48 s for
// the first variant (0.058 s warm); with huge pages ~4,600 faults and 0.055 s, the whole command
// 1.34 s -> 0.50 s. (After ~20 s idle the VM's host has taken the freed memory back, and a
// first touch costs ~5 ms per MiB either way: the first variant then takes ~0.3 s.)
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1,thp:always";
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
  const char* thp = nullptr;
  size_t thpSize = sizeof thp;
  const bool huge = mallctl("opt.thp", &thp, &thpSize, nullptr, 0) == 0 && thp &&
                    std::string_view(thp) == "always";
  return std::string("jemalloc ") + version + (kept ? ", freed pages kept" : "") +
         (huge ? ", transparent huge pages" : "");
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
