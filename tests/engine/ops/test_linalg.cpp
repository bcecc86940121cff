// matmul and einsum kernels against explicit loops, their shape rules, plans and error texts.
#include <QElapsedTimer>
#include "test_main.h"

#include <cmath>
#include <map>

#include "engine/ops/einsum.h"
#include "engine/ops/registry.h"
#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"

#include "op_test_util.h"

using namespace gl;
using namespace gltest_ops;

namespace {

Tensor runMatmul(const Tensor& a, const Tensor& b, bool ta = false, bool tb = false) {
  return prim("matmul").run({a, b}, {{"transpose_a", ta}, {"transpose_b", tb}}).at(0);
}
Tensor runEinsum(const std::string& eq, const Tensors& in) {
  return prim("einsum").run(in, {{"equation", eq}}).at(0);
}

double maxAbsDiff(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return INFINITY;
  double m = 0;
  for (int64_t i = 0; i < a.numel(); ++i) m = std::max(m, std::abs(a.at(i) - b.at(i)));
  return m;
}

// Naive batched matmul with NumPy batch broadcasting, in double.
Tensor matmulRef(const Tensor& a, const Tensor& b, bool ta, bool tb) {
  const Shape &as = a.shape(), &bs = b.shape();
  const size_t ra = as.size(), rb = bs.size();
  const int64_t M = ta ? as[ra - 1] : as[ra - 2], K = ta ? as[ra - 2] : as[ra - 1];
  const int64_t N = tb ? bs[rb - 2] : bs[rb - 1];
  const size_t r = std::max(ra, rb) - 2;
  Shape batch(r);
  auto dimA = [&](size_t i) { return i + ra - 2 >= r ? as[i + ra - 2 - r] : 1; };
  auto dimB = [&](size_t i) { return i + rb - 2 >= r ? bs[i + rb - 2 - r] : 1; };
  for (size_t i = 0; i < r; ++i) batch[i] = std::max(dimA(i), dimB(i));
  Shape os = batch;
  os.push_back(M);
  os.push_back(N);
  Tensor c = Tensor::zeros(DType::F64, os);
  int64_t nb = 1;
  for (auto d : batch) nb *= d;
  for (int64_t bi = 0; bi < nb; ++bi) {
    // Batch index -> flat matrix index in a and b (broadcast dims repeat index 0).
    int64_t rem = bi, fa = 0, fb = 0, sa = 1, sb = 1;
    for (size_t i = r; i-- > 0;) {
      const int64_t idx = rem % batch[i];
      rem /= batch[i];
      if (dimA(i) != 1) fa += idx * sa;
      if (dimB(i) != 1) fb += idx * sb;
      sa *= dimA(i);
      sb *= dimB(i);
    }
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double av = a.at(fa * M * K + (ta ? k * M + m : m * K + k));
          const double bv = b.at(fb * K * N + (tb ? n * K + k : k * N + n));
          s += av * bv;
        }
        c.set((bi * M + m) * N + n, s);
      }
  }
  return c;
}

// Naive einsum: loops over every assignment of every label (explicit "->" equations only).
Tensor einsumRef(const std::string& eq, const Tensors& in) {
  const size_t arrow = eq.find("->");
  const std::string out = eq.substr(arrow + 2);
  std::vector<std::string> ops;
  for (size_t start = 0;;) {
    const size_t comma = eq.find(',', start);
    ops.push_back(eq.substr(start, std::min(comma, arrow) - start));
    if (comma == std::string::npos || comma > arrow) break;
    start = comma + 1;
  }
  std::map<char, int64_t> size;
  std::string labels;
  for (size_t k = 0; k < ops.size(); ++k)
    for (size_t i = 0; i < ops[k].size(); ++i) {
      if (!size.count(ops[k][i])) labels += ops[k][i];
      size[ops[k][i]] = in[k].shape()[i];
    }
  Shape os;
  for (char c : out) os.push_back(size[c]);
  Tensor r = Tensor::zeros(DType::F64, os);
  std::map<char, int64_t> at;
  int64_t total = 1;
  for (char c : labels) total *= size[c];
  auto flat = [&](const std::string& ls, const Shape& s) {
    int64_t f = 0;
    for (size_t i = 0; i < ls.size(); ++i) f = f * s[i] + at[ls[i]];
    return f;
  };
  for (int64_t t = 0; t < total; ++t) {
    int64_t rem = t;
    for (size_t i = labels.size(); i-- > 0;) {
      at[labels[i]] = rem % size[labels[i]];
      rem /= size[labels[i]];
    }
    double p = 1;
    for (size_t k = 0; k < ops.size(); ++k) p *= in[k].at(flat(ops[k], in[k].shape()));
    const int64_t o = flat(out, os);
    r.set(o, r.at(o) + p);
  }
  return r;
}

}  // namespace

class TestLinalg : public QObject {
  Q_OBJECT
 private slots:
  void matmulByHand() {
    Tensor a = Tensor::fromVector({1, 2, 3, 4}, {2, 2}, DType::F64);
    Tensor b = Tensor::fromVector({5, 6, 7, 8}, {2, 2}, DType::F64);
    QCOMPARE(runMatmul(a, b).toVector(), (std::vector<double>{19, 22, 43, 50}));
    QCOMPARE(runMatmul(a, b, true, false).toVector(), (std::vector<double>{26, 30, 38, 44}));
    QCOMPARE(runMatmul(a, b, false, true).toVector(), (std::vector<double>{17, 23, 39, 53}));
    QCOMPARE(runMatmul(a, b, true, true).toVector(), (std::vector<double>{23, 31, 34, 46}));
    Tensor r = runMatmul(Tensor::fromVector({1, 2, 3}, {1, 3}, DType::F32),
                         Tensor::fromVector({1, 0, 0, 1, 1, 1}, {3, 2}, DType::F32));
    QCOMPARE(r.dtype(), DType::F32);
    QCOMPARE(r.shape(), (Shape{1, 2}));
    QCOMPARE(r.toVector(), (std::vector<double>{4, 5}));
  }
  void matmulMatchesLoopsWithBatchBroadcast() {
    Rng rng(11);
    struct Case {
      Shape a, b;
      bool ta, tb;
    };
    const std::vector<Case> cases{
        {{2, 1, 3, 4}, {3, 4, 5}, false, false},  // both operands broadcast
        {{4, 3}, {2, 4, 5}, true, false},         // unbatched a, transposed
        {{2, 3, 4}, {5, 4}, false, true},         // shared b: one folded GEMM
        {{5, 3, 4}, {5, 2, 3}, true, true},      {{5, 3, 4}, {1, 4, 2}, false, false},
        {{96, 3, 4}, {96, 4, 5}, false, false},  // many small products: OpenMP over batches
        {{3, 0, 4}, {4, 2}, false, false},       // empty
        {{2, 3, 0}, {2, 0, 2}, false, false},    // empty inner dim: zeros
    };
    for (const auto& c : cases)
      for (DType dt : {DType::F64, DType::F32}) {
        Tensor a = rng.normal(c.a, 0, 1, dt), b = rng.normal(c.b, 0, 1, dt);
        Tensor got = runMatmul(a, b, c.ta, c.tb);
        Tensor want = matmulRef(a, b, c.ta, c.tb);
        QCOMPARE(got.dtype(), dt);
        QVERIFY2(maxAbsDiff(got, want) < (dt == DType::F64 ? 1e-12 : 1e-4),
                 qPrintable(QString::fromStdString(shapeStr(c.a) + " @ " + shapeStr(c.b))));
      }
  }
  void matmulLarge() {
    Rng rng(12);
    Tensor a = rng.normal({130, 257}, 0, 1, DType::F32),
           b = rng.normal({257, 70}, 0, 1, DType::F32);
    QVERIFY(maxAbsDiff(runMatmul(a, b), matmulRef(a, b, false, false)) < 1e-3);
  }
  void matmulShapeRuleAndErrors() {
    const Primitive& p = prim("matmul");
    QCOMPARE(p.shape({ty(DType::F32, {-1, 3}), ty(DType::F32, {3, 4})}, {})[0].shape,
             (Shape{-1, 4}));
    QCOMPARE(p.shape({ty(DType::F32, {7, 1, 2, 3}), ty(DType::F32, {5, 4, 3})},
                     {{"transpose_b", true}})[0]
                 .shape,
             (Shape{7, 5, 2, 4}));
    QCOMPARE(p.shape({ty(DType::F64, {2, -1}), ty(DType::F64, {5, 4})}, {})[0].shape,
             (Shape{2, 4}));
    QCOMPARE(errorOf([&] {
               runMatmul(Tensor::zeros(DType::F32, {2, 3}), Tensor::zeros(DType::F32, {4, 5}));
             }),
             QString("matmul inner dimensions do not match: [2,3] @ [4,5] (3 != 4)"));
    QCOMPARE(errorOf([&] {
               p.shape({ty(DType::F32, {3, 2}), ty(DType::F32, {4, 5})}, {{"transpose_a", true}});
             }),
             QString("matmul inner dimensions do not match: [3,2]^T @ [4,5] (3 != 4)"));
    QVERIFY(errorOf([&] {
              p.shape({ty(DType::F32, {3}), ty(DType::F32, {3, 4})}, {});
            }).contains("matmul needs operands of rank >= 2, got [3] and [3,4]"));
    QVERIFY(errorOf([&] {
              p.shape({ty(DType::F32, {2, 3}), ty(DType::F64, {3, 4})}, {});
            }).contains("float32 and float64"));
    QVERIFY(errorOf([&] {
              p.shape({ty(DType::F32, {2, 2, 3}), ty(DType::F32, {3, 3, 4})}, {});
            }).contains("batch dimensions of [2,2,3] and [3,3,4] cannot be broadcast"));
  }

  void einsumMatchesLoops() {
    Rng rng(13);
    struct Case {
      std::string eq;
      std::vector<Shape> shapes;
    };
    const std::vector<Case> cases{
        {"bti,ntic->bntc", {{3, 4, 5}, {2, 4, 5, 3}}},
        {"bti,tic->btc", {{3, 4, 5}, {4, 5, 2}}},
        {"ij,jk->ik", {{3, 4}, {4, 5}}},
        {"ij,jk->ki", {{3, 4}, {4, 5}}},  // swapped GEMM
        {"ij,kj->ik", {{3, 4}, {5, 4}}},  // transposed B read in place
        {"ji,jk->ik", {{4, 3}, {4, 5}}},  // transposed A read in place
        {"bi,bi->b", {{6, 4}, {6, 4}}},
        {"ij->ji", {{3, 4}}},
        {"ij->i", {{3, 4}}},
        {"ijk->", {{2, 3, 4}}},
        {"ijk,j->i", {{2, 3, 4}, {3}}},     // k summed in A only
        {"ij,kl->ijkl", {{2, 3}, {2, 2}}},  // outer product
        {"i,i->", {{5}, {5}}},
        {"bij,bjk->bki", {{3, 2, 4}, {3, 4, 5}}},
        {"abc,cda->bd", {{2, 3, 4}, {4, 5, 2}}},
    };
    for (const auto& c : cases)
      for (DType dt : {DType::F64, DType::F32}) {
        Tensors in;
        for (const auto& s : c.shapes) in.push_back(rng.normal(s, 0, 1, dt));
        Tensor got = runEinsum(c.eq, in);
        QCOMPARE(got.dtype(), dt);
        const double d = maxAbsDiff(got, einsumRef(c.eq, in));
        QVERIFY2(d < (dt == DType::F64 ? 1e-12 : 1e-4), c.eq.c_str());
        Types ts;
        for (const auto& t : in) ts.push_back(ty(dt, t.shape()));
        QCOMPARE(prim("einsum").shape(ts, {{"equation", c.eq}})[0].shape, got.shape());
      }
  }
  void einsumImplicitOutput() {
    Rng rng(14);
    Tensor a = rng.normal({3, 4}, 0, 1, DType::F64), b = rng.normal({4, 2}, 0, 1, DType::F64);
    QVERIFY(maxAbsDiff(runEinsum("ij,jk", {a, b}), einsumRef("ij,jk->ik", {a, b})) < 1e-12);
    QVERIFY(maxAbsDiff(runEinsum("ba", {a}), einsumRef("ba->ab", {a})) < 1e-12);
    QVERIFY(maxAbsDiff(runEinsum(" i j , j k -> i k ", {a, b}), einsumRef("ij,jk->ik", {a, b})) <
            1e-12);
  }
  void einsumSeedEquationByExplicitLoops() {
    // 'bti,ntic->bntc' at reduced size, against the textbook 5-deep loop.
    const int64_t B = 3, T = 4, I = 5, N = 2, C = 3;
    Rng rng(15);
    Tensor x = rng.normal({B, T, I}, 0, 1, DType::F64),
           w = rng.normal({N, T, I, C}, 0, 1, DType::F64);
    Tensor y = runEinsum("bti,ntic->bntc", {x, w});
    QCOMPARE(y.shape(), (Shape{B, N, T, C}));
    for (int64_t b = 0; b < B; ++b)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t t = 0; t < T; ++t)
          for (int64_t c = 0; c < C; ++c) {
            double s = 0;
            for (int64_t i = 0; i < I; ++i)
              s += x.at((b * T + t) * I + i) * w.at(((n * T + t) * I + i) * C + c);
            QVERIFY(std::abs(y.at(((b * N + n) * T + t) * C + c) - s) < 1e-12);
          }
  }
  void einsumSeedEquationFullSizeIsBatchedGemm() {
    // b=32, t=64, i=64, c=32, n=64: 268M multiply-adds, seconds as a 6-deep loop; as a batched
    // GEMM over t it takes a fraction of that. Spot-check entries.
    Rng rng(16);
    Tensor x = rng.normal({32, 64, 64}, 0, 1, DType::F32);
    Tensor w = rng.normal({64, 64, 64, 32}, 0, 1, DType::F32);
    QElapsedTimer timer;
    timer.start();
    Tensor y = runEinsum("bti,ntic->bntc", {x, w});
    const qint64 ms = timer.elapsed();
    qInfo("bti,ntic->bntc at full size: %lld ms", ms);
    QCOMPARE(y.shape(), (Shape{32, 64, 64, 32}));
    const float* px = x.data<float>();
    const float* pw = w.data<float>();
    const float* py = y.data<float>();
    for (int64_t k = 0; k < 200; ++k) {
      const int64_t b = (k * 7) % 32, n = (k * 13) % 64, t = (k * 29) % 64, c = (k * 3) % 32;
      double s = 0;
      for (int64_t i = 0; i < 64; ++i)
        s += double(px[(b * 64 + t) * 64 + i]) * double(pw[((n * 64 + t) * 64 + i) * 32 + c]);
      QVERIFY(std::abs(py[((b * 64 + n) * 64 + t) * 32 + c] - s) < 1e-3);
    }
    QVERIFY(ms < 5000);
  }
  void einsumPlans() {
    using einsum::parse;
    einsum::Plan p = einsum::planContraction(parse("bti,ntic->bntc", {3, 4}));
    QCOMPARE(p.batch, std::string("t"));
    QCOMPARE(p.freeA, std::string("b"));
    QCOMPARE(p.freeB, std::string("nc"));
    QCOMPARE(p.contracted, std::string("i"));
    QCOMPARE(p.a.perm, (std::vector<int64_t>{1, 0, 2}));      // [t, b, i]
    QCOMPARE(p.b.perm, (std::vector<int64_t>{1, 2, 0, 3}));   // [t, i, n, c]
    QCOMPARE(p.outPerm, (std::vector<int64_t>{1, 2, 0, 3}));  // [t, b, n, c] -> [b, n, t, c]
    p = einsum::planContraction(parse("ij,jk->ik", {2, 2}));
    QVERIFY(p.a.perm.empty() && p.b.perm.empty() && p.outPerm.empty() && !p.swap);
    p = einsum::planContraction(parse("ij,kj->ki", {2, 2}));
    QVERIFY(p.a.perm.empty() && p.b.perm.empty() && p.outPerm.empty());
    QVERIFY(p.swap && p.b.transposed && !p.a.transposed);
    p = einsum::planContraction(parse("ijk,j->i", {3, 1}));
    QCOMPARE(p.sumA, std::string("k"));
    QCOMPARE(p.a.summed, 1);
    QCOMPARE(parse("ij,jk", {2, 2}).output, std::string("ik"));
    QCOMPARE(parse("ij,jk", {2, 2}).str(), std::string("ij,jk->ik"));
  }
  void einsumErrors() {
    const Primitive& p = prim("einsum");
    auto shapeErr = [&](const std::string& eq, std::vector<Shape> shapes) {
      Types ts;
      for (const auto& s : shapes) ts.push_back(ty(DType::F32, s));
      return errorOf([&] { p.shape(ts, {{"equation", eq}}); });
    };
    QCOMPARE(shapeErr("ij,jk->iz", {{2, 3}, {3, 4}}),
             QString("einsum equation 'ij,jk->iz': output label 'z' is in no operand"));
    QCOMPARE(shapeErr("ij,jk->ik", {{2, 3}}),
             QString("einsum equation 'ij,jk->ik': the equation names 2 operand(s), got 1"));
    QCOMPARE(shapeErr("ij,jk->ik", {{2, 3}, {3, 4, 5}}),
             QString("einsum equation 'ij,jk->ik': operand 1 has 2 labels ('jk') but rank 3"));
    QCOMPARE(shapeErr("i1,jk->ik", {{2, 3}, {3, 4}}),
             QString("einsum equation 'i1,jk->ik': '1' is not a label (labels are letters a-z, "
                     "A-Z)"));
    QVERIFY(shapeErr("...ij,jk->ik", {{2, 3}, {3, 4}}).contains("ellipsis"));
    QVERIFY(shapeErr("ii->i", {{3, 3}}).contains("label 'i' repeats within operand 'ii'"));
    QVERIFY(shapeErr("ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}).contains("1 or 2 operands"));
    QVERIFY(shapeErr("ij,jk->ikk", {{2, 3}, {3, 4}}).contains("output label 'k' repeats"));
    QCOMPARE(shapeErr("ij,jk->ik", {{2, 3}, {4, 5}}),
             QString("einsum 'ij,jk->ik': label 'j' has size 3 in operand 0 [2,3] but 4 in "
                     "operand 1 [4,5]"));
    // Unknown dims pass the shape rule and are checked by the kernel.
    Types ts{ty(DType::F32, {-1, 3}), ty(DType::F32, {-1, 4})};
    QCOMPARE(p.shape(ts, {{"equation", std::string("ij,jk->ik")}})[0].shape, (Shape{-1, 4}));
    QVERIFY(errorOf([&] {
              runEinsum("ij,jk->ik",
                        {Tensor::zeros(DType::F32, {2, 3}), Tensor::zeros(DType::F32, {4, 4})});
            }).contains("label 'j' has size 3"));
  }

  void gradCheckCasesRun() {
    for (const char* name : {"matmul", "einsum"}) {
      const Primitive& p = prim(name);
      QVERIFY(p.differentiable && p.vjp);
      QVERIFY(!p.gradChecks.empty());
      QVERIFY(p.math.find('\n') != std::string::npos);
      for (const auto& gc : p.gradChecks) {
        Types ts;
        for (const auto& t : gc.inputs) ts.push_back(ty(t.dtype(), t.shape()));
        QCOMPARE(p.run(gc.inputs, gc.attrs).at(0).shape(), p.shape(ts, gc.attrs)[0].shape);
      }
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestLinalg)
#include "test_linalg.moc"
