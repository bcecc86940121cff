// Forward kernels and shape rules of softmax, log_softmax, softmax_cross_entropy and of the
// random constructors (random.cpp), called straight through the registry.
#include "test_main.h"

#include <cmath>
#include <functional>
#include <set>

#include "engine/ops/registry.h"
#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"

#include "op_test_util.h"

using namespace gl;
using namespace gltest_ops;

namespace {

Tensor draw(const std::string& op, const Attrs& attrs, uint64_t execSeed) {
  KernelContext ctx;
  ctx.seed = execSeed;
  return Registry::instance().get(op).run({}, attrs, ctx).at(0);
}

// Softmax along `axis` of a rank-2 tensor, in double, the textbook way.
Tensor naiveSoftmax(const Tensor& x, int axis) {
  const int64_t R = x.shape()[0], C = x.shape()[1];
  Tensor y = Tensor::empty(DType::F64, x.shape());
  for (int64_t a = 0; a < (axis ? R : C); ++a) {
    const int64_t n = axis ? C : R;
    auto at = [&](int64_t j) { return axis ? a * C + j : j * C + a; };
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += std::exp(x.at(at(j)));
    for (int64_t j = 0; j < n; ++j) y.set(at(j), std::exp(x.at(at(j))) / s);
  }
  return y;
}

struct Moments {
  double mean = 0, sd = 0, min = INFINITY, max = -INFINITY;
};

Moments momentsOf(const Tensor& t) {
  Moments m;
  for (int64_t i = 0; i < t.numel(); ++i) {
    m.mean += t.at(i) / double(t.numel());
    m.min = std::min(m.min, t.at(i));
    m.max = std::max(m.max, t.at(i));
  }
  for (int64_t i = 0; i < t.numel(); ++i) m.sd += std::pow(t.at(i) - m.mean, 2) / double(t.numel());
  m.sd = std::sqrt(m.sd);
  return m;
}

Attrs normalAttrs(int64_t seed, const Shape& shape = {20000}, const std::string& dt = "float64") {
  return Attrs{{"shape", shape}, {"dtype", dt}, {"mean", 3.0}, {"stddev", 2.0}, {"seed", seed}};
}

}  // namespace

class TestNn : public QObject {
  Q_OBJECT
 private slots:
  void softmaxByHand() {
    const Tensor y = run("softmax", {vec({1, 2, 3}, {3})});
    expectClose(y, vec({0.09003057317038046, 0.24472847105479767, 0.6652409557748219}, {3}), 1e-15,
                "softmax [1,2,3]");
    // Shifting the logits changes nothing; float32 keeps its dtype.
    const Tensor y32 = run("softmax", {vec({101, 102, 103}, {3}, DType::F32)});
    QCOMPARE(y32.dtype(), DType::F32);
    expectClose(y32, y, 1e-6, "shifted float32");
  }

  void softmaxRowsSumToOne_data() {
    QTest::addColumn<int>("axis");
    QTest::newRow("last") << -1;
    QTest::newRow("first") << 0;
    QTest::newRow("1") << 1;
  }
  void softmaxRowsSumToOne() {
    QFETCH(int, axis);
    Rng rng(21);
    const Tensor x = rng.normal({3, 5}, 0, 3, DType::F64);
    const Tensor y = run("softmax", {x}, {{"axis", int64_t(axis)}});
    const int a = axis < 0 ? 1 : axis;
    expectClose(y, naiveSoftmax(x, a), 1e-14, "softmax");
    for (int64_t r = 0; r < (a ? 3 : 5); ++r) {
      double s = 0;
      for (int64_t j = 0; j < (a ? 5 : 3); ++j) s += y.at(a ? r * 5 + j : j * 5 + r);
      QVERIFY(std::abs(s - 1) < 1e-14);
    }
    // log_softmax is log(softmax) along the same axis.
    const Tensor ly = run("log_softmax", {x}, {{"axis", int64_t(axis)}});
    for (int64_t i = 0; i < x.numel(); ++i) QVERIFY(std::abs(ly.at(i) - std::log(y.at(i))) < 1e-13);
  }

  void middleAxisOfRank3() {
    Rng rng(22);
    const Tensor x = rng.normal({2, 4, 3}, 0, 1, DType::F64);
    const Tensor y = run("softmax", {x}, {{"axis", int64_t(1)}});
    for (int64_t o = 0; o < 2; ++o)
      for (int64_t i = 0; i < 3; ++i) {
        double s = 0;
        for (int64_t j = 0; j < 4; ++j) s += std::exp(x.at((o * 4 + j) * 3 + i));
        for (int64_t j = 0; j < 4; ++j) {
          const int64_t k = (o * 4 + j) * 3 + i;
          QVERIFY(std::abs(y.at(k) - std::exp(x.at(k)) / s) < 1e-14);
        }
      }
  }

  void stableAtHugeLogits() {
    const Tensor x = vec({1000, -1000, 0, -1000, -1000, -1000}, {2, 3});
    const Tensor ls = run("log_softmax", {x});
    expectClose(ls, vec({0, -2000, -1000, -std::log(3.0), -std::log(3.0), -std::log(3.0)}, {2, 3}),
                1e-15, "log_softmax");
    const Tensor ls32 = run("log_softmax", {x.astype(DType::F32)});
    for (int64_t i = 0; i < 6; ++i) QVERIFY(std::isfinite(ls32.at(i)));
    QCOMPARE(ls32.at(1), -2000.0);
    const Tensor s = run("softmax", {x});
    expectClose(s, vec({1, 0, 0, 1 / 3.0, 1 / 3.0, 1 / 3.0}, {2, 3}), 1e-15, "softmax");
    // Cross-entropy with the label on the losing class: 2000, not inf.
    const Tensor l =
        run("softmax_cross_entropy", {vec({0, 1, 0}, {1, 3}), vec({1000, -1000, 0}, {1, 3})});
    QCOMPARE(l.at(0), 2000.0);
  }

  void crossEntropyByHand() {
    // Row 0: one-hot on class 1 of [1,2,3]: -log softmax = log(e + e^2 + e^3) - 2.
    // Row 1: labels (0.25, 0.25, 0.5) on [0,0,0]: log 3.
    const Tensor labels = vec({0, 1, 0, 0.25, 0.25, 0.5}, {2, 3});
    const Tensor logits = vec({1, 2, 3, 0, 0, 0}, {2, 3});
    const Tensor l = run("softmax_cross_entropy", {labels, logits});
    QCOMPARE(l.shape(), (Shape{2}));
    const double row0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)) - 2.0;
    expectClose(l, vec({row0, std::log(3.0)}, {2}), 1e-15, "loss");
    QVERIFY(std::abs(row0 - 1.4076059644443804) < 1e-15);
    // Against -sum(labels * log_softmax) on a batched [2,3,4] input, float32 too.
    Rng rng(23);
    const Tensor lab = rng.uniform({2, 3, 4}, 0, 1, DType::F64);
    const Tensor lg = rng.normal({2, 3, 4}, 0, 2, DType::F64);
    const Tensor ls = run("log_softmax", {lg});
    Tensor want = Tensor::zeros(DType::F64, {2, 3});
    for (int64_t i = 0; i < 24; ++i) want.set(i / 4, want.at(i / 4) - lab.at(i) * ls.at(i));
    expectClose(run("softmax_cross_entropy", {lab, lg}), want, 1e-14, "batched");
    expectClose(run("softmax_cross_entropy", {lab.astype(DType::F32), lg.astype(DType::F32)}), want,
                1e-5, "float32");
  }

  void shapeRules() {
    QCOMPARE(typeOf("softmax", {{DType::F32, {-1, 10}}}).shape, (Shape{-1, 10}));
    QCOMPARE(typeOf("log_softmax", {{DType::F64, {3, 5}}}, {{"axis", int64_t(0)}}).dtype,
             DType::F64);
    const TypeInfo ce =
        typeOf("softmax_cross_entropy", {{DType::F32, {-1, 5, 10}}, {DType::F32, {4, -1, 10}}});
    QCOMPARE(ce.shape, (Shape{4, 5}));
    QCOMPARE(ce.dtype, DType::F32);
  }

  void shapeErrorsNameTheShapes() {
    QString e = shapeErrorOf([] {
      typeOf("softmax_cross_entropy", {{DType::F32, {5, 10}}, {DType::F32, {5, 9}}});
    });
    QVERIFY2(e.contains("[5,10]") && e.contains("[5,9]"), qPrintable(e));
    e = shapeErrorOf([] {
      run("softmax_cross_entropy",
          {Tensor::zeros(DType::F32, {2, 3}), Tensor::zeros(DType::F32, {3, 2})});
    });
    QVERIFY2(e.contains("[2,3]") && e.contains("[3,2]"), qPrintable(e));
    e = shapeErrorOf([] {
      typeOf("softmax_cross_entropy", {{DType::F64, {5, 10}}, {DType::F32, {5, 10}}});
    });
    QVERIFY2(e.contains("float64") && e.contains("float32"), qPrintable(e));
    e = shapeErrorOf([] { typeOf("softmax", {{DType::F32, {3, 5}}}, {{"axis", int64_t(2)}}); });
    QVERIFY2(e.contains("axis 2"), qPrintable(e));
    e = shapeErrorOf([] { typeOf("softmax", {{DType::I32, {3, 5}}}); });
    QVERIFY2(e.contains("int32"), qPrintable(e));
  }

  void randomIsReproducible() {
    const Tensor a = draw("random_normal", normalAttrs(7), 99);
    const Tensor b = draw("random_normal", normalAttrs(7), 99);
    QCOMPARE(a.toVector(), b.toVector());
    // Another seed, or another execution (loop iteration) of the same node, draws anew.
    QVERIFY(draw("random_normal", normalAttrs(8), 99).toVector() != a.toVector());
    QVERIFY(draw("random_normal", normalAttrs(7), 100).toVector() != a.toVector());
    const Attrs u{{"shape", Shape{100}}, {"seed", int64_t(3)}};
    QCOMPARE(draw("random_uniform", u, 1).toVector(), draw("random_uniform", u, 1).toVector());
    QVERIFY(draw("random_uniform", u, 1).toVector() != draw("random_uniform", u, 2).toVector());
  }

  void randomMoments() {
    const Tensor n = draw("random_normal", normalAttrs(1), 0);
    QCOMPARE(n.dtype(), DType::F64);
    QCOMPARE(n.shape(), (Shape{20000}));
    const Moments mn = momentsOf(n);
    QVERIFY2(std::abs(mn.mean - 3.0) < 0.05 && std::abs(mn.sd - 2.0) < 0.05,
             qPrintable(QString("mean %1 sd %2").arg(mn.mean).arg(mn.sd)));
    const Tensor n32 = draw("random_normal", normalAttrs(2, {100, 200}, "float32"), 0);
    QCOMPARE(n32.dtype(), DType::F32);
    QCOMPARE(n32.shape(), (Shape{100, 200}));
    QVERIFY(std::abs(momentsOf(n32).mean - 3.0) < 0.05);

    const Tensor u =
        draw("random_uniform",
             {{"shape", Shape{20000}}, {"minval", -1.0}, {"maxval", 3.0}, {"seed", int64_t(4)}}, 0);
    QCOMPARE(u.dtype(), DType::F32);
    const Moments mu = momentsOf(u);
    QVERIFY(mu.min >= -1.0 && mu.max < 3.0);
    QVERIFY2(std::abs(mu.mean - 1.0) < 0.05 && std::abs(mu.sd - 4 / std::sqrt(12.0)) < 0.05,
             qPrintable(QString("mean %1 sd %2").arg(mu.mean).arg(mu.sd)));

    // int32: integers in [minval, maxval), every one of them drawn (seed-d's labels).
    const Tensor k = draw("random_uniform",
                          {{"shape", Shape{5000}},
                           {"dtype", std::string("int32")},
                           {"minval", int64_t(0)},
                           {"maxval", int64_t(9)},
                           {"seed", int64_t(5)}},
                          0);
    QCOMPARE(k.dtype(), DType::I32);
    std::set<double> seen;
    for (int64_t i = 0; i < k.numel(); ++i) seen.insert(k.at(i));
    QCOMPARE(seen, (std::set<double>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    QVERIFY(std::abs(momentsOf(k).mean - 4.0) < 0.15);
  }

  void randomShapeRules() {
    const Registry& reg = Registry::instance();
    QVERIFY(!reg.get("random_normal").differentiable && !reg.get("random_uniform").differentiable);
    QCOMPARE(reg.get("random_normal").arity, 0);
    const TypeInfo t =
        typeOf("random_uniform", {},
               {{"shape", Shape{5, 224, 224, 3}}, {"dtype", std::string("float32")}});
    QCOMPARE(t.shape, (Shape{5, 224, 224, 3}));
    QCOMPARE(t.dtype, DType::F32);
    QCOMPARE(typeOf("random_normal", {}, {{"shape", Shape{}}}).shape, Shape{});
    QString e = shapeErrorOf([] {
      typeOf("random_uniform", {}, {{"shape", Shape{3}}, {"dtype", std::string("int32")}});
    });
    QVERIFY2(e.contains("maxval"), qPrintable(e));
    e = shapeErrorOf([] {
      typeOf("random_normal", {}, {{"shape", Shape{3}}, {"dtype", std::string("int32")}});
    });
    QVERIFY2(e.contains("int32"), qPrintable(e));
    e = shapeErrorOf([] { typeOf("random_normal", {}, {{"shape", Shape{3, -1}}}); });
    QVERIFY2(e.contains("[3,?]"), qPrintable(e));
  }

  void registryEntriesAreComplete() {
    for (const char* name : {"softmax", "log_softmax", "softmax_cross_entropy"}) {
      const Primitive& p = Registry::instance().get(name);
      QVERIFY2(p.vjp && p.differentiable && !p.gradChecks.empty(), name);
      QVERIFY2(p.math.find('\n') != std::string::npos, name);
      for (const GradCheckCase& c : p.gradChecks) {
        Types types;
        for (const Tensor& t : c.inputs) types.push_back({t.dtype(), t.shape()});
        QCOMPARE(p.shape(types, c.attrs).at(0).shape, p.run(c.inputs, c.attrs).at(0).shape());
      }
    }
    // Cross-entropy cases use labels that are distributions.
    for (const GradCheckCase& c : Registry::instance().get("softmax_cross_entropy").gradChecks) {
      const Tensor& l = c.inputs[0];
      const int64_t len = l.shape().back();
      for (int64_t r = 0; r < l.numel() / len; ++r) {
        double s = 0;
        for (int64_t j = 0; j < len; ++j) {
          QVERIFY(l.at(r * len + j) > 0);
          s += l.at(r * len + j);
        }
        QVERIFY(std::abs(s - 1) < 1e-12);
      }
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestNn)
#include "test_nn.moc"
