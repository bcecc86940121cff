// What both fuzz targets do with a script: trace it, then run a small program on the serial
// executor under a tight memory budget and a step limit (the monitor cancels after kMaxPolls
// polls or kMaxSeconds). Tracing must give a program or an EngineError, and so must the run.
// Params are set to the low end of their range (the lessons' own sizes take minutes under ASan).
// Anything else (a crash, a sanitizer report, a leak, another exception, a hang) is a finding.
// One header so the targets cannot drift apart in what they call a finding.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/lab/session.h"
#include "engine/lang/program.h"
#include "engine/tensor/error.h"

namespace gl::fuzz {

constexpr size_t kMemoryBudget = size_t(64) << 20;  // 64 MiB of tensors
constexpr size_t kMaxNodes = 4000;                  // larger graphs are traced, not run
constexpr int64_t kMaxPolls = 2000;                 // cancellation polls: the step limit
constexpr double kMaxSeconds = 2;
constexpr int64_t kMaxTraceOps = 200000;  // primitive ops evaluated while tracing

// Cancels the run after kMaxPolls cancellation checks (nodes and loop iterations) or
// kMaxSeconds: a loop of 10^9 steps ends quickly.
class StepLimit : public gl::RunMonitor {
 public:
  bool cancelled() const override {
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
    return ++polls_ > kMaxPolls || spent.count() > kMaxSeconds;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  mutable int64_t polls_ = 0;
};

// How far a script got; fuzz_front's counting mode reports these (a fuzz run ignores them).
enum class Outcome { TraceError, TooLarge, RunError, Ran };

struct Result {
  Outcome outcome = Outcome::TraceError;
  std::string error;  // the EngineError's message, for TraceError and RunError
};

inline Result traceAndRun(const std::string& source) {
  Result result;
  gl::lang::TraceOptions trace;
  trace.maxUnroll = 2000;
  trace.maxNodes = 20000;
  trace.memoryBudget = kMemoryBudget;
  // Values computed while tracing obey the same step limit as the run (issue #31: an endless
  // loop evaluated while tracing must end by the harness's limits, not libFuzzer's timeout).
  trace.maxOps = kMaxTraceOps;
  StepLimit traceLimit;
  trace.cancelled = [&traceLimit] { return traceLimit.cancelled(); };
  gl::lang::TracedProgram program;
  try {
    program = gl::lang::traceProgram(source, "fuzz.gls", trace);
    bool atLow = true;
    for (const gl::lang::Param& p : program.params) {
      trace.overrides[p.name] = p.lo;
      atLow = atLow && p.value == p.lo;
    }
    if (!atLow) program = gl::lang::traceProgram(source, "fuzz.gls", trace);
  } catch (const gl::EngineError& e) {
    result.error = e.what();
    return result;
  }
  if (program.graph->nodes().size() > kMaxNodes) {
    result.outcome = Outcome::TooLarge;
    return result;
  }
  StepLimit limit;
  gl::lab::RunRequest run;
  run.options.memoryBudget = kMemoryBudget;
  run.options.monitor = &limit;
  run.options.timeline = false;
  try {
    gl::lab::runProgram(program, run);
    result.outcome = Outcome::Ran;
  } catch (const gl::EngineError& e) {
    result.outcome = Outcome::RunError;
    result.error = e.what();
  }
  return result;
}

}  // namespace gl::fuzz
