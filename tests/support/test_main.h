#pragma once
// One executable per test folder (gradlab_tests_engine, gradlab_tests_ui, gradlab_tests_app)
// holds many Qt Test classes; each ctest entry runs one of them by name:
//   gradlab_tests_engine test_scan [Qt Test arguments...]
// A clean build then links, moc-scans and precompiles headers three times instead of once per
// test file (tests/CMakeLists.txt, gradlab_add_test). Each test file ends with one of the
// macros below in place of QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN, which set up
// the same application object Qt Test's macros do (qtest.h QTEST_MAIN_WRAPPER).
#include <QtTest>

#include "test_registry.h"

#define GRADLAB_TEST_REGISTER_(TestObject, ...)                        \
  namespace {                                                          \
  int gradlabTestMain(int argc, char** argv) {                         \
    QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); \
    __VA_ARGS__                                                        \
    TestObject tc;                                                     \
    QTEST_SET_MAIN_SOURCE_PATH                                         \
    return QTest::qExec(&tc, argc, argv);                              \
  }                                                                    \
  [[maybe_unused]] const bool gradlabTestRegistered =                  \
      ::gl::testing::registerTest(__FILE__, &gradlabTestMain);         \
  }

// QTEST_MAIN: QApplication where the target links Qt Widgets, else QCoreApplication.
#define GRADLAB_TEST_MAIN(TestObject) GRADLAB_TEST_REGISTER_(TestObject, QTEST_MAIN_SETUP())
// QTEST_GUILESS_MAIN: a QCoreApplication.
#define GRADLAB_TEST_GUILESS_MAIN(TestObject) \
  GRADLAB_TEST_REGISTER_(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// QTEST_APPLESS_MAIN: no application object.
#define GRADLAB_TEST_APPLESS_MAIN(TestObject) GRADLAB_TEST_REGISTER_(TestObject)
// A test with a main of its own (it may run itself as a child process: the child is started
// with the test's name as its first argument, see runnerArguments).
#define GRADLAB_TEST_CUSTOM_MAIN(mainFunction)              \
  namespace {                                               \
  [[maybe_unused]] const bool gradlabTestRegistered =       \
      ::gl::testing::registerTest(__FILE__, &mainFunction); \
  }

namespace gl::testing {
// The arguments that start this same test again in a child process: the test's name.
inline QStringList runnerArguments() { return {QString::fromUtf8(currentTestName())}; }
}  // namespace gl::testing
