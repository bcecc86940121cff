// Forward kernels and shape rules of the elementwise family, called straight through the
// registry (no graph, no executor).
#include "test_main.h"

#include <omp.h>

#include <cmath>
#include <functional>

#include "engine/ops/registry.h"
#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"

#include "op_test_util.h"

using namespace gl;
using namespace gltest_ops;

namespace {

// NumPy broadcasting by index arithmetic: the slow, obviously right reference.
Tensor naiveBinary(const Tensor& a, const Tensor& b, DType outDt,
                   const std::function<double(double, double)>& f) {
  const Shape s = broadcastShapes(a.shape(), b.shape());
  Tensor out = Tensor::empty(outDt, s);
  const auto sa = stridesOf(a.shape()), sb = stridesOf(b.shape()), so = stridesOf(s);
  for (int64_t i = 0; i < out.numel(); ++i) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < s.size(); ++d) {
      const int64_t idx = (i / so[d]) % s[d];
      const size_t da = d + a.shape().size() - s.size(), db = d + b.shape().size() - s.size();
      if (d >= s.size() - a.shape().size() && a.shape()[da] != 1) ia += idx * sa[da];
      if (d >= s.size() - b.shape().size() && b.shape()[db] != 1) ib += idx * sb[db];
    }
    out.set(i, f(a.at(ia), b.at(ib)));
  }
  return out;
}

// Messages are only formatted on failure: these loops cover 50,000-element tensors.
void expectClose(const Tensor& got, const Tensor& want, double rtol, double atol,
                 const char* what) {
  QVERIFY2(got.shape() == want.shape(), what);
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double g = got.at(i), w = want.at(i);
    const bool ok = std::isnan(w) ? std::isnan(g) : std::abs(g - w) <= atol + rtol * std::abs(w);
    if (!ok)
      QFAIL(
          qPrintable(QString("%1: element %2 is %3, expected %4").arg(what).arg(i).arg(g).arg(w)));
  }
}

void expectValues(const Tensor& got, const std::vector<double>& want, const char* what) {
  QCOMPARE(got.numel(), int64_t(want.size()));
  for (int64_t i = 0; i < got.numel(); ++i)
    if (got.at(i) != want[size_t(i)])
      QFAIL(qPrintable(QString("%1: element %2 is %3, expected %4")
                           .arg(what)
                           .arg(i)
                           .arg(got.at(i))
                           .arg(want[size_t(i)])));
}

}  // namespace

class TestElementwise : public QObject {
  Q_OBJECT
 private slots:
  void unaryMatchesStd_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("n");
    QTest::newRow("f32 small") << int(DType::F32) << 7;
    QTest::newRow("f64 small") << int(DType::F64) << 7;
    QTest::newRow("f32 [10,5000]") << int(DType::F32) << 50000;
    QTest::newRow("f64 [10,5000]") << int(DType::F64) << 50000;
  }
  void unaryMatchesStd() {
    QFETCH(int, dtype);
    QFETCH(int, n);
    const DType dt = DType(dtype);
    const Shape s = n == 50000 ? Shape{10, 5000} : Shape{n};
    Rng rng(1);
    const Tensor x = rng.uniform(s, -3, 3, dt);
    const Tensor xp = rng.uniform(s, 0.01, 5, dt);  // for log and sqrt
    struct Case {
      const char* op;
      bool positive;
      std::function<double(double)> f;
    };
    const std::vector<Case> cases = {
        {"identity", false, [](double v) { return v; }},
        {"neg", false, [](double v) { return -v; }},
        {"exp", false, [](double v) { return std::exp(v); }},
        {"log", true, [](double v) { return std::log(v); }},
        {"sin", false, [](double v) { return std::sin(v); }},
        {"cos", false, [](double v) { return std::cos(v); }},
        {"tanh", false, [](double v) { return std::tanh(v); }},
        {"sigmoid", false, [](double v) { return 1 / (1 + std::exp(-v)); }},
        {"relu", false, [](double v) { return v > 0 ? v : 0.0; }},
        {"sqrt", true, [](double v) { return std::sqrt(v); }},
        {"abs", false, [](double v) { return std::abs(v); }},
        {"square", false, [](double v) { return v * v; }},
        {"sign", false, [](double v) { return double((v > 0) - (v < 0)); }},
    };
    const double rtol = dt == DType::F32 ? 2e-6 : 1e-13;
    const double atol = dt == DType::F32 ? 1e-6 : 1e-14;
    for (const Case& c : cases) {
      const Tensor in = c.positive ? xp : x;
      Tensor want = Tensor::empty(dt, s);
      for (int64_t i = 0; i < in.numel(); ++i) want.set(i, c.f(in.at(i)));
      const Tensor got = run(c.op, {in});
      QCOMPARE(got.dtype(), dt);
      expectClose(got, want, rtol, atol, c.op);
      QCOMPARE(typeOf(c.op, {{dt, s}}).shape, s);
    }
  }

  void unaryOnInts() {
    const Tensor x = vec({-3, 0, 2}, {3}, DType::I32);
    expectValues(run("neg", {x}), {3, 0, -2}, "neg");
    expectValues(run("abs", {x}), {3, 0, 2}, "abs");
    expectValues(run("square", {x}), {9, 0, 4}, "square");
    expectValues(run("relu", {x}), {0, 0, 2}, "relu");
    expectValues(run("sign", {x}), {-1, 0, 1}, "sign");
    QCOMPARE(run("neg", {x}).dtype(), DType::I32);
    // Transcendental functions are float only.
    QVERIFY(shapeErrorOf([] { typeOf("exp", {{DType::I32, {3}}}); }).contains("int32"));
    QVERIFY(!shapeErrorOf([&] { run("log", {x}); }).isEmpty());
  }

  void identityDoesNotAlias() {
    const Tensor x = vec({1, 2}, {2});
    QVERIFY(!run("identity", {x}).sharesBufferWith(x));
    QVERIFY(!run("stop_gradient", {x}).sharesBufferWith(x));
    expectValues(run("stop_gradient", {x}), {1, 2}, "stop_gradient");
  }

  void broadcastingByHand() {
    const Tensor a = vec({1, 2, 3, 4, 5, 6}, {2, 3});
    expectValues(run("add", {a, vec({10, 20, 30}, {3})}), {11, 22, 33, 14, 25, 36}, "[2,3]+[3]");
    expectValues(run("sub", {a, vec({1, 2}, {2, 1})}), {0, 1, 2, 2, 3, 4}, "[2,3]-[2,1]");
    expectValues(run("mul", {vec({1, 2}, {2, 1}), vec({1, 10, 100}, {1, 3})}),
                 {1, 10, 100, 2, 20, 200}, "[2,1]*[1,3]");
    expectValues(run("div", {Tensor::scalar(12, DType::F64), vec({1, 2, 3, 4}, {2, 2})}),
                 {12, 6, 4, 3}, "scalar/[2,2]");
    expectValues(run("pow", {a, Tensor::scalar(2, DType::F64)}), {1, 4, 9, 16, 25, 36}, "x**2");
    expectValues(run("pow", {vec({2, 3}, {2, 1}), vec({0, 1, 3}, {3})}), {1, 2, 8, 1, 3, 27},
                 "[2,1]**[3]");
    QCOMPARE(run("add", {a, vec({10, 20, 30}, {1, 1, 3})}).shape(), (Shape{1, 2, 3}));
    QCOMPARE(typeOf("add", {{DType::F32, {10, 1}}, {DType::F32, {5000}}}).shape, (Shape{10, 5000}));
    QCOMPARE(typeOf("mul", {{DType::F32, {-1, 3}}, {DType::F32, {3}}}).shape, (Shape{-1, 3}));
  }

  void broadcastingMatchesReference_data() {
    QTest::addColumn<Shape>("a");
    QTest::addColumn<Shape>("b");
    QTest::newRow("same") << Shape{4, 5} << Shape{4, 5};
    QTest::newRow("scalar right") << Shape{4, 5} << Shape{};
    QTest::newRow("scalar left") << Shape{} << Shape{3};
    QTest::newRow("row") << Shape{4, 5} << Shape{5};
    QTest::newRow("column") << Shape{4, 5} << Shape{4, 1};
    QTest::newRow("outer") << Shape{4, 1} << Shape{1, 5};
    QTest::newRow("3d mixed") << Shape{3, 1, 4} << Shape{2, 1};
    QTest::newRow("4d") << Shape{2, 1, 3, 1} << Shape{1, 4, 1, 5};
    QTest::newRow("hot path column") << Shape{10, 5000} << Shape{10, 1};
    QTest::newRow("hot path row") << Shape{10, 5000} << Shape{5000};
    QTest::newRow("hot path scalar") << Shape{10, 5000} << Shape{1, 1};
    QTest::newRow("many short rows") << Shape{20000, 3} << Shape{20000, 1};
  }
  void broadcastingMatchesReference() {
    QFETCH(Shape, a);
    QFETCH(Shape, b);
    Rng rng(5);
    for (DType dt : {DType::F32, DType::F64}) {
      const Tensor x = rng.uniform(a, -2, 2, dt), y = rng.uniform(b, 0.5, 2, dt);
      const std::vector<std::pair<const char*, std::function<double(double, double)>>> ops = {
          {"add", [](double u, double v) { return u + v; }},
          {"sub", [](double u, double v) { return u - v; }},
          {"mul", [](double u, double v) { return u * v; }},
          {"div", [](double u, double v) { return u / v; }},
          {"maximum", [](double u, double v) { return std::max(u, v); }},
          {"minimum", [](double u, double v) { return std::min(u, v); }},
      };
      for (const auto& [op, f] : ops) {
        // Rounding the double reference to the dtype is exact for + - * / (correctly rounded).
        const Tensor want = naiveBinary(x, y, dt, f);
        expectValues(run(op, {x, y}), want.toVector(), op);
        expectValues(run(op, {y, x}), naiveBinary(y, x, dt, f).toVector(), op);
      }
      const Tensor xp = rng.uniform(a, 0.5, 2, dt);
      expectClose(run("pow", {xp, y}),
                  naiveBinary(xp, y, dt, [](double u, double v) { return std::pow(u, v); }),
                  dt == DType::F32 ? 1e-6 : 1e-15, 0, "pow");
      expectValues(
          run("less", {x, y}),
          naiveBinary(x, y, DType::Bool, [](double u, double v) { return u < v; }).toVector(),
          "less");
    }
  }

  void sameResultForAnyThreadCount() {
    Rng rng(9);
    const Tensor x = rng.uniform({10, 5000}, -3, 3, DType::F32);
    const Tensor y = rng.uniform({10, 1}, -3, 3, DType::F32);
    const int old = omp_get_max_threads();
    omp_set_num_threads(1);
    const Tensor t1 = run("tanh", {x}), a1 = run("mul", {x, y});
    omp_set_num_threads(4);
    const Tensor t4 = run("tanh", {x}), a4 = run("mul", {x, y});
    omp_set_num_threads(old);
    QCOMPARE(t1.toVector(), t4.toVector());
    QCOMPARE(a1.toVector(), a4.toVector());
  }

  // check_numerics inside the kernels: asked for it, an elementwise kernel says whether what it
  // wrote is all finite, with every shape path (equal, scalar either side, broadcast rows), an
  // overflow (finite inputs, Inf out), a NaN anywhere in a 10000-value output, and doubles.
  void elementwiseKernelsSayWhetherTheirOutputIsFinite() {
    auto finite = [](const std::string& op, const Tensors& in) {
      KernelContext ctx;
      ctx.checkFinite = true;
      ctx.outputsFinite = false;
      Data data(in.begin(), in.end()), out;
      prim(op).forward(data, {}, ctx, out);
      return ctx.outputsFinite;
    };
    for (DType dt : {DType::F32, DType::F64}) {
      const double big = dt == DType::F32 ? 3e38 : 1.7e308;
      Tensor x = Tensor::full(dt, {2, 5000}, 1.5);
      const Tensor col = Tensor::full(dt, {2, 1}, 2.0), one = Tensor::scalar(2.0, dt);
      QVERIFY(finite("add", {x, x}));
      QVERIFY(finite("mul", {x, one}));
      QVERIFY(finite("sub", {one, x}));
      QVERIFY(finite("mul", {x, col}));
      QVERIFY(finite("neg", {x}));
      QVERIFY(finite("pow", {x, one}));
      const Tensor huge = Tensor::full(dt, {2, 5000}, big);
      QVERIFY(!finite("add", {huge, huge}));  // overflow
      QVERIFY(!finite("mul", {huge, col}));
      QVERIFY(!finite("pow", {huge, one}));
      x.set(7777, std::nan(""));
      QVERIFY(!finite("add", {x, x}));
      QVERIFY(!finite("sub", {one, x}));
      QVERIFY(!finite("exp", {x}));
      // Asked nothing, a kernel says nothing.
      KernelContext quiet;
      Data xx{Datum(x), Datum(x)}, sum;
      prim("add").forward(xx, {}, quiet, sum);
      QVERIFY(!quiet.outputsFinite);
    }
  }

  void int32Arithmetic() {
    const Tensor a = vec({7, -7, 7, -7, 6}, {5}, DType::I32);
    const Tensor b = vec({2, 2, -2, -2, 3}, {5}, DType::I32);
    expectValues(run("add", {a, b}), {9, -5, 5, -9, 9}, "add");
    expectValues(run("sub", {a, b}), {5, -9, 9, -5, 3}, "sub");
    expectValues(run("mul", {a, b}), {14, -14, -14, 14, 18}, "mul");
    // Floor division, as Python's // on ints.
    expectValues(run("div", {a, b}), {3, -4, -4, 3, 2}, "div");
    expectValues(run("maximum", {a, b}), {7, 2, 7, -2, 6}, "maximum");
    expectValues(run("minimum", {a, b}), {2, -7, -2, -7, 3}, "minimum");
    const Tensor r = run("add", {a, Tensor::scalar(1, DType::I32)});
    QCOMPARE(r.dtype(), DType::I32);
    expectValues(r, {8, -6, 8, -6, 7}, "add scalar");
    QCOMPARE(typeOf("mul", {{DType::I32, {5}}, {DType::I32, {}}}).dtype, DType::I32);
    try {
      run("div", {a, vec({1, 0, 1, 1, 1}, {5}, DType::I32)});
      QFAIL("expected an error for integer division by zero");
    } catch (const EngineError& e) {
      QVERIFY(QString(e.what()).contains("division by zero"));
    }
    // TF's int32 Pow: exact powers that wrap on overflow, and an error for negative exponents.
    expectValues(
        run("pow", {vec({2, 3, -2, 3}, {4}, DType::I32), vec({3, 2, 3, 21}, {4}, DType::I32)}),
        {8, 9, -8, double(int32_t(uint32_t(10460353203ull % 4294967296ull)))}, "pow");
    try {
      run("pow", {vec({2}, {1}, DType::I32), vec({-1}, {1}, DType::I32)});
      QFAIL("expected an error for a negative integer power");
    } catch (const EngineError& e) {
      QVERIFY(QString(e.what()).contains("negative integer powers"));
    }
  }

  void maximumTiesAndNan() {
    const double nan = std::nan("");
    const Tensor x = vec({1, nan, 2, 3}, {4}), y = vec({1, 0, nan, 4}, {4});
    const Tensor mx = run("maximum", {x, y}), mn = run("minimum", {x, y});
    QCOMPARE(mx.at(0), 1.0);
    QVERIFY(std::isnan(mx.at(1)) && std::isnan(mx.at(2)));
    QCOMPARE(mx.at(3), 4.0);
    QVERIFY(std::isnan(mn.at(1)) && std::isnan(mn.at(2)));
    QCOMPARE(mn.at(3), 3.0);
  }

  void comparisonsProduceBool() {
    const Tensor x = vec({1, 2, 3}, {3}), y = vec({2, 2, 2}, {3});
    const std::vector<std::pair<const char*, std::vector<double>>> want = {
        {"equal", {0, 1, 0}},      {"not_equal", {1, 0, 1}}, {"less", {1, 0, 0}},
        {"less_equal", {1, 1, 0}}, {"greater", {0, 0, 1}},   {"greater_equal", {0, 1, 1}},
    };
    for (const auto& [op, v] : want) {
      const Tensor r = run(op, {x, y});
      QCOMPARE(r.dtype(), DType::Bool);
      expectValues(r, v, op);
      QCOMPARE(typeOf(op, {{DType::F64, {3}}, {DType::F64, {}}}).dtype, DType::Bool);
      QVERIFY(!Registry::instance().get(op).differentiable);
    }
    // Broadcast and on ints.
    const Tensor r =
        run("less", {vec({1, 5}, {2, 1}, DType::I32), vec({2, 3, 6}, {3}, DType::I32)});
    QCOMPARE(r.shape(), (Shape{2, 3}));
    expectValues(r, {1, 1, 1, 0, 0, 1}, "less int broadcast");
  }

  void logicalOps() {
    const Tensor p = vec({0, 0, 1, 1}, {4}, DType::Bool), q = vec({0, 1, 0, 1}, {4}, DType::Bool);
    expectValues(run("logical_and", {p, q}), {0, 0, 0, 1}, "and");
    expectValues(run("logical_or", {p, q}), {0, 1, 1, 1}, "or");
    expectValues(run("logical_not", {p}), {1, 1, 0, 0}, "not");
    QCOMPARE(run("logical_not", {p}).dtype(), DType::Bool);
    QVERIFY(shapeErrorOf([] {
              typeOf("logical_and", {{DType::F32, {2}}, {DType::F32, {2}}});
            }).contains("bool"));
    QVERIFY(!shapeErrorOf([] { typeOf("logical_not", {{DType::I32, {2}}}); }).isEmpty());
  }

  void whereBroadcasts() {
    const Tensor c = vec({1, 0}, {2, 1}, DType::Bool);
    const Tensor x = vec({1, 2, 3}, {3}), y = Tensor::scalar(-1, DType::F64);
    const Tensor r = run("where", {c, x, y});
    QCOMPARE(r.shape(), (Shape{2, 3}));
    expectValues(r, {1, 2, 3, -1, -1, -1}, "where");
    QCOMPARE(typeOf("where", {{DType::Bool, {2, 1}}, {DType::F64, {3}}, {DType::F64, {}}}).shape,
             (Shape{2, 3}));
    // A general broadcast across all three.
    const Tensor c2 = vec({1, 0, 0, 1}, {2, 1, 2}, DType::Bool);
    const Tensor r2 = run("where", {c2, vec({1, 2, 3}, {3, 1}), vec({10, 20}, {2})});
    QCOMPARE(r2.shape(), (Shape{2, 3, 2}));
    expectValues(r2, {1, 20, 2, 20, 3, 20, 10, 1, 10, 2, 10, 3}, "where 3d");
    QVERIFY(shapeErrorOf([] {
              typeOf("where", {{DType::F32, {2}}, {DType::F32, {2}}, {DType::F32, {2}}});
            }).contains("bool"));
    QVERIFY(shapeErrorOf([] {
              typeOf("where", {{DType::Bool, {2}}, {DType::F32, {2}}, {DType::F64, {2}}});
            }).contains("dtype mismatch"));
  }

  void castAndLikes() {
    const Tensor x = vec({1.7, -1.7, 0}, {3});
    const Tensor i = run("cast", {x}, {{"dtype", std::string("int32")}});
    QCOMPARE(i.dtype(), DType::I32);
    expectValues(i, {1, -1, 0}, "cast to int32");
    expectValues(run("cast", {x}, {{"dtype", std::string("bool")}}), {1, 1, 0}, "cast to bool");
    QCOMPARE(run("cast", {x}, {{"dtype", std::string("float32")}}).dtype(), DType::F32);
    QCOMPARE(typeOf("cast", {{DType::F32, {2, 2}}}, {{"dtype", std::string("int64")}}).dtype,
             DType::I32);
    const Tensor z = run("zeros_like", {i}), o = run("ones_like", {x});
    QCOMPARE(z.dtype(), DType::I32);
    expectValues(z, {0, 0, 0}, "zeros_like");
    QCOMPARE(o.dtype(), DType::F64);
    expectValues(o, {1, 1, 1}, "ones_like");
  }

  void dtypeMismatchNamesBothSides() {
    const QString m = shapeErrorOf([] { typeOf("add", {{DType::F32, {2}}, {DType::F64, {2}}}); });
    QVERIFY2(m.contains("dtype mismatch") && m.contains("float32") && m.contains("float64"),
             qPrintable(m));
    const QString k = shapeErrorOf([] {
      run("mul", {Tensor::zeros(DType::F32, {2}), Tensor::zeros(DType::I32, {2})});
    });
    QVERIFY2(k.contains("float32") && k.contains("int32"), qPrintable(k));
  }

  void nonBroadcastableNamesBothShapes() {
    const QString m = shapeErrorOf([] {
      typeOf("add", {{DType::F32, {2, 3}}, {DType::F32, {4}}});
    });
    QVERIFY2(m.contains("[2,3]") && m.contains("[4]"), qPrintable(m));
    const QString k = shapeErrorOf([] {
      run("maximum", {Tensor::zeros(DType::F64, {3, 2}), Tensor::zeros(DType::F64, {3})});
    });
    QVERIFY2(k.contains("[3,2]") && k.contains("[3]"), qPrintable(k));
    QVERIFY(shapeErrorOf([] { typeOf("exp", {{DType::F32, {2}, true}}); }).contains("list"));
  }

  void registryEntriesAreComplete() {
    const std::vector<std::string> differentiable = {
        "identity", "neg", "exp", "log", "sin", "cos", "tanh",    "sigmoid", "relu",  "sqrt", "abs",
        "square",   "add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "cast"};
    for (const auto& n : differentiable) {
      const Primitive& p = Registry::instance().get(n);
      QVERIFY2(p.differentiable && p.vjp, n.c_str());
      QVERIFY2(p.math.find('\n') != std::string::npos, n.c_str());
      QVERIFY2(!p.gradChecks.empty() && p.gradChecks.size() <= 3, n.c_str());
      // Every case runs through the kernel and the shape rule agrees with it.
      for (const GradCheckCase& c : p.gradChecks) {
        Types types;
        for (const Tensor& t : c.inputs) {
          if (isFloat(t.dtype())) QCOMPARE(t.dtype(), DType::F64);
          types.push_back({t.dtype(), t.shape()});
        }
        QCOMPARE(p.run(c.inputs, c.attrs).at(0).shape(), p.shape(types, c.attrs).at(0).shape);
      }
    }
    // TF registers no gradient (None) for these (math_grad.py: _RoundGrad returns [None];
    // NotDifferentiable("LogicalNot", "ZerosLike", "OnesLike", "Equal")), but a zero one for
    // sign (_SignGrad), which the registry's grad check covers.
    for (const std::string n : {"round", "logical_not", "zeros_like", "ones_like", "equal"})
      QVERIFY2(!Registry::instance().get(n).differentiable, n.c_str());
    QVERIFY(Registry::instance().get("sign").differentiable);
    QVERIFY(Registry::instance().get("stop_gradient").vjp);
  }

  void gradCheckInputsAvoidKinks() {
    for (const std::string n : {"log", "sqrt"})
      for (const GradCheckCase& c : Registry::instance().get(n).gradChecks)
        for (double v : c.inputs[0].toVector()) QVERIFY(v > 0.1);
    for (const std::string n : {"abs", "relu"})
      for (const GradCheckCase& c : Registry::instance().get(n).gradChecks)
        for (double v : c.inputs[0].toVector()) QVERIFY(std::abs(v) > 0.1);
    for (const std::string n : {"maximum", "minimum"})
      for (const GradCheckCase& c : Registry::instance().get(n).gradChecks) {
        const Tensor d = naiveBinary(c.inputs[0], c.inputs[1], DType::F64,
                                     [](double u, double v) { return std::abs(u - v); });
        for (double v : d.toVector()) QVERIFY(v > 0.1);
      }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestElementwise)
#include "test_elementwise.moc"
