#pragma once
// `gradlab bench` without running anything: which lessons it times (and their --quick sizes),
// medians and ratios of the recorded times, the table it prints and the JSON it writes, and
// the parsing of the yardsticks' output lines. Plain C++, so tests check it on made-up numbers.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace gl::app::bench {

// One built-in lesson as bench times it.
struct Lesson {
  std::string name;                     // short case prefix: "ode"
  std::string script;                   // built-in lesson name: "ode_while_loop"
  std::map<std::string, double> quick;  // --set overrides for --quick
  std::string torchCase;                // torch_seeds.py's "case" for this lesson
  // The lesson param that must equal a torch line's size field for the two to be compared:
  // {torch field, lesson param} (e.g. {"steps", "steps"}); empty: always comparable.
  std::map<std::string, std::string> torchSize;
  std::map<std::string, std::string> torchMode;  // variant -> torch "mode" it is compared with
  bool odeLimit = false;                         // compared with the hand-written ODE limit
  bool perOp = false;  // the table shows microseconds per executed primitive op
  // The case times tracing (where eager ops run), not running the traced program; its ops are
  // the primitive nodes the trace built.
  bool timesTrace = false;
};

// The lessons, in the order bench runs them, then the per-op overhead case.
const std::vector<Lesson>& lessons();
const Lesson* findLesson(const std::string& name);

struct Stats {
  double median = 0, min = 0, max = 0;
};
// Median (mean of the middle two for an even count), min and max; zeros when empty.
Stats stats(std::vector<double> seconds);

// One timed thing: an engine case "ode/vectorized/parallel" or a yardstick "ode/limit_fused_ftz",
// "torch/ode/vectorized".
struct Case {
  std::string name;
  std::string lesson;    // Lesson::name
  std::string variant;   // engine cases only
  std::string executor;  // an executorName, or "eager" (a trace); empty for yardsticks
  bool yardstick = false;
  std::vector<double> seconds;  // one per run
  double traceSeconds = 0;      // the lesson's tracing, once (engine cases)
  size_t peakBytes = 0;         // highest over the runs (engine cases)
  std::string error;            // the last run's error, if any
  bool noneGradients = false;   // a gradient output came out None: not a fastest variant
  int64_t primitiveOps = 0;     // primitive ops one run executed (engine cases)
  Stats summary() const { return stats(seconds); }
};

// A case's median over another's.
struct Ratio {
  std::string of, over;
  double value = 0;
};

struct Report {
  bool quick = false;
  int runs = 0;
  int threads = 0;
  std::vector<Case> cases;  // engine cases first, then yardsticks, in run order
  std::vector<std::string> notes;
};

// The comparisons the table shows: each engine case over its lesson's fastest variant on the
// same executor (when it is not that one; variants with None gradients do not count), over the ODE
// limits (step-major and fused, the flush-to-zero build when present) and over its PyTorch peer.
// Cases without times are left out.
std::vector<Ratio> ratios(const Report& report);

// Engine case names "<lesson>/<variant>/<executor>".
std::string caseName(const std::string& lesson, const std::string& variant,
                     const std::string& executor);
// Whether `only` (a substring; empty matches all) selects `name`.
bool selects(const std::string& only, const std::string& name);

// The table of medians: one row per case with median, min, max, peak memory and its ratios.
std::string formatTable(const Report& report);
// Every number as one JSON document.
std::string toJson(const Report& report);

// "12.3 MiB", "512 B"; "-" for 0.
std::string formatBytes(size_t bytes);

// The hand-written limit's line: {"steps":..,"step_major_s":..,"fused_s":..}. False when the
// line is not one.
struct LimitLine {
  int steps = 0;
  double stepMajor = 0, fused = 0;
};
bool parseLimitLine(const std::string& line, LimitLine& out);

// One torch_seeds.py line: {"case":..,"mode":..,"seconds":..,<size fields>}. False when the
// line is not one or its seconds are negative (a failed mode).
struct TorchLine {
  std::string caseName, mode;
  double seconds = 0;
  std::map<std::string, double> numbers;  // every numeric field (steps, hw, n_layers, ...)
};
bool parseTorchLine(const std::string& line, TorchLine& out);

}  // namespace gl::app::bench
