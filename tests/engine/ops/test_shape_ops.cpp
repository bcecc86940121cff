// Forward values, shape rules and error texts of the shape primitives, calling the registry's
// kernels directly.
#include "test_main.h"

#include "engine/ops/registry.h"
#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"

#include "op_test_util.h"

using namespace gl;
using namespace gltest_ops;

namespace {

Tensor f64(const std::vector<double>& v, const Shape& s) {
  return Tensor::fromVector(v, s, DType::F64);
}
Tensor i32(const std::vector<double>& v, const Shape& s) {
  return Tensor::fromVector(v, s, DType::I32);
}
// 0, 1, 2, ... in the given dtype.
Tensor iota(const Shape& s, DType dt = DType::F64) {
  Tensor t = Tensor::empty(dt, s);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, double(i));
  return t;
}

#define CHECK_TENSOR(t, shape_, values_)                   \
  do {                                                     \
    const Tensor& t_ = (t);                                \
    QCOMPARE(t_.shape(), Shape(shape_));                   \
    QCOMPARE(t_.toVector(), std::vector<double>(values_)); \
  } while (0)

#define V(...) \
  std::vector<double> { __VA_ARGS__ }
#define S(...) \
  Shape { __VA_ARGS__ }
#define I(...) \
  std::vector<int64_t> { __VA_ARGS__ }

// Row-major multi-index helpers for reference loops.
std::vector<int64_t> unflatten(int64_t flat, const Shape& s) {
  std::vector<int64_t> idx(s.size());
  for (size_t k = s.size(); k-- > 0;) {
    idx[k] = flat % s[k];
    flat /= s[k];
  }
  return idx;
}
int64_t flatten(const std::vector<int64_t>& idx, const Shape& s) {
  int64_t f = 0;
  for (size_t k = 0; k < s.size(); ++k) f = f * s[k] + idx[k];
  return f;
}

}  // namespace

class TestShapeOps : public QObject {
  Q_OBJECT
 private slots:
  void reshapeKeepsOrderAndInfers() {
    Tensor x = iota({2, 3});
    Tensor y = run("reshape", {x}, {{"shape", S(3, -1)}});
    CHECK_TENSOR(y, S(3, 2), V(0, 1, 2, 3, 4, 5));
    QVERIFY(y.sharesBufferWith(x));  // a reshape never copies
    CHECK_TENSOR(run("reshape", {x}, {{"shape", S(6)}}), S(6), V(0, 1, 2, 3, 4, 5));
    CHECK_TENSOR(run("reshape", {iota({1})}, {{"shape", S()}}), S(), V(0));
    // Shape rule: an unknown input dim leaves the inferred dim unknown.
    QCOMPARE(prim("reshape").shape({ty(DType::F32, {-1, 6})}, {{"shape", S(-1, 3)}})[0].shape,
             S(-1, 3));
    QCOMPARE(prim("reshape").shape({ty(DType::I32, {4, 6})}, {{"shape", S(-1, 3)}})[0].shape,
             S(8, 3));
  }
  void reshapeErrors() {
    Tensor x = Tensor::zeros(DType::F32, {10, 5000});
    QCOMPARE(errorOf([&] {
               run("reshape", {x}, {{"shape", S(7, 3)}});
             }),
             QString("cannot reshape [10,5000] (50000 elements) to [7,3]"));
    QCOMPARE(errorOf([&] {
               run("reshape", {x}, {{"shape", S(7, -1)}});
             }),
             QString("cannot reshape [10,5000] (50000 elements) to [7,-1]"));
    QVERIFY(errorOf([&] {
              prim("reshape").shape({ty(DType::F32, {10, 5000})}, {{"shape", S(-1, -1)}});
            }).contains("more than one -1"));
  }

  void transpose2dAnd3d() {
    CHECK_TENSOR(run("transpose", {iota({2, 3})}), S(3, 2), V(0, 3, 1, 4, 2, 5));
    // perm {1,2,0}: y[j,k,i] = x[i,j,k] for x of shape [2,3,2].
    Tensor x = iota({2, 3, 2});
    Tensor y = run("transpose", {x}, {{"perm", I(1, 2, 0)}});
    QCOMPARE(y.shape(), S(3, 2, 2));
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t k = 0; k < 2; ++k)
          QCOMPARE(y.at((j * 2 + k) * 2 + i), x.at((i * 3 + j) * 2 + k));
    CHECK_TENSOR(run("transpose", {iota({2, 2, 2})}, {{"perm", I(0, 2, 1)}}), S(2, 2, 2),
                 V(0, 2, 1, 3, 4, 6, 5, 7));
  }
  void transposeLargeMatchesLoops() {
    // Sizes that take the tiled path (contiguous axis moved) and the row-copy path (last axis
    // kept), with OpenMP, in every element size.
    const Shape s{7, 33, 65, 9};
    const std::vector<std::vector<int64_t>> perms{
        {3, 2, 1, 0}, {1, 0, 2, 3}, {0, 3, 1, 2}, {2, 0, 3, 1}};
    for (DType dt : {DType::F32, DType::F64, DType::I32, DType::Bool}) {
      Tensor x = iota(s, dt);
      for (const auto& perm : perms) {
        Tensor y = run("transpose", {x}, {{"perm", perm}});
        Shape ys;
        for (auto p : perm) ys.push_back(s[size_t(p)]);
        QCOMPARE(y.shape(), ys);
        QCOMPARE(y.dtype(), dt);
        for (int64_t f = 0; f < y.numel(); ++f) {
          const auto yi = unflatten(f, ys);
          std::vector<int64_t> xi(s.size());
          for (size_t k = 0; k < perm.size(); ++k) xi[size_t(perm[k])] = yi[k];
          if (y.at(f) != x.at(flatten(xi, s))) QFAIL("transpose value mismatch");
        }
      }
    }
  }
  void transposeOfSizeOneAxesSharesBuffer() {
    Tensor x = iota({3, 1, 4});
    Tensor y = run("transpose", {x}, {{"perm", I(1, 0, 2)}});
    QCOMPARE(y.shape(), S(1, 3, 4));
    QVERIFY(y.sharesBufferWith(x));
  }
  void transposeShapeRule() {
    QCOMPARE(prim("transpose").shape({ty(DType::F32, {-1, 3, 4})}, {{"perm", I(2, 0, 1)}})[0].shape,
             S(4, -1, 3));
    QVERIFY(errorOf([&] {
              prim("transpose").shape({ty(DType::F32, {2, 3})}, {{"perm", I(0, 0)}});
            }).contains("transpose perm [0,0] is not a permutation"));
  }

  void expandDimsAndSqueeze() {
    CHECK_TENSOR(run("expand_dims", {iota({2, 3})}, {{"axis", int64_t(1)}}), S(2, 1, 3),
                 V(0, 1, 2, 3, 4, 5));
    CHECK_TENSOR(run("expand_dims", {iota({2, 3})}, {{"axis", int64_t(-1)}}), S(2, 3, 1),
                 V(0, 1, 2, 3, 4, 5));
    CHECK_TENSOR(run("squeeze", {iota({1, 2, 1, 3})}), S(2, 3), V(0, 1, 2, 3, 4, 5));
    CHECK_TENSOR(run("squeeze", {iota({1, 2, 1, 3})}, {{"axes", I(-2)}}), S(1, 2, 3),
                 V(0, 1, 2, 3, 4, 5));
    QCOMPARE(errorOf([&] {
               run("squeeze", {iota({2, 3})}, {{"axes", I(1)}});
             }),
             QString("cannot squeeze axis 1 of [2,3]: its size is 3, not 1"));
    QVERIFY(errorOf([&] {
              prim("squeeze").shape({ty(DType::F32, {-1, 1})}, {});
            }).contains("squeeze without axes needs known dims"));
    QCOMPARE(prim("squeeze").shape({ty(DType::F32, {-1, 1})}, {{"axes", I(1)}})[0].shape, S(-1));
    QCOMPARE(prim("expand_dims").shape({ty(DType::F32, {-1, 3})}, {{"axis", int64_t(0)}})[0].shape,
             S(1, -1, 3));
  }

  void tileRepeats() {
    CHECK_TENSOR(run("tile", {iota({2, 2})}, {{"multiples", I(2, 3)}}), S(4, 6),
                 V(0, 1, 0, 1, 0, 1,  //
                   2, 3, 2, 3, 2, 3,  //
                   0, 1, 0, 1, 0, 1,  //
                   2, 3, 2, 3, 2, 3));
    Tensor b = Tensor::fromVector({1, 0}, {2}, DType::Bool);
    Tensor t = run("tile", {b}, {{"multiples", I(2)}});
    QCOMPARE(t.dtype(), DType::Bool);
    CHECK_TENSOR(t, S(4), V(1, 0, 1, 0));
    QCOMPARE(prim("tile").shape({ty(DType::F32, {-1, 3})}, {{"multiples", I(2, 2)}})[0].shape,
             S(-1, 6));
    QVERIFY(errorOf([&] {
              run("tile", {iota({2, 2})}, {{"multiples", I(2)}});
            }).contains("tile multiples [2] must have one entry per dim of [2,2]"));
  }

  void broadcastTo() {
    Tensor x = f64({1, 2, 3}, {3, 1});
    Tensor y = run("broadcast_to", {x}, {{"shape", S(2, 3, 2)}});
    CHECK_TENSOR(y, S(2, 3, 2), V(1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3));
    CHECK_TENSOR(run("broadcast_to", {f64({5, 6}, {2})}, {{"shape", S(2, 2)}}), S(2, 2),
                 V(5, 6, 5, 6));
    QCOMPARE(errorOf([&] {
               run("broadcast_to", {iota({3, 2})}, {{"shape", S(3, 4)}});
             }),
             QString("cannot broadcast [3,2] to [3,4]"));
    // -1 keeps the input's dim (used by gradients of unknown-size values).
    QCOMPARE(prim("broadcast_to").shape({ty(DType::F32, {-1, 1})}, {{"shape", S(-1, 4)}})[0].shape,
             S(-1, 4));
  }

  void concatMiddleAxis() {
    Tensor a = iota({2, 1, 2}), b = f64({10, 11, 12, 13, 14, 15, 16, 17}, {2, 2, 2});
    CHECK_TENSOR(run("concat", {a, b}, {{"axis", int64_t(1)}}), S(2, 3, 2),
                 V(0, 1, 10, 11, 12, 13, 2, 3, 14, 15, 16, 17));
    CHECK_TENSOR(run("concat", {i32({1, 2}, {1, 2}), i32({3, 4}, {1, 2})}, {{"axis", int64_t(0)}}),
                 S(2, 2), V(1, 2, 3, 4));
    QCOMPARE(
        prim("concat")
            .shape({ty(DType::F32, {-1, 2}), ty(DType::F32, {3, -1})}, {{"axis", int64_t(0)}})[0]
            .shape,
        S(-1, 2));
    QCOMPARE(prim("concat")
                 .shape({ty(DType::F32, {2, 2}), ty(DType::F32, {3, 2})}, {{"axis", int64_t(0)}})[0]
                 .shape,
             S(5, 2));
    QCOMPARE(errorOf([&] {
               run("concat", {iota({2, 2}), iota({3, 3})}, {{"axis", int64_t(0)}});
             }),
             QString("cannot concat float64[2,2] and float64[3,3] along axis 0"));
  }

  void stackAndUnstack() {
    Tensor a = f64({1, 2, 3}, {3}), b = f64({4, 5, 6}, {3});
    CHECK_TENSOR(run("stack", {a, b}), S(2, 3), V(1, 2, 3, 4, 5, 6));
    CHECK_TENSOR(run("stack", {a, b}, {{"axis", int64_t(1)}}), S(3, 2), V(1, 4, 2, 5, 3, 6));
    // Middle axis of a rank-3 result.
    Tensor m = run("stack", {iota({2, 2}), iota({2, 2})}, {{"axis", int64_t(1)}});
    CHECK_TENSOR(m, S(2, 2, 2), V(0, 1, 0, 1, 2, 3, 2, 3));

    Tensors parts = runAll("unstack", {iota({2, 3, 2})}, {{"axis", int64_t(1)}});
    QCOMPARE(parts.size(), size_t(3));
    CHECK_TENSOR(parts[0], S(2, 2), V(0, 1, 6, 7));
    CHECK_TENSOR(parts[1], S(2, 2), V(2, 3, 8, 9));
    CHECK_TENSOR(parts[2], S(2, 2), V(4, 5, 10, 11));
    Types outs = prim("unstack").shape({ty(DType::I32, {4, -1})}, {{"axis", int64_t(0)}});
    QCOMPARE(outs.size(), size_t(4));
    QCOMPARE(outs[3].shape, S(-1));
    QVERIFY(errorOf([&] {
              prim("unstack").shape({ty(DType::F32, {-1, 3})}, {{"axis", int64_t(0)}});
            }).contains("unstack needs the size of axis 0 known, got [?,3]"));
    QVERIFY(errorOf([&] { run("stack", {iota({2}), iota({3})}); }).contains("cannot stack"));
  }

  void sliceAndPad() {
    Tensor x = iota({3, 4});
    Tensor s = run("slice", {x}, {{"begin", I(1, 1)}, {"size", I(2, -1)}});
    CHECK_TENSOR(s, S(2, 3), V(5, 6, 7, 9, 10, 11));
    CHECK_TENSOR(run("slice", {x}, {{"begin", I(0, 2)}, {"size", I(-1, 1)}}), S(3, 1), V(2, 6, 10));
    QCOMPARE(errorOf([&] {
               run("slice", {x}, {{"begin", I(2, 0)}, {"size", I(2, 1)}});
             }),
             QString("slice begin [2,0] size [2,1] is out of bounds for [3,4]"));
    QCOMPARE(prim("slice")
                 .shape({ty(DType::F32, {-1, 4})}, {{"begin", I(1, 1)}, {"size", I(-1, 2)}})[0]
                 .shape,
             S(-1, 2));

    Tensor p = run("pad", {f64({1, 2, 3, 4}, {2, 2})}, {{"paddings", I(1, 0, 0, 2)}});
    CHECK_TENSOR(p, S(3, 4), V(0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0));
    Tensor pb = run("pad", {Tensor::fromVector({1}, {1}, DType::Bool)}, {{"paddings", I(1, 1)}});
    QCOMPARE(pb.dtype(), DType::Bool);
    CHECK_TENSOR(pb, S(3), V(0, 1, 0));
    QVERIFY(errorOf([&] {
              run("pad", {iota({2})}, {{"paddings", I(1)}});
            }).contains("need two entries (before, after) per dim of [2]"));
  }

  void gatherAnyAxis() {
    Tensor params = f64({0, 1, 10, 11, 20, 21, 30, 31}, {4, 2});
    CHECK_TENSOR(run("gather", {params, i32({3, 0, 3}, {3})}), S(3, 2), V(30, 31, 0, 1, 30, 31));
    // axis 1 with rank-2 indices: out[i, j, k] = params[i, idx[j, k]].
    Tensor p2 = iota({2, 4});
    Tensor g = run("gather", {p2, i32({3, 1, 1, 0}, {2, 2})}, {{"axis", int64_t(1)}});
    CHECK_TENSOR(g, S(2, 2, 2), V(3, 1, 1, 0, 7, 5, 5, 4));
    // Negative axis, int32 params.
    CHECK_TENSOR(run("gather", {i32({5, 6, 7}, {3}), i32({2, 2}, {2})}, {{"axis", int64_t(-1)}}),
                 S(2), V(7, 7));
    QCOMPARE(
        prim("gather")
            .shape({ty(DType::F32, {-1, 5, 6}), ty(DType::I32, {2, 3})}, {{"axis", int64_t(1)}})[0]
            .shape,
        S(-1, 2, 3, 6));
  }
  void gatherRejectsBadIndices() {
    Tensor params = Tensor::zeros(DType::F32, {10, 3});
    QCOMPARE(errorOf([&] {
               run("gather", {params, i32({1, 12}, {2})});
             }),
             QString("gather index 12 is out of range for axis 0 of size 10"));
    QCOMPARE(errorOf([&] {
               run("gather", {params, i32({-1}, {1})});
             }),
             QString("gather index -1 is out of range for axis 0 of size 10"));
    QVERIFY(errorOf([&] {
              prim("gather").shape({ty(DType::F32, {10, 3}), ty(DType::F32, {2})}, {});
            }).contains("gather indices must be int32, got float32"));
  }
  void gatherLargeMatchesLoop() {
    Rng rng(5);
    Tensor params = rng.normal({500, 96}, 0, 1, DType::F32);
    Tensor idx = rng.uniform({3000}, 0, 500, DType::I32);
    Tensor y = run("gather", {params, idx});
    QCOMPARE(y.shape(), S(3000, 96));
    const float* pp = params.data<float>();
    const float* py = y.data<float>();
    const int32_t* pi = idx.data<int32_t>();
    for (int64_t j = 0; j < 3000; ++j)
      for (int64_t k = 0; k < 96; ++k)
        if (py[j * 96 + k] != pp[pi[j] * 96 + k]) QFAIL("gather value mismatch");
    // Along the last axis (one element per index).
    Tensor y1 = run("gather", {params, i32({95, 0, 7}, {3})}, {{"axis", int64_t(1)}});
    QCOMPARE(y1.shape(), S(500, 3));
    for (int64_t r = 0; r < 500; ++r) QCOMPARE(y1.at(r * 3), params.at(r * 96 + 95));
  }

  void scatterAddAccumulatesRepeats() {
    Tensor upd = f64({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2});
    Tensor y = run("scatter_add", {upd, i32({0, 2, 2, 3}, {4})},
                   {{"axis", int64_t(0)}, {"shape", S(5, 2)}});
    CHECK_TENSOR(y, S(5, 2), V(1, 2, 0, 0, 8, 10, 7, 8, 0, 0));
    // axis 1, non-axis dims taken from updates where the attr says -1.
    Tensor y1 = run("scatter_add", {f64({1, 2, 3, 4, 5, 6}, {2, 3}), i32({1, 1, 0}, {3})},
                    {{"axis", int64_t(1)}, {"shape", S(-1, 2)}});
    CHECK_TENSOR(y1, S(2, 2), V(3, 3, 6, 9));
    QCOMPARE(errorOf([&] {
               run("scatter_add", {upd, i32({0, 5, 1, 1}, {4})},
                   {{"axis", int64_t(0)}, {"shape", S(5, 2)}});
             }),
             QString("scatter_add index 5 is out of range for axis 0 of size 5"));
    QVERIFY(errorOf([&] {
              prim("scatter_add")
                  .shape({ty(DType::F32, {4, 3}), ty(DType::I32, {4})},
                         {{"axis", int64_t(0)}, {"shape", S(5, 2)}});
            }).contains("do not match"));
  }
  void scatterAddLargeMatchesLoop() {
    Rng rng(6);
    Tensor upd = rng.normal({4000, 33}, 0, 1, DType::F64);
    Tensor idx = rng.uniform({4000}, 0, 50, DType::I32);
    Tensor y = run("scatter_add", {upd, idx}, {{"axis", int64_t(0)}, {"shape", S(50, 33)}});
    std::vector<double> ref(50 * 33, 0.0);
    for (int64_t j = 0; j < 4000; ++j)
      for (int64_t k = 0; k < 33; ++k)
        ref[size_t(idx.at(j)) * 33 + size_t(k)] += upd.at(j * 33 + k);
    for (size_t i = 0; i < ref.size(); ++i) QVERIFY(std::abs(y.at(int64_t(i)) - ref[i]) < 1e-9);
  }

  void oneHot() {
    Tensor y =
        run("one_hot", {i32({0, 2, -1, 3}, {2, 2})},
            {{"depth", int64_t(3)}, {"on", 5.0}, {"off", -1.0}, {"dtype", std::string("float64")}});
    QCOMPARE(y.dtype(), DType::F64);
    CHECK_TENSOR(y, S(2, 2, 3), V(5, -1, -1, -1, -1, 5, -1, -1, -1, -1, -1, -1));
    Tensor d = run("one_hot", {i32({1}, {1})}, {{"depth", int64_t(2)}});
    QCOMPARE(d.dtype(), DType::F32);
    CHECK_TENSOR(d, S(1, 2), V(0, 1));
    QVERIFY(!prim("one_hot").differentiable);
  }

  void everyDifferentiableOpHasRunnableGradChecks() {
    for (const char* name :
         {"reshape", "transpose", "expand_dims", "squeeze", "tile", "broadcast_to", "concat",
          "stack", "unstack", "slice", "pad", "gather", "scatter_add"}) {
      const Primitive& p = prim(name);
      QVERIFY2(p.differentiable && p.vjp, name);
      QVERIFY2(!p.gradChecks.empty() && p.gradChecks.size() <= 3, name);
      QVERIFY2(p.math.find('\n') != std::string::npos, name);
      for (const auto& gc : p.gradChecks) {
        Types ts;
        for (const auto& t : gc.inputs) ts.push_back(ty(t.dtype(), t.shape()));
        const Types outs = p.shape(ts, gc.attrs);
        const Tensors ys = p.run(gc.inputs, gc.attrs);
        QCOMPARE(ys.size(), outs.size());
        for (size_t i = 0; i < ys.size(); ++i) QCOMPARE(ys[i].shape(), outs[i].shape);
      }
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestShapeOps)
#include "test_shape_ops.moc"
