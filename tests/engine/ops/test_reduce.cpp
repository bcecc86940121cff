// Forward kernels and shape rules of the reductions, called straight through the registry.
#include "test_main.h"

#include <omp.h>

#include <cmath>
#include <functional>
#include <limits>

#include "engine/ops/registry.h"
#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"

#include "op_test_util.h"

using namespace gl;
using namespace gltest_ops;

namespace {

Attrs axesAttrs(std::vector<int64_t> axes, bool keepdims = false) {
  return Attrs{{"axes", std::move(axes)}, {"keepdims", keepdims}};
}

// Reference: walks every input element and folds it into its output slot (in double).
// kind: 0 sum, 1 mean, 2 max, 3 min.
Tensor naiveReduce(const Tensor& x, std::vector<int64_t> axes, bool keepdims, int kind) {
  const int r = x.rank();
  std::vector<bool> red(size_t(r), axes.empty());
  for (int64_t a : axes) red[size_t(a < 0 ? a + r : a)] = true;
  Shape keep, out;
  for (int d = 0; d < r; ++d) {
    keep.push_back(red[size_t(d)] ? 1 : x.shape()[size_t(d)]);
    if (!red[size_t(d)] || keepdims) out.push_back(keep.back());
  }
  const int64_t n = numel(keep);
  std::vector<double> acc(size_t(n), kind == 2 ? -INFINITY : kind == 3 ? INFINITY : 0.0);
  std::vector<int64_t> cnt(size_t(n), 0);
  const auto xs = stridesOf(x.shape()), ks = stridesOf(keep);
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t o = 0;
    for (int d = 0; d < r; ++d)
      if (!red[size_t(d)]) o += ((i / xs[size_t(d)]) % x.shape()[size_t(d)]) * ks[size_t(d)];
    const double v = x.at(i);
    double& a = acc[size_t(o)];
    a = kind == 2 ? std::max(a, v) : kind == 3 ? std::min(a, v) : a + v;
    ++cnt[size_t(o)];
  }
  if (kind == 1)
    for (int64_t o = 0; o < n; ++o) acc[size_t(o)] /= double(cnt[size_t(o)]);
  return Tensor::fromVector(acc, out, DType::F64);
}

}  // namespace

class TestReduce : public QObject {
  Q_OBJECT
 private slots:
  void byHand() {
    const Tensor x = vec({1, 2, 3, 4, 5, 6}, {2, 3});
    QCOMPARE(run("sum", {x}).toVector(), (std::vector<double>{21}));
    QCOMPARE(run("sum", {x}).shape(), Shape{});
    QCOMPARE(run("sum", {x}, axesAttrs({0})).toVector(), (std::vector<double>{5, 7, 9}));
    QCOMPARE(run("sum", {x}, axesAttrs({-1})).toVector(), (std::vector<double>{6, 15}));
    QCOMPARE(run("mean", {x}, axesAttrs({1}, true)).toVector(), (std::vector<double>{2, 5}));
    QCOMPARE(run("mean", {x}, axesAttrs({1}, true)).shape(), (Shape{2, 1}));
    QCOMPARE(run("max", {x}, axesAttrs({0})).toVector(), (std::vector<double>{4, 5, 6}));
    QCOMPARE(run("min", {x}, axesAttrs({-1})).toVector(), (std::vector<double>{1, 4}));
    QCOMPARE(run("max", {x}, axesAttrs({}, true)).shape(), (Shape{1, 1}));
    QCOMPARE(run("max", {x}, axesAttrs({}, true)).item(), 6.0);
    QCOMPARE(run("mean", {x}, axesAttrs({0, 1})).item(), 3.5);
  }

  void matchesReference_data() {
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<std::vector<int64_t>>("axes");
    QTest::addColumn<bool>("keepdims");
    QTest::newRow("all") << Shape{2, 3, 4} << std::vector<int64_t>{} << false;
    QTest::newRow("all keepdims") << Shape{2, 3, 4} << std::vector<int64_t>{} << true;
    QTest::newRow("last") << Shape{2, 3, 4} << std::vector<int64_t>{-1} << false;
    QTest::newRow("first") << Shape{2, 3, 4} << std::vector<int64_t>{0} << true;
    QTest::newRow("middle") << Shape{2, 3, 4} << std::vector<int64_t>{1} << false;
    QTest::newRow("outer two") << Shape{2, 3, 4} << std::vector<int64_t>{-1, 0} << true;
    QTest::newRow("leading pair") << Shape{2, 3, 4} << std::vector<int64_t>{1, 0} << false;
    QTest::newRow("alternating 4d") << Shape{2, 3, 4, 5} << std::vector<int64_t>{0, 2} << false;
    QTest::newRow("alternating 4d b") << Shape{2, 3, 4, 5} << std::vector<int64_t>{1, 3} << true;
    QTest::newRow("size-1 dims") << Shape{1, 3, 1, 4} << std::vector<int64_t>{0, 3} << false;
    QTest::newRow("only size-1") << Shape{3, 1} << std::vector<int64_t>{1} << false;
    QTest::newRow("scalar") << Shape{} << std::vector<int64_t>{} << false;
    QTest::newRow("hot all") << Shape{10, 5000} << std::vector<int64_t>{} << false;
    QTest::newRow("hot rows") << Shape{10, 5000} << std::vector<int64_t>{1} << false;
    QTest::newRow("hot cols") << Shape{10, 5000} << std::vector<int64_t>{0} << true;
    QTest::newRow("big general") << Shape{40, 30, 50} << std::vector<int64_t>{0, 2} << false;
    // A bias gradient: kept innermost dims, added run by run.
    QTest::newRow("bias gradient") << Shape{8, 16, 32, 8} << std::vector<int64_t>{0, 2} << false;
    QTest::newRow("kept inner three") << Shape{3, 4, 5, 6, 7} << std::vector<int64_t>{1, 3} << true;
  }
  void matchesReference() {
    QFETCH(Shape, shape);
    QFETCH(std::vector<int64_t>, axes);
    QFETCH(bool, keepdims);
    Rng rng(3);
    const char* ops[] = {"sum", "mean", "max", "min"};
    for (DType dt : {DType::F32, DType::F64}) {
      const Tensor x = rng.uniform(shape, -2, 2, dt);
      for (int k = 0; k < 4; ++k) {
        const Attrs a = axesAttrs(axes, keepdims);
        const Tensor got = run(ops[k], {x}, a);
        QCOMPARE(got.dtype(), dt);
        const double tol = k >= 2 ? 0 : dt == DType::F32 ? 1e-6 : 1e-12;
        expectClose(got, naiveReduce(x, axes, keepdims, k), tol,
                    QString("%1 %2").arg(ops[k]).arg(dtypeName(dt)));
        QCOMPARE(typeOf(ops[k], {{dt, shape}}, a).shape, got.shape());
      }
    }
  }

  void int32Reductions() {
    const Tensor x = vec({1, -2, 3, 4, 5, -6}, {2, 3}, DType::I32);
    const Tensor s = run("sum", {x}, axesAttrs({1}));
    QCOMPARE(s.dtype(), DType::I32);
    QCOMPARE(s.toVector(), (std::vector<double>{2, 3}));
    QCOMPARE(run("max", {x}, axesAttrs({0})).toVector(), (std::vector<double>{4, 5, 3}));
    QCOMPARE(run("min", {x}).item(), -6.0);
    QVERIFY(shapeErrorOf([] { typeOf("mean", {{DType::I32, {2}}}); }).contains("int32"));
    QVERIFY(!shapeErrorOf([] { typeOf("sum", {{DType::Bool, {2}}}); }).isEmpty());
  }

  void shapeRules() {
    const Types t = {{DType::F32, {-1, 3, 4}}};
    QCOMPARE(typeOf("sum", t, axesAttrs({-1})).shape, (Shape{-1, 3}));
    QCOMPARE(typeOf("mean", t, axesAttrs({1}, true)).shape, (Shape{-1, 1, 4}));
    QCOMPARE(typeOf("max", t).shape, Shape{});
    QCOMPARE(typeOf("sum", t, Attrs{{"keepdims", true}}).shape, (Shape{1, 1, 1}));
    QVERIFY(shapeErrorOf([&] { typeOf("sum", t, axesAttrs({3})); }).contains("out of range"));
    QVERIFY(shapeErrorOf([&] { typeOf("sum", t, axesAttrs({1, -2})); }).contains("duplicate"));
    QVERIFY(shapeErrorOf([] { typeOf("sum", {{DType::F32, {2}, true}}); }).contains("list"));
  }

  void emptyInputs() {
    const Tensor e = Tensor::zeros(DType::F64, {0, 3});
    QCOMPARE(run("sum", {e}, axesAttrs({0})).toVector(), (std::vector<double>{0, 0, 0}));
    QVERIFY(std::isnan(run("mean", {e}).item()));
    QVERIFY(!shapeErrorOf([&] { run("max", {e}, axesAttrs({0})); }).isEmpty());
    QCOMPARE(run("max", {e}, axesAttrs({1})).shape(), (Shape{0}));
  }

  void nanPropagates() {
    const double nan = std::nan("");
    const Tensor x = vec({1, nan, 3, 4}, {2, 2});
    const Tensor m = run("max", {x}, axesAttrs({1}));
    QVERIFY(std::isnan(m.at(0)));
    QCOMPARE(m.at(1), 4.0);
    QVERIFY(std::isnan(run("min", {x}).item()));
    QCOMPARE(run("argmax", {x}, {{"axis", int64_t(1)}}).toVector(), (std::vector<double>{1, 1}));
    // Long rows take the vectorised loop: the NaN flag and infinities must survive it.
    Tensor big = Tensor::full(DType::F32, {3, 100}, -INFINITY);
    big.set(150, nan);
    big.set(250, INFINITY);
    const Tensor bm = run("max", {big}, axesAttrs({1}));
    QCOMPARE(bm.at(0), -double(INFINITY));
    QVERIFY(std::isnan(bm.at(1)));
    QCOMPARE(bm.at(2), double(INFINITY));
    QVERIFY(std::isnan(run("min", {big}, axesAttrs({1})).at(1)));
    QCOMPARE(run("min", {big}, axesAttrs({1})).at(2), -double(INFINITY));
  }

  void sameResultForAnyThreadCount() {
    Rng rng(11);
    const Tensor x = rng.uniform({10, 5000}, -3, 3, DType::F32);
    // 2^20 elements or more reduce on the team; dims 0 and 2 kept innermost (seed-c's bias).
    const Tensor big = rng.uniform({16, 64, 32, 32}, -3, 3, DType::F32);
    const int old = omp_get_max_threads();
    std::vector<std::vector<double>> r[2];
    for (int k = 0; k < 2; ++k) {
      omp_set_num_threads(k ? 4 : 1);
      for (auto axes : {std::vector<int64_t>{}, {0}, {1}})
        r[k].push_back(run("sum", {x}, axesAttrs(axes)).toVector());
      r[k].push_back(run("sum", {big}, axesAttrs({0, 2})).toVector());
    }
    omp_set_num_threads(old);
    QCOMPARE(r[0], r[1]);
  }

  void sumTo() {
    Rng rng(4);
    const Tensor x = rng.uniform({2, 3, 4}, -1, 1, DType::F64);
    struct Case {
      Shape target;
      std::vector<int64_t> axes;  // what it equals: sum over axes with keepdims, then reshape
    };
    const std::vector<Case> cases = {
        {{3, 4}, {0}},   {{4}, {0, 1}},   {{3, 1}, {0, 2}},    {{1, 3, 1}, {0, 2}},
        {{2, 3, 4}, {}}, {{}, {0, 1, 2}}, {{1, 1}, {0, 1, 2}},
    };
    for (const Case& c : cases) {
      const Attrs a{{"shape", c.target}};
      const Tensor got = run("sum_to", {x}, a);
      QCOMPARE(got.shape(), c.target);
      const Tensor want = c.axes.empty() ? x : naiveReduce(x, c.axes, true, 0);
      expectClose(got, want.reshaped(c.target), 1e-12,
                  QString::fromStdString("sum_to " + shapeStr(c.target)));
      QCOMPARE(typeOf("sum_to", {{DType::F64, {2, 3, 4}}}, a).shape, c.target);
    }
    // Unknown target dims keep the input's dim.
    QCOMPARE(typeOf("sum_to", {{DType::F32, {-1, 3, 4}}}, {{"shape", Shape{-1, 1}}}).shape,
             (Shape{3, 1}));
    QCOMPARE(run("sum_to", {x}, {{"shape", Shape{-1, 1}}}).shape(), (Shape{3, 1}));
    // Int32 sums too.
    const Tensor i = run("sum_to", {vec({1, 2, 3, 4}, {2, 2}, DType::I32)}, {{"shape", Shape{2}}});
    QCOMPARE(i.dtype(), DType::I32);
    QCOMPARE(i.toVector(), (std::vector<double>{4, 6}));
  }

  void sumToRejectsNonBroadcastTargets() {
    const QString m = shapeErrorOf([] {
      typeOf("sum_to", {{DType::F32, {3, 4}}}, {{"shape", Shape{5}}});
    });
    QVERIFY2(m.contains("[3,4]") && m.contains("[5]"), qPrintable(m));
    const QString k = shapeErrorOf([] {
      run("sum_to", {Tensor::zeros(DType::F32, {4})}, {{"shape", Shape{2, 4}}});
    });
    QVERIFY2(k.contains("[4]") && k.contains("[2,4]"), qPrintable(k));
  }

  void argmax() {
    const Tensor x = vec({3, 1, 3, 0, 2, 5, 5, -1}, {2, 4});
    const Tensor r = run("argmax", {x}, {{"axis", int64_t(-1)}});
    QCOMPARE(r.dtype(), DType::I32);
    QCOMPARE(r.toVector(), (std::vector<double>{0, 1}));  // ties: the first index
    QCOMPARE(run("argmax", {x}, {{"axis", int64_t(0)}}).toVector(),
             (std::vector<double>{0, 1, 1, 0}));
    const Tensor y = vec({0, 9, 2, 8, 7, 1}, {1, 3, 2});
    QCOMPARE(run("argmax", {y}, {{"axis", int64_t(1)}}).toVector(), (std::vector<double>{2, 0}));
    QCOMPARE(typeOf("argmax", {{DType::F32, {-1, 10}}}, {{"axis", int64_t(1)}}).shape, (Shape{-1}));
    QCOMPARE(typeOf("argmax", {{DType::F32, {-1, 10}}}, {{"axis", int64_t(1)}}).dtype, DType::I32);
    QVERIFY(!Registry::instance().get("argmax").differentiable);
    QVERIFY(shapeErrorOf([] {
              typeOf("argmax", {{DType::F32, {2}}}, {{"axis", int64_t(1)}});
            }).contains("out of range"));
  }

  void registryEntriesAreComplete() {
    for (const std::string n : {"sum", "mean", "max", "min", "sum_to"}) {
      const Primitive& p = Registry::instance().get(n);
      QVERIFY2(p.differentiable && p.vjp && p.arity == 1, n.c_str());
      QVERIFY2(p.math.find('\n') != std::string::npos, n.c_str());
      QVERIFY2(!p.gradChecks.empty() && p.gradChecks.size() <= 3, n.c_str());
      for (const GradCheckCase& c : p.gradChecks) {
        QCOMPARE(c.inputs.at(0).dtype(), DType::F64);
        const Shape s = p.run(c.inputs, c.attrs).at(0).shape();
        QCOMPARE(s, p.shape({{DType::F64, c.inputs[0].shape()}}, c.attrs).at(0).shape);
      }
    }
    // max/min checks have no ties: every reduced slice has a unique extreme.
    for (const std::string n : {"max", "min"})
      for (const GradCheckCase& c : Registry::instance().get(n).gradChecks) {
        std::vector<double> v = c.inputs[0].toVector();
        std::sort(v.begin(), v.end());
        QVERIFY(std::adjacent_find(v.begin(), v.end()) == v.end());
      }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestReduce)
#include "test_reduce.moc"
