#pragma once
// The report of a program run as entries with a kind and a severity: `gradlab run` prints them
// as text, --json includes them, and the window's run log colours them by severity (never by
// searching the text).
#include <string>
#include <vector>

#include "engine/lab/session.h"
#include "engine/tensor/diagnostic.h"

namespace gl::lab {

enum class ReportKind : uint8_t {
  TracePrint,       // print() while tracing
  Variant,          // a variant's heading
  RunPrint,         // tf.print while running (the window streams these as they happen)
  RunError,         // the variant failed
  RunCancelled,     // the user stopped the run during this variant (not a failure)
  Output,           // an output's value summary
  Gradient,         // a gradient's value summary
  NoneGradient,     // a gradient that is None
  WhyNone,          // why it is None; loc: where the chain breaks
  Elided,           // "... n more entries"
  Resources,        // time and memory of a variant
  AgreementHeader,  // "agreement:"
  Agreement,        // one output compared between two variants
  Timing,           // time per variant
  Vectorized,       // a tf.vectorized_map that became one batched graph
  Fallback,         // a part of a vectorized_map that runs in a loop; loc: that part
  Numerics,         // the first NaN/Inf of a variant; loc: the node's script line
  Fusion,           // the fusing executor: fused groups, a loop run element-major or why not
  Execution,        // which parts of a variant ran eagerly and which as tf.function graphs
};

enum class Severity : uint8_t { Info, Print, Warning, Error };

struct ReportEntry {
  ReportKind kind;
  Severity severity;
  int indent = 0;  // spaces before the text when printed
  std::string text;
  SourceLoc loc;  // known for run errors and None explanations
  // text as a code and arguments; for WhyNone and RunError the explanation's or error's own.
  Diagnostic diag;
};

std::vector<ReportEntry> buildReport(const lang::TracedProgram& program, const ProgramRun& run,
                                     const RunRequest& request);

std::string_view reportKindName(ReportKind k);
std::string_view severityName(Severity s);

}  // namespace gl::lab
