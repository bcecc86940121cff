#include "cli.h"

#include <cstdio>
#include <iostream>

#include "engine/lab/session.h"
#include "scripts.h"

namespace gl::app {

namespace {

void runUsage() {
  std::fprintf(stderr,
               "usage: gradlab run FILE [--variant V] [--executor serial|parallel] [--threads N]\n"
               "                        [--set name=value]... [--json]\n"
               "       gradlab check FILE [--set name=value]...\n");
}

struct ScriptArgs {
  std::string file;
  lab::RunSettings run;
  lang::TraceOptions trace;
  bool json = false;
};

// Returns 0 when parsed, else the exit status to use.
int parseArgs(const std::vector<std::string>& args, bool allowRunFlags, ScriptArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "gradlab: %s needs a value\n", a.c_str());
        return false;
      }
      v = args[++i];
      return true;
    };
    std::string v;
    if (a == "--set") {
      std::string name;
      double x = 0;
      if (!value(v)) return 2;
      if (!parseSetting(v, name, x)) {
        std::fprintf(stderr, "gradlab: --set expects name=value, got '%s'\n", v.c_str());
        return 2;
      }
      out.trace.overrides[name] = x;
    } else if (allowRunFlags && a == "--variant") {
      if (!value(out.run.variant)) return 2;
    } else if (allowRunFlags && a == "--executor") {
      if (!value(v)) return 2;
      if (v != "serial" && v != "parallel") {
        std::fprintf(stderr, "gradlab: --executor is serial or parallel, not '%s'\n", v.c_str());
        return 2;
      }
      out.run.parallel = v == "parallel";
    } else if (allowRunFlags && a == "--threads") {
      if (!value(v)) return 2;
      try {
        out.run.threads = std::stoi(v);
      } catch (const std::logic_error&) {
        out.run.threads = -1;
      }
      if (out.run.threads < 1 || out.run.threads > 1024) {
        std::fprintf(stderr, "gradlab: --threads expects a count from 1 to 1024\n");
        return 2;
      }
    } else if (allowRunFlags && a == "--json") {
      out.json = true;
    } else if (a == "-h" || a == "--help") {
      runUsage();
      return -1;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "gradlab: unknown option '%s'\n", a.c_str());
      runUsage();
      return 2;
    } else if (out.file.empty()) {
      out.file = a;
    } else {
      std::fprintf(stderr, "gradlab: one script at a time ('%s' and '%s')\n", out.file.c_str(),
                   a.c_str());
      return 2;
    }
  }
  if (out.file.empty()) {
    runUsage();
    return 2;
  }
  return 0;
}

}  // namespace

bool parseSetting(const std::string& text, std::string& name, double& value) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return false;
  name = text.substr(0, eq);
  try {
    size_t used = 0;
    value = std::stod(text.substr(eq + 1), &used);
    return used == text.size() - eq - 1;
  } catch (const std::logic_error&) {
    return false;
  }
}

int runCommand(const std::vector<std::string>& args) {
  ScriptArgs sa;
  if (int rc = parseArgs(args, true, sa)) return rc < 0 ? 0 : rc;
  try {
    const std::string path = locateScript(sa.file);
    const lang::TracedProgram program = lang::traceProgram(readScript(sa.file), path, sa.trace);
    const lab::ProgramRun run = lab::runProgram(program, sa.run);
    std::cout << (sa.json ? lab::reportJson(program, run, sa.run)
                          : lab::reportText(program, run, sa.run));
    std::cout.flush();
    for (const lab::VariantRun& v : run.variants)
      if (!v.ok()) std::fprintf(stderr, "%s\n", v.error.c_str());
    return run.ok() ? 0 : 1;
  } catch (const EngineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

int checkCommand(const std::vector<std::string>& args) {
  ScriptArgs sa;
  if (int rc = parseArgs(args, false, sa)) return rc < 0 ? 0 : rc;
  try {
    const std::string path = locateScript(sa.file);
    const lang::TracedProgram program = lang::traceProgram(readScript(sa.file), path, sa.trace);
    std::cout << lab::checkSummary(program, path);
    return 0;
  } catch (const EngineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace gl::app
