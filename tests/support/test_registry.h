#pragma once
// The registry behind support/test_main.h, free of Qt so that the runner's main() compiles in
// a moment.

namespace gl::testing {

using TestMain = int (*)(int argc, char** argv);

// Registers a test under the stem of `file` (tests/lang/test_scan.cpp -> "test_scan"); a
// static initializer of the test file calls it. Two tests of one stem abort at start-up.
bool registerTest(const char* file, TestMain main);

// The name of the test this process runs ("" before main() chose it).
const char* currentTestName();

}  // namespace gl::testing
