// Forward kernels and shape rules of conv2d, its two backprop primitives and global average
// pooling, called straight through the registry.
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

Attrs convAttrs(int64_t sh, int64_t sw, const std::string& padding) {
  return Attrs{{"strides", std::vector<int64_t>{sh, sw}}, {"padding", padding}};
}

// TensorFlow's SAME arithmetic for one dim: {out, zeros before}.
std::pair<int64_t, int64_t> sameDim(int64_t in, int64_t k, int64_t s) {
  const int64_t out = (in + s - 1) / s;
  return {out, std::max<int64_t>((out - 1) * s + k - in, 0) / 2};
}

// The definition, seven loops deep, in double.
Tensor naiveConv(const Tensor& x, const Tensor& f, int64_t sh, int64_t sw, bool same) {
  const Shape &xs = x.shape(), &fs = f.shape();
  const int64_t N = xs[0], H = xs[1], W = xs[2], C = xs[3], KH = fs[0], KW = fs[1], O = fs[3];
  int64_t OH = (H - KH) / sh + 1, OW = (W - KW) / sw + 1, pt = 0, pl = 0;
  if (same) std::tie(OH, pt) = sameDim(H, KH, sh), std::tie(OW, pl) = sameDim(W, KW, sw);
  Tensor y = Tensor::zeros(DType::F64, {N, OH, OW, O});
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j)
        for (int64_t o = 0; o < O; ++o) {
          double s = 0;
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw)
              for (int64_t c = 0; c < C; ++c) {
                const int64_t ih = i * sh + kh - pt, iw = j * sw + kw - pl;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                s += x.at(((n * H + ih) * W + iw) * C + c) * f.at(((kh * KW + kw) * C + c) * O + o);
              }
          y.set(((n * OH + i) * OW + j) * O + o, s);
        }
  return y;
}

double dot(const Tensor& a, const Tensor& b) {
  double s = 0;
  for (int64_t i = 0; i < a.numel(); ++i) s += a.at(i) * b.at(i);
  return s;
}

// Columns shared by the data-driven tests: shapes, strides, padding.
void convRows() {
  QTest::addColumn<Shape>("xs");
  QTest::addColumn<Shape>("fs");
  QTest::addColumn<int>("sh");
  QTest::addColumn<int>("sw");
  QTest::addColumn<QString>("padding");
  QTest::newRow("valid s1") << Shape{2, 5, 6, 3} << Shape{3, 3, 3, 4} << 1 << 1 << "VALID";
  QTest::newRow("valid s2") << Shape{2, 7, 6, 3} << Shape{3, 3, 3, 4} << 2 << 2 << "VALID";
  QTest::newRow("same s1") << Shape{2, 5, 6, 3} << Shape{3, 3, 3, 4} << 1 << 1 << "SAME";
  QTest::newRow("same s2") << Shape{2, 5, 6, 3} << Shape{3, 3, 3, 4} << 2 << 2 << "SAME";
  QTest::newRow("same even filter") << Shape{1, 6, 5, 2} << Shape{2, 4, 2, 3} << 2 << 1 << "SAME";
  QTest::newRow("valid mixed strides")
      << Shape{2, 9, 8, 2} << Shape{3, 2, 2, 5} << 3 << 2 << "VALID";
  QTest::newRow("stride above filter")
      << Shape{1, 9, 9, 2} << Shape{2, 2, 2, 3} << 3 << 3 << "SAME";
  QTest::newRow("pointwise") << Shape{2, 4, 5, 6} << Shape{1, 1, 6, 3} << 1 << 1 << "VALID";
  QTest::newRow("pointwise s2") << Shape{2, 5, 5, 3} << Shape{1, 1, 3, 2} << 2 << 2 << "SAME";
  QTest::newRow("filter = input") << Shape{2, 3, 4, 2} << Shape{3, 4, 2, 5} << 1 << 1 << "VALID";
  // Many tiles: the tiled, multi-threaded paths (and filter-gradient groups).
  QTest::newRow("many tiles") << Shape{3, 60, 70, 3} << Shape{3, 3, 3, 8} << 1 << 1 << "VALID";
  QTest::newRow("deep channels") << Shape{2, 20, 24, 40} << Shape{3, 3, 40, 6} << 1 << 1 << "SAME";
}

}  // namespace

class TestConv : public QObject {
  Q_OBJECT
 private slots:
  void conv2dMatchesNaive_data() { convRows(); }
  void conv2dMatchesNaive() {
    QFETCH(Shape, xs);
    QFETCH(Shape, fs);
    QFETCH(int, sh);
    QFETCH(int, sw);
    QFETCH(QString, padding);
    Rng rng(11);
    const Tensor x = rng.normal(xs, 0, 1, DType::F64), f = rng.normal(fs, 0, 1, DType::F64);
    const Attrs a = convAttrs(sh, sw, padding.toStdString());
    const Tensor want = naiveConv(x, f, sh, sw, padding == "SAME");
    const Tensor y = run("conv2d", {x, f}, a);
    expectClose(y, want, 1e-12, "float64");
    QCOMPARE(typeOf("conv2d", {{DType::F64, xs}, {DType::F64, fs}}, a).shape, want.shape());
    // float32 runs the same kernels at float precision.
    const Tensor y32 = run("conv2d", {x.astype(DType::F32), f.astype(DType::F32)}, a);
    QCOMPARE(y32.dtype(), DType::F32);
    expectClose(y32, want, 1e-4, "float32");
  }

  // <conv2d(x, f), g> = <x, backprop_input(g, f)> = <f, backprop_filter(x, g)>.
  void backpropAreAdjoints_data() { convRows(); }
  void backpropAreAdjoints() {
    QFETCH(Shape, xs);
    QFETCH(Shape, fs);
    QFETCH(int, sh);
    QFETCH(int, sw);
    QFETCH(QString, padding);
    Rng rng(12);
    const Tensor x = rng.normal(xs, 0, 1, DType::F64), f = rng.normal(fs, 0, 1, DType::F64);
    const Attrs a = convAttrs(sh, sw, padding.toStdString());
    const Tensor y = run("conv2d", {x, f}, a);
    const Tensor g = rng.normal(y.shape(), 0, 1, DType::F64);
    Attrs ai = a, af = a;
    ai.set("input_shape", xs);
    af.set("filter_shape", fs);
    const Tensor dx = run("conv2d_backprop_input", {g, f}, ai);
    const Tensor df = run("conv2d_backprop_filter", {x, g}, af);
    QCOMPARE(dx.shape(), xs);
    QCOMPARE(df.shape(), fs);
    const double lhs = dot(y, g);
    QVERIFY2(std::abs(dot(x, dx) - lhs) <= 1e-10 * (1 + std::abs(lhs)),
             qPrintable(QString("<x, dx> = %1, <y, g> = %2").arg(dot(x, dx)).arg(lhs)));
    QVERIFY2(std::abs(dot(f, df) - lhs) <= 1e-10 * (1 + std::abs(lhs)),
             qPrintable(QString("<f, df> = %1, <y, g> = %2").arg(dot(f, df)).arg(lhs)));
    // Every element, not only the inner products: the gradient of one output element.
    Tensor e = Tensor::zeros(DType::F64, y.shape());
    const int64_t k = y.numel() / 2;
    e.set(k, 1.0);
    const Tensor dxk = run("conv2d_backprop_input", {e, f}, ai);
    const double h = 1e-3;
    for (int64_t i = 0; i < x.numel(); i += std::max<int64_t>(1, x.numel() / 40)) {
      Tensor xp = x.clone();
      xp.set(i, x.at(i) + h);
      const double fd = (run("conv2d", {xp, f}, a).at(k) - y.at(k)) / h;  // y is linear in x
      QVERIFY2(std::abs(fd - dxk.at(i)) < 1e-8, qPrintable(QString("dx[%1]").arg(i)));
    }
    // float32 agrees with float64.
    const Tensor dx32 =
        run("conv2d_backprop_input", {g.astype(DType::F32), f.astype(DType::F32)}, ai);
    const Tensor df32 =
        run("conv2d_backprop_filter", {x.astype(DType::F32), g.astype(DType::F32)}, af);
    expectClose(dx32, dx, 1e-4, "dx float32");
    expectClose(df32, df, 1e-3, "df float32");
  }

  // conv2d's optional bias is added to every pixel: the same as conv2d then a broadcast add.
  void biasAddsToEveryPixel_data() { convRows(); }
  void biasAddsToEveryPixel() {
    QFETCH(Shape, xs);
    QFETCH(Shape, fs);
    QFETCH(int, sh);
    QFETCH(int, sw);
    QFETCH(QString, padding);
    Rng rng(13);
    const Tensor x = rng.normal(xs, 0, 1, DType::F64), f = rng.normal(fs, 0, 1, DType::F64);
    const Tensor b = rng.normal({fs[3]}, 0, 1, DType::F64);
    const Attrs a = convAttrs(sh, sw, padding.toStdString());
    const Tensor y = run("conv2d", {x, f}, a), yb = run("conv2d", {x, f, b}, a);
    QCOMPARE(yb.shape(), y.shape());
    for (int64_t i = 0; i < y.numel(); ++i)
      QVERIFY(std::abs(yb.at(i) - (y.at(i) + b.at(i % fs[3]))) < 1e-12);
    QVERIFY_THROWS_EXCEPTION(
        ShapeError,
        typeOf("conv2d", {{DType::F64, xs}, {DType::F64, fs}, {DType::F64, {fs[3] + 1}}}, a));
  }

  // The filter gradient of a pooled conv from the pool's gradient g [N, O]: exactly the
  // filter gradient of global_avg_pool_grad(g), with and without keepdims.
  void pooledFilterGradIsTheBroadcastOne_data() { convRows(); }
  void pooledFilterGradIsTheBroadcastOne() {
    QFETCH(Shape, xs);
    QFETCH(Shape, fs);
    QFETCH(int, sh);
    QFETCH(int, sw);
    QFETCH(QString, padding);
    Rng rng(14);
    for (DType dt : {DType::F64, DType::F32}) {
      const Tensor x = rng.normal(xs, 0, 1, dt), f = rng.normal(fs, 0, 1, dt);
      Attrs a = convAttrs(sh, sw, padding.toStdString());
      const Shape ys = run("conv2d", {x, f}, a).shape();
      const Tensor g = rng.normal({ys[0], ys[3]}, 0, 1, dt);
      const Tensor gy = run("global_avg_pool_grad", {g}, Attrs{{"input_shape", ys}});
      a.set("filter_shape", fs);
      const Tensor want = run("conv2d_backprop_filter", {x, gy}, a);
      for (const Tensor& gp : {g, g.reshaped({ys[0], 1, 1, ys[3]})}) {
        const Tensor got = run("conv2d_backprop_filter_pooled", {x, gp}, a);
        QCOMPARE(got.shape(), fs);
        QCOMPARE(got.toVector(), want.toVector());
      }
    }
  }

  void byHand() {
    // 1x3x3x1 input 1..9, 2x2 filter of ones: each output sums a 2x2 window.
    const Tensor x = Tensor::fromVector({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3, 1}, DType::F64);
    const Tensor f = Tensor::full(DType::F64, {2, 2, 1, 1}, 1.0);
    QCOMPARE(run("conv2d", {x, f}, convAttrs(1, 1, "VALID")).toVector(),
             (std::vector<double>{12, 16, 24, 28}));
    // SAME, stride 1, 2x2: one row/column of zeros after (TensorFlow puts the odd pad after).
    QCOMPARE(run("conv2d", {x, f}, convAttrs(1, 1, "SAME")).toVector(),
             (std::vector<double>{12, 16, 9, 24, 28, 15, 15, 17, 9}));
    // SAME, stride 2, 3x3 filter on 3x3: out 2x2, pad total 2 -> one zero on each side.
    const Tensor f3 = Tensor::full(DType::F64, {3, 3, 1, 1}, 1.0);
    QCOMPARE(run("conv2d", {x, f3}, convAttrs(2, 2, "SAME")).toVector(),
             (std::vector<double>{12, 16, 24, 28}));
    // Strides in TensorFlow's NHWC form and as one number.
    const Attrs nhwc{{"strides", std::vector<int64_t>{1, 2, 2, 1}},
                     {"padding", std::string("SAME")}};
    QCOMPARE(run("conv2d", {x, f3}, nhwc).toVector(), (std::vector<double>{12, 16, 24, 28}));
    const Attrs one{{"strides", int64_t(2)}, {"padding", std::string("same")}};
    QCOMPARE(run("conv2d", {x, f3}, one).toVector(), (std::vector<double>{12, 16, 24, 28}));
    // The adjoint of the VALID 2x2 window sum spreads each g over its window.
    Attrs ai = convAttrs(1, 1, "VALID");
    ai.set("input_shape", Shape{1, 3, 3, 1});
    const Tensor g = Tensor::fromVector({1, 10, 100, 1000}, {1, 2, 2, 1}, DType::F64);
    QCOMPARE(run("conv2d_backprop_input", {g, f}, ai).toVector(),
             (std::vector<double>{1, 11, 10, 101, 1111, 1010, 100, 1100, 1000}));
    Attrs af = convAttrs(1, 1, "VALID");
    af.set("filter_shape", Shape{2, 2, 1, 1});
    // df[kh,kw] = sum_ij g[i,j] x[i+kh, j+kw]
    QCOMPARE(run("conv2d_backprop_filter", {x, g}, af).toVector(),
             (std::vector<double>{1 + 20 + 400 + 5000, 2 + 30 + 500 + 6000, 4 + 50 + 700 + 8000,
                                  5 + 60 + 800 + 9000}));
  }

  void sameResultForAnyThreadCount() {
    Rng rng(13);
    const Tensor x = rng.normal({3, 60, 70, 3}, 0, 1, DType::F32);
    const Tensor f = rng.normal({3, 3, 3, 16}, 0, 1, DType::F32);
    Attrs a = convAttrs(1, 1, "SAME"), af = a, ai = a;
    af.set("filter_shape", f.shape());
    ai.set("input_shape", x.shape());
    const int old = omp_get_max_threads();
    std::vector<float> r[2][3];
    for (int k = 0; k < 2; ++k) {
      omp_set_num_threads(k ? 4 : 1);
      const Tensor y = run("conv2d", {x, f}, a);
      const Tensor df = run("conv2d_backprop_filter", {x, y}, af);
      const Tensor dx = run("conv2d_backprop_input", {y, f}, ai);
      for (int j = 0; j < 3; ++j) {
        const Tensor& t = j == 0 ? y : j == 1 ? df : dx;
        r[k][j].assign(t.data<float>(), t.data<float>() + t.numel());
      }
    }
    omp_set_num_threads(old);
    for (int j = 0; j < 3; ++j)
      QVERIFY2(r[0][j] == r[1][j], qPrintable(QString("result %1").arg(j)));
  }

  void shapeRules() {
    const Attrs valid = convAttrs(1, 1, "VALID"), same2 = convAttrs(2, 2, "SAME");
    auto conv = [](const Shape& x, const Shape& f, const Attrs& a) {
      return typeOf("conv2d", {{DType::F32, x}, {DType::F32, f}}, a);
    };
    QCOMPARE(conv({5, 224, 224, 3}, {3, 3, 3, 64}, valid).shape, (Shape{5, 222, 222, 64}));
    QCOMPARE(conv({5, 224, 224, 3}, {3, 3, 3, 64}, valid).dtype, DType::F32);
    QCOMPARE(conv({5, 224, 223, 3}, {3, 3, 3, 64}, same2).shape, (Shape{5, 112, 112, 64}));
    // Unknown dims propagate; what is known is still checked.
    QCOMPARE(conv({-1, 224, -1, 3}, {3, 3, 3, 64}, valid).shape, (Shape{-1, 222, -1, 64}));
    QCOMPARE(conv({-1, 10, 10, -1}, {3, -1, 4, 8}, same2).shape, (Shape{-1, 5, 5, 8}));
    QCOMPARE(conv({2, 10, 10, -1}, {3, -1, 4, 8}, valid).shape, (Shape{2, 8, -1, 8}));
    // The backprop ops take the unknown dims of their result from their operands.
    Attrs ai = valid;
    ai.set("input_shape", Shape{-1, 7, 7, -1});
    QCOMPARE(typeOf("conv2d_backprop_input",
                    {{DType::F32, {4, 5, 5, 8}}, {DType::F32, {3, 3, 2, 8}}}, ai)
                 .shape,
             (Shape{4, 7, 7, 2}));
    Attrs af = valid;
    af.set("filter_shape", Shape{3, 3, -1, -1});
    QCOMPARE(typeOf("conv2d_backprop_filter",
                    {{DType::F64, {4, 7, 7, 2}}, {DType::F64, {4, 5, 5, 8}}}, af)
                 .shape,
             (Shape{3, 3, 2, 8}));
    QCOMPARE(typeOf("global_avg_pool", {{DType::F32, {5, -1, 222, 64}}}).shape, (Shape{5, 64}));
    QCOMPARE(typeOf("global_avg_pool", {{DType::F32, {5, 9, 9, 64}}}, {{"keepdims", true}}).shape,
             (Shape{5, 1, 1, 64}));
  }

  void shapeErrorsNameTheShapes() {
    const Attrs valid = convAttrs(1, 1, "VALID");
    QString e = shapeErrorOf([&] {
      typeOf("conv2d", {{DType::F32, {5, 224, 224, 3}}, {DType::F32, {3, 3, 4, 64}}}, valid);
    });
    QVERIFY2(e.contains("[5,224,224,3]") && e.contains("[3,3,4,64]") && e.contains("3 channels") &&
                 e.contains("expects 4"),
             qPrintable(e));
    // The kernel says the same with concrete tensors.
    e = shapeErrorOf([&] {
      run("conv2d",
          {Tensor::zeros(DType::F32, {1, 4, 4, 3}), Tensor::zeros(DType::F32, {3, 3, 2, 1})},
          valid);
    });
    QVERIFY2(e.contains("[1,4,4,3]") && e.contains("[3,3,2,1]"), qPrintable(e));
    e = shapeErrorOf([&] {
      typeOf("conv2d", {{DType::F32, {1, 4, 4, 3}}, {DType::F32, {5, 5, 3, 8}}}, valid);
    });
    QVERIFY2(e.contains("[1,4,4,3]") && e.contains("[5,5,3,8]") && e.contains("VALID"),
             qPrintable(e));
    e = shapeErrorOf([&] {
      typeOf("conv2d", {{DType::F32, {4, 4, 3}}, {DType::F32, {3, 3, 3, 8}}}, valid);
    });
    QVERIFY2(e.contains("[4,4,3]") && e.contains("rank 4"), qPrintable(e));
    e = shapeErrorOf([&] {
      typeOf("conv2d", {{DType::F32, {1, 4, 4, 3}}, {DType::F64, {3, 3, 3, 8}}}, valid);
    });
    QVERIFY2(e.contains("float32") && e.contains("float64"), qPrintable(e));
    e = shapeErrorOf([&] {
      typeOf("conv2d", {{DType::F32, {1, 4, 4, 3}}, {DType::F32, {3, 3, 3, 8}}},
             {{"padding", std::string("FULL")}});
    });
    QVERIFY2(e.contains("FULL"), qPrintable(e));
    // An output gradient that does not fit the convolution.
    Attrs ai = valid;
    ai.set("input_shape", Shape{2, 5, 6, 3});
    e = shapeErrorOf([&] {
      typeOf("conv2d_backprop_input", {{DType::F32, {2, 4, 4, 4}}, {DType::F32, {3, 3, 3, 4}}}, ai);
    });
    QVERIFY2(e.contains("[2,4,4,4]") && e.contains("[2,3,4,4]"), qPrintable(e));
    Attrs af = valid;
    af.set("filter_shape", Shape{3, 3, 3, 4});
    e = shapeErrorOf([&] {
      run("conv2d_backprop_filter",
          {Tensor::zeros(DType::F32, {2, 5, 6, 3}), Tensor::zeros(DType::F32, {2, 3, 4, 5})}, af);
    });
    QVERIFY2(e.contains("[2,3,4,5]") && e.contains("[3,3,3,4]"), qPrintable(e));
    e = shapeErrorOf([&] { typeOf("global_avg_pool", {{DType::F32, {5, 64}}}); });
    QVERIFY2(e.contains("[5,64]"), qPrintable(e));
  }

  // Shapes unknown when the gradient graph was built are recovered at run time.
  void backpropWithRunTimeShapes() {
    Rng rng(14);
    const Tensor x = rng.normal({2, 6, 7, 3}, 0, 1, DType::F64);
    const Tensor f = rng.normal({3, 2, 3, 4}, 0, 1, DType::F64);
    for (const char* padding : {"VALID", "SAME"}) {
      const Attrs a = convAttrs(2, 2, padding);
      const Tensor g = rng.normal(run("conv2d", {x, f}, a).shape(), 0, 1, DType::F64);
      Attrs known = a, unknown = a;
      known.set("input_shape", x.shape());
      unknown.set("input_shape", Shape{-1, -1, -1, -1});
      const Tensor want = run("conv2d_backprop_input", {g, f}, known);
      expectClose(run("conv2d_backprop_input", {g, f, x}, unknown), want, 0, "from x");
      // Stride 2 cannot recover H and W from g alone.
      QVERIFY(!shapeErrorOf([&] { run("conv2d_backprop_input", {g, f}, unknown); }).isEmpty());
      Attrs fKnown = a, fUnknown = a;
      fKnown.set("filter_shape", f.shape());
      fUnknown.set("filter_shape", Shape{-1, -1, -1, -1});
      expectClose(run("conv2d_backprop_filter", {x, g, f}, fUnknown),
                  run("conv2d_backprop_filter", {x, g}, fKnown), 0, "from f");
    }
    // Stride 1 recovers them (N from g, C from f).
    for (const char* padding : {"VALID", "SAME"}) {
      const Attrs a = convAttrs(1, 1, padding);
      const Tensor g = rng.normal(run("conv2d", {x, f}, a).shape(), 0, 1, DType::F64);
      Attrs known = a, unknown = a;
      known.set("input_shape", x.shape());
      unknown.set("input_shape", Shape{-1, -1, -1, -1});
      expectClose(run("conv2d_backprop_input", {g, f}, unknown),
                  run("conv2d_backprop_input", {g, f}, known), 0, padding);
    }
  }

  void globalAvgPool() {
    // x[n,h,w,c] = 100n + 10h + w + c/10 on [2,2,3,2]: the mean over (h, w) is 100n + 5 + 1 + c/10.
    Tensor x = Tensor::empty(DType::F64, {2, 2, 3, 2});
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t w = 0; w < 3; ++w)
          for (int64_t c = 0; c < 2; ++c)
            x.set(((n * 2 + h) * 3 + w) * 2 + c, 100.0 * n + 10.0 * h + w + c / 10.0);
    const Tensor y = run("global_avg_pool", {x});
    QCOMPARE(y.shape(), (Shape{2, 2}));
    expectClose(y, Tensor::fromVector({6, 6.1, 106, 106.1}, {2, 2}, DType::F64), 1e-14, "mean");
    const Tensor yk = run("global_avg_pool", {x.astype(DType::F32)}, {{"keepdims", true}});
    QCOMPARE(yk.shape(), (Shape{2, 1, 1, 2}));
    QCOMPARE(yk.dtype(), DType::F32);
    expectClose(yk.astype(DType::F64), y.reshaped({2, 1, 1, 2}), 1e-6, "keepdims");
    // The gradient spreads g / (H*W) and is the adjoint of the mean.
    const Tensor g = Tensor::fromVector({6, 12, -18, 24}, {2, 2}, DType::F64);
    const Tensor dx = run("global_avg_pool_grad", {g}, {{"input_shape", Shape{2, 2, 3, 2}}});
    QCOMPARE(dx.shape(), (Shape{2, 2, 3, 2}));
    for (int64_t i = 0; i < dx.numel(); ++i) QCOMPARE(dx.at(i), g.at((i / 12) * 2 + i % 2) / 6.0);
    QVERIFY(std::abs(dot(y, g) - dot(x, dx)) < 1e-9);
    const Tensor dxk = run("global_avg_pool_grad", {g.reshaped({2, 1, 1, 2}), x},
                           {{"input_shape", Shape{-1, -1, -1, -1}}});
    QCOMPARE(dxk.toVector(), dx.toVector());
    // A large input takes the blocked, parallel path.
    Rng rng(15);
    const Tensor big = rng.uniform({3, 100, 90, 8}, -1, 1, DType::F32);
    const Tensor yb = run("global_avg_pool", {big});
    for (int64_t n = 0; n < 3; ++n)
      for (int64_t c = 0; c < 8; ++c) {
        double s = 0;
        for (int64_t p = 0; p < 9000; ++p) s += big.at((n * 9000 + p) * 8 + c);
        QVERIFY(std::abs(yb.at(n * 8 + c) - s / 9000) < 1e-6);
      }
  }

  void registryEntriesAreComplete() {
    for (const char* name :
         {"conv2d", "conv2d_backprop_input", "conv2d_backprop_filter",
          "conv2d_backprop_filter_pooled", "global_avg_pool", "global_avg_pool_grad"}) {
      const Primitive& p = Registry::instance().get(name);
      QVERIFY2(p.vjp && p.differentiable && !p.gradChecks.empty(), name);
      QVERIFY2(p.math.find('\n') != std::string::npos, name);
      for (const GradCheckCase& c : p.gradChecks) {
        for (const Tensor& t : c.inputs) QCOMPARE(t.dtype(), DType::F64);
        Types types;
        for (const Tensor& t : c.inputs) types.push_back({t.dtype(), t.shape()});
        QCOMPARE(p.shape(types, c.attrs).at(0).shape, p.run(c.inputs, c.attrs).at(0).shape());
      }
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestConv)
#include "test_conv.moc"
