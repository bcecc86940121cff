// Linear algebra primitives: matmul and einsum, both run as (batched) Eigen GEMMs on row-major
// buffers. Eigen threads a single large GEMM with OpenMP by itself; batches of small products
// are spread over OpenMP threads instead (Eigen then stays single-threaded inside the team).
#include <omp.h>

#include <map>

#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/eigen.h"
#include "engine/ops/einsum.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/diagnostic.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

constexpr int64_t kParallelWork = 32768;

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// c[M,N] = op(a) op(b) with row-major a ([M,K], or [K,M] if ta) and b ([K,N], or [N,K] if tb).
// Eigen reads the transposed operands in place; nothing is copied.
template <class T>
void gemm(T* c, const T* a, const T* b, int64_t M, int64_t N, int64_t K, bool ta, bool tb) {
  Eigen::Map<RowMat<T>> C(c, M, N);
  if (K == 0) {
    C.setZero();
    return;
  }
  Eigen::Map<const RowMat<T>> A(a, ta ? K : M, ta ? M : K), B(b, tb ? N : K, tb ? K : N);
  if (ta && tb)
    C.noalias() = A.transpose() * B.transpose();
  else if (ta)
    C.noalias() = A.transpose() * B;
  else if (tb)
    C.noalias() = A * B.transpose();
  else
    C.noalias() = A * B;
}

// One GEMM per batch into contiguous c; aOff/bOff are each batch's operand offsets (elements),
// so broadcast batch dims simply repeat an offset.
template <class T>
void batchedGemm(T* c, const T* a, const T* b, const std::vector<int64_t>& aOff,
                 const std::vector<int64_t>& bOff, int64_t M, int64_t N, int64_t K, bool ta,
                 bool tb) {
  const int64_t batches = int64_t(aOff.size());
  const int64_t flops = M * N * K;
  const bool overBatches =
      batches > 1 && (batches >= omp_get_max_threads() || flops < int64_t(64) * 64 * 64);
  kern::forRange(batches, overBatches && batches * flops >= kParallelWork, [&](int64_t i) {
    gemm(c + i * M * N, a + aOff[size_t(i)], b + bOff[size_t(i)], M, N, K, ta, tb);
  });
}

// ---------------------------------------------------------------------------------------------
// matmul

struct MatmulDims {
  Shape aBatch, bBatch, batch;  // operand batch dims and their broadcast
  int64_t M = 0, N = 0, K = 0;
};

std::string operandStr(const Shape& s, bool t) { return shapeStr(s) + (t ? "^T" : ""); }

MatmulDims matmulDims(const Shape& a, const Shape& b, bool ta, bool tb) {
  if (a.size() < 2 || b.size() < 2)
    throw ShapeError("matmul needs operands of rank >= 2, got " + shapeStr(a) + " and " +
                     shapeStr(b) + " (reshape vectors to matrices)");
  const size_t ra = a.size(), rb = b.size();
  MatmulDims d;
  d.aBatch.assign(a.begin(), a.end() - 2);
  d.bBatch.assign(b.begin(), b.end() - 2);
  d.M = ta ? a[ra - 1] : a[ra - 2];
  d.N = tb ? b[rb - 2] : b[rb - 1];
  const int64_t ka = ta ? a[ra - 2] : a[ra - 1], kb = tb ? b[rb - 1] : b[rb - 2];
  if (ka >= 0 && kb >= 0 && ka != kb)
    throw ShapeError(diagnosed(
        "matmul inner dimensions do not match: " + operandStr(a, ta) + " @ " + operandStr(b, tb) +
            " (" + std::to_string(ka) + " != " + std::to_string(kb) + ")",
        {DiagCode::MatmulInnerMismatch, {}, {operandStr(a, ta), operandStr(b, tb)}}));
  d.K = ka >= 0 ? ka : kb;
  try {
    d.batch = broadcastShapes(d.aBatch, d.bBatch);
  } catch (const ShapeError&) {
    throw ShapeError("matmul batch dimensions of " + shapeStr(a) + " and " + shapeStr(b) +
                     " cannot be broadcast together");
  }
  return d;
}

Shape matmulShape(const MatmulDims& d) {
  Shape s = d.batch;
  s.push_back(d.M);
  s.push_back(d.N);
  return s;
}

// For each batch of `out`, the element offset of its matrix in an operand with batch dims `in`
// (NumPy broadcasting: size-1 and missing leading dims repeat).
std::vector<int64_t> batchOffsets(const Shape& out, const Shape& in, int64_t matrixSize) {
  const int64_t n = numel(out);
  const auto st = stridesOf(in);
  const size_t lead = out.size() - in.size();
  std::vector<int64_t> offs(size_t(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i, off = 0;
    for (size_t k = out.size(); k-- > 0;) {
      const int64_t idx = rem % out[k];
      rem /= out[k];
      if (k >= lead && in[k - lead] != 1) off += idx * st[k - lead];
    }
    offs[size_t(i)] = off * matrixSize;
  }
  return offs;
}

template <class T>
Tensor matmulKernel(const Tensor& a, const Tensor& b, bool ta, bool tb) {
  const MatmulDims d = matmulDims(a.shape(), b.shape(), ta, tb);
  Tensor c = Tensor::empty(a.dtype(), matmulShape(d));
  const int64_t nb = numel(d.batch);
  if (!ta && numel(d.bBatch) == 1 && numel(d.aBatch) == nb) {
    // b is shared by all batches and a's rows are contiguous: one GEMM over nb*M rows.
    gemm(c.data<T>(), a.data<T>(), b.data<T>(), nb * d.M, d.N, d.K, false, tb);
  } else {
    batchedGemm(c.data<T>(), a.data<T>(), b.data<T>(), batchOffsets(d.batch, d.aBatch, d.M * d.K),
                batchOffsets(d.batch, d.bBatch, d.K * d.N), d.M, d.N, d.K, ta, tb);
  }
  return c;
}

void requireFloatPair(DType a, DType b, const char* op) {
  if (!isFloat(a) || a != b)
    throw ShapeError(std::string(op) + " needs float32 or float64 operands of one dtype, got " +
                     dtypeName(a) + " and " + dtypeName(b));
}

// Sums broadcast batch dims of a gradient away when its static shape differs from the input's.
// ---------------------------------------------------------------------------------------------
// einsum

std::vector<int> ranksOf(const std::vector<Shape>& shapes) {
  std::vector<int> r;
  for (const auto& s : shapes) r.push_back(int(s.size()));
  return r;
}

// The size of every label; known sizes must agree across operands (unknown ones are -1).
std::map<char, int64_t> labelSizes(const einsum::Equation& eq, const std::vector<Shape>& shapes) {
  std::map<char, int64_t> size;
  std::map<char, size_t> from;  // the operand that fixed a label's size, for messages
  for (size_t k = 0; k < eq.inputs.size(); ++k)
    for (size_t i = 0; i < eq.inputs[k].size(); ++i) {
      const char c = eq.inputs[k][i];
      const int64_t d = shapes[k][i];
      auto it = size.find(c);
      if (it == size.end() || it->second < 0) {
        size[c] = d;
        from[c] = k;
      } else if (d >= 0 && d != it->second) {
        throw ShapeError("einsum '" + eq.str() + "': label '" + std::string(1, c) + "' has size " +
                         std::to_string(it->second) + " in operand " + std::to_string(from[c]) +
                         " " + shapeStr(shapes[from[c]]) + " but " + std::to_string(d) +
                         " in operand " + std::to_string(k) + " " + shapeStr(shapes[k]));
      }
    }
  return size;
}

Shape labelsShape(const std::string& labels, const std::map<char, int64_t>& size) {
  Shape s;
  for (char c : labels) s.push_back(size.at(c));
  return s;
}

int64_t labelsNumel(const std::string& labels, const std::map<char, int64_t>& size) {
  int64_t n = 1;
  for (char c : labels) n *= size.at(c);
  return n;
}

// Kernels reuse the transpose primitive's strided copy.
Tensor permute(const Tensor& x, const std::vector<int64_t>& perm) {
  if (perm.empty()) return x;
  return Registry::instance().get("transpose").run({x}, Attrs{{"perm", perm}}).at(0);
}

// Brings an operand into GEMM layout: transpose if planned, then sum its trailing `summed` axes
// (labels no other operand or the output has).
template <class T>
Tensor prepare(const Tensor& x, const einsum::OperandPlan& p) {
  Tensor y = permute(x, p.perm);
  if (p.summed == 0) return y;
  const Shape& s = y.shape();
  const Shape lead(s.begin(), s.end() - p.summed);
  int64_t cols = 1;
  for (size_t i = lead.size(); i < s.size(); ++i) cols *= s[i];
  const int64_t rows = numel(lead);
  Tensor out = Tensor::empty(y.dtype(), lead);
  const T* src = y.data<T>();
  T* dst = out.data<T>();
  kern::forRange(rows, rows * cols >= kParallelWork, [&](int64_t r) {
    T acc = 0;
    for (int64_t c = 0; c < cols; ++c) acc += src[r * cols + c];
    dst[r] = acc;
  });
  return out;
}

template <class T>
Tensor einsumKernel(const Tensors& in, const einsum::Equation& eq) {
  std::vector<Shape> shapes;
  for (const auto& t : in) shapes.push_back(t.shape());
  const auto size = labelSizes(eq, shapes);
  const Shape outShape = labelsShape(eq.output, size);
  if (in.size() == 1) return prepare<T>(in[0], einsum::planUnary(eq)).reshaped(outShape);

  const einsum::Plan p = einsum::planContraction(eq);
  const int64_t nb = labelsNumel(p.batch, size), M = labelsNumel(p.freeA, size);
  const int64_t N = labelsNumel(p.freeB, size), K = labelsNumel(p.contracted, size);
  const Tensor a = prepare<T>(in[0], p.a), b = prepare<T>(in[1], p.b);
  Tensor c = Tensor::empty(in[0].dtype(), labelsShape(p.resultLabels(), size));
  std::vector<int64_t> aOff(static_cast<size_t>(nb)), bOff(static_cast<size_t>(nb));
  for (int64_t i = 0; i < nb; ++i) aOff[size_t(i)] = i * M * K, bOff[size_t(i)] = i * K * N;
  if (!p.swap)
    batchedGemm(c.data<T>(), a.data<T>(), b.data<T>(), aOff, bOff, M, N, K, p.a.transposed,
                p.b.transposed);
  else  // c^T = b^T a^T
    batchedGemm(c.data<T>(), b.data<T>(), a.data<T>(), bOff, aOff, N, M, K, !p.b.transposed,
                !p.a.transposed);
  return permute(c, p.outPerm).reshaped(outShape);
}

bool has(const std::string& s, char c) { return s.find(c) != std::string::npos; }

// Gradient of einsum w.r.t. operand k: einsum("out,other->kept", g, other), where `kept` drops
// the labels only operand k had (summed away in the forward pass); those come back by
// expand_dims + broadcast_to, since d(sum_j x_j)/dx_j = 1.
Value einsumGrad(VjpContext& c, const einsum::Equation& eq, size_t k) {
  const std::string& target = eq.inputs[k];
  const bool pair = eq.inputs.size() == 2;
  const std::string other = pair ? eq.inputs[1 - k] : "";
  std::string kept;
  std::vector<int64_t> summedAxes;
  for (size_t i = 0; i < target.size(); ++i) {
    if (has(eq.output, target[i]) || has(other, target[i]))
      kept += target[i];
    else
      summedAxes.push_back(int64_t(i));
  }
  Value g = c.goutOrZeros(0);
  if (pair)
    g = ops::einsum(c.b, eq.output + "," + other + "->" + kept, {g, c.in[1 - k]});
  else if (eq.output != kept)
    g = ops::einsum(c.b, eq.output + "->" + kept, {g});
  if (summedAxes.empty()) return g;
  const Shape& s = c.inType(k).shape;
  for (int64_t ax : summedAxes) {
    if (s[size_t(ax)] < 0)
      throw EngineError("the gradient of einsum '" + eq.str() + "' needs the size of label '" +
                        std::string(1, target[size_t(ax)]) + "' known, got operand shape " +
                        shapeStr(s));
    g = ops::expandDims(c.b, g, ax);
  }
  return ops::broadcastTo(c.b, g, s);  // -1 (unknown) dims keep g's size
}

Tensor randn(Rng& rng, const Shape& s) { return rng.normal(s, 0.0, 1.0, DType::F64); }

GradCheckCase einsumCase(Rng& rng, const std::string& eq, const std::vector<Shape>& shapes) {
  GradCheckCase gc;
  for (const auto& s : shapes) gc.inputs.push_back(randn(rng, s));
  gc.attrs.set("equation", eq);
  return gc;
}

}  // namespace

void registerLinalgOps(Registry& r) {
  r.add({
      .name = "matmul",
      .math = "C = op(A) @ op(B) per batch; op = optional transpose; batch dims broadcast\n"
              "dop(A) = dC op(B)^T, dop(B) = op(A)^T dC; sum_to over broadcast batch dims",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs& at) {
            if (in[0].list || in[1].list) throw ShapeError("matmul operands must be tensors");
            requireFloatPair(in[0].dtype, in[1].dtype, "matmul");
            const MatmulDims d =
                matmulDims(in[0].shape, in[1].shape, at.b("transpose_a"), at.b("transpose_b"));
            return Types{{in[0].dtype, matmulShape(d), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& at) {
        requireFloatPair(in[0].dtype(), in[1].dtype(), "matmul");
        const bool ta = at.b("transpose_a"), tb = at.b("transpose_b");
        return Tensors{dispatchFloat(in[0].dtype(), [&](auto z) {
          return matmulKernel<decltype(z)>(in[0], in[1], ta, tb);
        })};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        const bool ta = c.attrs().b("transpose_a"), tb = c.attrs().b("transpose_b");
        Emitter& b = c.b;
        const Value A = c.in[0], B = c.in[1], g = c.goutOrZeros(0);
        const Shape as = c.inType(0).shape, bs = c.inType(1).shape;  // copies: nodes move
        auto mm = [&](Value x, Value y, bool tx, bool ty) { return ops::matmul(b, x, y, tx, ty); };
        std::vector<Value> grads(2);
        if (c.needs[0]) {
          const Value da = ta ? (tb ? mm(B, g, true, true) : mm(B, g, false, true))
                              : (tb ? mm(g, B, false, false) : mm(g, B, false, true));
          grads[0] = ops::sumToLike(b, da, A);
        }
        if (c.needs[1]) {
          const int64_t K = as.back(), N = b.type(g).shape.back();
          if (!ta && bs.size() == 2 && as.size() > 2 && K >= 0 && N >= 0) {
            // B is shared by every batch: fold the batches into rows, one GEMM, no sum_to.
            const Value a2 = ops::reshape(b, A, {-1, K}), g2 = ops::reshape(b, g, {-1, N});
            grads[1] = tb ? mm(g2, a2, true, false) : mm(a2, g2, true, false);
          } else {
            const Value db = tb ? (ta ? mm(g, A, true, true) : mm(g, A, true, false))
                                : (ta ? mm(A, g, false, false) : mm(A, g, true, false));
            grads[1] = ops::sumToLike(b, db, B);
          }
        }
        return grads;
      },
      .batch = batch::matmul(),
      // Every output value is a dot product of length K.
      .work =
          [](const Types& in, const Types& out, const Attrs& at) {
            const Shape& a = in[0].shape;
            const int64_t K = a.size() < 2 ? 1 : at.b("transpose_a") ? a[a.size() - 2] : a.back();
            return knownElements(out[0].shape) * double(std::max<int64_t>(K, 1));
          },
      .gradChecks =
          [] {
            Rng rng(201);
            GradCheckCase broadcast{{randn(rng, {2, 1, 3, 4}), randn(rng, {3, 4, 2})}, {}};
            GradCheckCase transposed{{randn(rng, {2, 4, 3}), randn(rng, {2, 5, 4})},
                                     {{"transpose_a", true}, {"transpose_b", true}}};
            GradCheckCase shared{{randn(rng, {2, 3, 4}), randn(rng, {5, 4})},
                                 {{"transpose_b", true}}};
            return std::vector<GradCheckCase>{broadcast, transposed, shared};
          }(),
  });

  r.add({
      .name = "einsum",
      .math = "out = sum over the labels not in out of A[a..] B[b..] (1 or 2 operands)\n"
              "dA = einsum(\"out,B->A\", dout, B) (unary: \"out->A\"); A-only labels broadcast",
      .arity = -1,
      .shape =
          [](const Types& in, const Attrs& at) {
            if (in.empty()) throw ShapeError("einsum needs 1 or 2 operands, got none");
            std::vector<Shape> shapes;
            for (const auto& t : in) {
              if (t.list) throw ShapeError("einsum operands must be tensors");
              requireFloatPair(t.dtype, in[0].dtype, "einsum");
              shapes.push_back(t.shape);
            }
            const auto eq = einsum::parse(at.s("equation"), ranksOf(shapes));
            const auto size = labelSizes(eq, shapes);
            return Types{{in[0].dtype, labelsShape(eq.output, size), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& at) {
        if (in.empty()) throw ShapeError("einsum needs 1 or 2 operands, got none");
        std::vector<Shape> shapes;
        for (const auto& t : in) {
          requireFloatPair(t.dtype(), in[0].dtype(), "einsum");
          shapes.push_back(t.shape());
        }
        const auto eq = einsum::parse(at.s("equation"), ranksOf(shapes));
        return Tensors{dispatchFloat(in[0].dtype(),
                                     [&](auto z) { return einsumKernel<decltype(z)>(in, eq); })};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<int> ranks;
        for (size_t k = 0; k < c.in.size(); ++k) ranks.push_back(int(c.inType(k).shape.size()));
        const auto eq = einsum::parse(c.attrs().s("equation"), ranks);
        std::vector<Value> grads(c.in.size());
        for (size_t k = 0; k < c.in.size(); ++k)
          if (c.needs[k]) grads[k] = einsumGrad(c, eq, k);
        return grads;
      },
      .batch = batch::einsum(),
      // One multiply-add per combination of the labels' values.
      .work =
          [](const Types& in, const Types&, const Attrs& at) {
            std::vector<Shape> shapes;
            for (const auto& t : in) shapes.push_back(t.shape);
            double n = 1;
            for (const auto& [label, size] :
                 labelSizes(einsum::parse(at.s("equation"), ranksOf(shapes)), shapes))
              n *= size >= 0 ? double(size) : 1.0;
            return n;
          },
      .gradChecks =
          [] {
            Rng rng(202);
            return std::vector<GradCheckCase>{
                einsumCase(rng, "bti,ntic->bntc", {{2, 3, 2}, {2, 3, 2, 3}}),
                einsumCase(rng, "bti,tic->btc", {{2, 3, 2}, {3, 2, 2}}),
                einsumCase(rng, "ij,jk->ik", {{2, 3}, {3, 4}}),
                einsumCase(rng, "bi,bi->b", {{3, 4}, {3, 4}}),
                einsumCase(rng, "ij->ji", {{2, 3}}),
                einsumCase(rng, "ij->i", {{2, 3}}),
                einsumCase(rng, "ijk,j->i", {{2, 3, 2}, {3}}),  // k only in A: broadcast back
                einsumCase(rng, "ij,jk", {{2, 3}, {3, 2}}),     // implicit output "ik"
            };
          }(),
  });
}

namespace ops {

Value matmul(Emitter& b, Value x, Value y, bool transposeA, bool transposeB) {
  // int32 (TF's MatMul takes it): the float64 product is exact while the sums stay below
  // 2^53; TF's int32 wraps on overflow where the cast back does not.
  if (b.type(x).dtype == DType::I32 && b.type(y).dtype == DType::I32)
    return cast(b,
                matmul(b, cast(b, x, DType::F64), cast(b, y, DType::F64), transposeA, transposeB),
                DType::I32);
  return b.op1("matmul", {x, y}, {{"transpose_a", transposeA}, {"transpose_b", transposeB}});
}

Value einsum(Emitter& b, const std::string& equation, const std::vector<Value>& operands) {
  return b.op1("einsum", operands, {{"equation", equation}});
}

}  // namespace ops

}  // namespace gl
