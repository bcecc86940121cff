// The structured run report: entries carry kinds and severities (what the run log colours
// by), and the text and JSON renderings are made from the same entries.
#include <QtTest>

#include "engine/lab/report.h"
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
    const lang::TracedProgram p = lang::traceProgram(kScript, "report.gls", {});
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
    RunSettings bare;
    bare.variant = "a";
    bare.timeline = bare.records = bare.valueRecords = false;
    RunSettings full;
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
    RunSettings off;
    off.checkNumerics = false;
    QVERIFY(!runProgram(p, off).variants.at(0).run.numerics.found());
    // x * 1e30 overflows float32 in the second iteration (1e60); both executors say so.
    const lang::TracedProgram loop = lang::traceProgram(
        "i = tf.constant(0)\nx = tf.constant(1.0)\n"
        "i, x = tf.while_loop(lambda i, x: i < 5, lambda i, x: (i + 1, x * 1e30), [i, x])\n",
        "loop.gls", {});
    for (bool parallel : {false, true}) {
      RunSettings s;
      s.parallel = parallel;
      const ProgramRun loopRun = runProgram(loop, s);
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
};

QTEST_APPLESS_MAIN(TestReport)
#include "test_report.moc"
