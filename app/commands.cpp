#include "commands.h"

#include <climits>
#include <cstdio>

#include "engine/exec/executor_kind.h"
#include "engine/lang/program.h"
#include "ode_demo.h"

namespace gl::app {

namespace {

using args::Command;
using args::Option;

// ---- the options several commands share: declared once ----

args::Positional scriptArg(bool required) {
  return {"FILE", "a script file, or the name of a built-in lesson such as ode_while_loop",
          required};
}

Option setParam() { return args::setting("--set", "set a script param (as its slider would)"); }

// The lessons declare two sizes per param: the seed's (what the question was about) and a
// small `class N` one. The command line keeps the seed's unless told; the window opens small.
Option presetOption(const char* fallback) {
  return args::choice("--preset", {"seed", "class"},
                      "param values to start from: the seed's or the classroom's (`class N`)")
      .byDefault(fallback);
}

Option variantOption(std::string help) { return args::text("--variant", "V", std::move(help)); }

Option executorOption() {
  std::vector<std::string> names;
  for (ExecutorKind k : kExecutorKinds) names.push_back(executorName(k));
  return args::choice("--executor", names, "the executor to run on")
      .byDefault(executorName(ExecutorKind::Serial));
}

Option threadsOption() {
  return args::integer("--threads", "N", 1, kMaxThreads, "threads of the parallel executor")
      .byDefault("one per idle core, rechecked as it runs");
}

Option ftzOption() {
  return args::flag("--no-ftz", "keep IEEE denormals (default: flush them to zero, as TF on CPU)");
}

Option numericsOption() {
  return args::flag("--no-check-numerics",
                    "do not look for the first NaN/Inf (default: report its node and line)");
}

// The limits a script is traced and run under (lang::TraceOptions, lab::RunRequest).
std::vector<Option> limitOptions() {
  const lang::TraceOptions defaults;
  return {args::bytes("--memory-budget", "SIZE",
                      "bytes of tensors a trace or run may hold, e.g. 2G or 512M")
              .byDefault(std::to_string(kDefaultMemoryBudget >> 30) + "G"),
          args::integer("--max-unroll", "N", 1, INT64_MAX,
                        "Python loop iterations unrolled while tracing, in total")
              .byDefault(std::to_string(defaults.maxUnroll)),
          args::integer("--max-nodes", "N", 1, INT64_MAX, "nodes the traced graph may have")
              .byDefault(std::to_string(defaults.maxNodes)),
          args::integer("--max-items", "N", 1, INT64_MAX,
                        "items of a Python list or characters of a string while tracing")
              .byDefault(std::to_string(defaults.maxItems))};
}

// The limit of commands that run the script (RunOptions::maxOps).
Option maxOpsOption() {
  return args::integer("--max-ops", "N", 1, INT64_MAX,
                       "primitive ops a run (or a value computed while tracing) may execute, "
                       "every loop iteration counted")
      .byDefault(std::to_string(kDefaultMaxOps));
}

// options followed by the limit options.
std::vector<Option> withLimits(std::vector<Option> options) {
  for (Option& o : limitOptions()) options.push_back(std::move(o));
  return options;
}

Option stepOption() {
  return args::integer("--step", "T", 0, INT64_MAX, "loop iteration to step to after the run");
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// The table: name, summary, positional arguments, options, default command.
std::vector<Command> declare() {
  const OdeDemoOptions ode;
  return {
      {"window",
       "Open the window on FILE (or on the last lesson used).",
       {scriptArg(false)},
       {presetOption("class"), setParam(), variantOption("select variant V once traced"),
        args::flag("--run", "run every variant once traced"), stepOption(),
        args::text("--plot", "NAME",
                   "plots tab to bring to the front after --run (e.g. jacobian; log: the run log)"),
        args::flag("--presentation", "start in projector mode (View > Presentation, F11)"),
        args::text("--screenshot", "PNG", "save the window as PNG once it settles, then quit")},
       true},
      {"run",
       "Trace a script, run its variants and compare their outputs.",
       {scriptArg(true)},
       withLimits({variantOption("run only variant V").byDefault("all"), executorOption(),
                   threadsOption(), ftzOption(), numericsOption(), presetOption("seed"), setParam(),
                   args::flag("--json", "print the report as one JSON document"), maxOpsOption()})},
      {"check",
       "Parse and trace a script: node counts, loops, tapes, params.",
       {scriptArg(true)},
       withLimits({presetOption("seed"), setParam(), maxOpsOption()})},
      {"export",
       "Run a lesson and write its graph, plots and data (no display needed).",
       {scriptArg(true)},
       withLimits(
           {args::text("--out", "DIR", "folder to write the files to").mandatory(),
            args::text("--format", "LIST",
                       "comma-separated: png, svg, pdf, csv, dot, trace (Chrome trace JSON), "
                       "handout (one PDF)")
                .byDefault(kExportFormats),
            presetOption("seed"), setParam(), stepOption(),
            variantOption("export only variant V").byDefault("all"), executorOption(),
            threadsOption(), ftzOption(), numericsOption(), maxOpsOption()})},
      {"ode",
       "The ODE lesson built from the engine's C++ API: gradients and timings.",
       {},
       {args::integer("--steps", "N", 0, INT_MAX, "Euler steps").byDefault(number(ode.steps)),
        args::integer("--batch", "B", 1, INT_MAX, "samples").byDefault(number(ode.batch)),
        args::integer("--dim", "D", 1, INT_MAX, "values per sample").byDefault(number(ode.dim)),
        args::real("--dt", "DT", "Euler step size").byDefault(number(ode.dt)),
        args::choice(
            "--executor",
            {executorName(ExecutorKind::Serial), executorName(ExecutorKind::Parallel), "both"},
            "the executors to time")
            .byDefault(ode.executor),
        threadsOption(),
        args::choice("--variant", {"serial", "parallel", "vectorized", "all"},
                     "the variants to time")
            .byDefault(ode.variant)}},
      {"bench",
       "Time the four lessons' variants on each executor against the yardsticks.",
       {},
       {args::flag("--quick", "small sizes (a few seconds) instead of the lessons' own"),
        args::integer("--runs", "N", 1, 1000, "runs of every case, interleaved").byDefault("3"),
        args::text("--json", "FILE", "also write every number to FILE as JSON"),
        args::text("--only", "CASE", "only the cases whose name contains CASE (e.g. ode/)"),
        presetOption("seed"),
        args::setting("--set", "set a param of the lessons that have it (e.g. steps=2000)"),
        threadsOption()}},
  };
}

bool looksLikeScript(const std::string& word) {
  return word.find_first_of("./") != std::string::npos || (!word.empty() && word[0] == ':');
}

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = declare();
  return table;
}

const Command* findCommand(const std::string& name) {
  for (const Command& c : commands())
    if (c.name == name) return &c;
  return nullptr;
}

Route route(const std::vector<std::string>& words,
            const std::function<bool(const std::string&)>& isScript) {
  Route r;
  const std::string first = words.empty() ? std::string() : words[0];
  if (first == "-h" || first == "--help") {
    r.overview = true;
    return r;
  }
  if (const Command* c = findCommand(first)) {
    r.command = c;
    r.words.assign(words.begin() + 1, words.end());
    return r;
  }
  if (first.empty() || first[0] == '-' || looksLikeScript(first) || isScript(first)) {
    r.command = findCommand("window");
    r.words = words;
    return r;
  }
  r.error = "gradlab: unknown command '" + first + "'\ncommands:";
  for (const Command& c : commands()) r.error += (&c == &commands()[0] ? " " : ", ") + c.name;
  r.error += " (gradlab --help shows them all)";
  return r;
}

std::string overview() {
  std::string out;
  for (const Command& c : commands()) {
    std::string u = args::usage(c);
    if (!out.empty()) u.replace(0, 6, "      ");
    out += u;
  }
  out += "\ncommands:\n";
  for (const Command& c : commands())
    out += "  " + c.name + std::string(c.name.size() < 8 ? 8 - c.name.size() : 1, ' ') + c.summary +
           "\n";
  out +=
      "\n'gradlab COMMAND --help' describes a command's arguments and options.\n"
      "Exit status: 0 ok, 1 script or runtime error, 2 usage error.\n";
  return out;
}

}  // namespace gl::app
