#include "ui/i18n/diagnostic_text.h"

#include <QCoreApplication>

namespace gl::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString arg(const Diagnostic& d, size_t i) { return i < d.args.size() ? q(d.args[i]) : QString(); }

// "'w' (matmul) at line 3", as the engine's describe() says it.
QString nodeText(const Diagnostic& d, size_t i) {
  if (i >= d.nodes.size()) return QString();
  const DiagNode& n = d.nodes[i];
  QString s = n.name.empty() ? QStringLiteral("'%1'").arg(q(n.op))
                             : QStringLiteral("'%1' (%2)").arg(q(n.name), q(n.op));
  if (n.line > 0)
    s = QCoreApplication::translate("gl::ui::Diagnostic", "%1 at line %2").arg(s).arg(n.line);
  return s;
}

// A token as the parser's diagnostic names it (class, text).
QString tokenText(const Diagnostic& d) {
  const std::string cls = d.args.empty() ? std::string() : d.args[0];
  const QString text = arg(d, 1);
  if (cls == "name")
    return QCoreApplication::translate("gl::ui::Diagnostic", "name '%1'").arg(text);
  if (cls == "number")
    return QCoreApplication::translate("gl::ui::Diagnostic", "number '%1'").arg(text);
  if (cls == "string") return QCoreApplication::translate("gl::ui::Diagnostic", "string");
  if (cls == "newline") return QCoreApplication::translate("gl::ui::Diagnostic", "end of line");
  if (cls == "indent") return QCoreApplication::translate("gl::ui::Diagnostic", "indent");
  if (cls == "dedent") return QCoreApplication::translate("gl::ui::Diagnostic", "unindent");
  if (cls == "end") return QCoreApplication::translate("gl::ui::Diagnostic", "end of file");
  return QStringLiteral("'%1'").arg(text);
}

QString chainBreak(const Diagnostic& d) {
  const QString src = nodeText(d, 0), at = nodeText(d, 1);
  const QString op = d.nodes.size() > 1 ? q(d.nodes[1].op) : QString();
  switch (d.code) {
    case DiagCode::ChainStopGradient:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: it passes through "
                 "tf.stop_gradient, which blocks the gradient on purpose")
          .arg(src, at);
    case DiagCode::ChainRandomDraw:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: it passes through %3, a "
                 "random draw, which has no gradient")
          .arg(src, at, op);
    case DiagCode::ChainIntegerResult:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: it passes through %3, whose "
                 "%4 result has no gradient (integer and bool tensors carry none)")
          .arg(src, at, arg(d, 0), arg(d, 1));
    case DiagCode::ChainNoGradient:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: it passes through %3, which "
                 "has no gradient")
          .arg(src, at, arg(d, 0));
    case DiagCode::ChainRecordingStopped:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2, which was computed inside "
                 "tape.stop_recording()")
          .arg(src, at);
    case DiagCode::ChainAfterTapeClosed:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: it was computed after the "
                 "tape stopped recording (outside the `with tf.GradientTape()` block), so "
                 "the tape never saw it. Compute it inside the block")
          .arg(src, at);
    case DiagCode::ChainBeforeTapeOpened:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: it was computed before the "
                 "tape started recording")
          .arg(src, at);
    case DiagCode::ChainNotRecorded:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the chain from %1 to the target breaks at %2: this tape did not record it")
          .arg(src, at);
    default:
      return QString();
  }
}

QString whyNone(const Diagnostic& d) {
  switch (d.code) {
    case DiagCode::SourceIntegerDtype:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the source %1 is %2: integer and bool tensors carry no gradient")
          .arg(nodeText(d, 0), arg(d, 0));
    case DiagCode::SourceInLoopBody:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the source %1 was created inside the body of %2: the body runs once per "
                 "iteration and makes a new leaf each time, so the value the loop used is "
                 "not the one you asked about. Create it once, outside the loop (for "
                 "per-step weights: a list of variables, or one [T] variable indexed by "
                 "the step)")
          .arg(nodeText(d, 0), nodeText(d, 1));
    case DiagCode::SourceInBranch:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the source %1 only exists inside a branch of %2; differentiate with "
                 "respect to a value created outside the cond")
          .arg(nodeText(d, 0), nodeText(d, 1));
    case DiagCode::TargetNotDependent:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the target %2 does not depend on %1 at all: no chain of operations leads "
                 "from it to the target")
          .arg(nodeText(d, 0), nodeText(d, 1));
    case DiagCode::SourceNeverWatched:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "the source %1 was never watched: a plain tensor (unlike a tf.Variable) is "
                 "recorded only after tape.watch(%2) inside the tape")
          .arg(nodeText(d, 0), arg(d, 0));
    case DiagCode::TargetNotOnTape:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "the target %2 is not connected to %1 on this tape")
          .arg(nodeText(d, 0), nodeText(d, 1));
    default:
      return chainBreak(d);
  }
}

QString scriptError(const Diagnostic& d) {
  switch (d.code) {
    case DiagCode::UnknownName:
      return arg(d, 1).isEmpty()
                 ? QCoreApplication::translate("gl::ui::Diagnostic", "unknown name '%1'")
                       .arg(arg(d, 0))
                 : QCoreApplication::translate("gl::ui::Diagnostic",
                                               "unknown name '%1' (did you mean '%2'?)")
                       .arg(arg(d, 0), arg(d, 1));
    case DiagCode::BroadcastMismatch:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "shapes %1 and %2 cannot be broadcast together")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::MatmulInnerMismatch:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "matmul inner dimensions do not match: %1 @ %2")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::TooManyPositional:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "%1 takes at most %2 positional arguments (%3 given)")
          .arg(arg(d, 0), arg(d, 1), arg(d, 2));
    case DiagCode::UnexpectedKeyword:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "%1 got an unexpected keyword argument '%2'")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::MissingArgument:
      return QCoreApplication::translate("gl::ui::Diagnostic", "%1 missing required argument '%2'")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::IndexOutOfRange:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "index %1 is out of range for size %2")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::AxisOutOfRange:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "axis %1 is out of range for rank %2")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::OverMemoryBudget:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "this needs %1, over the memory budget of %2 (set a larger one with "
                 "--memory-budget or in Settings)")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::UnexpectedToken:
      return QCoreApplication::translate("gl::ui::Diagnostic", "unexpected %1").arg(tokenText(d));
    case DiagCode::ExpectedExpression:
      return QCoreApplication::translate("gl::ui::Diagnostic", "expected an expression, found %1")
          .arg(tokenText(d));
    case DiagCode::NeverClosed:
      return QCoreApplication::translate("gl::ui::Diagnostic", "'%1' was never closed")
          .arg(arg(d, 0));
    case DiagCode::ExpectedIndentedBlock:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "expected an indented block after %1")
          .arg(arg(d, 0));
    default:
      return QString();
  }
}

QString agreement(const Diagnostic& d) {
  const QString head = QCoreApplication::translate("gl::ui::Diagnostic", "%1: '%2' vs '%3': ")
                           .arg(arg(d, 0), arg(d, 1), arg(d, 2));
  switch (d.code) {
    case DiagCode::ReportAgree:
      return head + QCoreApplication::translate("gl::ui::Diagnostic", "agree (max abs diff %1)")
                        .arg(arg(d, 3));
    case DiagCode::ReportDiffer:
      return head + QCoreApplication::translate("gl::ui::Diagnostic", "DIFFER (max abs diff %1)")
                        .arg(arg(d, 3));
    case DiagCode::ReportDifferentShapes:
      return head + QCoreApplication::translate("gl::ui::Diagnostic", "DIFFERENT SHAPES");
    case DiagCode::ReportNoneInOne:
      return head +
             QCoreApplication::translate("gl::ui::Diagnostic", "DIFFER (None in one variant only)");
    default:
      return QString();
  }
}

QString report(const Diagnostic& d) {
  switch (d.code) {
    case DiagCode::ReportVariant: {
      const QString name = d.args.empty() || d.args[0].empty()
                               ? QCoreApplication::translate("gl::ui::Diagnostic", "(main)")
                               : QStringLiteral("'%1'").arg(arg(d, 0));
      return QCoreApplication::translate("gl::ui::Diagnostic", "variant %1  [%2 executor]")
          .arg(name, executorDisplayName(d.args.size() > 1 ? d.args[1] : std::string()));
    }
    case DiagCode::ReportCancelled:
      return QCoreApplication::translate("gl::ui::Diagnostic", "cancelled");
    case DiagCode::ReportNoneGradient:
      return QCoreApplication::translate("gl::ui::Diagnostic", "grad %1: None").arg(arg(d, 0));
    case DiagCode::ReportElided:
      return arg(d, 2) == QLatin1String("0")
                 ? QCoreApplication::translate("gl::ui::Diagnostic", "... %1 more entries of %2")
                       .arg(arg(d, 0), arg(d, 1))
                 : QCoreApplication::translate("gl::ui::Diagnostic",
                                               "... %1 more entries of %2 (%3 None)")
                       .arg(arg(d, 0), arg(d, 1), arg(d, 2));
    case DiagCode::ReportValue: {
      const bool grad = arg(d, 0) == QLatin1String("grad");
      QString s = (grad ? QCoreApplication::translate("gl::ui::Diagnostic", "grad %1: %2")
                        : QCoreApplication::translate("gl::ui::Diagnostic", "out  %1: %2"))
                      .arg(arg(d, 1), arg(d, 2));
      if (d.args.size() >= 7)
        s += QCoreApplication::translate("gl::ui::Diagnostic", "  min %1  max %2  mean %3  l2 %4")
                 .arg(arg(d, 3), arg(d, 4), arg(d, 5), arg(d, 6));
      return s;
    }
    case DiagCode::ReportResources:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic", "time %1 s   peak memory %2 MiB   saved for reverse %3 MiB")
          .arg(arg(d, 0), arg(d, 1), arg(d, 2));
    case DiagCode::ReportTimedAgainWarm:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "timed again, warm: its first run took %1 s, %2 MiB of its memory new to the "
                 "process")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::ReportAgreementHeader:
      return QCoreApplication::translate("gl::ui::Diagnostic", "agreement:");
    case DiagCode::ReportVectorized:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "%1 at line %2: one batched graph, no fallback")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::ReportFallback:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "%1 at line %2: fallback: %3 at line %4 runs in a loop over the batch (%5)")
          .arg(arg(d, 0), arg(d, 1), arg(d, 2), arg(d, 3), arg(d, 4));
    case DiagCode::ReportNumerics: {
      const bool nan = arg(d, 1) != QLatin1String("0");
      const bool inf = arg(d, 2) != QLatin1String("0");
      QString counts;
      if (nan && inf)
        counts = QCoreApplication::translate("gl::ui::Diagnostic", "%1 NaN and %2 Inf")
                     .arg(arg(d, 1), arg(d, 2));
      else if (inf)
        counts = QCoreApplication::translate("gl::ui::Diagnostic", "%1 Inf").arg(arg(d, 2));
      else
        counts = QCoreApplication::translate("gl::ui::Diagnostic", "%1 NaN").arg(arg(d, 1));
      QString s =
          QCoreApplication::translate("gl::ui::Diagnostic", "numerics: %1 made the first %2 at %3")
              .arg(arg(d, 0), counts, arg(d, 3));
      if (!arg(d, 4).isEmpty())
        s += QCoreApplication::translate("gl::ui::Diagnostic", " (loop iteration %1)")
                 .arg(arg(d, 4));
      return s + QCoreApplication::translate("gl::ui::Diagnostic",
                                             "; values computed from it are not finite either");
    }
    case DiagCode::ReportFused:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "fused: %1 elementwise ops in %2 fused groups")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::ReportSideBySide:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "side by side: %1 independent ops ran one per thread, in %2 phases")
          .arg(arg(d, 0), arg(d, 1));
    case DiagCode::ReportLoopElementMajor:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "%1 at line %2: element-major, %3 iterations per block of elements")
          .arg(arg(d, 0), arg(d, 1), arg(d, 2));
    case DiagCode::ReportLoopStepByStep:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "%1 at line %2: fallback: runs step by step (%3)")
          .arg(arg(d, 0), arg(d, 1), arg(d, 2));
    case DiagCode::ReportEagerOps:
      return QCoreApplication::translate(
                 "gl::ui::Diagnostic",
                 "eager: %1 ops run one at a time, as TF 2 runs code outside a tf.function")
          .arg(arg(d, 0));
    case DiagCode::ReportFunctionCalls:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "graph: tf.function %1 (calls: %2, traces: %3)")
          .arg(arg(d, 0), arg(d, 1), arg(d, 2));
    case DiagCode::ReportTimeCovers:
      return QCoreApplication::translate("gl::ui::Diagnostic",
                                         "the time covers all of them, replayed by the %1 executor")
          .arg(executorDisplayName(d.args.empty() ? std::string() : d.args[0]));
    case DiagCode::ReportTiming: {
      QString s = QCoreApplication::translate("gl::ui::Diagnostic", "time per variant:");
      for (size_t i = 0; i + 1 < d.args.size(); i += 2)
        s += QStringLiteral("  ") +
             (d.args[i + 1].empty()
                  ? QCoreApplication::translate("gl::ui::Diagnostic", "%1 failed").arg(arg(d, i))
                  : QCoreApplication::translate("gl::ui::Diagnostic", "%1 %2 s")
                        .arg(arg(d, i), arg(d, i + 1)));
      return s;
    }
    default:
      return agreement(d);
  }
}

}  // namespace

QString executorLabel(ExecutorKind executor) {
  switch (executor) {  // no default: a new kind needs its label
    case ExecutorKind::Serial:
      return QCoreApplication::translate("gl::ui::Diagnostic", "serial");
    case ExecutorKind::Parallel:
      return QCoreApplication::translate("gl::ui::Diagnostic", "parallel");
    case ExecutorKind::Fused:
      return QCoreApplication::translate("gl::ui::Diagnostic", "fused");
  }
  return q(executorName(executor));
}

QString executorDisplayName(const std::string& executor) {
  const std::optional<ExecutorKind> kind = executorFromName(executor);
  return kind ? executorLabel(*kind) : q(executor);
}

QString diagnosticText(const Diagnostic& d, const std::string& english) {
  // Without a translation the engine's own sentence says more than the template ("cast to
  // int32" where the template has the op's name).
  const bool translated =
      QCoreApplication::translate("gl::ui::Diagnostic", "en",
                                  "the diagnostics' language: en keeps the engine's text") !=
      QLatin1String("en");
  if (!d.known() || !translated) return q(english);
  QString s = whyNone(d);
  if (s.isEmpty()) s = scriptError(d);
  if (s.isEmpty()) s = report(d);
  return s.isEmpty() ? q(english) : s;
}

QString whyNoneText(const GradDiagnostic& why) {
  return diagnosticText(diagnosticOf(why.text), why.text);
}

namespace {
QString locatedText(const Diagnostic& d, const std::string& english) {
  const QString body = diagnosticText(d, std::string());
  return body.isEmpty() ? q(english) : q(d.prefix) + body;
}
}  // namespace

QString errorText(const std::string& located) {
  return locatedText(diagnosticOf(located), located);
}

QString errorText(const EngineError& e) {
  return locatedText(diagnosticOf(e.what(), e.message()), e.what());
}

QString variantErrorText(const lab::VariantRun& v) { return errorText(v.error); }

QString reportEntryText(const lab::ReportEntry& e) {
  switch (e.kind) {
    case lab::ReportKind::WhyNone: {
      const QString body = diagnosticText(e.diag, std::string());
      return body.isEmpty()
                 ? q(e.text)
                 : QCoreApplication::translate("gl::ui::Diagnostic", "why: %1").arg(body);
    }
    case lab::ReportKind::RunError:
      return locatedText(e.diag, e.text);
    default:
      return diagnosticText(e.diag, e.text);
  }
}

}  // namespace gl::ui
