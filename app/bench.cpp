#include "bench.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "allocator.h"
#include "bench_table.h"
#include "cli.h"
#include "engine/lab/session.h"
#include "scripts.h"

namespace gl::app {

namespace {

using bench::Case;
using bench::Lesson;
using bench::Report;

constexpr const char* kTorchMissing =
    "PyTorch peer skipped: python3-torch is not installed (apt-get install python3-torch)";

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Where gradlab's own executable is: the limits and torch_seeds.py are built beside it.
std::filesystem::path binaryDir() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : self.parent_path();
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; its stdout lines, or false when it could not start or failed.
bool capture(const std::string& command, std::vector<std::string>& lines) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return false;
  std::array<char, 4096> buffer;
  std::string line;
  while (std::fgets(buffer.data(), int(buffer.size()), pipe)) {
    line += buffer.data();
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      lines.push_back(line);
      line.clear();
    }
  }
  if (!line.empty()) lines.push_back(line);
  return pclose(pipe) == 0;
}

double param(const lang::TracedProgram& program, const std::string& name, double fallback) {
  for (const lang::Param& p : program.params)
    if (p.name == name) return p.value;
  return fallback;
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f s", s);
  return text;
}

// One lesson traced once, and the indices of its selected cases in the report.
struct Traced {
  const Lesson* lesson = nullptr;
  lang::TracedProgram program;
  std::vector<size_t> cases;
};

class Bench {
 public:
  explicit Bench(const args::Parsed& a)
      : quick_(a.flag("--quick")),
        preset_(presetOf(a, lang::ParamPreset::Seed)),
        runs_(int(a.integer("--runs", 3))),
        only_(a.text("--only")),
        overrides_(settingsOf(a)),
        threads_(int(a.integer("--threads", 0))),
        peerThreads_(threads_ > 0 ? threads_
                                  : int(std::max(1u, std::thread::hardware_concurrency()))) {
    report_.quick = quick_;
    report_.runs = runs_;
    report_.threads = peerThreads_;
    dir_ = binaryDir();
  }

  // Traces the lessons and lays out the cases; false (with the message) when --only selects
  // nothing.
  bool prepare(std::string& error) {
    std::vector<std::string> names;
    for (const Lesson& lesson : bench::lessons()) {
      Traced t;
      t.lesson = &lesson;
      lang::TraceOptions options;
      options.preset = preset_;
      if (quick_)
        for (const auto& [name, value] : lesson.quick) options.overrides[name] = value;
      double start = now();
      std::string traceError;
      try {
        t.program =
            lang::traceProgram(readScript(lesson.script), locateScript(lesson.script), options);
        // --set applies to the lessons that have the param: traced again with it.
        if (setOwnParams(t.program, options)) {
          start = now();
          t.program =
              lang::traceProgram(readScript(lesson.script), locateScript(lesson.script), options);
        }
      } catch (const EngineError& e) {
        traceError = e.what();
      }
      const double traced = now() - start;
      std::vector<std::string> variants;
      for (const lang::Variant& v : t.program.variants) variants.push_back(v.name);
      if (!traceError.empty()) variants = {"trace"};
      std::vector<const char*> executors;
      for (ExecutorKind k : kExecutorKinds) executors.push_back(executorName(k));
      if (lesson.timesTrace) executors = {"eager"};  // the trace is what runs the ops
      for (const std::string& variant : variants)
        for (const char* executor : executors) {
          Case c;
          c.name = bench::caseName(lesson.name, variant, executor);
          c.lesson = lesson.name;
          c.variant = variant;
          c.executor = executor;
          c.traceSeconds = traced;
          c.error = traceError;
          names.push_back(c.name);
          if (!bench::selects(only_, c.name)) continue;
          t.cases.push_back(report_.cases.size());
          report_.cases.push_back(c);
        }
      if (lesson.odeLimit)
        for (const char* limit : {"limit_step_major", "limit_fused"})
          for (const char* build : {"", "_ftz"}) names.push_back(lesson.name + "/" + limit + build);
      for (const auto& [variant, mode] : lesson.torchMode)
        names.push_back("torch/" + lesson.torchCase + "/" + mode);
      traced_.push_back(std::move(t));
    }
    for (const auto& [name, value] : overrides_)
      if (!setNames_.count(name)) {
        error = "gradlab bench: --set " + name + ": no lesson has a param named '" + name + "'";
        return false;
      }
    for (const auto& [name, value] : overrides_)
      report_.notes.push_back("param set: " + name + " = " + formatNumber(value) +
                              " (in the lessons that have it)");
    bool any = false;
    for (const std::string& name : names) any = any || bench::selects(only_, name);
    if (!any) {
      error = "gradlab bench: --only '" + only_ + "' matches no case\ncases:";
      std::vector<std::string> listed;
      for (const std::string& name : names)
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) {
          listed.push_back(name);
          error += " " + name;
        }
      return false;
    }
    return true;
  }

  void run() {
    const bool torch = findTorchPython();
    if (!torch) report_.notes.push_back(kTorchMissing);
    report_.notes.push_back(
        "allocator: " + allocatorDescription() +
        (torch && !allocatorForChildren().empty() ? " (the PyTorch peer's too)" : ""));
    for (int round = 0; round < runs_; ++round) {
      for (Traced& t : traced_) {
        for (size_t index : t.cases) runCase(t, report_.cases[index], round);
        if (t.lesson->odeLimit && wanted(t)) runLimits(t, round);
      }
      if (torch && wantsTorch()) runTorch(round);
    }
  }

  int finish(const std::string& jsonFile) {
    std::cout << bench::formatTable(report_);
    std::cout.flush();
    int status = 0;
    for (const Case& c : report_.cases)
      if (!c.error.empty()) status = 1;
    if (!jsonFile.empty()) {
      std::ofstream out(jsonFile);
      out << bench::toJson(report_);
      if (!out) {
        std::fprintf(stderr, "gradlab bench: cannot write '%s'\n", jsonFile.c_str());
        status = 1;
      }
    }
    return status;
  }

 private:
  void progress(int round, const std::string& name, const std::string& what) {
    std::fprintf(stderr, "[%d/%d] %s: %s\n", round + 1, runs_, name.c_str(), what.c_str());
  }

  void note(const std::string& text) {
    for (const std::string& n : report_.notes)
      if (n == text) return;
    report_.notes.push_back(text);
  }

  // A lesson's yardsticks run when one of its cases or a yardstick's own name is selected.
  bool wanted(const Traced& t) const {
    return !t.cases.empty() || bench::selects(only_, t.lesson->name + "/limit_");
  }
  bool wantsTorch() const {
    if (only_.empty() || bench::selects(only_, "torch/")) return true;
    for (const Traced& t : traced_)
      if (!t.cases.empty() && !t.lesson->torchMode.empty()) return true;
    return false;
  }

  void runCase(const Traced& t, Case& c, int round) {
    if (c.variant == "trace") {
      if (round == 0) progress(round, c.name, "failed: " + c.error);
      return;
    }
    if (t.lesson->timesTrace) return timeTrace(t, c, round);
    lab::RunRequest request;
    request.variant = c.variant;
    request.options.executor = executorFromName(c.executor).value_or(ExecutorKind::Serial);
    request.options.threads = threads_;
    request.options.timeline = false;
    request.options.records = false;
    request.options.valueRecords =
        false;  // the inspector's summaries: a pass over every top-level value
    request.options.checkNumerics = false;  // a pass over every output: not what the bench times
    try {
      // The run's own peak: the other lessons' graphs hold constants in this process too.
      const size_t before = memoryStats().live;
      const lab::ProgramRun run = lab::runProgram(t.program, request);
      const lab::VariantRun& v = run.variants.at(0);
      if (!v.ok()) {
        c.error = v.error;
      } else {
        c.seconds.push_back(v.run.seconds);
        c.peakBytes = std::max(c.peakBytes, v.run.peakBytes - std::min(before, v.run.peakBytes));
        c.primitiveOps = v.run.primitiveOps;
        for (const lab::OutputResult& o : v.outputs)
          for (const lab::EntryResult& e : o.entries)
            if (o.isGradient && e.none()) c.noneGradients = true;
      }
    } catch (const EngineError& e) {
      c.error = e.what();
    }
    progress(round, c.name,
             c.error.empty()
                 ? seconds(c.seconds.back()) + ", peak " + bench::formatBytes(c.peakBytes)
                 : "failed: " + c.error);
  }

  // Eager ops run while the script is traced: each round traces it again.
  void timeTrace(const Traced& t, Case& c, int round) {
    lang::TraceOptions options;
    options.preset = preset_;
    if (quick_)
      for (const auto& [name, value] : t.lesson->quick) options.overrides[name] = value;
    for (const auto& [name, value] : overrides_)
      for (const lang::Param& param : t.program.params)
        if (param.name == name) options.overrides[name] = value;
    try {
      const double start = now();
      const lang::TracedProgram p =
          lang::traceProgram(readScript(t.lesson->script), locateScript(t.lesson->script), options);
      c.seconds.push_back(now() - start);
      c.primitiveOps = 0;
      for (const Node& n : p.graph->nodes()) c.primitiveOps += n.is(NodeKind::Primitive);
    } catch (const EngineError& e) {
      c.error = e.what();
    }
    progress(round, c.name, c.error.empty() ? seconds(c.seconds.back()) : "failed: " + c.error);
  }

  Case& yardstick(const std::string& name, const std::string& lesson) {
    for (Case& c : report_.cases)
      if (c.name == name) return c;
    Case c;
    c.name = name;
    c.lesson = lesson;
    c.yardstick = true;
    report_.cases.push_back(c);
    return report_.cases.back();
  }

  void runLimits(const Traced& t, int round) {
    const std::string name = t.lesson->name;
    const int steps = int(param(t.program, "steps", 20000));
    const int batch = int(param(t.program, "batch", 10));
    const int dim = int(param(t.program, "dim", 5000));
    for (const char* build : {"", "_ftz"}) {
      const std::filesystem::path binary = dir_ / (std::string("gradlab_ode_limit") + build);
      if (!std::filesystem::exists(binary)) {
        note("ODE limit skipped: " + binary.string() + " is not built (ninja " +
             binary.filename().string() + ")");
        continue;
      }
      const std::string command = "OMP_NUM_THREADS=" + std::to_string(peerThreads_) + " " +
                                  quoted(binary.string()) + " " + std::to_string(steps) + " " +
                                  std::to_string(batch) + " " + std::to_string(dim);
      std::vector<std::string> lines;
      bench::LimitLine limit;
      const bool ran = capture(command, lines);
      if (!ran || lines.empty() || !bench::parseLimitLine(lines.back(), limit)) {
        note("ODE limit" + std::string(build) + " failed: " + command);
        continue;
      }
      const std::string stepMajor = name + "/limit_step_major" + build;
      const std::string fused = name + "/limit_fused" + build;
      yardstick(stepMajor, name).seconds.push_back(limit.stepMajor);
      yardstick(fused, name).seconds.push_back(limit.fused);
      progress(round, stepMajor, seconds(limit.stepMajor));
      progress(round, fused, seconds(limit.fused));
    }
  }

  // Debian's python3-torch lives in /usr/bin/python3's dist-packages; a python3 earlier on PATH
  // (pyenv, a venv) does not see it, so try that one second.
  bool findTorchPython() {
    for (const char* python : {"python3", "/usr/bin/python3"}) {
      std::vector<std::string> lines;
      if (capture(std::string(python) + " -c 'import torch' 2>/dev/null", lines)) {
        python_ = python;
        return true;
      }
    }
    return false;
  }

  // torch_seeds.py runs all four lessons in one process; a line counts when its sizes are the
  // lesson's (with --quick both shrink, but not always to the same sizes).
  void runTorch(int round) {
    const std::filesystem::path script = dir_ / "torch_seeds.py";
    // Only the lessons this bench times (PyTorch's vectorized ODE alone takes a minute).
    std::set<std::string> wantedCases;
    for (const Traced& t : traced_)
      if (!t.lesson->torchCase.empty() &&
          (!t.cases.empty() || bench::selects(only_, "torch/" + t.lesson->torchCase + "/")))
        wantedCases.insert(t.lesson->torchCase);
    if (wantedCases.empty()) return;
    std::string cases;
    for (const std::string& c : wantedCases) cases += (cases.empty() ? "" : ",") + c;
    // The peer runs on gradlab's allocator, with the same settings (app/allocator.cpp): under
    // jemalloc PyTorch's per-step gradients took 3.6-3.7 s against 4.4-4.6 s under glibc.
    // Where there is none to give (sanitizer builds), glibc keeps freed memory: it returns
    // blocks over 128 KiB to the kernel, and PyTorch's CPU allocator frees every tensor, so
    // each op page-faults its output in again. On these VMs a fault costs ~6 us: PyTorch's
    // three heads took 2.62 s (1.14 million faults) and its Python-list layers 4.5 s, against
    // 0.136 s and 0.45 s with freed memory kept, as gradlab's buffer pool keeps it.
    std::string keepFreed = allocatorForChildren();
    if (keepFreed.empty())
      keepFreed =
          "MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=268435456 ";
    const std::string command = keepFreed + python_ + " " + quoted(script.string()) +
                                " --threads " + std::to_string(peerThreads_) +
                                (quick_ ? " --quick" : "") + " --cases " + cases + " 2>&1";
    std::vector<std::string> lines;
    if (!capture(command, lines)) note("PyTorch peer failed: " + command);
    for (const std::string& line : lines) {
      bench::TorchLine torch;
      if (!bench::parseTorchLine(line, torch)) continue;
      for (const Traced& t : traced_) {
        if (t.lesson->torchCase != torch.caseName) continue;
        std::string mismatch;
        for (const auto& [field, name] : t.lesson->torchSize) {
          auto it = torch.numbers.find(field);
          const double ours = it == torch.numbers.end() ? 0 : param(t.program, name, it->second);
          if (it != torch.numbers.end() && it->second != ours)
            mismatch += " " + field + "=" + std::to_string(int64_t(it->second)) + " (lesson " +
                        name + "=" + std::to_string(int64_t(ours)) + ")";
        }
        const std::string name = "torch/" + torch.caseName + "/" + torch.mode;
        // The script runs every lesson; keep the rows --only asked for or a chosen case needs.
        if (t.cases.empty() && !bench::selects(only_, name)) continue;
        if (!mismatch.empty()) {
          note(name + " not compared: PyTorch ran" + mismatch);
          continue;
        }
        yardstick(name, t.lesson->name).seconds.push_back(torch.seconds);
        progress(round, name, seconds(torch.seconds));
      }
    }
  }

  static std::string formatNumber(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }

  static std::map<std::string, double> settingsOf(const args::Parsed& a) {
    std::map<std::string, double> out;
    for (const args::Setting& s : a.settings("--set")) out[s.name] = s.value;
    return out;
  }

  // Adds to `options` the --set values of the params p has; true if there were any.
  bool setOwnParams(const lang::TracedProgram& p, lang::TraceOptions& options) {
    bool any = false;
    for (const auto& [name, value] : overrides_)
      for (const lang::Param& param : p.params)
        if (param.name == name) {
          options.overrides[name] = value;
          setNames_.insert(name);
          any = true;
        }
    return any;
  }

  bool quick_;
  lang::ParamPreset preset_;
  int runs_;
  std::string only_;
  std::map<std::string, double> overrides_;  // --set, for the lessons that have the param
  std::set<std::string> setNames_;           // those some lesson had
  int threads_;      // the parallel executor's: 0 leaves them to it (exec/core_share.h)
  int peerThreads_;  // the yardsticks': one per core unless --threads says otherwise
  std::filesystem::path dir_;
  Report report_;
  std::vector<Traced> traced_;
  std::string python_ = "python3";
};

}  // namespace

int benchCommand(const args::Parsed& args) {
  Bench bench(args);
  std::string error;
  if (!bench.prepare(error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  bench.run();
  return bench.finish(args.text("--json"));
}

}  // namespace gl::app
