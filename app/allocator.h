#pragma once
// Which malloc the program runs on, for the bench's notes: timings depend on it.
#include <string>

namespace gl::app {

// "jemalloc 5.3.0-0-g…, freed pages kept, transparent huge pages" or "the C library's malloc
// (sanitizer build)".
std::string allocatorDescription();

// Environment assignments ("LD_PRELOAD=… MALLOC_CONF=… ") that give a child process, such as
// the bench's PyTorch peer, this program's allocator and settings; empty when there is none
// to give (a sanitizer build).
std::string allocatorForChildren();

}  // namespace gl::app
