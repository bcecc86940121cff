#pragma once
// Counts the C++ heap allocations of the test runner that links allocation_counter.cpp
// (gradlab_tests_alloc: test_tensor and test_fused). It replaces the global operator new, so
// it lives in a runner of its own: the other engine tests keep AddressSanitizer's new/delete
// mismatch checks.
#include <cstdint>

namespace gl::testing {

// False where the sanitizer's runtime defines operator new itself (ThreadSanitizer): the
// counting tests skip there.
bool countsAllocations();

// Allocations made through operator new since the process started.
int64_t heapAllocations();

}  // namespace gl::testing
