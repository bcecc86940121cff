// Every built-in lesson runs at small params on both executors, its variants agree, and the
// None cases it teaches come out None with the engine's explanation at the right line.
#include "test_main.h"

#include "executor_kinds.h"

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

// Runs on every executor; every variant must succeed and each executor must agree with the
// serial one. Unless a lesson's variants differ by design (rnn_bptt's scales), all variants
// must agree too.
enum class Variants : bool { Agree, Differ };
ProgramRun runAndCompare(const TracedProgram& p, Variants variants = Variants::Agree) {
  ProgramRun a;
  for (const RunOptions& opt : gltest::everyExecutor()) {
    const ProgramRun b = runProgram(p, {{}, opt});
    for (const VariantRun& v : b.variants)
      if (!v.ok()) fail("variant " + v.name + " failed: " + v.error);
    for (const Agreement& ag : b.agreement)
      if (variants == Variants::Agree && !ag.agree())
        fail(ag.output + " differs between " + ag.reference + " and " + ag.other + " by " +
             std::to_string(ag.maxAbsDiff));
    if (opt.executor == ExecutorKind::Serial) {
      a = b;
      continue;
    }
    // Output by output, variant by variant.
    const std::string executor = executorName(opt.executor);
    for (size_t i = 0; i < a.variants.size() && i < b.variants.size(); ++i) {
      VariantRun twin = b.variants[i];
      twin.name += "/" + executor;
      for (const Agreement& ag : compareVariants({a.variants[i], twin}))
        if (!ag.agree())
          fail("serial and " + executor + " executors differ on " + ag.output + " in " + twin.name);
    }
  }
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
    // The question's train_step as written: eager TF runs its tf.range loop three times (three
    // lists of 12 None); under @tf.function AutoGraph traces the loop body once (one list).
    for (const auto& [name, result, lists] :
         {std::tuple{"question_eager", "eager_grads", 3},
          std::tuple{"question_tf_function", "traced_grads", 1}}) {
      const OutputResult* q = output(variant(r, name), result);
      QVERIFY2(q, name);
      QCOMPARE(int(q->entries.size()), 12 * lists);
      for (const EntryResult& e : q->entries) {
        QVERIFY(e.none());
        QVERIFY2(QString::fromStdString(e.whyNone).contains("after the tape stopped recording"),
                 e.whyNone.c_str());
      }
    }
    QCOMPARE(std::count(p.traceLog.begin(), p.traceLog.end(),
                        std::string("[[None, None, None, None, None, None, None, None, None, None, "
                                    "None, None]]")),
             std::ptrdiff_t(1));
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

  // Near h = 0 (drive 0: h stays 0, tanh' = 1) with W = scale * I, BPTT's per-step norms are
  // exactly scale^(T-t) * sqrt(hidden); clipping scales the whole gradient to norm `clip`.
  void rnnGradientNormsFollowScalePowers() {
    const int T = 6, hidden = 4;
    const double clip = 0.5;
    TracedProgram p =
        traceLesson("rnn_bptt.gls", {{"T", T}, {"hidden", hidden}, {"drive", 0.0}, {"clip", clip}});
    RunRequest serial;
    const ProgramRun r = runProgram(p, serial);
    const std::pair<const char*, double> scales[] = {
        {"scale_0.5", 0.5}, {"scale_1.0", 1.0}, {"scale_2.0", 2.0}};
    for (const auto& [name, scale] : scales) {
      const VariantRun& v = variant(r, name);
      QVERIFY2(v.ok(), v.error.c_str());
      const Tensor& n = output(v, "grad_norms")->entries.at(0).value.t;
      QCOMPARE(n.shape(), (Shape{T}));
      for (int t = 0; t < T; ++t) {
        const double expect = std::pow(scale, T - 1 - t) * std::sqrt(double(hidden));
        QVERIFY2(std::abs(n.at(t) - expect) < 1e-5 * expect, name);
      }
    }
    const Tensor& c = output(variant(r, "clipped"), "grad_norms")->entries.at(0).value.t;
    double sq = 0;
    for (int t = 0; t < T; ++t) {
      sq += c.at(t) * c.at(t);
      if (t > 0) QVERIFY(std::abs(c.at(t - 1) / c.at(t) - 2.0) < 1e-5);  // the slope stays
    }
    QVERIFY(std::abs(std::sqrt(sq) - clip) < 1e-5);
    // A small drive keeps the RNN near h = 0: the closed form holds to 1%.
    TracedProgram q = traceLesson("rnn_bptt.gls", {{"T", T}, {"hidden", hidden}, {"drive", 1e-3}});
    const ProgramRun rq = runAndCompare(q, Variants::Differ);
    const Tensor& n2 = output(variant(rq, "scale_2.0"), "grad_norms")->entries.at(0).value.t;
    for (int t = 0; t < T; ++t) {
      const double expect = std::pow(2.0, T - 1 - t) * std::sqrt(double(hidden));
      QVERIFY(std::abs(n2.at(t) - expect) < 1e-2 * expect);
    }
  }

  // Saved and recomputed agree (runAndCompare), d w matches a central difference of the same
  // loop in double precision, and recomputing keeps about 1 / (2 depth) of the saved values.
  void checkpointingSameGradientsLessMemory() {
    const int steps = 5, depth = 6, size = 16384;
    TracedProgram p =
        traceLesson("checkpointing.gls", {{"steps", steps}, {"depth", depth}, {"size", size}});
    const ProgramRun r = runAndCompare(p);
    const VariantRun& saved = variant(r, "saved");
    const VariantRun& recomputed = variant(r, "recomputed");
    QVERIFY2(
        recomputed.run.savedBytes * 4 < saved.run.savedBytes,
        qPrintable(QString("%1 vs %2").arg(recomputed.run.savedBytes).arg(saved.run.savedBytes)));
    QVERIFY2(
        recomputed.run.peakBytes * 2 < saved.run.peakBytes,
        qPrintable(QString("%1 vs %2").arg(recomputed.run.peakBytes).arg(saved.run.peakBytes)));
    // d loss / d x0 for one element, from the chain rule in double precision.
    // x0 = linspace(-2, 2, size)
    const Tensor& dx0 = output(recomputed, "d_x0")->entries.at(0).value.t;
    for (int64_t i : {int64_t(0), int64_t(size / 3)}) {
      double x = -2.0 + 4.0 * double(i) / (size - 1), d = 1;
      for (int k = 0; k < steps * depth; ++k) {
        d *= 0.9 * std::cos(0.9 * x + 0.5);
        x = std::sin(0.9 * x + 0.5);
      }
      d *= 2 * x;
      QVERIFY2(std::abs(dx0.at(i) - d) < 1e-3 * std::abs(d) + 1e-7,
               qPrintable(QString("%1 vs %2").arg(dx0.at(i)).arg(d)));
    }
  }

  // The plain log(1 + e^x) has a NaN gradient past x = 88 and tf.round none; the custom
  // gradients give sigmoid(x) (1 at x = 100) and 1 (straight through).
  void customGradientsFixNanAndNone() {
    const int n = 5;
    TracedProgram p = traceLesson("custom_gradients.gls", {{"n", n}, {"x_max", 100.0}});
    RunRequest serial;
    const ProgramRun r = runProgram(p, serial);
    const VariantRun& plain = variant(r, "plain");
    const VariantRun& custom = variant(r, "custom");
    QVERIFY2(plain.ok(), plain.error.c_str());
    QVERIFY2(custom.ok(), custom.error.c_str());
    const double xs[n] = {-100, -50, 0, 50, 100};
    const Tensor& dp = output(plain, "d_softplus")->entries.at(0).value.t;
    const Tensor& dc = output(custom, "d_softplus")->entries.at(0).value.t;
    QVERIFY(std::isnan(dp.at(n - 1)));
    for (int i = 0; i < n; ++i) QVERIFY(std::abs(dc.at(i) - 1 / (1 + std::exp(-xs[i]))) < 1e-6);
    const OutputResult* roundPlain = output(plain, "d_round");
    QVERIFY(roundPlain && roundPlain->entries.at(0).none());
    QVERIFY2(QString::fromStdString(roundPlain->entries.at(0).whyNone).contains("round"),
             roundPlain->entries.at(0).whyNone.c_str());
    const Tensor& dr = output(custom, "d_round")->entries.at(0).value.t;
    for (int i = 0; i < n; ++i) QCOMPARE(dr.at(i), 1.0);
  }

  // The window opens lessons at their classroom preset (`class N`), which must stay small for
  // a first look: the budget is work, not time, so it holds on any machine. Ops executed are
  // the timeline's events (one per op run, iterations included), memory the run's high-water
  // mark. Each lesson also declares its seed sizes, and the preset really shrinks them.
  void classroomPresetStaysWithinBudget_data() {
    QTest::addColumn<QString>("lesson");
    for (const char* name : {"ode_while_loop.gls", "per_step_gradients.gls", "parallel_layers.gls",
                             "gradient_none.gls", "rnn_bptt.gls", "checkpointing.gls",
                             "custom_gradients.gls", "training_loop.gls"})
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
    RunRequest settings;
    settings.options.records = false;
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

GRADLAB_TEST_GUILESS_MAIN(TestLessons)
#include "test_lessons.moc"
