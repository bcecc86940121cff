// gradlab: the command line. Until the window and the script language land, it runs the ODE
// lesson from the engine's C++ API.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/tensor/error.h"
#include "ode_demo.h"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: gradlab ode [--steps N] [--batch B] [--dim D] [--dt DT]\n"
               "                   [--executor serial|parallel|both] [--threads N]\n"
               "                   [--variant serial|parallel|vectorized|all]\n");
}

}  // namespace

int main(int argc, char** argv) {
  gl::app::OdeDemoOptions opt;
  int i = 1;
  if (i < argc && std::strcmp(argv[i], "ode") == 0) ++i;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    try {
      if (a == "--steps")
        opt.steps = std::stoi(next());
      else if (a == "--batch")
        opt.batch = std::stoi(next());
      else if (a == "--dim")
        opt.dim = std::stoi(next());
      else if (a == "--dt")
        opt.dt = std::stod(next());
      else if (a == "--executor")
        opt.executor = next();
      else if (a == "--threads")
        opt.threads = std::stoi(next());
      else if (a == "--variant")
        opt.variant = next();
      else if (a == "-h" || a == "--help") {
        usage();
        return 0;
      } else {
        std::fprintf(stderr, "gradlab: unknown argument '%s'\n", a.c_str());
        usage();
        return 2;
      }
    } catch (const std::logic_error&) {
      std::fprintf(stderr, "gradlab: bad value for %s\n", a.c_str());
      return 2;
    }
  }
  if (opt.steps < 0 || opt.batch < 1 || opt.dim < 1) {
    std::fprintf(stderr, "gradlab: sizes must be positive\n");
    return 2;
  }
  try {
    return gl::app::runOdeDemo(opt);
  } catch (const gl::EngineError& e) {
    std::fprintf(stderr, "gradlab: %s\n", e.what());
    return 1;
  }
}
