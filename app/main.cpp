// gradlab: the command line. Every command's arguments are declared once in commands.cpp and
// parsed by args.h before its handler runs; handlers return the exit status (0 ok, 1 script or
// runtime error, 2 usage error). `run` and `check` trace GradLab scripts, `export` writes a
// lesson's figures, `ode` runs the ODE lesson from the engine's C++ API, `bench` times the
// lessons against their yardsticks, and the window is the default command.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "args.h"
#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "gui.h"
#include "ode_demo.h"
#include "openmp_env.h"
#include "scripts.h"

namespace {

using gl::app::args::Parsed;
using Handler = int (*)(const Parsed& args, int& argc, char** argv);

// One handler per command of commands(); the window and export need argc/argv for Qt.
Handler handler(const std::string& command) {
  static const std::map<std::string, Handler> handlers = {
      {"window",
       [](const Parsed& a, int& argc, char** argv) { return gl::app::runWindow(a, argc, argv); }},
      {"run", [](const Parsed& a, int&, char**) { return gl::app::runCommand(a); }},
      {"check", [](const Parsed& a, int&, char**) { return gl::app::checkCommand(a); }},
      {"export", [](const Parsed& a, int& argc,
                    char** argv) { return gl::app::exportCommand(a, argc, argv); }},
      {"ode", [](const Parsed& a, int&, char**) { return gl::app::odeCommand(a); }},
      {"bench", [](const Parsed& a, int&, char**) { return gl::app::benchCommand(a); }},
  };
  auto it = handlers.find(command);
  return it == handlers.end() ? nullptr : it->second;
}

}  // namespace

int main(int argc, char** argv) {
  gl::app::ensurePassiveOpenMpWaiting(argv);
  namespace app = gl::app;
  const std::vector<std::string> words(argv + (argc > 0 ? 1 : 0), argv + argc);
  const app::Route route = app::route(words, app::scriptExists);
  if (route.overview) {
    std::fputs(app::overview().c_str(), stdout);
    return 0;
  }
  if (!route.command) {
    std::fprintf(stderr, "%s\n", route.error.c_str());
    return 2;
  }
  const app::args::Command& command = *route.command;
  const app::args::Result parsed = app::args::parse(command, route.words);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n%s", parsed.error.c_str(), app::args::usage(command).c_str());
    return 2;
  }
  if (parsed.parsed.help) {
    std::fputs(app::args::help(command).c_str(), stdout);
    return 0;
  }
  const Handler run = handler(command.name);
  if (!run) {
    std::fprintf(stderr, "gradlab: no handler for command '%s'\n", command.name.c_str());
    return 2;
  }
  return run(parsed.parsed, argc, argv);
}
