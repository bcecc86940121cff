// Every built-in lesson runs at small params on both executors, its variants agree, and the
// None cases it teaches come out None with the engine's explanation at the right line.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

#include "engine/lab/session.h"

using namespace gl;
using namespace gl::lang;
using namespace gl::lab;

namespace {

std::string lessonPath(const std::string& name) {
  return std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/" + name;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// 1-based line of the first line containing text.
int lineOf(const std::string& source, const std::string& text) {
  std::istringstream in(source);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return -1;
}

TracedProgram traceLesson(const std::string& name, std::map<std::string, double> overrides) {
  TraceOptions opt;
  opt.overrides = std::move(overrides);
  return traceProgram(readFile(lessonPath(name)), name, opt);
}

const OutputResult* output(const VariantRun& v, const std::string& name) {
  for (const OutputResult& o : v.outputs)
    if (o.name == name) return &o;
  return nullptr;
}

// Records a failure and goes on (the test's next checks then fail on the placeholder).
void fail(const std::string& message) { QTest::qFail(message.c_str(), __FILE__, __LINE__); }

const VariantRun& variant(const ProgramRun& r, const std::string& name) {
  for (const VariantRun& v : r.variants)
    if (v.name == name) return v;
  fail("no variant " + name);
  static const VariantRun kMissing;
  return kMissing;
}

// Runs on both executors; every variant must succeed and all must agree.
ProgramRun runAndCompare(const TracedProgram& p) {
  RunSettings serial;
  ProgramRun a = runProgram(p, serial);
  RunSettings parallel;
  parallel.parallel = true;
  parallel.threads = 2;
  ProgramRun b = runProgram(p, parallel);
  for (const ProgramRun* r : {&a, &b}) {
    for (const VariantRun& v : r->variants)
      if (!v.ok()) fail("variant " + v.name + " failed: " + v.error);
    for (const Agreement& ag : r->agreement)
      if (!ag.agree())
        fail(ag.output + " differs between " + ag.reference + " and " + ag.other + " by " +
             std::to_string(ag.maxAbsDiff));
  }
  // Serial and parallel executors agree output by output.
  std::vector<VariantRun> both = a.variants;
  for (VariantRun v : b.variants) {
    v.name += "/parallel";
    both.push_back(v);
  }
  for (const Agreement& ag : compareVariants(both))
    if (!ag.agree()) fail("serial and parallel executors differ on " + ag.output);
  return a;
}

}  // namespace

class TestLessons : public QObject {
  Q_OBJECT
 private slots:
  void odeLessonMatchesClosedForm() {
    const int steps = 7;
    const double dt = 0.1;
    TracedProgram p =
        traceLesson("ode_while_loop.gls", {{"batch", 3}, {"dim", 4}, {"steps", steps}, {"dt", dt}});
    QCOMPARE(int(p.variants.size()), 3);
    ProgramRun r = runAndCompare(p);
    for (const VariantRun& v : r.variants) {
      const OutputResult* g = output(v, "fx_grads");
      QVERIFY2(g, v.name.c_str());
      const Tensor& t = g->entries.at(0).value.t;
      QCOMPARE(t.shape(), (Shape{3, 4}));
      for (int64_t i = 0; i < t.numel(); ++i)
        QVERIFY(std::abs(t.at(i) - std::pow(1 - dt, steps)) < 1e-5);
    }
  }

  void perStepGradientsMatchClosedFormAndExplainTheMistake() {
    const int T = 6;
    const double x0 = 2.0, w = 1.1;
    const std::string src = readFile(lessonPath("per_step_gradients.gls"));
    TracedProgram p = traceLesson("per_step_gradients.gls", {{"steps", T}, {"x0", x0}, {"w", w}});
    ProgramRun r = runAndCompare(p);
    for (const char* name : {"backward_passes", "jacobian"}) {
      const Tensor& j = output(variant(r, name), "dx_dw")->entries.at(0).value.t;
      QCOMPARE(j.shape(), (Shape{T, T}));
      for (int t = 0; t < T; ++t)
        for (int k = 0; k < T; ++k) {
          const double xt = x0 * std::pow(w, t + 1);
          const double expect = k <= t ? xt / w : 0.0;
          QVERIFY2(std::abs(j.at(t * T + k) - expect) < 1e-4 * std::max(1.0, expect), name);
        }
    }
    const OutputResult* wrong = output(variant(r, "variable_in_loop"), "grads_wrong");
    QVERIFY(wrong);
    QVERIFY(!wrong->entries.empty());
    for (const EntryResult& e : wrong->entries) {
      QVERIFY(e.none());
      QVERIFY2(QString::fromStdString(e.whyNone).contains("inside the body"), e.whyNone.c_str());
      QCOMPARE(e.whyLoc.line, lineOf(src, "w_step = tf.Variable"));
    }
  }

  void parallelLayersVariantsAgree() {
    TracedProgram p =
        traceLesson("parallel_layers.gls",
                    {{"batch", 3}, {"time", 4}, {"n_in", 5}, {"n_out", 2}, {"layers", 3}});
    ProgramRun r = runAndCompare(p);
    QCOMPARE(int(r.variants.size()), 3);
    const OutputResult* dk = output(variant(r, "einsum"), "d_kernels");
    QVERIFY(dk);
    QCOMPARE(dk->entries.at(0).value.t.shape(), (Shape{3, 4, 5, 2}));
    QVERIFY(dk->entries.at(0).record.l2 > 0);
    // The Python list unrolls into one einsum per layer; the fix has one.
    int einsums = 0;
    for (const Node& n : p.graph->nodes()) einsums += n.opName() == "einsum";
    QVERIFY(einsums >= 3 + 1 + 1);
  }

  // Linear regression on x evenly spaced in [-1, 1] (mean 0, mean(x^2) = m2) from w = b = 0: the
  // updates decouple, w_k - slope = (1 - 2 lr m2)^k (-slope), b_k - intercept =
  // (1 - 2 lr)^k (-intercept), loss_k = m2 (w_k - slope)^2 + (b_k - intercept)^2 and the first
  // gradient is (-2 slope m2, -2 intercept). Every variant gives these numbers.
  void trainingLoopMatchesClosedForm() {
    const int epochs = 12, n = 9;
    const double lr = 0.2, slope = 3.0, intercept = -1.0;
    TracedProgram p = traceLesson("training_loop.gls", {{"epochs", epochs},
                                                        {"points", n},
                                                        {"learning_rate", lr},
                                                        {"slope", slope},
                                                        {"intercept", intercept}});
    QCOMPARE(int(p.variants.size()), 4);
    ProgramRun r = runAndCompare(p);
    const double m2 = (n + 1.0) / (3.0 * (n - 1.0));
    for (const VariantRun& v : r.variants) {
      const Tensor& loss = output(v, "loss_curve")->entries.at(0).value.t;
      const Tensor& norm = output(v, "gradient_norm")->entries.at(0).value.t;
      QCOMPARE(loss.shape(), (Shape{epochs}));
      for (int k = 0; k < epochs; ++k) {
        const double ew = -slope * std::pow(1 - 2 * lr * m2, k);
        const double eb = -intercept * std::pow(1 - 2 * lr, k);
        const double want = m2 * ew * ew + eb * eb;
        QVERIFY2(std::abs(loss.at(k) - want) < 1e-4 * std::max(1.0, want), v.name.c_str());
        const double g = std::hypot(2 * m2 * ew, 2 * eb);
        QVERIFY2(std::abs(norm.at(k) - g) < 1e-4 * std::max(1.0, g), v.name.c_str());
        if (k > 0) QVERIFY2(loss.at(k) < loss.at(k - 1), v.name.c_str());  // small lr: falls
      }
      const double w = output(v, "w")->entries.at(0).value.t.at(0);
      QVERIFY(std::abs(w - (slope - slope * std::pow(1 - 2 * lr * m2, epochs))) < 1e-4);
    }
    // The tensor-loop variants keep one loop; the Python loop unrolls into the graph.
    int loops = 0;
    for (const Node& n : p.graph->nodes())
      loops += n.is(NodeKind::While) && n.phase == Phase::Forward;
    QCOMPARE(loops, 3);
  }

  void gradientNoneLessonExplainsAndFixes() {
    const std::string src = readFile(lessonPath("gradient_none.gls"));
    TracedProgram p = traceLesson("gradient_none.gls", {{"batch", 2}, {"size", 8}, {"classes", 4}});
    ProgramRun r = runAndCompare(p);
    const OutputResult* bad = output(variant(r, "outside_tape"), "grads_outside_tape");
    QVERIFY(bad);
    QCOMPARE(int(bad->entries.size()), 12);
    for (const EntryResult& e : bad->entries) {
      QVERIFY(e.none());
      QVERIFY2(QString::fromStdString(e.whyNone).contains("after the tape stopped recording"),
               e.whyNone.c_str());
      QCOMPARE(e.whyLoc.line, lineOf(src, "tape.gradient(tf.gather(loss_val, i)"));
    }
    for (const char* fix : {"fix_map_fn", "fix_python_list", "fix_tensorarray", "fix_vectorized"}) {
      const OutputResult* g = output(variant(r, fix), "grads");
      QVERIFY2(g, fix);
      QCOMPARE(int(g->entries.size()), 12);
      for (const EntryResult& e : g->entries) {
        QVERIFY2(!e.none(), e.whyNone.c_str());
        QVERIFY(e.record.l2 > 0);
      }
    }
    // The fixes really go through map_fn, while_loop + TensorArray and an unrolled loop.
    bool map = false, loop = false;
    for (const Node& n : p.graph->nodes()) {
      map = map || n.is(NodeKind::Map);
      loop = loop || n.is(NodeKind::While);
    }
    QVERIFY(map && loop);
  }

  // The window opens lessons at their classroom preset (`class N`), which must stay small for
  // a first look: the budget is work, not time, so it holds on any machine. Ops executed are
  // the timeline's events (one per op run, iterations included), memory the run's high-water
  // mark. Each lesson also declares its seed sizes, and the preset really shrinks them.
  void classroomPresetStaysWithinBudget_data() {
    QTest::addColumn<QString>("lesson");
    for (const char* name : {"ode_while_loop.gls", "per_step_gradients.gls", "parallel_layers.gls",
                             "gradient_none.gls", "training_loop.gls"})
      QTest::newRow(name) << QString(name);
  }
  void classroomPresetStaysWithinBudget() {
    QFETCH(QString, lesson);
    constexpr int kMaxNodes = 3000;
    constexpr size_t kMaxOpsPerVariant = 20000;
    constexpr size_t kMaxPeakBytes = size_t(32) << 20;
    TraceOptions opt;
    opt.preset = ParamPreset::Classroom;
    const std::string name = lesson.toStdString();
    const TracedProgram p = traceProgram(readFile(lessonPath(name)), name, opt);
    bool shrunk = false;
    for (const Param& param : p.params) shrunk = shrunk || param.value < param.seedValue;
    QVERIFY2(shrunk, "no param declares a smaller `class N`");
    QVERIFY2(p.graph->numNodes() <= kMaxNodes, qPrintable(QString::number(p.graph->numNodes())));
    RunSettings settings;
    settings.records = false;
    const ProgramRun r = runProgram(p, settings);
    QVERIFY(!r.variants.empty());
    for (const VariantRun& v : r.variants) {
      QVERIFY2(v.ok(), v.error.c_str());
      const QString where = QString::fromStdString(v.name) + ": %1";
      QVERIFY(!v.run.timelineTruncated);
      QVERIFY2(v.run.timeline.size() <= kMaxOpsPerVariant,
               qPrintable(where.arg(v.run.timeline.size())));
      QVERIFY2(v.run.peakBytes <= kMaxPeakBytes, qPrintable(where.arg(v.run.peakBytes)));
    }
  }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "test_lessons.moc"
