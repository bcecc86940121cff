// gradlab: the command line. `run` and `check` trace GradLab scripts; `ode` runs the ODE lesson
// from the engine's C++ API (the engine demo the script language grew from).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/tensor/error.h"
#include "gui.h"
#include "ode_demo.h"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: gradlab [FILE.gls]          open the window (on FILE, or the last lesson)\n"
               "       gradlab export FILE.gls --out DIR [--format png,svg,pdf,csv,dot]\n"
               "                      [--set name=value]... [--step T] [--variant V]\n"
               "       gradlab run FILE.gls [--variant V] [--executor serial|parallel]\n"
               "                            [--threads N] [--set name=value]... [--json]\n"
               "       gradlab check FILE.gls [--set name=value]...\n"
               "       gradlab ode [--steps N] [--batch B] [--dim D] [--dt DT]\n"
               "                   [--executor serial|parallel|both] [--threads N]\n"
               "                   [--variant serial|parallel|vectorized|all]\n");
}

}  // namespace

int odeMain(int argc, char** argv, int i) {
  gl::app::OdeDemoOptions opt;
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

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  std::vector<std::string> rest(argv + std::min(argc, 2), argv + argc);
  if (cmd == "run") return gl::app::runCommand(rest);
  if (cmd == "check") return gl::app::checkCommand(rest);
  if (cmd == "ode") return odeMain(argc, argv, 2);
  if (cmd == "export") return gl::app::exportCommand(argc, argv, rest);
  if (cmd == "-h" || cmd == "--help") {
    usage();
    return 0;
  }
  if (cmd.empty() || cmd[0] != '-' || cmd == "--screenshot" || cmd == "--set" || cmd == "--run")
    return gl::app::runWindow(argc, argv, std::vector<std::string>(argv + 1, argv + argc));
  usage();
  return 2;
}
