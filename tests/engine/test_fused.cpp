// The fusing executor (--executor fused): the fusion pass's groups on a known graph, the same
// numbers as the serial executor on every lesson and on test scripts (values, gradients, the
// first NaN), and loop interchange taken for the ODE body and refused, with its reason, for a
// trip count that depends on the carried values.
#include "allocation_counter.h"
#include "test_main.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "engine/build/builder.h"
#include "engine/exec/executor.h"
#include "engine/exec/plan.h"
#include "engine/lab/session.h"
#include "engine/ops/api.h"
#include "engine/transform/fusion.h"
#include "helpers.h"

using namespace gl;
using namespace gl::lab;
namespace o = gl::ops;

namespace {

lang::TracedProgram traceLesson(const std::string& name, lang::ParamPreset preset,
                                std::map<std::string, double> overrides = {}) {
  lang::TraceOptions opt;
  opt.preset = preset;
  opt.overrides = std::move(overrides);
  const std::string path = std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/" + name;
  return lang::traceProgram(gltest::readFile(path), name, opt);
}

lang::TracedProgram traceScript(const std::string& source) {
  return lang::traceProgram(source, "test.gls", lang::TraceOptions{});
}

void fail(const std::string& message) { QTest::qFail(message.c_str(), __FILE__, __LINE__); }

RunRequest fusedSettings() {
  RunRequest s;
  s.options.executor = ExecutorKind::Fused;
  s.options.records = false;  // element-major loops keep no per-iteration records
  return s;
}

// Runs serial and fused; every variant must succeed on both and agree output by output.
std::pair<ProgramRun, ProgramRun> runSerialAndFused(const lang::TracedProgram& p) {
  RunRequest serial;
  serial.options.records = false;
  ProgramRun a = runProgram(p, serial);
  ProgramRun b = runProgram(p, fusedSettings());
  for (const ProgramRun* r : {&a, &b})
    for (const VariantRun& v : r->variants)
      if (!v.ok()) fail("variant " + v.name + " failed: " + v.error);
  std::vector<VariantRun> both = a.variants;
  for (VariantRun v : b.variants) {
    v.name += "/fused";
    both.push_back(v);
  }
  for (const Agreement& ag : compareVariants(both))
    if (!ag.agree())
      fail("serial and fused executors differ on " + ag.output + " (" + ag.reference + " vs " +
           ag.other + ") by " + std::to_string(ag.maxAbsDiff));
  return {std::move(a), std::move(b)};
}

// The first NaN/Inf of the program's first variant on the serial and the fused executor.
std::pair<NumericsFault, NumericsFault> firstFaults(const lang::TracedProgram& p) {
  RunRequest serial;
  serial.options.records = false;
  return {runProgram(p, serial).variants.at(0).run.numerics,
          runProgram(p, fusedSettings()).variants.at(0).run.numerics};
}

const LoopFusion* loopNote(const VariantRun& v, bool reverse, const Graph& g) {
  for (const LoopFusion& l : v.run.loopFusion)
    if ((g.node(l.node).forwardNode >= 0) == reverse) return &l;
  return nullptr;
}

}  // namespace

class TestFused : public QObject {
  Q_OBJECT
 private slots:
  // exp -> mul by a scalar -> add: one group; matmul is not elementwise; tanh -> sigmoid -> neg
  // after it: a second group; an add that broadcasts a [4,1] bias stays a node of its own.
  void fusionPassGroupsKnownGraph() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(Tensor::full(DType::F32, {4, 8}, 0.5), "x");
    const Value w = b.constant(Tensor::full(DType::F32, {8, 3}, 0.25), "w");
    const Value bias = b.constant(Tensor::full(DType::F32, {4, 1}, 1.0), "bias");
    const Value c = o::add(b, o::mul(b, o::exp(b, x), b.scalar(2.0)), x);
    const Value m = o::matmul(b, c, w);
    const Value e = o::neg(b, o::sigmoid(b, o::tanh(b, m)));
    const Value out = o::add(b, e, bias);
    const ExecutionPlan plan(g, {out});
    const std::vector<FusedProgram> groups = fuseRegion(g, plan.region(0).order, {out});
    QCOMPARE(int(groups.size()), 2);
    QCOMPARE(int(groups[0].members.size()), 3);
    QCOMPARE(int(groups[1].members.size()), 3);
    // The first group reads x (full) and the 2.0 (one value), and only its add leaves it.
    QCOMPARE(int(groups[0].inputs.size()), 2);
    QCOMPARE(int(groups[0].outputs.size()), 1);
    QVERIFY(groups[0].outputs[0].value == c);
    int scalars = 0;
    for (const FusedInput& in : groups[0].inputs) scalars += in.kind == OperandKind::Scalar;
    QCOMPARE(scalars, 1);
    QVERIFY(groups[1].outputs[0].value == e);
    // Registers: one per input, and exp's is reused once mul has read it: x, 2.0, exp, mul,
    // add (kept). The second: m, tanh, sigmoid (tanh's freed), neg (kept).
    QCOMPARE(groups[0].numRegisters, 5);
    QCOMPARE(groups[1].numRegisters, 4);

    RunOptions serial, fused;
    fused.executor = ExecutorKind::Fused;
    const RunResult rs = Executor(g, serial).run({out});
    const RunResult rf = Executor(g, fused).run({out});
    QCOMPARE(rf.fusedGroups, 2);
    QCOMPARE(rf.fusedNodes, 6);
    QCOMPARE(rf.primitiveOps, rs.primitiveOps);
    for (int64_t i = 0; i < rs.values[0].t.numel(); ++i)
      QVERIFY(std::abs(rs.values[0].t.at(i) - rf.values[0].t.at(i)) < 1e-6);
  }

  // A value read by a node outside its group is an output of the group; the group closes there.
  void fusionPassKeepsValuesReadOutside() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(Tensor::full(DType::F32, {16}, 0.3), "x");
    const Value a = o::exp(b, x);
    const Value s = o::reduceSum(b, a, {0}, false);  // reads a: not elementwise
    const Value y = o::mul(b, o::square(b, a), s);
    const ExecutionPlan plan(g, {y});
    const std::vector<FusedProgram> groups = fuseRegion(g, plan.region(0).order, {y});
    // exp is closed by the reduction that reads it, so square * s forms a group of its own.
    QCOMPARE(int(groups.size()), 1);
    QCOMPARE(int(groups[0].members.size()), 2);
    RunOptions fused;
    fused.executor = ExecutorKind::Fused;
    const Tensor ys = evaluate(g, {y}).at(0), yf = evaluate(g, {y}, fused).at(0);
    for (int64_t i = 0; i < ys.numel(); ++i) QVERIFY(std::abs(ys.at(i) - yf.at(i)) < 1e-5);
  }

  // Affine folding: the Euler step x + 0.1 * (1 - x) is one instruction 0.9 * x + 0.1, its
  // adjoint g - g * 0.1 one multiplication, (x * 2 + 1) * 3 - x is 5 * x + 3; x * x + x and
  // exp(x) * 2 + x keep their non-affine parts.
  void affineChainsFoldToOneInstruction() {
    Graph g;
    Builder b(g);
    std::vector<double> xs;
    for (int i = 0; i < 1000; ++i) xs.push_back(-5.0 + 0.01 * i);
    const Value x = b.constant(Tensor::fromVector(xs, {1000}), "x");
    const Value dt = b.scalar(0.1), one = b.scalar(1.0);
    const Value euler = o::add(b, x, o::mul(b, dt, o::sub(b, one, x)));
    const Value adjoint = o::sub(b, x, o::mul(b, x, dt));
    const Value chain =
        o::sub(b, o::mul(b, o::add(b, o::mul(b, x, b.scalar(2.0)), one), b.scalar(3.0)), x);
    const Value square = o::add(b, o::mul(b, x, x), x);
    const Value mixed = o::add(b, o::mul(b, o::exp(b, x), b.scalar(2.0)), x);
    struct Case {
      Value out;
      std::vector<InstrKind> kinds;
      double a, b;  // the affine ones: out = a * x + b
    };
    const std::vector<Case> cases = {
        {euler, {InstrKind::Affine}, 0.9, 0.1},
        {adjoint, {InstrKind::Scale}, 0.9, 0.0},
        {chain, {InstrKind::Affine}, 5.0, 3.0},
        {square, {InstrKind::Primitive, InstrKind::Primitive}, 0, 0},
        {mixed, {InstrKind::Primitive, InstrKind::Scale, InstrKind::Primitive}, 0, 0},
    };
    RunOptions fused;
    fused.executor = ExecutorKind::Fused;
    for (const Case& c : cases) {
      const ExecutionPlan plan(g, {c.out});
      const std::vector<FusedProgram> groups = fuseRegion(g, plan.region(0).order, {c.out});
      QCOMPARE(int(groups.size()), 1);
      std::vector<InstrKind> kinds;
      for (const FusedInstr& ins : groups[0].code) kinds.push_back(ins.kind);
      QVERIFY2(kinds == c.kinds, g.node(c.out).label().c_str());
      const Tensor ys = evaluate(g, {c.out}).at(0), yf = evaluate(g, {c.out}, fused).at(0);
      for (int64_t i = 0; i < ys.numel(); ++i) {
        const double tol = 1e-6 * (1 + std::abs(ys.at(i)));
        QVERIFY2(std::abs(ys.at(i) - yf.at(i)) <= tol, g.node(c.out).label().c_str());
        if (c.kinds[0] != InstrKind::Primitive)
          QVERIFY(std::abs(yf.at(i) - (c.a * xs[size_t(i)] + c.b)) <=
                  1e-5 * (1 + std::abs(yf.at(i))));
      }
    }
  }

  // A step that is one affine map per carried value runs as a recurrence in registers: the
  // closed forms after 30 steps (v -> 0.5 v + 1 tends to 2; w -> 0.9 w), on both executors.
  void affineRecurrenceMatchesClosedForm() {
    const auto p = traceScript(
        "v0 = tf.linspace(-3.0, 3.0, 700)\n"
        "w0 = tf.ones([700]) * 4.0\n"
        "i, v, w = tf.while_loop(lambda i, v, w: i < 30, lambda i, v, w: (i + 1, v * 0.5 + 1.0,"
        " w - 0.1 * w), [tf.constant(0), v0, w0])\n");
    const auto [serial, fused] = runSerialAndFused(p);
    const VariantRun& run = fused.variants.at(0);
    const LoopFusion* fwd = loopNote(run, false, *p.graph);
    QVERIFY(fwd && fwd->elementMajor);
    const Tensor* v = nullptr;
    const Tensor* w = nullptr;
    for (const OutputResult& o : run.outputs) {
      if (o.name == "v") v = &o.entries.at(0).value.t;
      if (o.name == "w") w = &o.entries.at(0).value.t;
    }
    QVERIFY(v && w);
    for (int64_t k = 0; k < v->numel(); ++k) {
      const double v0 = -3.0 + 6.0 * double(k) / 699.0;
      QVERIFY(std::abs(v->at(k) - (2.0 + (v0 - 2.0) * std::pow(0.5, 30))) < 1e-5);
      QVERIFY(std::abs(w->at(k) - 4.0 * std::pow(0.9, 30)) < 1e-5);
    }
  }

  // An affine recurrence that overflows: the fused run finds the Inf (its last value) and names
  // the op and iteration the serial executor names.
  void numericsFaultInAffineRecurrence() {
    const auto p = traceScript(
        "x = tf.linspace(1.0, 3.0, 64)\n"
        "z = tf.while_loop(lambda i, v: i < 6, lambda i, v: (i + 1, v * 1e15 + 1.0), "
        "[tf.constant(0), x])\n");
    const auto [fa, fb] = firstFaults(p);
    QVERIFY(fa.found());
    QVERIFY(fb.found());
    QCOMPARE(fb.node, fa.node);
    QCOMPARE(fb.iteration, fa.iteration);
    QCOMPARE(fb.infCount, fa.infCount);
  }

  void lessonsAgreeAtClassroomPreset_data() {
    QTest::addColumn<QString>("lesson");
    for (const char* name : {"ode_while_loop.gls", "per_step_gradients.gls", "parallel_layers.gls",
                             "gradient_none.gls"})
      QTest::newRow(name) << QString(name);
  }
  void lessonsAgreeAtClassroomPreset() {
    QFETCH(QString, lesson);
    const auto p = traceLesson(lesson.toStdString(), lang::ParamPreset::Classroom);
    const auto [serial, fused] = runSerialAndFused(p);
    int groups = 0;
    for (const VariantRun& v : fused.variants) groups += v.run.fusedGroups;
    QVERIFY2(groups > 0, "nothing was fused");
  }

  // Forward and reverse ODE loops run element-major, and the gradient is the closed form.
  void odeLoopRunsElementMajor() {
    const int steps = 40;
    const double dt = 0.1;
    const auto p = traceLesson("ode_while_loop.gls", lang::ParamPreset::Classroom,
                               {{"steps", steps}, {"dt", dt}});
    const auto [serial, fused] = runSerialAndFused(p);
    for (const VariantRun& v : fused.variants) {
      if (v.name != "vectorized") continue;
      const LoopFusion* fwd = loopNote(v, false, *p.graph);
      const LoopFusion* rev = loopNote(v, true, *p.graph);
      QVERIFY(fwd && rev);
      QVERIFY2(fwd->elementMajor, fwd->reason.c_str());
      QVERIFY2(rev->elementMajor, rev->reason.c_str());
      QCOMPARE(fwd->iterations, int64_t(steps));
      QCOMPARE(rev->iterations, int64_t(steps));
      const OutputResult* out = nullptr;
      for (const OutputResult& o : v.outputs)
        if (o.name == "fx_grads") out = &o;
      QVERIFY(out);
      const Tensor& grad = out->entries.at(0).value.t;
      for (int64_t i = 0; i < grad.numel(); ++i)
        QVERIFY(std::abs(grad.at(i) - std::pow(1 - dt, steps)) < 1e-5);
      const std::string text = reportText(p, fused, fusedSettings());
      QVERIFY2(text.find("element-major, 40 iterations") != std::string::npos, text.c_str());
    }
  }

  // The trip count reads x: the loop runs step by step, and the run says why.
  void dataDependentTripCountFallsBack() {
    const auto p = traceScript(
        "x = tf.ones([3, 70]) * 5.0\n"
        "with tf.GradientTape() as tape:\n"
        "    tape.watch(x)\n"
        "    y = tf.while_loop(lambda v: tf.reduce_sum(v) > 1.0, lambda v: v * 0.5 + 0.01 * v,"
        " [x])\n"
        "    loss = tf.reduce_sum(y[0])\n"
        "g = tape.gradient(loss, x)\n");
    const auto [serial, fused] = runSerialAndFused(p);
    const VariantRun& v = fused.variants.at(0);
    const LoopFusion* fwd = loopNote(v, false, *p.graph);
    QVERIFY(fwd);
    QVERIFY(!fwd->elementMajor);
    QVERIFY2(fwd->reason.find("the trip count depends on the carried values") != std::string::npos,
             fwd->reason.c_str());
    const std::string text = reportText(p, fused, fusedSettings());
    QVERIFY2(text.find("fallback: runs step by step") != std::string::npos, text.c_str());
  }

  // Two carried tensors and two control variables (a counter and a float scalar). Without a
  // gradient the loop runs element-major; with one, tanh, maximum and square need their
  // forward values per iteration, so it runs step by step and says so.
  void elementMajorWithTwoCarriedTensors() {
    const std::string loop =
        "    i, s, x, y = tf.while_loop(lambda i, s, x, y: i < 25,\n"
        "        lambda i, s, x, y: (i + 1, s * 1.5, tf.tanh(x) * 0.9 + y * 0.1,"
        " tf.maximum(y, x) - 0.01 * tf.square(x)),\n"
        "        [tf.constant(0), tf.constant(1.0), a, b])\n"
        "    loss = tf.reduce_sum(x * y) + s\n";
    const std::string head =
        "a = tf.linspace(0.1, 2.0, 300)\n"
        "b = tf.ones([300]) * 0.5\n";
    const auto plain = traceScript(head + "if True:\n" + loop);
    {
      const auto [serial, fused] = runSerialAndFused(plain);
      const LoopFusion* fwd = loopNote(fused.variants.at(0), false, *plain.graph);
      QVERIFY(fwd);
      QVERIFY2(fwd->elementMajor, fwd->reason.c_str());
      QCOMPARE(fwd->iterations, int64_t(25));
    }
    const auto taped =
        traceScript(head +
                    "with tf.GradientTape(persistent=True) as tape:\n"
                    "    tape.watch(a)\n"
                    "    tape.watch(b)\n" +
                    loop + "ga = tape.gradient(loss, a)\ngb = tape.gradient(loss, b)\n");
    const auto [serial, fused] = runSerialAndFused(taped);
    const LoopFusion* fwd = loopNote(fused.variants.at(0), false, *taped.graph);
    QVERIFY(fwd);
    QVERIFY(!fwd->elementMajor);
    QVERIFY2(fwd->reason.find("saved per iteration") != std::string::npos, fwd->reason.c_str());
  }

  // Allocations per iteration of a loop the fused executor runs step by step (its body holds a
  // reduction) with a fused group inside, and of an element-major loop, measured as the
  // difference between 150 and 50 iterations.
  void allocationsPerIteration() {
    if (!gl::testing::countsAllocations())
      QSKIP("ThreadSanitizer's operator new cannot be replaced to count allocations");
    auto perIteration = [](const std::string& body, bool fused) {
      int64_t counts[2] = {0, 0};
      const int trips[2] = {50, 150};
      for (int k = 0; k < 2; ++k) {
        const auto p = traceScript(
            "x = tf.ones([4, 300]) * 0.5\n"
            "y = tf.while_loop(lambda i, v: i < " +
            std::to_string(trips[k]) + ", lambda i, v: (i + 1, " + body +
            "), [tf.constant(0), x])\n");
        RunRequest s = fused ? fusedSettings() : RunRequest{};
        s.options.records = false;
        s.options.timeline = false;
        s.options.valueRecords = false;
        runProgram(p, s);  // warm: pools and per-thread scratch
        const int64_t before = gl::testing::heapAllocations();
        const ProgramRun r = runProgram(p, s);
        counts[k] = gl::testing::heapAllocations() - before;
        if (!r.ok()) fail("run failed");
      }
      return double(counts[1] - counts[0]) / 100.0;
    };
    const std::string stepwise = "tf.tanh(v) * 0.9 + 0.01 * v - tf.reduce_mean(v)";
    const double serial = perIteration(stepwise, false), fused = perIteration(stepwise, true);
    const std::string elementwise = "tf.tanh(v) * 0.9 + 0.01 * v";
    const double serialEw = perIteration(elementwise, false);
    const double elementMajor = perIteration(elementwise, true);
    qInfo(
        "allocations per iteration: step by step serial %.1f fused %.1f; elementwise body "
        "serial %.1f element-major %.1f",
        serial, fused, serialEw, elementMajor);
    // The fused group's intermediates are block registers, not tensors.
    QVERIFY(fused < serial);
    // Element-major: only the counter's slice (i < n, i + 1) allocates per iteration.
    QVERIFY(elementMajor < serialEw / 2);
  }

  // log of a negative value: both executors name the same op and line as the first NaN, inside
  // a fused group and inside an element-major loop.
  void numericsFaultAgrees() {
    const auto p = traceScript(
        "x = tf.linspace(-1.0, 1.0, 64)\n"
        "y = tf.exp(tf.log(x) * 2.0) + 1.0\n"
        "z = tf.while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, tf.sqrt(v - 1.5) + v), "
        "[tf.constant(0), tf.abs(x)])\n");
    const auto [fa, fb] = firstFaults(p);
    QVERIFY(fa.found());
    QVERIFY(fb.found());
    QCOMPARE(fb.node, fa.node);
    QCOMPARE(fb.op, fa.op);
    QCOMPARE(fb.loc.line, 2);
    QCOMPARE(fb.nanCount, fa.nanCount);
  }

  // The first NaN inside an element-major loop: the loop reruns step by step and names the
  // same op and iteration as the serial executor.
  void numericsFaultInLoopAgrees() {
    const auto p = traceScript(
        "x = tf.linspace(1.0, 3.0, 64)\n"
        "z = tf.while_loop(lambda i, v: i < 9, lambda i, v: (i + 1, tf.sqrt(v - 0.9) * 1.2), "
        "[tf.constant(0), x])\n");
    const auto [fa, fb] = firstFaults(p);
    QVERIFY(fa.found());
    QVERIFY(fb.found());
    QCOMPARE(fb.node, fa.node);
    QCOMPARE(fb.iteration, fa.iteration);
    const ProgramRun b = runProgram(p, fusedSettings());
    const LoopFusion* fwd = loopNote(b.variants.at(0), false, *p.graph);
    QVERIFY(fwd && !fwd->elementMajor);
    QVERIFY2(fwd->reason.find("NaN") != std::string::npos, fwd->reason.c_str());
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestFused)
#include "test_fused.moc"
