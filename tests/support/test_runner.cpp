// main() of a test executable that holds several Qt Test classes (support/test_main.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "test_registry.h"

namespace gl::testing {
namespace {

std::map<std::string, TestMain>& registry() {
  static std::map<std::string, TestMain> tests;
  return tests;
}

std::string& currentTest() {
  static std::string name;
  return name;
}

std::string stemOf(const char* file) {
  std::string path(file);
  const auto slash = path.find_last_of("/\\");
  if (slash != std::string::npos) path.erase(0, slash + 1);
  const auto dot = path.rfind('.');
  if (dot != std::string::npos) path.erase(dot);
  return path;
}

void listTests(std::FILE* out) {
  for (const auto& [name, main] : registry()) std::fprintf(out, "  %s\n", name.c_str());
}

}  // namespace

bool registerTest(const char* file, TestMain main) {
  const std::string name = stemOf(file);
  if (!registry().emplace(name, main).second) {
    std::fprintf(stderr, "two tests are named %s\n", name.c_str());
    std::abort();
  }
  return true;
}

const char* currentTestName() { return currentTest().c_str(); }

}  // namespace gl::testing

int main(int argc, char** argv) {
  using namespace gl::testing;
  if (argc < 2 || std::strcmp(argv[1], "--list") == 0) {
    std::fprintf(argc < 2 ? stderr : stdout, "usage: %s <test> [Qt Test arguments]\ntests:\n",
                 argv[0]);
    listTests(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const auto found = registry().find(argv[1]);
  if (found == registry().end()) {
    std::fprintf(stderr, "no test named %s; tests:\n", argv[1]);
    listTests(stderr);
    return 2;
  }
  currentTest() = found->first;
  // The test sees its own name as the program name, as its own executable did.
  argv[1] = argv[0];
  return found->second(argc - 1, argv + 1);
}
