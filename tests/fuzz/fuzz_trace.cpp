// libFuzzer target: bytes as a GradLab script, traced and run by the shared harness (harness.h:
// its limits, and what counts as a finding). Build: -DGRADLAB_FUZZ=ON with clang (see README,
// "Sanitizers and fuzzing").
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gl::fuzz::traceAndRun(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
