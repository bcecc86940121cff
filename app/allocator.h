#pragma once
// Which malloc the program runs on, for the bench's notes: timings depend on it.
#include <string>

namespace gl::app {

// "jemalloc 5.3.0-0-g…, freed pages kept" or "the C library's malloc (sanitizer build)".
std::string allocatorDescription();

}  // namespace gl::app
