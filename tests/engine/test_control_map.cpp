// map_fn's summed outputs (engine/control/map.cpp): outputs that add the iterations' results as
// they finish instead of stacking them, and reverse mode's use of them for the adjoints of
// captured values. Values against closed forms and central differences, on the serial, the
// parallel (2 and 3 threads) and the fused executor; the gradient graph holds no [N, weight...]
// tensor of per-iteration adjoints.
#include "test_main.h"

#include <cmath>
#include <set>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"
#include "helpers.h"
#include "ops/fd_check.h"

using namespace gl;
namespace o = gl::ops;

namespace {

// The executors every test compares: each kind (gltest::everyExecutor, two threads where
// they use threads: an even split of the iterations), and parallel again with an uneven one.
std::vector<std::pair<QString, RunOptions>> executors() {
  std::vector<std::pair<QString, RunOptions>> out;
  for (const RunOptions& opt : gltest::everyExecutor())
    out.push_back({QString::fromLatin1(executorName(opt.executor)), opt});
  RunOptions three = gltest::onExecutor(ExecutorKind::Parallel);
  three.threads = 3;
  out.push_back({QStringLiteral("parallel/3"), three});
  return out;
}

// Every node the values depend on.
std::set<int> ancestors(const Graph& g, const std::vector<Value>& of) {
  std::set<int> seen;
  std::vector<int> stack;
  for (Value v : of) stack.push_back(v.node);
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second) continue;
    const Node& n = g.node(id);
    for (Value in : n.inputs) stack.push_back(in.node);
    for (Value in : n.captures) stack.push_back(in.node);
    for (int r : n.regions)
      for (int inner : g.region(r).nodes) stack.push_back(inner);
  }
  return seen;
}

// Nodes among `ids` with an output of type `shape`.
int nodesOfShape(const Graph& g, const std::set<int>& ids, const Shape& shape) {
  int count = 0;
  for (int id : ids)
    for (const TypeInfo& t : g.node(id).outputs) count += !t.list && t.shape == shape;
  return count;
}

// loss = sum_i sum(sin(x_i W)^2) for x [N, 4], W [4, 3], through map_fn(row -> sin(row W)).
struct CapturedWeight {
  static constexpr int64_t N = 6;
  Graph g;
  Builder b{g};
  Value x = b.placeholder(DType::F64, {N, 4}, "x");
  Value w = b.placeholder(DType::F64, {4, 3}, "W");
  Tensor x0 = Rng(31).normal({N, 4}, 0, 1, DType::F64);
  Tensor w0 = Rng(32).normal({4, 3}, 0, 0.5, DType::F64);

  Value loss(Builder& bb) {
    const Value rows = mapFn(bb,
                             [&](Builder& in, const std::vector<Value>& r) {
                               const Value row = o::expandDims(in, r[0], 0);
                               return std::vector<Value>{o::sin(in, o::matmul(in, row, w))};
                             },
                             {x})[0];
    return o::reduceSum(bb, o::square(bb, rows));
  }
  RunOptions fed(RunOptions opt) const {
    opt.feeds[x.node] = x0;
    opt.feeds[w.node] = w0;
    return opt;
  }
};

}  // namespace

class TestControlMap : public QObject {
  Q_OBJECT
 private slots:
  // map_fn(row -> (2 row, row^2)) with the second output summed: [N, 3] and [3], the column
  // sums of squares; the same on every executor, and the same bits on a repeated parallel run.
  void summedOutputAddsTheIterations() {
    Graph g;
    Builder b(g);
    const Tensor x0 = Rng(7).normal({5, 3}, 0, 1, DType::F64);
    const Value x = b.constant(x0, "x");
    const std::vector<Value> outs =
        mapFn(b,
              [&](Builder& bb, const std::vector<Value>& r) {
                return std::vector<Value>{o::scale(bb, r[0], 2.0), o::square(bb, r[0])};
              },
              {x}, kDefaultParallelIterations, {false, true});
    QCOMPARE(g.type(outs[0]).shape, (Shape{5, 3}));
    QCOMPARE(g.type(outs[1]).shape, (Shape{3}));
    const Node& m = g.node(outs[1]);
    QVERIFY(!m.control.summedOutput(0));
    QVERIFY(m.control.summedOutput(1));
    for (const auto& [name, opt] : executors()) {
      const std::vector<Tensor> v = evaluate(g, outs, opt);
      QCOMPARE(v[1].shape(), (Shape{3}));
      for (int64_t j = 0; j < 3; ++j) {
        double sum = 0;
        for (int64_t i = 0; i < 5; ++i) sum += x0.at(i * 3 + j) * x0.at(i * 3 + j);
        QVERIFY2(std::abs(v[1].at(j) - sum) < 1e-12, qPrintable(name));
      }
      for (int64_t k = 0; k < 15; ++k) QCOMPARE(v[0].at(k), 2 * x0.at(k));
      // A given thread count adds in a fixed order: the same bits every run.
      const std::vector<Tensor> again = evaluate(g, outs, opt);
      for (int64_t j = 0; j < 3; ++j) QCOMPARE(again[1].at(j), v[1].at(j));
    }
  }

  // Over no elements a summed output is zeros of the body result's type.
  void summedOutputOfAnEmptyMapIsZero() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(Tensor::zeros(DType::F32, {0, 4}), "x");
    const std::vector<Value> outs = mapFn(b,
                                          [&](Builder& bb, const std::vector<Value>& r) {
                                            return std::vector<Value>{o::exp(bb, r[0])};
                                          },
                                          {x}, kDefaultParallelIterations, {true});
    for (const auto& [name, opt] : executors()) {
      const Tensor v = evaluate(g, outs, opt).at(0);
      QCOMPARE(v.shape(), (Shape{4}));
      for (int64_t j = 0; j < 4; ++j) QCOMPARE(v.at(j), 0.0);
    }
  }

  // dloss/dW and dloss/dx against central differences on every executor. The reverse map sums
  // W's adjoint as it goes: no [N, 4, 3] tensor and no reduce_sum over the map's output.
  void capturedWeightGradientMatchesFiniteDifferences() {
    CapturedWeight s;
    GradientTape tape(s.b);
    tape.watch(s.w);
    tape.watch(s.x);
    const Value loss = s.loss(s.b);
    tape.stop();
    const std::vector<Value> grads = tape.gradient(loss, {s.w, s.x}).grads;
    QVERIFY(grads[0].valid() && grads[1].valid());
    const Node& reverse = s.g.node(grads[0]);
    QVERIFY(reverse.is(NodeKind::Map));
    QVERIFY(reverse.control.summedOutput(size_t(grads[0].index)));
    QCOMPARE(s.g.type(grads[0]).shape, (Shape{4, 3}));
    const std::set<int> gradNodes = ancestors(s.g, grads);
    QCOMPARE(nodesOfShape(s.g, gradNodes, {CapturedWeight::N, 4, 3}), 0);
    const Primitive& reduceSum = Registry::instance().get("sum");
    for (int id : gradNodes) {
      const Node& n = s.g.node(id);
      if (runs(n, reduceSum)) QVERIFY(!s.g.node(n.inputs[0]).is(NodeKind::Map));
    }
    for (const auto& [name, opt] : executors()) {
      const std::vector<Tensor> v = evaluate(s.g, grads, s.fed(opt));
      gltest_ops::expectFiniteDifferences(s.g, loss, {s.w, s.x}, {s.w0, s.x0}, v, s.fed(opt),
                                          "map_fn over W, " + name, {0, 1});
      if (QTest::currentTestFailed()) return;
    }
  }

  // The gradient of a gradient: h = sum(dloss/dW ^ 2) differentiated through the reverse map,
  // whose summed output's adjoint reaches every iteration whole. dh/dW and dh/dx against
  // central differences of h.
  void gradientOfCapturedWeightGradient() {
    CapturedWeight s;
    GradientTape outer(s.b, true);
    outer.watch(s.w);
    outer.watch(s.x);
    GradientTape inner(s.b);
    inner.watch(s.w);
    const Value loss = s.loss(s.b);
    inner.stop();
    const Value dw = inner.gradient(loss, {s.w}).grads.at(0);
    QVERIFY(dw.valid());
    const Value h = o::reduceSum(s.b, o::square(s.b, dw));
    outer.stop();
    const std::vector<Value> grads = outer.gradient(h, {s.w, s.x}).grads;
    QVERIFY(grads[0].valid() && grads[1].valid());
    const std::set<int> gradNodes = ancestors(s.g, grads);
    QCOMPARE(nodesOfShape(s.g, gradNodes, {CapturedWeight::N, 4, 3}), 0);
    for (const auto& [name, opt] : executors()) {
      const std::vector<Tensor> v = evaluate(s.g, grads, s.fed(opt));
      gltest_ops::expectFiniteDifferences(s.g, h, {s.w, s.x}, {s.w0, s.x0}, v, s.fed(opt),
                                          "second order, " + name, {0, 1});
      if (QTest::currentTestFailed()) return;
    }
  }

  // vectorized_map over examples e [K, 3], each taking d/dW of sum(map_fn(r -> sin(r W))^2):
  // the batched reverse map sums over its K iterations per lane, not over the lanes, and reads
  // what the batched forward map saved for it (sin's input).
  // dW_b = sum_k 2 sin(e_bk W) cos(e_bk W) e_bk = sum_k sin(2 e_bk W) e_bk.
  void vectorizedMapOfCapturedWeightGradient() {
    const int64_t B = 4, K = 5;
    Graph g;
    Builder b(g);
    const Tensor e0 = Rng(41).normal({B, K, 3}, 0, 1, DType::F64);
    const Tensor w0 = Rng(42).normal({3}, 0, 1, DType::F64);
    const Value e = b.constant(e0, "e");
    const Value w = b.variable(w0, "W");
    const VectorizedMap vm = vectorizedMap(
        b,
        [&](Builder& bb, const std::vector<Value>& ex) {
          GradientTape tape(bb);
          const Value m = mapFn(bb,
                                [&](Builder& in, const std::vector<Value>& r) {
                                  return std::vector<Value>{o::sin(in, o::mul(in, r[0], w))};
                                },
                                {ex[0]})[0];
          const Value loss = o::reduceSum(bb, o::square(bb, m));
          tape.stop();
          return std::vector<Value>{tape.gradient(loss, {w}).grads.at(0)};
        },
        {e}, /*fallbackToLoop=*/false);
    QVERIFY(vm.fallbacks.empty());
    QCOMPARE(g.type(vm.outputs[0]).shape, (Shape{B, 3}));
    // The batched reverse map itself gives the per-lane sums: a summed output of type [B, 3].
    const Node& reverse = g.node(vm.outputs[0]);
    QVERIFY(reverse.is(NodeKind::Map) && reverse.control.summedOutput(size_t(vm.outputs[0].index)));
    for (const auto& [name, opt] : executors()) {
      const Tensor v = evaluate(g, vm.outputs, opt).at(0);
      for (int64_t l = 0; l < B; ++l)
        for (int64_t j = 0; j < 3; ++j) {
          double want = 0;
          for (int64_t k = 0; k < K; ++k) {
            const double ek = e0.at((l * K + k) * 3 + j);
            want += std::sin(2 * ek * w0.at(j)) * ek;
          }
          QVERIFY2(std::abs(v.at(l * 3 + j) - want) < 1e-12,
                   qPrintable(QString("%1 lane %2 [%3]: %4 vs %5")
                                  .arg(name)
                                  .arg(l)
                                  .arg(j)
                                  .arg(v.at(l * 3 + j))
                                  .arg(want)));
        }
    }
  }

  // A jacobian through map_fn over a captured W batches the reverse map over the identity's
  // rows (pfor): the same as the row loop, and each row's W adjoint summed over the map only.
  void pforJacobianThroughCapturedWeight() {
    CapturedWeight s;
    GradientTape tape(s.b, true);
    tape.watch(s.w);
    const Value rows = mapFn(s.b,
                             [&](Builder& in, const std::vector<Value>& r) {
                               const Value row = o::expandDims(in, r[0], 0);
                               return std::vector<Value>{o::sin(in, o::matmul(in, row, s.w))};
                             },
                             {s.x})[0];
    const Value y = o::reduceSum(s.b, rows, {0});  // [1, 3]
    tape.stop();
    const Value pfor = tape.jacobian(y, {s.w}, Unconnected::None, 10, true).grads.at(0);
    const Value loop = tape.jacobian(y, {s.w}, Unconnected::None, 10, false).grads.at(0);
    QCOMPARE(s.g.type(pfor).shape, (Shape{1, 3, 4, 3}));
    const Tensor xw = evaluate(s.g, {o::matmul(s.b, s.x, s.w)}, s.fed({})).at(0);
    for (const auto& [name, opt] : executors()) {
      const std::vector<Tensor> v = evaluate(s.g, {pfor, loop}, s.fed(opt));
      QVERIFY2(gltest::maxAbsDiff(v[0], v[1]) < 1e-12, qPrintable(name));
      // dy_j / dW_aj = sum_i cos((x_i W)_j) x_ia; zero off the column j.
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t a = 0; a < 4; ++a)
          for (int64_t c = 0; c < 3; ++c) {
            double want = 0;
            for (int64_t i = 0; c == j && i < CapturedWeight::N; ++i)
              want += std::cos(xw.at(i * 3 + j)) * s.x0.at(i * 4 + a);
            QVERIFY2(std::abs(v[0].at((j * 4 + a) * 3 + c) - want) < 1e-12, qPrintable(name));
          }
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestControlMap)
#include "test_control_map.moc"
