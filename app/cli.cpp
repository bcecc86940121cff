#include "cli.h"

#include <cstdio>
#include <iostream>

#include "scripts.h"

namespace gl::app {

lang::ParamPreset presetOf(const args::Parsed& args, lang::ParamPreset fallback) {
  if (!args.has("--preset")) return fallback;
  return args.text("--preset") == "class" ? lang::ParamPreset::Classroom : lang::ParamPreset::Seed;
}

lang::TraceOptions traceOptions(const args::Parsed& args) {
  lang::TraceOptions trace;
  trace.preset = presetOf(args, lang::ParamPreset::Seed);
  for (const args::Setting& s : args.settings("--set")) trace.overrides[s.name] = s.value;
  trace.memoryBudget = size_t(args.bytes("--memory-budget", int64_t(trace.memoryBudget)));
  trace.maxUnroll = args.integer("--max-unroll", trace.maxUnroll);
  trace.maxNodes = args.integer("--max-nodes", trace.maxNodes);
  trace.maxItems = args.integer("--max-items", trace.maxItems);
  trace.maxOps = args.integer("--max-ops", trace.maxOps);
  return trace;
}

lab::RunRequest runRequest(const args::Parsed& args) {
  lab::RunRequest run;
  run.variant = args.text("--variant");
  // --executor is a choice of executorName()s (commands.cpp): anything else was refused.
  run.options.executor = executorFromName(args.text("--executor")).value_or(ExecutorKind::Serial);
  run.options.threads = int(args.integer("--threads", run.options.threads));
  run.options.flushDenormals = !args.flag("--no-ftz");
  run.options.checkNumerics = !args.flag("--no-check-numerics");
  run.options.memoryBudget =
      size_t(args.bytes("--memory-budget", int64_t(run.options.memoryBudget)));
  run.options.maxOps = args.integer("--max-ops", run.options.maxOps);
  return run;
}

int runCommand(const args::Parsed& args) {
  const std::string file = args.positional("FILE");
  // The report reads only the outputs: no timeline, loop or value records to pay for.
  lab::RunRequest request = runRequest(args);
  request.options.timeline = false;
  request.options.records = false;
  request.options.valueRecords = false;
  try {
    const std::string path = locateScript(file);
    const lang::TracedProgram program =
        lang::traceProgram(readScript(file), path, traceOptions(args));
    const lab::ProgramRun run = lab::runProgram(program, request);
    std::cout << (args.flag("--json") ? lab::reportJson(program, run, request)
                                      : lab::reportText(program, run, request));
    std::cout.flush();
    for (const lab::VariantRun& v : run.variants)
      if (!v.ok()) std::fprintf(stderr, "%s\n", v.error.c_str());
    return run.ok() ? 0 : 1;
  } catch (const EngineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

int checkCommand(const args::Parsed& args) {
  const std::string file = args.positional("FILE");
  try {
    const std::string path = locateScript(file);
    const lang::TracedProgram program =
        lang::traceProgram(readScript(file), path, traceOptions(args));
    std::cout << lab::checkSummary(program, path);
    return 0;
  } catch (const EngineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace gl::app
