// Reverse mode against closed forms: loops, per-step products, cond, map_fn, TensorArrays,
// nested loops and tapes inside loop bodies. Every graph also runs on both executors.
#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/autodiff/backprop.h"
#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"
#include "engine/transform/independent_iterations.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

namespace {

// The ODE lesson: x' = -x + 1, Euler steps, N steps of dt.
Value odeLoop(Builder& b, Value x, int steps, double dt) {
  Value zero = b.scalar(0, DType::I32);
  Value n = b.scalar(steps, DType::I32);
  auto outs = whileLoop(
      b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
      [&](Builder& bb, const std::vector<Value>& v) {
        Value y = v[1];
        Value step = o::add(bb, y,
                            o::mul(bb, bb.scalar(dt, bb.type(y).dtype),
                                   o::add(bb, o::neg(bb, y), bb.scalar(1, bb.type(y).dtype))));
        return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)), step};
      },
      {zero, x});
  return outs[1];
}

}  // namespace

class TestAutodiff : public QObject {
  Q_OBJECT
 private slots:
  void odeClosedForm() {
    for (int steps : {1, 7, 50}) {
      Graph g;
      Builder b(g);
      Value x = b.constant(Rng(1).normal({3, 4}, 10, 1, DType::F64), "x");
      GradientTape tape(b);
      tape.watch(x);
      Value y = o::reduceSum(b, odeLoop(b, x, steps, 0.1));
      tape.stop();
      GradResult r = tape.gradient(y, {x});
      QVERIFY(r.grads[0].valid());
      auto vals = gltest::runEveryExecutor(g, {r.grads[0], y}, 1e-12);
      for (double v : vals[0].toVector()) QVERIFY(std::abs(v - std::pow(0.9, steps)) < 1e-12);
    }
  }

  // The ODE body's VJPs need no forward value: nothing is saved, memory does not grow.
  void odeSavesNothing() {
    size_t peaks[2];
    int i = 0;
    for (int steps : {10, 2000}) {
      Graph g;
      Builder b(g);
      Value x = b.constant(Tensor::full(DType::F32, {10, 500}, 10.0), "x");
      GradientTape tape(b);
      tape.watch(x);
      Value y = o::reduceSum(b, odeLoop(b, x, steps, 0.1));
      tape.stop();
      Value dx = tape.gradient(y, {x}).grads[0];
      RunOptions opt;
      opt.records = false;
      Executor ex(g, opt);
      RunResult r = ex.run({dx});
      QCOMPARE(r.savedBytes, size_t(0));
      QVERIFY(std::abs(r.values[0].t.at(0) - std::pow(0.9, steps)) < 1e-4);
      peaks[i++] = r.peakBytes;
    }
    QVERIFY2(peaks[1] <= peaks[0] + 64 * 1024,
             qPrintable(QString("peak grew from %1 to %2").arg(peaks[0]).arg(peaks[1])));
  }

  // Elementwise ops write into an input that dies with them (KernelContext::forwardable): the
  // ODE's [10, 5000] step then holds three such tensors at its peak, besides x, instead of four.
  void odeStepsWriteIntoDyingBuffers() {
    Graph g;
    Builder b(g);
    Value x = b.constant(Tensor::full(DType::F32, {10, 5000}, 10.0), "x");
    GradientTape tape(b);
    tape.watch(x);
    Value y = o::reduceSum(b, odeLoop(b, x, 50, 0.1));
    tape.stop();
    Value dx = tape.gradient(y, {x}).grads[0];
    RunOptions opt;
    opt.records = false;
    opt.valueRecords = false;
    RunResult r = Executor(g, opt).run({dx});
    QVERIFY(std::abs(r.values[0].t.at(0) - std::pow(0.9, 50)) < 1e-4);
    const size_t tensor = 10 * 5000 * sizeof(float);
    QVERIFY2(r.peakBytes < 4.5 * double(tensor),
             qPrintable(QString("peak %1 bytes, %2 per tensor").arg(r.peakBytes).arg(tensor)));
  }

  // Values read again later, read twice by one node, recorded, or held by the graph keep their
  // contents when a later op writes in place; only the last reader gets the buffer.
  void writingInPlaceKeepsEveryValueStillRead() {
    Graph g;
    Builder b(g);
    Value x = b.constant(Tensor::fromVector({1, 2, 3, 4}, {4}, DType::F64), "x");
    Value y = o::add(b, x, b.scalar(1, DType::F64));  // 2 3 4 5; x is the graph's
    Value sq = o::mul(b, y, y);                       // one node reads y twice
    Value dif = o::sub(b, sq, y);                     // y's last use: sub may take its buffer
    Value neg = o::neg(b, dif);
    Value back = o::add(b, neg, sq);  // = y, sq read again after dif and neg
    Value twice = o::add(b, back, back);
    for (bool records : {false, true}) {
      RunOptions opt;
      opt.valueRecords = records;
      RunResult r = Executor(g, opt).run({twice, x});
      const std::vector<double> out = r.values[0].t.toVector();
      const std::vector<double> kept = r.values[1].t.toVector();
      for (int i = 0; i < 4; ++i) {
        QCOMPARE(out[size_t(i)], 2.0 * (i + 2));
        QCOMPARE(kept[size_t(i)], double(i + 1));
      }
      if (!records) continue;
      // The recorded square is y^2, not what a later op wrote over it.
      const TensorRecord& rec = r.valueRecords.at(sq);
      QCOMPARE(rec.min, 4.0);
      QCOMPARE(rec.max, 25.0);
    }
    auto both = gltest::runEveryExecutor(g, {twice}, 0);
    QCOMPARE(both[0].at(3), 10.0);
  }

  // Constants in a loop body are read from the executor's table, not from a slot: one whose
  // last reader is an elementwise op (which may write into a dying input) keeps its contents
  // for every iteration and every run, on one thread and on two.
  void loopBodyConstantsKeepTheirValues() {
    Graph g;
    Builder b(g);
    Value x = b.constant(Tensor::fromVector({1, 2, 3, 4}, {4}, DType::F64), "x");
    Value n = b.scalar(5, DType::I32);
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [&](Builder& bb, const std::vector<Value>& v) {
          const Value step = bb.constant(Tensor::fromVector({0.5, 1, 2, 4}, {4}, DType::F64));
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                    o::add(bb, v[1], o::mul(bb, step, bb.scalar(2.0, DType::F64)))};
        },
        {b.scalar(0, DType::I32), x});
    for (bool records : {false, true}) {
      RunOptions opt;
      opt.valueRecords = records;
      for (int run = 0; run < 2; ++run) {
        const std::vector<double> y = Executor(g, opt).run({outs[1]}).values[0].t.toVector();
        const double steps[] = {0.5, 1, 2, 4};
        for (int i = 0; i < 4; ++i) QCOMPARE(y[size_t(i)], (i + 1) + 10 * steps[i]);
      }
    }
    auto both = gltest::runEveryExecutor(g, {outs[1]}, 0);
    QCOMPARE(both[0].at(3), 44.0);
  }

  // A body whose VJP needs x (y = x * x) saves one tensor per iteration.
  void nonlinearBodySavesPerIteration() {
    Graph g;
    Builder b(g);
    Value x = b.constant(Tensor::full(DType::F64, {4}, 1.01), "x");
    GradientTape tape(b);
    tape.watch(x);
    Value n = b.scalar(5, DType::I32);
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [&](Builder& bb, const std::vector<Value>& v) {
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                    o::mul(bb, v[1], v[1])};
        },
        {b.scalar(0, DType::I32), x});
    Value y = o::reduceSum(b, outs[1]);
    tape.stop();
    Value dx = tape.gradient(y, {x}).grads[0];
    Executor ex(g);
    RunResult r = ex.run({dx});
    QCOMPARE(r.savedBytes, size_t(5 * 4 * 8));
    // y = x^(2^5): dy/dx = 32 x^31
    QVERIFY(std::abs(r.values[0].t.at(0) - 32 * std::pow(1.01, 31)) < 1e-9);
  }

  // x_t = x_{t-1} * w_t: d x_t / d w_k = x_t / w_k for k <= t, else 0.
  void perStepGradients() {
    const int T = 6;
    Graph g;
    Builder b(g);
    Tensor wInit = Rng(3).uniform({T}, 0.5, 1.5, DType::F64);
    Value w = b.variable(wInit, "w");
    Value x0 = b.constant(Tensor::scalar(2.0, DType::F64), "x0");
    GradientTape tape(b, /*persistent=*/true);
    Value ta =
        b.op1("list_new", {}, Attrs{{"dtype", std::string("float64")}, {"size", int64_t(T)}});
    Value n = b.scalar(T, DType::I32);
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [&](Builder& bb, const std::vector<Value>& v) {
          Value wt = o::gather(bb, w, v[0]);
          Value xt = o::mul(bb, v[1], wt);
          Value ta2 = bb.op1("list_write", {v[2], v[0], xt});
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)), xt, ta2};
        },
        {b.scalar(0, DType::I32), x0, ta});
    Value xs = b.op1("list_stack", {outs[2]}, Attrs{{"size", int64_t(T)}});
    std::vector<Value> rows;
    for (int t = 0; t < T; ++t)
      rows.push_back(tape.gradient(o::gather(b, xs, b.scalar(t, DType::I32)), {w}).grads[0]);
    Value J = tape.jacobian(xs, {w}).grads[0];
    tape.stop();
    std::vector<Value> fetch = rows;
    fetch.push_back(J);
    fetch.push_back(xs);
    auto vals = gltest::runEveryExecutor(g, fetch, 1e-12);
    const Tensor& xv = vals[T + 1];
    for (int t = 0; t < T; ++t)
      for (int k = 0; k < T; ++k) {
        const double expect = k <= t ? xv.at(t) / wInit.at(k) : 0.0;
        QVERIFY(std::abs(vals[size_t(t)].at(k) - expect) < 1e-12);
        QVERIFY(std::abs(vals[size_t(T)].at(t * T + k) - expect) < 1e-12);
      }
  }

  void condMatchesUnrolled() {
    for (double sign : {1.0, -1.0}) {
      Graph g;
      Builder b(g);
      Value x = b.variable(
          Tensor::fromVector({0.3 * sign, 0.7 * sign, 1.1 * sign}, {3}, DType::F64), "x");
      Value w = b.variable(Tensor::fromVector({1.5, -0.5, 2.0}, {3}, DType::F64), "w");
      GradientTape tape(b, true);
      Value pred = o::greater(b, o::reduceSum(b, x), b.scalar(0, DType::F64));
      Value c = cond(
          b, pred, [&](Builder& bb) { return std::vector<Value>{o::mul(bb, o::mul(bb, x, x), w)}; },
          [&](Builder& bb) { return std::vector<Value>{o::mul(bb, o::sin(bb, x), w)}; })[0];
      Value y = o::reduceSum(b, c);
      Value direct = sign > 0 ? o::reduceSum(b, o::mul(b, o::mul(b, x, x), w))
                              : o::reduceSum(b, o::mul(b, o::sin(b, x), w));
      tape.stop();
      auto g1 = tape.gradient(y, {x, w}).grads;
      auto g2 = tape.gradient(direct, {x, w}).grads;
      auto vals = gltest::runEveryExecutor(g, {g1[0], g1[1], g2[0], g2[1]}, 1e-12);
      QVERIFY(gltest::maxAbsDiff(vals[0], vals[2]) < 1e-12);
      QVERIFY(gltest::maxAbsDiff(vals[1], vals[3]) < 1e-12);
    }
  }

  // A loop variable the body hands back unchanged, and a branch returning a captured value
  // as is, carry their adjoint once (seed-d's while_loop passes the logits through).
  void passThroughValuesCountOnce() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({0.5, -1.0, 2.0}, {3}, DType::F64), "x");
    GradientTape tape(b, true);
    Value three = b.scalar(3, DType::I32);
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], three); },
        [&](Builder& bb, const std::vector<Value>& v) {
          Value term = o::mul(bb, o::gather(bb, v[1], v[0]), v[2]);
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)), v[1],
                                    o::add(bb, v[2], term)};
        },
        {b.scalar(0, DType::I32), x, b.scalar(1.0, DType::F64)});
    // acc = prod_k (1 + x_k) so d acc / d x_k = acc / (1 + x_k); the carried x adds its own 1.
    Value y = o::add(b, outs[2], o::reduceSum(b, outs[1]));
    Value pred = o::greater(b, o::reduceSum(b, x), b.scalar(0, DType::F64));
    Value c = cond(
        b, pred, [&](Builder&) { return std::vector<Value>{x}; },
        [&](Builder& bb) { return std::vector<Value>{o::neg(bb, x)}; })[0];
    Value z = o::reduceSum(b, c);
    // map_fn(lambda row: row, m) and map_fn(lambda row: x, m): identity and capture as is.
    Value m = b.variable(Tensor::fromVector({1, 2, 3, 4, 5, 6}, {2, 3}, DType::F64), "m");
    auto mapped = mapFn(b,
                        [&](Builder&, const std::vector<Value>& p) {
                          return std::vector<Value>{p[0], x};
                        },
                        {m});
    Value u = o::add(b, o::reduceSum(b, mapped[0]), o::reduceSum(b, mapped[1]));
    tape.stop();
    auto gy = tape.gradient(y, {x}).grads[0];
    auto gz = tape.gradient(z, {x}).grads[0];
    auto gu = tape.gradient(u, {m, x}).grads;
    auto vals = gltest::runEveryExecutor(g, {gy, gz, gu[0], gu[1]}, 1e-12);
    for (int k = 0; k < 6; ++k) QCOMPARE(vals[2].at(k), 1.0);
    for (int k = 0; k < 3; ++k) QCOMPARE(vals[3].at(k), 2.0);  // two rows read x once each
    // acc = (1 + 0.5)(1 - 1)(1 + 2): each partial leaves its own factor out.
    const double expect[3] = {0.0 * 3.0 + 1, 1.5 * 3.0 + 1, 1.5 * 0.0 + 1};
    for (int k = 0; k < 3; ++k) QVERIFY2(std::abs(vals[0].at(k) - expect[k]) < 1e-12, "while");
    for (int k = 0; k < 3; ++k) QCOMPARE(vals[1].at(k), 1.0);
  }

  void mapFnMatchesUnrolled() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Rng(5).normal({5, 3}, 0, 1, DType::F64), "x");
    Value w = b.variable(Rng(6).normal({3}, 0, 1, DType::F64), "w");
    GradientTape tape(b, true);
    Value m =
        mapFn(b,
              [&](Builder& bb, const std::vector<Value>& row) {
                return std::vector<Value>{o::reduceSum(bb, o::mul(bb, o::sin(bb, row[0]), w))};
              },
              {x})[0];
    Value y = o::reduceSum(b, o::square(b, m));
    Value direct = o::reduceSum(b, o::square(b, o::reduceSum(b, o::mul(b, o::sin(b, x), w), {1})));
    tape.stop();
    auto g1 = tape.gradient(y, {x, w}).grads;
    auto g2 = tape.gradient(direct, {x, w}).grads;
    auto vals = gltest::runEveryExecutor(g, {g1[0], g1[1], g2[0], g2[1], y, direct}, 1e-12);
    QVERIFY(gltest::maxAbsDiff(vals[4], vals[5]) < 1e-12);
    QVERIFY(gltest::maxAbsDiff(vals[0], vals[2]) < 1e-12);
    QVERIFY(gltest::maxAbsDiff(vals[1], vals[3]) < 1e-12);
  }

  void tensorArrayRoundTrip() {
    Graph g;
    Builder b(g);
    Tensor xv = Rng(8).normal({4, 2}, 0, 1, DType::F64);
    Value x = b.variable(xv, "x");
    GradientTape tape(b);
    Value ta = b.op1("list_unstack", {x});
    Value r2 = b.op1("list_read", {ta, b.scalar(2, DType::I32)});
    Value back = b.op1("list_stack", {ta}, Attrs{{"size", int64_t(4)}});
    Value gathered =
        b.op1("list_gather", {ta, b.constant(Tensor::fromVector({3, 3, 0}, {3}, DType::I32))});
    Value y = o::add(b, o::reduceSum(b, o::mul(b, back, back)),
                     o::add(b, o::reduceSum(b, r2), o::reduceSum(b, gathered)));
    tape.stop();
    Value dx = tape.gradient(y, {x}).grads[0];
    auto vals = gltest::runEveryExecutor(g, {back, r2, dx}, 1e-12);
    QVERIFY(gltest::maxAbsDiff(vals[0], xv) == 0);
    QCOMPARE(vals[1].at(1), xv.at(5));
    // d/dx: 2x, +1 on row 2, +2 on row 3, +1 on row 0
    const double extra[4] = {1, 0, 1, 2};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j)
        QVERIFY(std::abs(vals[2].at(i * 2 + j) - (2 * xv.at(i * 2 + j) + extra[i])) < 1e-12);
  }

  // Outer loop of 3, inner loop of 4, x *= a inside: y = x a^12.
  void nestedLoops() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({1.5, -2.0}, {2}, DType::F64), "x");
    Value a = b.variable(Tensor::scalar(1.1, DType::F64), "a");
    GradientTape tape(b);
    auto counter = [](Builder& bb, int n) {
      Value lim = bb.scalar(n, DType::I32);
      return [lim](Builder& b2, const std::vector<Value>& v) { return o::less(b2, v[0], lim); };
    };
    auto outer =
        whileLoop(b, counter(b, 3),
                  [&](Builder& bb, const std::vector<Value>& v) {
                    auto inner = whileLoop(bb, counter(bb, 4),
                                           [&](Builder& b2, const std::vector<Value>& u) {
                                             return std::vector<Value>{
                                                 o::add(b2, u[0], b2.scalar(1, DType::I32)),
                                                 o::mul(b2, u[1], a)};
                                           },
                                           {bb.scalar(0, DType::I32), v[1]});
                    return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)), inner[1]};
                  },
                  {b.scalar(0, DType::I32), x});
    Value y = o::reduceSum(b, outer[1]);
    tape.stop();
    auto gr = tape.gradient(y, {x, a}).grads;
    auto vals = gltest::runEveryExecutor(g, {gr[0], gr[1]}, 1e-12);
    QVERIFY(std::abs(vals[0].at(0) - std::pow(1.1, 12)) < 1e-12);
    QVERIFY(std::abs(vals[1].at(0) - 12 * (1.5 - 2.0) * std::pow(1.1, 11)) < 1e-10);
  }

  // Seed-a: per-sample tapes inside a while_loop, each writing its gradient to a TensorArray.
  void tapeInsideLoopBody() {
    const int B = 4, steps = 30;
    Graph g;
    Builder b(g);
    Value x = b.constant(Rng(2).normal({B, 6}, 10, 1, DType::F32), "x");
    Value ta =
        b.op1("list_new", {}, Attrs{{"dtype", std::string("float32")}, {"size", int64_t(B)}});
    Value n = b.scalar(B, DType::I32);
    WhileOptions opt;
    opt.parallelIterations = 4;
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [&](Builder& bb, const std::vector<Value>& v) {
          Value xi = o::gather(bb, x, v[0]);
          GradientTape tape(bb);
          tape.watch(xi);
          Value lnp = o::reduceSum(bb, odeLoop(bb, xi, steps, 0.1));
          tape.stop();
          Value gi = tape.gradient(lnp, {xi}).grads[0];
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                    bb.op1("list_write", {v[1], v[0], gi})};
        },
        {b.scalar(0, DType::I32), ta}, opt);
    // Its iterations are independent: the parallel executor runs them concurrently.
    QVERIFY(independentIterations(g, g.node(outs[0].node)).marked());
    markIndependentIterations(g);
    Value grads = b.op1("list_stack", {outs[1]}, Attrs{{"size", int64_t(B)}});
    auto vals = gltest::runEveryExecutor(g, {grads}, 1e-6);
    QCOMPARE(vals[0].shape(), (Shape{B, 6}));
    for (double v : vals[0].toVector()) QVERIFY(std::abs(v - std::pow(0.9, steps)) < 1e-5);
  }

  void persistentAndNonPersistentTapes() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::scalar(3.0, DType::F64), "x");
    GradientTape once(b);
    GradientTape many(b, true);
    Value y = o::mul(b, x, x);
    Value z = o::mul(b, y, x);
    once.stop();
    many.stop();
    Value dy = many.gradient(y, {x}).grads[0];
    Value dz = many.gradient(z, {x}).grads[0];
    Value dz1 = once.gradient(z, {x}).grads[0];
    QVERIFY_THROWS_EXCEPTION(EngineError, once.gradient(y, {x}));
    auto vals = gltest::runEveryExecutor(g, {dy, dz, dz1});
    QCOMPARE(vals[0].item(), 6.0);
    QCOMPARE(vals[1].item(), 27.0);
    QCOMPARE(vals[2].item(), 27.0);
  }

  void unconnectedZero() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({1, 2}, {2}, DType::F64), "x");
    Value u = b.variable(Tensor::fromVector({1, 2, 3}, {3}, DType::F64), "u");
    GradientTape tape(b);
    Value y = o::reduceSum(b, o::square(b, x));
    tape.stop();
    GradResult r = tape.gradient(y, {u}, Unconnected::Zero);
    QVERIFY(r.grads[0].valid());
    QVERIFY(!r.why[0].text.empty());
    auto vals = gltest::runEveryExecutor(g, {r.grads[0]});
    QCOMPARE(vals[0].toVector(), (std::vector<double>{0, 0, 0}));
  }

  // The step-through records: loop-carried values per iteration, adjoints after a gradient.
  void iterationRecords() {
    Graph g;
    Builder b(g);
    Value x = b.constant(Tensor::fromVector({10, 20}, {2}, DType::F64), "x");
    GradientTape tape(b);
    tape.watch(x);
    Value last = odeLoop(b, x, 5, 0.1);
    Value y = o::reduceSum(b, last);
    tape.stop();
    Value dx = tape.gradient(y, {x}).grads[0];
    Executor ex(g);
    RunResult r = ex.run({dx});
    const int loop = last.node;
    QVERIFY(r.loops.count(loop));
    const LoopRecord& rec = r.loops.at(loop);
    QCOMPARE(rec.iterations, int64_t(5));
    QCOMPARE(rec.carried.size(), size_t(6));
    for (int t = 0; t <= 5; ++t) {
      const double expect = 1 + (10 - 1) * std::pow(0.9, t);
      QVERIFY(std::abs(rec.carried[size_t(t)][1].full.at(0) - expect) < 1e-12);
      QCOMPARE(rec.carried[size_t(t)][0].full.at(0), double(t));
    }
    QCOMPARE(rec.adjoints.size(), size_t(6));
    for (int t = 0; t <= 5; ++t) {
      const auto& row = rec.adjoints[size_t(t)];
      QVERIFY(row.size() >= 2);
      QVERIFY(std::abs(row[1].full.at(0) - std::pow(0.9, 5 - t)) < 1e-12);
    }
  }
  // Each gradient query visits only its target's ancestors: T queries on T slices of one
  // output stay linear in T (seed-b's backward_passes variant), and the values are unchanged.
  void gradientQueriesVisitOnlyAncestors() {
    Graph g;
    Builder b(g);
    const std::vector<double> w0{1.5, -2.0, 3.0, 0.5};
    Value w = b.constant(Tensor::fromVector(w0, {4}, DType::F64), "w");
    GradientTape tape(b, /*persistent=*/true);
    tape.watch(w);
    Value y = o::mul(b, w, w);  // y_i = w_i^2
    std::vector<Value> parts;
    for (int64_t i = 0; i < 4; ++i) parts.push_back(o::slice(b, y, {i}, {1}));
    tape.stop();
    for (size_t i = 0; i < parts.size(); ++i) {
      BackpropRequest req;
      req.targets = {parts[i]};
      req.sources = {w};
      const PathAnalysis p = analyzePaths(g, req);
      // w, y and this slice (with the slice's own attribute inputs, if any), never the others.
      for (size_t j = 0; j < parts.size(); ++j)
        if (j != i)
          QVERIFY(std::find(p.nodes.begin(), p.nodes.end(), parts[j].node) == p.nodes.end());
      QVERIFY(std::find(p.nodes.begin(), p.nodes.end(), y.node) != p.nodes.end());
      Value dw = tape.gradient(parts[i], {w}).grads[0];
      QVERIFY(dw.valid());
      const std::vector<double> got = gltest::runEveryExecutor(g, {dw}, 1e-12)[0].toVector();
      for (size_t k = 0; k < w0.size(); ++k)
        QCOMPARE(got[k], k == i ? 2 * w0[k] : 0.0);  // d(w_i^2)/dw_k
    }
  }
  // kernels[n] (slice) and gather along axis 0 have adjoints that are dense only on their
  // rows; their sum is one scatter_add of all the rows (control/row_slices.h), not one dense
  // tensor per read (seed-c's Python list of layers made 64 of 32 MB each). Values: a closed
  // form, with a row gathered twice.
  // A classifier head, conv2d(x, f, b) -> global average pool -> loss: the filter and bias
  // gradients read the pool's gradient [N, O] (conv2d_backprop_filter_pooled, no broadcast
  // tensor), and match central differences of the loss.
  void convPoolHeadReadsThePooledGradient() {
    Graph g;
    Builder b(g);
    Rng rng(21);
    const Value x = b.constant(rng.normal({2, 9, 8, 3}, 0, 1, DType::F64), "x");
    const Value f = b.variable(rng.normal({3, 3, 3, 4}, 0, 0.5, DType::F64), "f");
    const Value bias = b.variable(rng.normal({4}, 0, 0.5, DType::F64), "bias");
    GradientTape tape(b);
    auto lossOf = [&](Value filter, Value bv) {
      const Value pooled = o::globalAvgPool(b, o::conv2d(b, x, filter, {1, 1}, "VALID", bv));
      return o::reduceSum(b, o::mul(b, pooled, o::sin(b, pooled)));
    };
    const Value loss = lossOf(f, bias);
    tape.stop();
    const std::vector<Value> grads = tape.gradient(loss, {f, bias}).grads;
    int pooledNodes = 0, broadcasts = 0;
    std::set<int> seen;
    std::vector<int> stack{grads[0].node, grads[1].node};
    while (!stack.empty()) {
      const int id = stack.back();
      stack.pop_back();
      if (!seen.insert(id).second) continue;
      const Node& n = g.node(id);
      pooledNodes += n.is(NodeKind::Primitive) && n.prim->name == "conv2d_backprop_filter_pooled";
      broadcasts += runs(n, prims::globalAvgPoolGrad());
      for (Value in : n.inputs) stack.push_back(in.node);
    }
    QCOMPARE(pooledNodes, 1);
    QCOMPARE(broadcasts, 0);
    const std::vector<Tensor> v = gltest::runEveryExecutor(g, {grads[0], grads[1], f, bias}, 1e-10);
    const Tensor &df = v[0], &db = v[1], &f0 = v[2], &b0 = v[3];
    auto lossAt = [&](const Tensor& fv, const Tensor& bv) {
      return evaluate(g, {lossOf(b.constant(fv), b.constant(bv))}).at(0).item();
    };
    const double h = 1e-5;
    for (int64_t i = 0; i < f0.numel(); i += 7) {
      Tensor up = f0.clone(), down = f0.clone();
      up.set(i, f0.at(i) + h);
      down.set(i, f0.at(i) - h);
      const double fd = (lossAt(up, b0) - lossAt(down, b0)) / (2 * h);
      QVERIFY2(std::abs(fd - df.at(i)) < 1e-7, qPrintable(QString("df[%1]").arg(i)));
    }
    for (int64_t i = 0; i < 4; ++i) {
      Tensor up = b0.clone(), down = b0.clone();
      up.set(i, b0.at(i) + h);
      down.set(i, b0.at(i) - h);
      const double fd = (lossAt(f0, up) - lossAt(f0, down)) / (2 * h);
      QVERIFY2(std::abs(fd - db.at(i)) < 1e-7, qPrintable(QString("db[%1]").arg(i)));
    }
  }

  void rowSparseAdjointsSumAsOneScatter() {
    Graph g;
    Builder b(g);
    const Value k = b.variable(Rng(3).normal({4, 3}, 0, 1, DType::F64), "k");
    GradientTape tape(b);
    Value loss = b.scalar(0, DType::F64);
    for (int64_t n = 0; n < 4; ++n) {
      const Value row = o::squeeze(b, o::slice(b, k, {n, 0}, {1, 3}), {0});
      loss = o::add(b, loss, o::reduceSum(b, o::scale(b, row, double(n + 1))));
    }
    const Value idx = b.constant(Tensor::fromVector({2, 2, 0}, {3}, DType::I32));
    loss = o::add(b, loss, o::scale(b, o::reduceSum(b, o::gather(b, k, idx)), 10.0));
    tape.stop();
    const Value dk = tape.gradient(loss, {k}).grads[0];
    QVERIFY(dk.valid());
    const Tensor v = gltest::runEveryExecutor(g, {dk}, 1e-12)[0];
    const double rowGrad[4] = {1 + 10, 2, 3 + 20, 4};
    for (int64_t i = 0; i < 12; ++i) QCOMPARE(v.at(i), rowGrad[i / 3]);
    // What the gradient runs: one scatter_add and no pad.
    std::set<int> seen;
    std::vector<int> stack{dk.node};
    int scatters = 0, pads = 0;
    while (!stack.empty()) {
      const int id = stack.back();
      stack.pop_back();
      if (!seen.insert(id).second) continue;
      const Node& n = g.node(id);
      scatters += runs(n, prims::scatterAdd());
      pads += runs(n, prims::pad());
      for (Value in : n.inputs) stack.push_back(in.node);
    }
    QCOMPARE(scatters, 1);
    QCOMPARE(pads, 0);
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestAutodiff)
#include "test_autodiff.moc"
