// Control-flow kinds as registry entries, the independent-iterations pass, the executor's
// parallelFor, and the scan kind (tf.scan, tf.foldl, tf.foldr): values in order and reversed,
// gradients against central differences, a gradient of a gradient, its loop records.
#include "test_main.h"

#include <atomic>
#include <cmath>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/exec/executor.h"
#include "engine/exec/parallel_for.h"
#include "engine/lab/session.h"
#include "engine/ops/api.h"
#include "engine/transform/independent_iterations.h"
#include "helpers.h"
#include "ops/fd_check.h"

using namespace gl;
namespace o = gl::ops;

namespace {

Value newList(Builder& b, int64_t size) {
  return b.op1("list_new", {}, Attrs{{"dtype", std::string("float32")}, {"size", size}});
}

// for i in range(n): ta = ta.write(i, sin(x[i]) * step), with `step` chosen per test.
struct PerSampleLoop {
  Graph g;
  Builder b{g};
  Value x, stacked;
  int loop = -1;
};

enum class Body { Independent, ReadsList, StepsByTwo, Accumulates, Prints };

void buildLoop(PerSampleLoop& s, Body kind, int64_t n = 6) {
  Builder& b = s.b;
  s.x = b.constant(Tensor::fromVector({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {6}, DType::F32), "x");
  const Value limit = b.scalar(double(n), DType::I32);
  auto outs = whileLoop(
      b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], limit); },
      [&](Builder& bb, const std::vector<Value>& v) {
        Value y = o::sin(bb, o::gather(bb, s.x, v[0]));
        if (kind == Body::ReadsList) y = o::add(bb, y, bb.op1("list_read", {v[1], v[0]}));
        if (kind == Body::Prints) bb.print({y}, "y");
        const Value step = bb.scalar(kind == Body::StepsByTwo ? 2 : 1, DType::I32);
        Value acc = kind == Body::Accumulates ? o::add(bb, v[2], y) : v[2];
        return std::vector<Value>{o::add(bb, v[0], step), bb.op1("list_write", {v[1], v[0], y}),
                                  acc};
      },
      {b.scalar(0, DType::I32), newList(b, n), b.scalar(0.0, DType::F32)});
  s.loop = outs[0].node;
  s.stacked = b.op1("list_stack", {outs[1]}, Attrs{{"size", n}});
}

// A scan over x [N] in float64: carry c' = tanh(w c + x_t) (w a captured scalar), stacked
// y_t = c' * x_t; returns {final c, stacked y}.
std::vector<Value> tanhScan(Builder& b, Value c0, Value x, Value w, bool reverse) {
  ScanOptions opt;
  opt.reverse = reverse;
  return scan(
      b,
      [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
        const Value next = o::tanh(bb, o::add(bb, o::mul(bb, w, c[0]), xt[0]));
        return ScanStep{{next}, {o::mul(bb, next, xt[0])}};
      },
      {c0}, {x}, opt);
}

// c' = 2 c + x_t over [1, 2, 3] from 0: the order shows (foldl 11, foldr 17).
std::vector<Value> affineFold(Builder& b, bool reverse, bool stacked) {
  const Value x = b.constant(Tensor::fromVector({1, 2, 3}, {3}, DType::F32), "x");
  ScanOptions opt;
  opt.reverse = reverse;
  return scan(
      b,
      [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
        const Value next = o::add(bb, o::scale(bb, c[0], 2.0), xt[0]);
        return ScanStep{{next}, stacked ? std::vector<Value>{next} : std::vector<Value>{}};
      },
      {b.scalar(0.0)}, {x}, opt);
}

}  // namespace

class TestControl : public QObject {
  Q_OBJECT
 private slots:
  void everyControlKindHasACompleteEntry() {
    QCOMPARE(controlKinds().size(), size_t(4));
    for (NodeKind k : {NodeKind::While, NodeKind::Map, NodeKind::Cond, NodeKind::Scan}) {
      const ControlKind* c = findControlKind(k);
      QVERIFY2(c, std::string(kindName(k)).c_str());
      QCOMPARE(c->kind, k);
      QVERIFY(c->execute && c->vjp);
      QVERIFY(!c->userName.empty());
      QVERIFY2(c->math.find('\n') != std::string_view::npos, std::string(kindName(k)).c_str());
      QVERIFY(isControlFlow(k));
    }
    QCOMPARE(controlKind(NodeKind::While).userName, std::string_view("while_loop"));
    QCOMPARE(controlKind(NodeKind::Map).userName, std::string_view("map_fn"));
    QCOMPARE(controlKind(NodeKind::Cond).badge, std::string_view("if/else"));
    QCOMPARE(controlKind(NodeKind::Scan).userName, std::string_view("scan"));
    QCOMPARE(controlKind(NodeKind::Scan).badge, std::string_view("scan"));
    QVERIFY(controlKind(NodeKind::Scan).batch);
    // Only loops keep adjoint records to decode; only loops and maps save per iteration.
    QVERIFY(controlKind(NodeKind::While).edgeAdjoints);
    QVERIFY(controlKind(NodeKind::Scan).edgeAdjoints);
    QVERIFY(isIterationBody(RegionKind::ScanBody) && isLoopBody(RegionKind::ScanBody));
    QVERIFY(!isIterationBody(RegionKind::WhileCond));
    for (const ControlKind* c : controlKinds())
      QCOMPARE(savesPerIteration(c->kind), c->kind != NodeKind::Cond);
    for (NodeKind k : {NodeKind::Primitive, NodeKind::Const, NodeKind::Variable,
                       NodeKind::Placeholder, NodeKind::Param, NodeKind::Print}) {
      QVERIFY(!findControlKind(k));
      QVERIFY(!isControlFlow(k));
      QVERIFY_THROWS_EXCEPTION(EngineError, controlKind(k));
    }
  }

  void displayNamesComeFromTheEntry() {
    PerSampleLoop s;
    buildLoop(s, Body::Independent);
    QCOMPARE(displayName(s.g.node(s.loop)), std::string_view("while_loop"));
    QCOMPARE(displayName(s.g.node(s.stacked)), std::string_view("list_stack"));
    // One scan kind, named as the user wrote it: results stacked (scan) or not (foldl, and
    // foldr when reversed).
    Graph g;
    Builder b(g);
    QCOMPARE(displayName(g.node(affineFold(b, false, true)[0])), std::string_view("scan"));
    QCOMPARE(displayName(g.node(affineFold(b, true, true)[0])), std::string_view("scan"));
    QCOMPARE(displayName(g.node(affineFold(b, false, false)[0])), std::string_view("foldl"));
    QCOMPARE(displayName(g.node(affineFold(b, true, false)[0])), std::string_view("foldr"));
    QCOMPARE(kindName(NodeKind::Scan), std::string_view("scan"));
    QCOMPARE(regionKindName(RegionKind::ScanBody), std::string_view("scan_body"));
  }

  // c' = 2 c + x_t over [1, 2, 3] from 0: in order 1, 4, 11; reversed (element 2 first)
  // 3, 8, 17, row t holding the value after element t: [17, 8, 3].
  void scanRunsTheElementsInOrderOrReversed() {
    Graph g;
    Builder b(g);
    const std::vector<Value> fwd = affineFold(b, false, true), rev = affineFold(b, true, true);
    const std::vector<Value> foldl = affineFold(b, false, false),
                             foldr = affineFold(b, true, false);
    QCOMPARE(fwd.size(), size_t(2));
    QCOMPARE(foldl.size(), size_t(1));
    QCOMPARE(g.type(fwd[1]).shape, (Shape{3}));
    QCOMPARE(g.type(foldl[0]).shape, (Shape{}));
    const auto v =
        gltest::runEveryExecutor(g, {fwd[0], fwd[1], rev[0], rev[1], foldl[0], foldr[0]}, 0);
    QCOMPARE(v[0].item(), 11.0);
    QCOMPARE(v[1].at(0), 1.0);
    QCOMPARE(v[1].at(1), 4.0);
    QCOMPARE(v[1].at(2), 11.0);
    QCOMPARE(v[2].item(), 17.0);
    QCOMPARE(v[3].at(0), 17.0);
    QCOMPARE(v[3].at(1), 8.0);
    QCOMPARE(v[3].at(2), 3.0);
    QCOMPARE(v[4].item(), 11.0);
    QCOMPARE(v[5].item(), 17.0);
    // The fusing executor runs it too.
    RunOptions fused;
    fused.executor = ExecutorKind::Fused;
    fused.threads = 2;
    QCOMPARE(evaluate(g, {foldr[0]}, fused)[0].item(), 17.0);
  }

  // Zero elements: the carry passes through, the stacked results have no rows.
  void scanOverNoElements() {
    Graph g;
    Builder b(g);
    const Value x = b.placeholder(DType::F32, {-1, 2}, "x");
    const std::vector<Value> outs =
        scan(b,
             [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
               const Value next = o::add(bb, c[0], xt[0]);
               return ScanStep{{next}, {next}};
             },
             {b.constant(Tensor::fromVector({5, 6}, {2}, DType::F32))}, {x});
    QCOMPARE(g.type(outs[1]).shape, (Shape{-1, 2}));
    RunOptions opt;
    opt.feeds[x.node] = Tensor::zeros(DType::F32, {0, 2});
    const auto v = evaluate(g, outs, opt);
    QCOMPARE(v[0].shape(), (Shape{2}));
    QCOMPARE(v[0].at(1), 6.0);
    QCOMPARE(v[1].shape(), (Shape{0, 2}));
  }

  void scanRejectsABodyThatChangesItsCarry() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(Tensor::fromVector({1, 2, 3}, {3}, DType::F32), "x");
    const std::string err = gltest::errorText([&] {
      scan(b,
           [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
             return ScanStep{{o::stack(bb, {c[0], xt[0]})}, {}};
           },
           {b.scalar(0.0)}, {x});
    });
    QVERIFY2(err.find("changes carried value 0") != std::string::npos, err.c_str());
    QVERIFY(gltest::errorText([&] { scan(b, {}, {}, {b.scalar(1.0)}); }).find("first axis") !=
            std::string::npos);
  }

  // d/d(x, c0, w) of sum(sin(y)) + final^2 against central differences, in order and reversed,
  // on the serial, parallel and fusing executors.
  void scanGradientsMatchFiniteDifferences() {
    for (const bool reverse : {false, true}) {
      Graph g;
      Builder b(g);
      const Value x = b.placeholder(DType::F64, {5}, "x");
      const Value c0 = b.placeholder(DType::F64, {}, "c0");
      const Value w = b.placeholder(DType::F64, {}, "w");
      GradientTape tape(b);
      for (Value v : {x, c0, w}) tape.watch(v);
      const std::vector<Value> outs = tanhScan(b, c0, x, w, reverse);
      const Value loss = o::add(b, o::reduceSum(b, o::sin(b, outs[1])), o::square(b, outs[0]));
      tape.stop();
      const std::vector<Value> grads = tape.gradient(loss, {x, c0, w}).grads;
      for (Value gv : grads) QVERIFY(gv.valid());
      // The reverse is a scan the other way, recorded against the forward one.
      int reverseScan = -1;
      for (const Node& n : g.nodes())
        if (n.is(NodeKind::Scan) && n.forwardNode == outs[0].node) reverseScan = n.id;
      QVERIFY(reverseScan >= 0);
      QCOMPARE(g.node(reverseScan).control.reverse, !reverse);
      RunOptions opt;
      const std::vector<Tensor> base{
          Tensor::fromVector({0.3, -0.7, 1.1, 0.2, -0.4}, {5}, DType::F64),
          Tensor::scalar(0.25, DType::F64), Tensor::scalar(0.8, DType::F64)};
      for (size_t k = 0; k < 3; ++k) opt.feeds[std::vector<Value>{x, c0, w}[k].node] = base[k];
      const std::vector<Tensor> sym = gltest::runEveryExecutor(g, grads, 1e-12, opt);
      gltest_ops::expectFiniteDifferences(g, loss, {x, c0, w}, base, sym, opt,
                                          reverse ? "reversed scan" : "scan", {0, 1, 2});
      RunOptions fused = opt;
      fused.executor = ExecutorKind::Fused;
      fused.threads = 2;
      const std::vector<Tensor> viaFused = evaluate(g, grads, fused);
      for (size_t k = 0; k < 3; ++k) QVERIFY(gltest::maxAbsDiff(viaFused[k], sym[k]) < 1e-12);
    }
  }

  // f(w) = final carry of c' = c * w over 4 elements from c0 = 3: 3 w^4; f'' = 36 w^2, through
  // the reverse scan's own reverse.
  void scanGradientOfAGradient() {
    Graph g;
    Builder b(g);
    const Value w = b.variable(Tensor::scalar(1.5, DType::F64), "w");
    const Value x = b.constant(Tensor::zeros(DType::F64, {4}), "x");
    GradientTape outer(b);
    GradientTape inner(b);
    const Value f =
        scan(b,
             [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
               return ScanStep{{o::add(bb, o::mul(bb, c[0], w), xt[0])}, {}};
             },
             {b.scalar(3.0, DType::F64)}, {x})[0];
    inner.stop();
    const Value df = inner.gradient(f, {w}).grads[0];
    outer.stop();
    const Value d2f = outer.gradient(df, {w}).grads[0];
    QVERIFY(d2f.valid());
    const auto v = gltest::runEveryExecutor(g, {f, df, d2f}, 1e-12);
    QVERIFY(std::abs(v[0].item() - 3 * std::pow(1.5, 4)) < 1e-12);
    QVERIFY(std::abs(v[1].item() - 12 * std::pow(1.5, 3)) < 1e-12);
    QVERIFY(std::abs(v[2].item() - 36 * std::pow(1.5, 2)) < 1e-12);
  }

  // h = sum(dloss/dx ^ 2) + (dloss/dw)^2 through the reverse scan, differentiated again (the
  // forward scan's saved values get adjoints), against central differences of h.
  void scanSecondOrderMatchesFiniteDifferences() {
    for (const bool reverse : {false, true}) {
      Graph g;
      Builder b(g);
      const Value x = b.placeholder(DType::F64, {4}, "x");
      const Value w = b.placeholder(DType::F64, {}, "w");
      GradientTape outer(b, true);
      outer.watch(x);
      outer.watch(w);
      GradientTape inner(b);
      inner.watch(x);
      inner.watch(w);
      const std::vector<Value> outs = tanhScan(b, b.scalar(0.1, DType::F64), x, w, reverse);
      const Value loss = o::add(b, o::reduceSum(b, o::sin(b, outs[1])), o::square(b, outs[0]));
      inner.stop();
      const std::vector<Value> d = inner.gradient(loss, {x, w}).grads;
      const Value h = o::add(b, o::reduceSum(b, o::square(b, d[0])), o::square(b, d[1]));
      outer.stop();
      const std::vector<Value> grads = outer.gradient(h, {x, w}).grads;
      QVERIFY(grads[0].valid() && grads[1].valid());
      RunOptions opt;
      const std::vector<Tensor> base{Tensor::fromVector({0.3, -0.7, 1.1, 0.2}, {4}, DType::F64),
                                     Tensor::scalar(0.8, DType::F64)};
      opt.feeds[x.node] = base[0];
      opt.feeds[w.node] = base[1];
      const std::vector<Tensor> sym = gltest::runEveryExecutor(g, grads, 1e-12, opt);
      gltest_ops::expectFiniteDifferences(g, h, {x, w}, base, sym, opt,
                                          reverse ? "reversed, second order" : "second order",
                                          {0, 1});
      if (QTest::currentTestFailed()) return;
    }
  }

  // Records: the carried values per step in the order the elements ran, the adjoints filled by
  // the reverse scan, and the edge adjoints decoded from them.
  void scanKeepsLoopRecords() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(Tensor::fromVector({1, 2, 3}, {3}, DType::F64), "x");
    const Value w = b.variable(Tensor::scalar(2.0, DType::F64), "w");
    GradientTape tape(b);
    ScanOptions opt;
    opt.reverse = true;
    // c' = c + w x_t from 0, elements 2, 1, 0: carried 0, 6, 10, 12.
    const std::vector<Value> outs = scan(
        b,
        [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
          return ScanStep{{o::add(bb, c[0], o::mul(bb, w, xt[0]))}, {}};
        },
        {b.scalar(0.0, DType::F64)}, {x}, opt);
    const Value loss = o::scale(b, outs[0], 5.0);
    tape.stop();
    const Value dw = tape.gradient(loss, {w}).grads[0];
    Executor ex(g, RunOptions{});
    const RunResult r = ex.run({loss, dw});
    QCOMPARE(r.values[1].t.item(), 30.0);  // 5 (1 + 2 + 3)
    const int scanId = outs[0].node;
    QVERIFY(r.loops.count(scanId));
    const LoopRecord& rec = r.loops.at(scanId);
    QCOMPARE(rec.iterations, int64_t(3));
    QCOMPARE(rec.width, size_t(1));
    QCOMPARE(rec.carried.size(), size_t(4));
    const std::vector<double> carried{0, 6, 10, 12};
    for (size_t s = 0; s < 4; ++s) QCOMPARE(rec.carried[s][0].head.at(0), carried[s]);
    // d loss / d c is 5 at every step boundary.
    QCOMPARE(rec.adjoints.size(), size_t(4));
    for (size_t s = 0; s < 4; ++s) {
      QCOMPARE(rec.adjoints[s].size(), size_t(1));
      QCOMPARE(rec.adjoints[s][0].l2, 5.0);
    }
    std::map<Value, double> norms;
    controlKind(NodeKind::Scan).edgeAdjoints(g, g.node(scanId), rec, 1, norms);
    const Region& body = g.region(g.node(scanId).regions[0]);
    QCOMPARE(norms.at(body.params[0]), 5.0);
    QCOMPARE(norms.at(body.results[0]), 5.0);
    QCOMPARE(norms.at(outs[0]), 5.0);
    // A carried value stacked too (tf.scan's) takes its row's adjoint besides the carried one,
    // which the record does not hold: the overlay leaves that edge out.
    GradientTape tape2(b);
    const std::vector<Value> cum =
        scan(b,
             [&](Builder& bb, const std::vector<Value>& c, const std::vector<Value>& xt) {
               const Value next = o::add(bb, c[0], o::mul(bb, w, xt[0]));
               return ScanStep{{next}, {next}};
             },
             {b.scalar(0.0, DType::F64)}, {x});
    const Value total = o::reduceSum(b, cum[1]);
    tape2.stop();
    const Value dw2 = tape2.gradient(total, {w}).grads[0];
    Executor ex2(g, RunOptions{});
    const RunResult r2 = ex2.run({dw2});
    QCOMPARE(r2.values[0].t.item(), 1.0 * 3 + 2.0 * 2 + 3.0 * 1);
    const LoopRecord& rec2 = r2.loops.at(cum[1].node);
    QCOMPARE(rec2.adjoints.size(), size_t(4));
    std::map<Value, double> norms2;
    controlKind(NodeKind::Scan).edgeAdjoints(g, g.node(cum[1].node), rec2, 1, norms2);
    const Region& body2 = g.region(g.node(cum[1].node).regions[0]);
    QVERIFY(norms2.count(body2.params[0]));
    QVERIFY(!norms2.count(body2.results[0]));
  }

  void perSampleLoopIsMarkedIndependent() {
    PerSampleLoop s;
    buildLoop(s, Body::Independent);
    const IndependentIterations ind = independentIterations(s.g, s.g.node(s.loop));
    QVERIFY(ind.marked());
    QCOMPARE(ind.counter, 0);
    QCOMPARE(ind.constantLimit, 0.0);  // the bound is a value from outside the loop
    QVERIFY(ind.limit.valid());
    QCOMPARE(ind.writes.size(), size_t(3));
    QVERIFY(ind.writes[1] >= 0);
    QCOMPARE(ind.writes[2], -1);  // passes through
    QCOMPARE(markIndependentIterations(s.g), 1);
    QVERIFY(s.g.node(s.loop).control.independent.marked());
  }

  void dependentLoopsAreNotMarked() {
    for (Body kind : {Body::ReadsList, Body::StepsByTwo, Body::Accumulates, Body::Prints}) {
      PerSampleLoop s;
      buildLoop(s, kind);
      QVERIFY2(!independentIterations(s.g, s.g.node(s.loop)).marked(),
               QByteArray::number(int(kind)).constData());
      QCOMPARE(markIndependentIterations(s.g), 0);
    }
  }

  void reverseLoopsAreNotMarked() {
    PerSampleLoop s;
    buildLoop(s, Body::Accumulates);
    Value x = s.b.variable(Tensor::scalar(0.5, DType::F32), "w");
    GradientTape tape(s.b);
    auto outs = whileLoop(
        s.b,
        [&](Builder& bb, const std::vector<Value>& v) {
          return o::less(bb, v[0], bb.scalar(3, DType::I32));
        },
        [&](Builder& bb, const std::vector<Value>& v) {
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                    o::mul(bb, v[1], x)};
        },
        {s.b.scalar(0, DType::I32), s.b.scalar(2.0, DType::F32)});
    tape.stop();
    const Value dx = tape.gradient(outs[1], {x}).grads[0];
    QVERIFY(dx.valid());
    int reverse = -1;
    for (const Node& n : s.g.nodes())
      if (n.forwardNode == outs[1].node) reverse = n.id;
    QVERIFY(reverse >= 0);
    QVERIFY(!independentIterations(s.g, s.g.node(reverse)).marked());
    // d/dx 2 x^3 = 6 x^2
    QCOMPARE(evaluate(s.g, {dx})[0].at(0), 6 * 0.25);
  }

  // RunResult::primitiveOps counts every executed primitive, each loop iteration again: the
  // top level's once, the condition's n + 1 times, the body's n times (bench's us/op).
  void runCountsEveryExecutedPrimitive() {
    for (const int64_t n : {int64_t(3), int64_t(6)}) {
      PerSampleLoop s;
      buildLoop(s, Body::Accumulates, n);
      auto primitivesIn = [&](int region) {
        int64_t count = 0;
        for (const Node& node : s.g.nodes())
          if (node.region == region && node.is(NodeKind::Primitive)) ++count;
        return count;
      };
      const Node& loop = s.g.node(s.loop);
      const int64_t expected = primitivesIn(0) + (n + 1) * primitivesIn(loop.regions[0]) +
                               n * primitivesIn(loop.regions[1]);
      QVERIFY(primitivesIn(loop.regions[1]) >= 4);
      for (const RunOptions& options : gltest::everyExecutor()) {
        Executor ex(s.g, options);
        QCOMPARE(ex.run({s.stacked}).primitiveOps, expected);
        QCOMPARE(ex.run({s.stacked}).primitiveOps, expected);  // per run, not cumulative
      }
    }
  }
  // Loop bodies hand their op counts to the frame that ran the loop, and it adds them to the
  // run's total in batches: per-sample inner loops running on two threads at once still count
  // every op once, and the ops limit still stops them.
  void parallelNestedLoopsCountEveryOpOnce() {
    const char* script = R"(
x = tf.ones([400, 8])
def per_sample(i, grads):
    def step(j, v):
        return j + 1, v * 0.5 + 1.0
    _, v = tf.while_loop(lambda j, v: j < 20, step, [tf.constant(0), x[i]])
    return i + 1, grads.write(i, v)
_, grads = tf.while_loop(lambda i, grads: i < 400, per_sample,
                         [tf.constant(0), tf.TensorArray(tf.float32, size=400)],
                         parallel_iterations=8)
y = grads.stack()
)";
    const lang::TracedProgram p = lang::traceProgram(script, "nested.gls", lang::TraceOptions{});
    // One thread and two take the same path (the loop's iterations are independent: no
    // condition ops per iteration, unlike the serial executor's loop).
    std::vector<int64_t> counts;
    for (const int threads : {1, 2}) {
      lab::RunRequest s;
      s.options.executor = ExecutorKind::Parallel;
      s.options.threads = threads;
      const lab::ProgramRun r = lab::runProgram(p, s);
      QVERIFY2(r.ok(), r.variants.at(0).error.c_str());
      QVERIFY(std::abs(r.variants[0].run.values.back().t.at(0) - 2.0) < 1e-5);  // v -> 2
      counts.push_back(r.variants[0].run.primitiveOps);
    }
    // Per sample 21 compares, 20 x (j + 1, v * 0.5, + 1.0), x[i], i + 1 and the write; three
    // ops at the top level.
    QCOMPARE(counts[0], int64_t(400 * (21 + 20 * 3 + 3) + 3));
    QCOMPARE(counts[1], counts[0]);
    lab::RunRequest limited;
    limited.options.executor = ExecutorKind::Parallel;
    limited.options.threads = 2;
    limited.options.maxOps = 20000;  // reached after about 240 samples
    const lab::ProgramRun stopped = lab::runProgram(p, limited);
    QVERIFY(!stopped.ok());
    QVERIFY2(stopped.variants.at(0).error.find("the run executed more than 20000 ops") !=
                 std::string::npos,
             stopped.variants[0].error.c_str());
  }

  void markedLoopRunsInParallelWithTheSameNumbers() {
    PerSampleLoop s;
    buildLoop(s, Body::Independent);
    QCOMPARE(markIndependentIterations(s.g), 1);
    const auto vals = gltest::runEveryExecutor(s.g, {s.stacked}, 0.0);
    QCOMPARE(vals[0].shape(), (Shape{6}));
    for (int i = 0; i < 6; ++i) QVERIFY(std::abs(vals[0].at(i) - std::sin(0.1 * (i + 1))) < 1e-6);
  }

  void parallelLoopReportsTheBodysError() {
    // Iteration 6 gathers past the end of x: that iteration's error (not a crash, not a hang)
    // reaches the caller, on both executors.
    PerSampleLoop s;
    buildLoop(s, Body::Independent, 7);
    QCOMPARE(markIndependentIterations(s.g), 1);
    for (const RunOptions& opt : gltest::everyExecutor()) {
      try {
        evaluate(s.g, {s.stacked}, opt);
        QFAIL("expected an error");
      } catch (const EngineError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains("gather"), e.what());
      }
    }
  }

  void parallelForRunsEveryIndexOnce() {
    std::vector<std::atomic<int>> hits(1000);
    parallelFor(1000, 2, [&](int64_t i) { hits[size_t(i)]++; });
    for (const auto& h : hits) QCOMPARE(h.load(), 1);
  }

  void parallelForRethrowsTheFirstErrorAndStops() {
    std::atomic<int64_t> ran{0};
    try {
      parallelFor(100000, 2, [&](int64_t i) {
        ++ran;
        if (i == 3) throw EngineError("iteration 3 failed");
      });
      QFAIL("expected the iteration's error");
    } catch (const EngineError& e) {
      QCOMPARE(std::string(e.what()), std::string("iteration 3 failed"));
    }
    // The others stop taking work once one failed.
    QVERIFY(ran.load() < 100000);
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestControl)
#include "test_control.moc"
