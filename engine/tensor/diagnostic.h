#pragma once
// A diagnostic as data: a typed code and its arguments, beside the English text of an error, a
// why-None explanation or a report entry. The English text stays the engine's own (the command
// line prints it); the window renders the code through its translations and falls back to that
// text for codes it does not know, so a new code never shows an empty message.
//
// Errors and why-None texts travel as the English sentence (EngineError, GradDiagnostic); the
// place that writes a sentence records its structure with diagnosed(), and the window looks it
// up with diagnosticOf(). The sentence names all its arguments, so one sentence has exactly one
// structure and the lookup cannot pick a wrong one. (Keeping the structure out of error.h and
// tape.h spares a rebuild of every file; moving it into those types later changes no caller
// of diagnosticText in the window.)
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gl {

enum class DiagCode : uint16_t {
  None,  // no structured form: show the English text
  // Why a gradient is None (engine/autodiff/tape.cpp). nodes[0] is the source.
  SourceIntegerDtype,     // args: dtype
  SourceInLoopBody,       // nodes: source, loop
  SourceInBranch,         // nodes: source, cond
  TargetNotDependent,     // nodes: source, target
  SourceNeverWatched,     // nodes: source; args: name to watch
  TargetNotOnTape,        // nodes: source, target
  ChainStopGradient,      // nodes: source, breaking node
  ChainRandomDraw,        // nodes: source, breaking node
  ChainIntegerResult,     // nodes: source, breaking node; args: op, dtype
  ChainNoGradient,        // nodes: source, breaking node; args: op
  ChainRecordingStopped,  // nodes: source, breaking node
  ChainAfterTapeClosed,   // nodes: source, breaking node
  ChainBeforeTapeOpened,  // nodes: source, breaking node
  ChainNotRecorded,       // nodes: source, breaking node
  // Script errors (parse, trace, run).
  UnknownName,            // args: name, suggestion ("" or the closest name)
  BroadcastMismatch,      // args: shape a, shape b
  MatmulInnerMismatch,    // args: left operand, right operand
  TooManyPositional,      // args: function, at most, given
  UnexpectedKeyword,      // args: function, keyword
  MissingArgument,        // args: function, argument
  IndexOutOfRange,        // args: index, size
  AxisOutOfRange,         // args: axis, rank
  OverMemoryBudget,       // args: needed, budget
  UnexpectedToken,        // args: token as the lexer describes it
  ExpectedExpression,     // args: token
  NeverClosed,            // args: bracket
  ExpectedIndentedBlock,  // args: after what
  // Report entries (engine/lab/report.h).
  ReportVariant,  // args: variant ("" = main), executor
  ReportCancelled,
  ReportNoneGradient,    // args: name
  ReportElided,          // args: count, output, None count ("0" = none)
  ReportValue,           // args: "grad" or "out", name, type; min, max, mean, l2 (or none)
  ReportResources,       // args: seconds, peak MiB, saved MiB
  ReportTimedAgainWarm,  // args: the first run's seconds, its MiB of memory new to the process
  ReportAgreementHeader,
  ReportAgree,             // args: output, other, reference, max abs diff
  ReportDiffer,            // args: output, other, reference, max abs diff
  ReportDifferentShapes,   // args: output, other, reference
  ReportNoneInOne,         // args: output, other, reference
  ReportTiming,            // args: name, seconds ("" = failed), name, seconds, ...
  ReportVectorized,        // args: what (tf.vectorized_map, ...), line
  ReportFallback,          // args: what, line, op, op's line, reason (English)
  ReportNumerics,          // args: op, NaN count, Inf count, location, loop iteration ("" = none)
  ReportFused,             // args: fused ops, fused groups
  ReportLoopElementMajor,  // args: loop (while_loop or reverse while_loop), line, iterations
  ReportLoopStepByStep,    // args: loop, line, reason (English)
  ReportSideBySide,        // args: independent ops run side by side, phases
  ReportEagerOps,          // args: ops the variant ran eagerly
  ReportFunctionCalls,     // args: tf.function name, calls, traces
  ReportTimeCovers,        // args: executor
};

// A node the text names: its script name (may be empty), op and line (0 = unknown).
struct DiagNode {
  std::string name;
  std::string op;
  int line = 0;
};

struct Diagnostic {
  DiagCode code = DiagCode::None;
  std::vector<DiagNode> nodes;
  std::vector<std::string> args;
  // The untranslated lead of a located error ("file:3:5: matmul: "), shown before the sentence.
  std::string prefix;
  bool known() const { return code != DiagCode::None; }
};

// Records `d` as the structure of `sentence` and returns the sentence, for throw sites:
//   throw EngineError(diagnosed("unknown name 'x'", {DiagCode::UnknownName, {}, {"x", ""}}));
// Thread-safe; keeps the most recent few thousand sentences.
std::string diagnosed(std::string sentence, Diagnostic d);
// The structure recorded for `sentence`; code None when there is none.
Diagnostic diagnosticOf(const std::string& sentence);
// For an error whose what() is `located` ("file:3:5: op: " + message): the message's structure
// with that lead as its prefix.
Diagnostic diagnosticOf(const std::string& located, const std::string& message);

}  // namespace gl
