// The structured run report: entries carry kinds and severities (what the run log colours
// by), and the text and JSON renderings are made from the same entries.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <set>
#include "test_main.h"

#include "executor_kinds.h"

#include "engine/lab/report.h"
#include "engine/lab/trace_json.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lab;

namespace {

// Two variants that disagree on y, a None gradient, a tf.print whose text looks like an error.
const char* kScript = R"(x = tf.constant([1.0, 2.0])
w = tf.Variable(3.0)
with variant("a"):
    tf.print("error: this is only printed")
    y = x * 2.0
    with tf.GradientTape() as tape:
        z = x * 1.0
    g = tape.gradient(z, w)
with variant("b"):
    y = x * 3.0
    with tf.GradientTape() as tape:
        z = x * 1.0
    g = tape.gradient(z, w)
)";

std::vector<const ReportEntry*> ofKind(const std::vector<ReportEntry>& r, ReportKind k) {
  std::vector<const ReportEntry*> out;
  for (const ReportEntry& e : r)
    if (e.kind == k) out.push_back(&e);
  return out;
}

}  // namespace

class TestReport : public QObject {
  Q_OBJECT
 private slots:
  void entriesCarryKindAndSeverity() {
    // Traced as one tf.function, so that tf.print is a run-time print (eagerly it prints
    // while the script is traced, into the trace log).
    lang::TraceOptions opt;
    opt.model = lang::ExecutionModel::WholeScriptFunction;
    const lang::TracedProgram p = lang::traceProgram(kScript, "report.gls", opt);
    const ProgramRun run = runProgram(p, {});
    const std::vector<ReportEntry> r = buildReport(p, run, {});
    QCOMPARE(ofKind(r, ReportKind::Variant).size(), size_t(2));
    const auto prints = ofKind(r, ReportKind::RunPrint);
    QVERIFY(!prints.empty());
    for (const ReportEntry* e : prints) {
      QCOMPARE(e->severity, Severity::Print);  // not an error, whatever its text says
      QCOMPARE(e->text, std::string("tf.print: error: this is only printed"));
    }
    const auto none = ofKind(r, ReportKind::NoneGradient);
    QCOMPARE(none.size(), size_t(2));
    QCOMPARE(none[0]->severity, Severity::Warning);
    const auto why = ofKind(r, ReportKind::WhyNone);
    QCOMPARE(why.size(), size_t(2));
    QVERIFY(why[0]->text.find("does not depend on") != std::string::npos);
    const auto agreement = ofKind(r, ReportKind::Agreement);
    QCOMPARE(agreement.size(), size_t(3));  // y, z and g
    int errors = 0;
    for (const ReportEntry* a : agreement) {
      if (a->text.rfind("y:", 0) == 0) {
        QCOMPARE(a->severity, Severity::Error);
        QVERIFY(a->text.find("DIFFER") != std::string::npos);
        ++errors;
      } else {
        QCOMPARE(a->severity, Severity::Info);  // z equal, g None in both: they agree
      }
    }
    QCOMPARE(errors, 1);
  }

  void runErrorsKeepTheirLocation() {
    const lang::TracedProgram p = lang::traceProgram(
        "x = tf.constant([1.0, 2.0])\ny = tf.gather(x, tf.constant(5))\n", "bad.gls", {});
    const ProgramRun run = runProgram(p, {});
    QVERIFY(!run.ok());
    const std::vector<ReportEntry> r = buildReport(p, run, {});
    const auto errors = ofKind(r, ReportKind::RunError);
    QCOMPARE(errors.size(), size_t(1));
    QCOMPARE(errors[0]->severity, Severity::Error);
    QCOMPARE(errors[0]->loc.line, 2);
    const std::string text = reportText(p, run, {});
    QVERIFY2(text.find("  error: bad.gls:2:") != std::string::npos, text.c_str());
  }

  // TensorArray misuse found at run time, located at the call (TensorFlow's errors).
  void tensorArrayErrorsAtRunTime() {
    const struct {
      const char* src;
      const char* error;
    } cases[] = {
        {"ta = tf.TensorArray(tf.float32, size=3)\nta = ta.write(0, 1.0)\ny = ta.read(7)\n",
         "ta.gls:3:5: list_read: TensorArray read at index 7 is out of range for size 3"},
        {"ta = tf.TensorArray(tf.float32, size=3)\nta = ta.write(1, 1.0)\nta = ta.write(1, "
         "2.0)\ny = ta.stack()\n",
         "ta.gls:3:6: list_write: could not write to TensorArray index 1 because it has already "
         "been written to"},
    };
    for (const auto& c : cases) {
      const ProgramRun run = runProgram(lang::traceProgram(c.src, "ta.gls", {}), {});
      QCOMPARE(run.variants.at(0).error, std::string(c.error));
    }
  }

  void recordsOnlyWhenAsked() {
    // `gradlab run` asks for none: the report is the same without them.
    const lang::TracedProgram p = lang::traceProgram(kScript, "report.gls", {});
    RunRequest bare;
    bare.variant = "a";
    bare.options.timeline = bare.options.records = bare.options.valueRecords = false;
    RunRequest full;
    full.variant = "a";
    const ProgramRun without = runProgram(p, bare), with = runProgram(p, full);
    QVERIFY(without.variants.at(0).run.valueRecords.empty());
    QVERIFY(without.variants.at(0).run.timeline.empty());
    QVERIFY(!with.variants.at(0).run.valueRecords.empty());
    QVERIFY(!with.variants.at(0).run.timeline.empty());
    QCOMPARE(without.variants.at(0).outputs.size(), with.variants.at(0).outputs.size());
    QCOMPARE(without.variants.at(0).outputs.at(0).entries.at(0).record.l2,
             with.variants.at(0).outputs.at(0).entries.at(0).record.l2);
  }

  // NaN and Inf say so: output summaries count them (min and max skip NaN, so the numbers
  // alone looked finite) and the first primitive that made one is reported with its line,
  // like tf.debugging.check_numerics; inside a loop, with the iteration.
  void nonFiniteValuesAreCountedAndTracedToTheirNode() {
    const lang::TracedProgram p = lang::traceProgram(
        "x = tf.constant([-1.0, 2.0])\ny = tf.math.log(x) * 2.0\nz = y + 1.0\n", "nan.gls", {});
    const ProgramRun run = runProgram(p, {});
    const NumericsFault& nf = run.variants.at(0).run.numerics;
    QVERIFY(nf.found());
    QCOMPARE(nf.op, std::string("log"));
    QCOMPARE(nf.loc.line, 2);
    QCOMPARE(nf.loc.col, 5);
    QCOMPARE(nf.nanCount, int64_t(1));
    QCOMPARE(nf.iteration, int64_t(-1));
    const std::vector<ReportEntry> r = buildReport(p, run, {});
    const auto numerics = ofKind(r, ReportKind::Numerics);
    QCOMPARE(numerics.size(), size_t(1));
    QCOMPARE(numerics[0]->severity, Severity::Warning);
    QCOMPARE(numerics[0]->loc.line, 2);
    QCOMPARE(numerics[0]->text,
             std::string("numerics: log made the first 1 NaN at nan.gls:2:5; values computed "
                         "from it are not finite either"));
    const std::string text = reportText(p, run, {});
    QVERIFY2(text.find("out  z: float32[2]  min 2.38629  max 2.38629  mean nan  l2 nan  NaN 1\n") !=
                 std::string::npos,
             text.c_str());
    const std::string json = reportJson(p, run, {});
    QVERIFY2(json.find("\"numerics\":{\"node\":" + std::to_string(nf.node) +
                       ",\"op\":\"log\",\"line\":2,\"col\":5,\"iteration\":-1,\"nan_count\":1,"
                       "\"inf_count\":0}") != std::string::npos,
             json.c_str());
    QVERIFY(json.find("\"nan_count\":1,\"inf_count\":0,\"head\":[") != std::string::npos);
    RunRequest off;
    off.options.checkNumerics = false;
    QVERIFY(!runProgram(p, off).variants.at(0).run.numerics.found());
    // x * 1e30 overflows float32 in the second iteration (1e60); both executors say so.
    const lang::TracedProgram loop = lang::traceProgram(
        "i = tf.constant(0)\nx = tf.constant(1.0)\n"
        "i, x = tf.while_loop(lambda i, x: i < 5, lambda i, x: (i + 1, x * 1e30), [i, x])\n",
        "loop.gls", {});
    for (const RunOptions& opt : gltest::everyExecutor()) {
      const ProgramRun loopRun = runProgram(loop, {{}, opt});
      const NumericsFault& lf = loopRun.variants.at(0).run.numerics;
      QVERIFY(lf.found());
      QCOMPARE(lf.op, std::string("mul"));
      QCOMPARE(lf.loc.line, 3);
      QCOMPARE(lf.iteration, int64_t(1));
      QCOMPARE(lf.infCount, int64_t(1));
    }
  }

  void textAndJsonRenderTheSameEntries() {
    const lang::TracedProgram p = lang::traceProgram(kScript, "report.gls", {});
    const ProgramRun run = runProgram(p, {});
    const std::vector<ReportEntry> r = buildReport(p, run, {});
    const std::string text = reportText(p, run, {});
    const std::string json = reportJson(p, run, {});
    size_t lines = 0;
    for (char c : text) lines += c == '\n';
    QCOMPARE(lines, r.size());
    for (const ReportEntry& e : r) {
      QVERIFY2(text.find(std::string(size_t(e.indent), ' ') + e.text) != std::string::npos,
               e.text.c_str());
      QVERIFY(json.find("\"kind\":\"" + std::string(reportKindName(e.kind)) + "\"") !=
              std::string::npos);
    }
    QVERIFY(json.find("\"severity\":\"error\"") != std::string::npos);
    QVERIFY(json.find("\"severity\":\"print\"") != std::string::npos);
  }

  // The report names the executor the variants ran on, whatever settings the writer passes
  // (the window's Export Lesson passed default settings: "[serial executor]" after a parallel
  // run).
  void reportNamesTheExecutorThatRan() {
    const lang::TracedProgram p = lang::traceProgram(kScript, "report.gls", {});
    RunRequest parallel;
    parallel.options.executor = ExecutorKind::Parallel;
    parallel.options.threads = 2;
    const ProgramRun run = runProgram(p, parallel);
    const std::string text = reportText(p, run, RunRequest{});
    QVERIFY2(text.find("variant 'a'  [parallel executor]") != std::string::npos, text.c_str());
    QVERIFY2(text.find("variant 'b'  [parallel executor]") != std::string::npos, text.c_str());
    QVERIFY(text.find("serial executor") == std::string::npos);
    QVERIFY(reportJson(p, run, RunRequest{}).find("{\"executor\":\"parallel\"") == 0);
    const ProgramRun serial = runProgram(p, {});
    QVERIFY(reportText(p, serial, parallel).find("[serial executor]") != std::string::npos);
  }

  // Each variant says which of its ops ran eagerly and which as tf.function graphs, and what
  // its time covers (issue #27): the eager ops outside the calls, each concrete function with
  // its calls and traces (TF traces once per input signature).
  void reportSaysWhatRanEagerlyAndAsGraphs() {
    const char* script = R"(import tensorflow as tf

@tf.function
def step(x):
    return x * 2.0 + 1.0

a = step(tf.constant(1.0))
b = step(tf.constant(2.0))
c = step(tf.constant([1.0, 2.0]))
d = tf.reduce_sum(c) + a * b
)";
    const lang::TracedProgram p = lang::traceProgram(script, "eager.py", {});
    const ProgramRun run = runProgram(p, {});
    const std::vector<ReportEntry> r = buildReport(p, run, {});
    const auto parts = ofKind(r, ReportKind::Execution);
    QCOMPARE(parts.size(), size_t(3));
    // Outside the calls: the three constants' ops aside, reduce_sum, mul and add.
    QCOMPARE(parts[0]->diag.code, DiagCode::ReportEagerOps);
    QCOMPARE(
        parts[0]->text,
        std::string("eager: 3 ops run one at a time, as TF 2 runs code outside a tf.function"));
    QCOMPARE(parts[1]->text, std::string("graph: tf.function step (calls: 3, traces: 2)"));
    QCOMPARE(parts[1]->diag.args, (std::vector<std::string>{"step", "3", "2"}));
    QCOMPARE(parts[2]->text,
             std::string("the time covers all of them, replayed by the serial executor"));
    // A script traced as one tf.function (the AutoGraph model) has no eager part to name.
    lang::TraceOptions whole;
    whole.model = lang::ExecutionModel::WholeScriptFunction;
    const lang::TracedProgram traced =
        lang::traceProgram("x = tf.constant(1.0)\ny = x * 2.0\n", "whole.gls", whole);
    QVERIFY(ofKind(buildReport(traced, runProgram(traced, {}), {}), ReportKind::Execution).empty());
  }

  // Chrome trace JSON: it parses, one "X" event per timeline event with the event's thread as
  // tid, times in microseconds, one process per variant named by metadata.
  void traceJsonHasOneEventPerTimelineEvent() {
    const lang::TracedProgram p = lang::traceProgram(kScript, "report.gls", {});
    RunRequest settings;
    settings.options.executor = ExecutorKind::Parallel;
    settings.options.threads = 2;
    const ProgramRun run = runProgram(p, settings);
    const std::string json = chromeTraceJson(*p.graph, run);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonArray events = doc.object().value("traceEvents").toArray();
    QCOMPARE(run.variants.size(), size_t(2));
    for (size_t v = 0; v < run.variants.size(); ++v) {
      const std::vector<TimelineEvent>& timeline = run.variants[v].run.timeline;
      QVERIFY(!timeline.empty());
      QVector<QJsonObject> xs;
      QString processName;
      for (const QJsonValue& value : events) {
        const QJsonObject e = value.toObject();
        if (e.value("pid").toInt() != int(v) + 1) continue;
        if (e.value("ph").toString() == "X") xs.push_back(e);
        if (e.value("name").toString() == "process_name")
          processName = e.value("args").toObject().value("name").toString();
      }
      QCOMPARE(processName, QString::fromStdString(run.variants[v].name));
      QCOMPARE(xs.size(), qsizetype(timeline.size()));
      for (size_t i = 0; i < timeline.size(); ++i) {
        const TimelineEvent& t = timeline[i];
        const QJsonObject& e = xs[qsizetype(i)];
        QCOMPARE(e.value("tid").toInt(), t.thread);
        QCOMPARE(e.value("args").toObject().value("node").toInt(), t.node);
        QCOMPARE(e.value("name").toString().toStdString(),
                 std::string(p.graph->node(t.node).opName()));
        QVERIFY(std::abs(e.value("ts").toDouble() - t.start * 1e6) < 1e-3);
        QVERIFY(std::abs(e.value("dur").toDouble() - (t.end - t.start) * 1e6) < 1e-3);
        QVERIFY(e.value("dur").toDouble() >= 0);
      }
    }
  }

  // A run that holds more memory than the process ever held counts the excess as fresh (its
  // first touch is in its time); the same run again holds next to nothing new. Only a fresh run of
  // 16 MiB or more that took at most 2 s is worth timing again warm, and only once.
  void freshMemoryIsCountedAndATimingWorthRepeatingIsNamed() {
    const lang::TracedProgram p = lang::traceProgram(
        "x = tf.ones([2048, 4096]) * 2.0\ny = tf.reduce_sum(x * x)\n", "fresh.gls", {});
    // The first run's outputs go before the second run, as in the window.
    VariantRun a = runProgram(p, {}).variants.at(0);
    a.outputs.clear();
    a.run.values.clear();
    const VariantRun b = runProgram(p, {}).variants.at(0);
    QVERIFY2(a.ok() && b.ok(), (a.error + b.error).c_str());
    QVERIFY2(a.freshBytes >= size_t(32) << 20, qPrintable(QString::number(a.freshBytes)));
    QVERIFY2(b.freshBytes < size_t(1) << 20, qPrintable(QString::number(b.freshBytes)));
    QCOMPARE(worthTimingAgainWarm(a), a.run.seconds <= kWarmAgainSeconds);
    QVERIFY(!worthTimingAgainWarm(b));
    VariantRun again = a;
    again.coldSeconds = a.run.seconds;  // already the second run
    QVERIFY(!worthTimingAgainWarm(again));
    VariantRun slow = a;
    slow.run.seconds = kWarmAgainSeconds + 1;
    QVERIFY(!worthTimingAgainWarm(slow));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestReport)
#include "test_report.moc"
