#pragma once
// Runs a traced program's variants and compares them: the one code path behind `gradlab run`,
// `gradlab export` and the window's Run button. No Qt here.
#include <string>
#include <vector>

#include "engine/exec/run.h"
#include "engine/lang/program.h"

namespace gl::lab {

// What to run: a variant (empty: all), and how, as the engine takes it: the executor, its
// threads, timeline and records, FTZ, limits, numerics check, monitor. Each variant runs with
// these options and its own eager nodes (RunOptions::alsoRun, set per variant).
struct RunRequest {
  std::string variant;
  RunOptions options;
};

struct EntryResult {
  Datum value;          // undefined when None
  TensorRecord record;  // summary of value
  std::string whyNone;  // the tape's explanation when None
  int whyNode = -1;
  SourceLoc whyLoc;
  bool none() const { return !value.defined(); }
};

struct OutputResult {
  std::string name;
  SourceLoc loc;
  bool isGradient = false;
  bool isList = false;
  std::vector<EntryResult> entries;
};

struct VariantRun {
  std::string name;
  std::vector<OutputResult> outputs;
  RunResult run;  // records, timeline, log, seconds, memory
  // The variant's tf.vectorized_maps and what of them runs in a loop instead of batched.
  std::vector<VectorizedMapRecord> vectorized;
  std::string error;  // "file:line:col: ..." when the run failed
  SourceLoc errorLoc;
  bool cancelled = false;
  // The executor it ran on (RunRequest::options.executor): what its report, timing bars and
  // exports name.
  ExecutorKind executor = ExecutorKind::Serial;
  // Tensor memory the run held beyond anything the process held before: its first touch is in
  // `run.seconds` (page faults, ~5 ms per MiB on these VMs).
  size_t freshBytes = 0;
  // When the run was repeated because of that (worthTimingAgainWarm): the first run's seconds
  // and fresh bytes; `run` is the second, warm run.
  double coldSeconds = 0;
  size_t coldFreshBytes = 0;
  bool ok() const { return error.empty() && !cancelled; }
};

// Whether a variant's time is mostly the first touch of new memory, so that the window shows a
// second, warm run instead: a run that needed kWarmAgainBytes or more of memory new to the
// process, and took no more than kWarmAgainSeconds (a second run costs at most that). Seed-c's
// variants at seed size took 0.18 s each in a fresh window, against 0.03-0.08 s warm.
inline constexpr size_t kWarmAgainBytes = size_t(16) << 20;
inline constexpr double kWarmAgainSeconds = 2.0;
bool worthTimingAgainWarm(const VariantRun& v);

// One output compared between the first variant that has it and another one.
struct Agreement {
  std::string output;
  std::string reference, other;
  bool shapesMatch = true;
  bool noneMatch = true;  // both None or both present, entry by entry
  double maxAbsDiff = 0;
  double tolerance = 0;
  bool agree() const { return shapesMatch && noneMatch && maxAbsDiff <= tolerance; }
};

struct ProgramRun {
  std::vector<VariantRun> variants;
  std::vector<Agreement> agreement;
  bool ok() const;
};

// Runs the selected variants one after another (each variant's fetches in one executor run).
// A variant's runtime error is recorded in it; the others still run. Throws EngineError when
// request.variant names no variant.
ProgramRun runProgram(const lang::TracedProgram& program, const RunRequest& request);

// Outputs compared by name across variants; tolerance scales with the values (float32).
std::vector<Agreement> compareVariants(const std::vector<VariantRun>& runs);

// Human-readable report: outputs with shape and summary stats, gradients or None with the
// reason, agreement, time per variant.
std::string reportText(const lang::TracedProgram& program, const ProgramRun& run,
                       const RunRequest& request);
// The same as one JSON document.
std::string reportJson(const lang::TracedProgram& program, const ProgramRun& run,
                       const RunRequest& request);

// `gradlab check`: node counts by kind, loops, tapes, params, variants.
std::string checkSummary(const lang::TracedProgram& program, const std::string& fileName);

}  // namespace gl::lab
