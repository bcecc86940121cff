// map_fn's summed outputs (engine/control/map.cpp): outputs that add the iterations' results as
// they finish instead of stacking them. Values against closed forms on the serial, the parallel
// (2 and 3 threads) and the fused executor.
#include <QtTest>

#include <cmath>

#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

namespace {

// The executors every test compares: serial, parallel with an even and an uneven split of the
// iterations, fused.
std::vector<std::pair<QString, RunOptions>> executors() {
  RunOptions serial, two, three, fused;
  two.parallel = three.parallel = true;
  two.threads = 2;
  three.threads = 3;
  fused.fused = true;
  fused.threads = 2;
  return {{"serial", serial}, {"parallel/2", two}, {"parallel/3", three}, {"fused", fused}};
}

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
};

QTEST_APPLESS_MAIN(TestControlMap)
#include "test_control_map.moc"
