// Factorisations over the last two axes, batched over the rest: qr, svd, self_adjoint_eig
// (tf.linalg.eigh), with the Eigen decompositions TF's CPU kernels use (HouseholderQR, BDCSVD,
// SelfAdjointEigenSolver), so values and signs agree with TF's; and band_part, the triangle
// mask their gradients need at any matrix size. Gradients follow TF's linalg_grad.py.
#include <cmath>

#include "engine/ops/api.h"
#include "engine/ops/eigen.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

using Values = std::vector<Value>;
template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Mat = RowMat<double>;

// [..., m, n] float; returns {m, n} (either may be -1, unknown).
std::pair<int64_t, int64_t> requireMatrix(const TypeInfo& t, const char* op) {
  if (t.list || !isFloat(t.dtype) || t.shape.size() < 2)
    throw ShapeError(std::string(op) + " needs a float tensor of matrices [..., m, n], got " +
                     t.str());
  return {t.shape[t.shape.size() - 2], t.shape.back()};
}

Shape batchWith(const Shape& s, std::initializer_list<int64_t> tail) {
  Shape r(s.begin(), s.end() - 2);
  r.insert(r.end(), tail);
  return r;
}

int64_t minDim(int64_t m, int64_t n) { return m < 0 || n < 0 ? -1 : std::min(m, n); }

// f(matrix k of x in float64, k) for every matrix of the batch; each f writes its results with
// put(), which converts back to the tensors' dtype.
template <class F>
void eachMatrix(const Tensor& x, F f) {
  const Shape& s = x.shape();
  const int64_t m = s[s.size() - 2], n = s.back();
  int64_t count = 1;
  for (size_t i = 0; i + 2 < s.size(); ++i) count *= s[i];
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    for (int64_t k = 0; k < count; ++k) {
      const Mat a =
          Eigen::Map<const RowMat<T>>(x.data<T>() + k * m * n, m, n).template cast<double>();
      f(a, k);
    }
  });
}

// Writes matrix k of a batch tensor t (its last two dims are the matrix's).
void put(Tensor& t, int64_t k, const Mat& v) {
  dispatchFloat(t.dtype(), [&](auto z) {
    using T = decltype(z);
    Eigen::Map<RowMat<T>>(t.data<T>() + k * v.size(), v.rows(), v.cols()) = v.template cast<T>();
  });
}

Value transposeLast(Emitter& b, Value x) {
  const int64_t r = int64_t(b.type(x).shape.size());
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < r; ++i) perm.push_back(i);
  std::swap(perm[size_t(r - 1)], perm[size_t(r - 2)]);
  return ops::transpose(b, x, perm);
}

Value band(Emitter& b, Value x, int64_t lower, int64_t upper) {
  return b.op1("band_part", {x}, {{"num_lower", lower}, {"num_upper", upper}});
}

// x diag(s) and diag(s) x, for x [..., m, n] and s [..., n] or [..., m].
Value scaleColumns(Emitter& b, Value x, Value s) {
  return ops::mul(b, x, ops::expandDims(b, s, -2));
}
Value scaleRows(Emitter& b, Value x, Value s) { return ops::mul(b, x, ops::expandDims(b, s, -1)); }

// TF's _SafeReciprocal: x / (x^2 + 1e-20), 0 where x is 0 (the diagonal of pairGaps).
Value safeReciprocal(Emitter& b, Value x) {
  return ops::div(b, x, ops::addScalar(b, ops::square(b, x), 1e-20));
}

// F[i, j] = 1 / (e_j - e_i) off the diagonal, 0 on it.
Value pairGaps(Emitter& b, Value e) {
  return safeReciprocal(b, ops::sub(b, ops::expandDims(b, e, -2), ops::expandDims(b, e, -1)));
}

// x r^-T for r upper triangular and invertible (TF's _TriangularSolve in _QrGrad).
Value timesInverseTranspose(Emitter& b, Value x, Value r) {
  return ops::matmul(b, x, b.op1("matrix_inverse", {r}), false, true);
}

// TF's _QrGradSquareAndDeepMatrices, m >= n, q [m, n], r [n, n]:
// dA = q (dr + tril(q^T dq - dq^T q + r dr^T - dr r^T) r^-T) + (dq - q q^T dq) r^-T
Value qrGradDeep(Emitter& b, Value q, Value r, Value dq, Value dr) {
  const Value qdq = ops::matmul(b, q, dq, true, false);
  const Value rdr = ops::matmul(b, r, dr, false, true);
  const Value skew =
      ops::add(b, ops::sub(b, qdq, transposeLast(b, qdq)), ops::sub(b, rdr, transposeLast(b, rdr)));
  const Value left =
      ops::matmul(b, q, ops::add(b, dr, timesInverseTranspose(b, band(b, skew, -1, 0), r)));
  const Value right = timesInverseTranspose(b, ops::sub(b, dq, ops::matmul(b, q, qdq)), r);
  return ops::add(b, left, right);
}

Values qrVjp(VjpContext& c) {
  Emitter& b = c.b;
  const Shape& s = c.inType(0).shape;
  const int64_t m = s[s.size() - 2], n = s.back();
  if (m < 0 || n < 0)
    throw EngineError("the gradient of qr needs the matrix sizes known, got " + shapeStr(s) +
                      " (TF's QrGrad refuses dynamic shapes too)");
  if (c.attrs().b("full_matrices") && m > n)
    throw EngineError(
        "the gradient of qr is not defined for full_matrices=True with more rows "
        "than columns (" +
        shapeStr(s) +
        "), as in TF: q's extra columns are any "
        "orthonormal completion");
  const Value q = c.out[0], r = c.out[1], dq = c.goutOrZeros(0), dr = c.goutOrZeros(1);
  if (m >= n) return {qrGradDeep(b, q, r, dq, dr)};
  // Wide (newer TF): a = [x, y], r = [u, v] with x = q u square, y = q v.
  const size_t rank = s.size();
  auto lastCols = [&](Value t, int64_t from, int64_t count) {
    std::vector<int64_t> begin(rank, 0), size(rank, -1);
    begin.back() = from;
    size.back() = count;
    return ops::slice(b, t, begin, size);
  };
  const Value y = lastCols(c.in[0], m, -1);
  const Value u = lastCols(r, 0, m), du = lastCols(dr, 0, m), dv = lastCols(dr, m, -1);
  const Value dx = qrGradDeep(b, q, u, ops::add(b, dq, ops::matmul(b, y, dv, false, true)), du);
  return {ops::concat(b, {dx, ops::matmul(b, q, dv)}, -1)};
}

// The thin SVD's gradient for any m, n (Townsend, "Differentiating the SVD", the formula TF's
// _SvdGrad evaluates on a or a^T), F = pairGaps(s^2), J = F o (u^T gu - gu^T u), K likewise on v:
// dA = u (diag(gs) + J S + S K) v^T + (gu - u u^T gu) S^-1 v^T + u S^-1 (gv^T - gv^T v v^T)
Value svdGrad(Emitter& b, Value s, Value u, Value v, Value gs, Value gu, Value gv) {
  const Value f = pairGaps(b, ops::square(b, s));
  const Value ugu = ops::matmul(b, u, gu, true, false), vgv = ops::matmul(b, v, gv, true, false);
  const Value j = ops::mul(b, f, ops::sub(b, ugu, transposeLast(b, ugu)));
  const Value k = ops::mul(b, f, ops::sub(b, vgv, transposeLast(b, vgv)));
  Value inner = ops::add(b, scaleColumns(b, j, s), scaleRows(b, k, s));
  const Value sInv = safeReciprocal(b, s);
  Value grad =
      ops::matmul(b, ops::add(b, scaleColumns(b, u, gs), ops::matmul(b, u, inner)), v, false, true);
  const Value uPerp = ops::sub(b, gu, ops::matmul(b, u, ugu));  // (I - u u^T) gu
  const Value vPerp = ops::sub(b, gv, ops::matmul(b, v, vgv));  // (I - v v^T) gv
  grad = ops::add(b, grad, ops::matmul(b, scaleColumns(b, uPerp, sInv), v, false, true));
  return ops::add(b, grad, ops::matmul(b, scaleColumns(b, u, sInv), vPerp, false, true));
}

Values svdVjp(VjpContext& c) {
  Emitter& b = c.b;
  const Shape& shape = c.inType(0).shape;
  const Value a = c.in[0];
  if (!c.attrs().b("compute_uv", true)) {
    // dA = u diag(gs) v^T, with u, v recomputed as TF does.
    const Values usv = b.op("svd", {a}, {{"full_matrices", false}, {"compute_uv", true}});
    return {ops::matmul(b, scaleColumns(b, usv[1], c.goutOrZeros(0)), usv[2], false, true)};
  }
  const int64_t m = shape[shape.size() - 2], n = shape.back();
  if (c.attrs().b("full_matrices") && (m < 0 || n < 0 || m != n))
    throw EngineError(
        "the gradient of svd with full_matrices=True needs square matrices of "
        "known size, got " +
        shapeStr(shape) +
        " (the extra singular vectors are any orthonormal completion; TF also "
        "covers |m - n| = 1, GradLab does not)");
  return {svdGrad(b, c.out[0], c.out[1], c.out[2], c.goutOrZeros(0), c.goutOrZeros(1),
                  c.goutOrZeros(2))};
}

// TF's _SelfAdjointEigV2Grad: G = v (diag(ge) + F o (v^T gv)) v^T with F = pairGaps(e); the
// forward reads the lower triangle only, so dA = tril(G + G^T) with its diagonal halved.
Values eighVjp(VjpContext& c) {
  Emitter& b = c.b;
  const Value e = c.out[0], v = c.out[1];
  const Value inner = ops::mul(b, pairGaps(b, e), ops::matmul(b, v, c.goutOrZeros(1), true, false));
  const Value g =
      ops::matmul(b, ops::add(b, scaleColumns(b, v, c.goutOrZeros(0)), ops::matmul(b, v, inner)), v,
                  false, true);
  const Value sym = ops::add(b, g, transposeLast(b, g));
  return {ops::sub(b, band(b, sym, -1, 0), ops::scale(b, band(b, sym, 0, 0), 0.5))};
}

Tensor randn(Rng& rng, const Shape& s) { return rng.normal(s, 0.0, 1.0, DType::F64); }

// Random matrices are full rank with distinct singular values almost surely; symmetric ones
// with distinct eigenvalues, for eigh (it reads the lower triangle, so the upper one is noise).
std::vector<GradCheckCase> matrixChecks(uint64_t seed, std::vector<Shape> shapes,
                                        const Attrs& attrs = {}) {
  Rng rng(seed);
  std::vector<GradCheckCase> r;
  for (const Shape& s : shapes) r.push_back({{randn(rng, s)}, attrs});
  return r;
}

}  // namespace

void registerSpectralOps(Registry& r) {
  r.add({
      .name = "band_part",
      .math =
          "Y[i, j] = X[i, j] where (lo < 0 or i - j <= lo) and (hi < 0 or j - i <= hi), else 0\n"
          "dX = band_part(dY)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs&) {
            requireMatrix(in.at(0), "band_part");
            return Types{in[0]};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& at) {
        const int64_t lo = at.i("num_lower", -1), hi = at.i("num_upper", -1);
        Tensor y = Tensor::zeros(in.at(0).dtype(), in[0].shape());
        eachMatrix(in[0], [&](const Mat& a, int64_t k) {
          Mat out = Mat::Zero(a.rows(), a.cols());
          for (Eigen::Index i = 0; i < a.rows(); ++i)
            for (Eigen::Index j = 0; j < a.cols(); ++j)
              if ((lo < 0 || i - j <= lo) && (hi < 0 || j - i <= hi)) out(i, j) = a(i, j);
          put(y, k, out);
        });
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> Values {
        return {c.b.op1("band_part", {c.goutOrZeros(0)}, c.attrs())};
      },
      .gradChecks = matrixChecks(611, {{3, 4}, {2, 4, 3}},
                                 {{"num_lower", int64_t(1)}, {"num_upper", int64_t(0)}}),
  });
  // Eigen's HouseholderQR, as TF's CPU kernel: r's diagonal has LAPACK's signs (geqrf's
  // reflector makes r[i, i] = -sign(a_ii') |column|), not forced positive.
  r.add({
      .name = "qr",
      .math = "A = Q R, Q^T Q = I, R upper triangular (k = min(m, n) or m when full_matrices)\n"
              "dA = Q (dR + tril(Q^T dQ - dQ^T Q + R dR^T - dR R^T) R^-T) + (dQ - Q Q^T dQ) R^-T",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& at) {
            const auto [m, n] = requireMatrix(in.at(0), "qr");
            const int64_t k = at.b("full_matrices") ? m : minDim(m, n);
            const Shape& s = in[0].shape;
            return Types{{in[0].dtype, batchWith(s, {m, k}), false},
                         {in[0].dtype, batchWith(s, {k, n}), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& at) {
        const Shape& s = in.at(0).shape();
        const int64_t m = s[s.size() - 2], n = s.back();
        const int64_t k = at.b("full_matrices") ? m : std::min(m, n);
        Tensor q = Tensor::empty(in[0].dtype(), batchWith(s, {m, k}));
        Tensor rr = Tensor::empty(in[0].dtype(), batchWith(s, {k, n}));
        eachMatrix(in[0], [&](const Mat& a, int64_t i) {
          const Eigen::HouseholderQR<Mat> qr(a);
          put(q, i, qr.householderQ() * Mat::Identity(m, k));
          Mat upper = qr.matrixQR().topRows(std::min(m, k)).triangularView<Eigen::Upper>();
          Mat full = Mat::Zero(k, n);
          full.topRows(upper.rows()) = upper;
          put(rr, i, full);
        });
        return Tensors{q, rr};
      }),
      .vjp = qrVjp,
      .gradChecks = matrixChecks(612, {{3, 3}, {4, 2}, {2, 4}, {2, 3, 3}}),
  });
  // Eigen's BDCSVD, as TF's CPU kernel; s descending. TF's order of outputs: s, u, v (not v^T).
  r.add({
      .name = "svd",
      .math =
          "A = U diag(s) V^T, s descending (compute_uv=False: s only)\n"
          "dA = U (diag(gs) + J S + S K) V^T + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& at) {
            const auto [m, n] = requireMatrix(in.at(0), "svd");
            const int64_t k = minDim(m, n);
            const bool full = at.b("full_matrices");
            const Shape& s = in[0].shape;
            Types out{{in[0].dtype, Shape(s.begin(), s.end() - 2), false}};
            out[0].shape.push_back(k);
            if (at.b("compute_uv", true)) {
              out.push_back({in[0].dtype, batchWith(s, {m, full ? m : k}), false});
              out.push_back({in[0].dtype, batchWith(s, {n, full ? n : k}), false});
            }
            return out;
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& at) {
        const Shape& s = in.at(0).shape();
        const int64_t m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
        const bool full = at.b("full_matrices"), uv = at.b("compute_uv", true);
        Shape sShape(s.begin(), s.end() - 2);
        sShape.push_back(k);
        Tensor sv = Tensor::empty(in[0].dtype(), sShape);
        Tensor u = Tensor::empty(in[0].dtype(), batchWith(s, {m, full ? m : k}));
        Tensor v = Tensor::empty(in[0].dtype(), batchWith(s, {n, full ? n : k}));
        const unsigned opts = !uv    ? 0u
                              : full ? unsigned(Eigen::ComputeFullU | Eigen::ComputeFullV)
                                     : unsigned(Eigen::ComputeThinU | Eigen::ComputeThinV);
        eachMatrix(in[0], [&](const Mat& a, int64_t i) {
          const Eigen::BDCSVD<Mat> svd(a, opts);
          put(sv, i, svd.singularValues().transpose());
          if (!uv) return;
          put(u, i, svd.matrixU());
          put(v, i, svd.matrixV());
        });
        return uv ? Tensors{sv, u, v} : Tensors{sv};
      }),
      .vjp = svdVjp,
      .gradChecks =
          [] {
            auto r = matrixChecks(613, {{3, 3}, {4, 2}, {2, 4}, {2, 3, 3}});
            for (auto& c : matrixChecks(614, {{3, 2}, {2, 3, 3}}, {{"compute_uv", false}}))
              r.push_back(c);
            for (auto& c : matrixChecks(615, {{3, 3}}, {{"full_matrices", true}})) r.push_back(c);
            return r;
          }(),
  });
  // Eigen's SelfAdjointEigenSolver, as TF's CPU kernel: reads the lower triangle, eigenvalues
  // ascending, unit eigenvectors in v's columns.
  r.add({
      .name = "self_adjoint_eig",
      .math = "A v_i = e_i v_i (lower triangle of A), e ascending\n"
              "dA = tril(G + G^T) diagonal halved, G = V (diag(ge) + F o V^T gV) V^T, "
              "F_ij = 1 / (e_j - e_i)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs&) {
            const auto [m, n] = requireMatrix(in.at(0), "self_adjoint_eig");
            if (m >= 0 && n >= 0 && m != n)
              throw ShapeError("self_adjoint_eig needs square matrices [..., n, n], got " +
                               shapeStr(in[0].shape));
            const int64_t k = n >= 0 ? n : m;
            const Shape& s = in[0].shape;
            Shape e(s.begin(), s.end() - 2);
            e.push_back(k);
            return Types{{in[0].dtype, e, false}, {in[0].dtype, batchWith(s, {k, k}), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) {
        const Shape& s = in.at(0).shape();
        const int64_t n = s.back();
        if (s[s.size() - 2] != n)
          throw EngineError("self_adjoint_eig needs square matrices [..., n, n], got " +
                            shapeStr(s));
        Shape es(s.begin(), s.end() - 2);
        es.push_back(n);
        Tensor e = Tensor::empty(in[0].dtype(), es), v = Tensor::empty(in[0].dtype(), s);
        eachMatrix(in[0], [&](const Mat& a, int64_t i) {
          const Eigen::SelfAdjointEigenSolver<Mat> eig(a);
          if (eig.info() != Eigen::Success)
            throw EngineError("self_adjoint_eig: the eigen solver did not converge");
          put(e, i, eig.eigenvalues().transpose());
          put(v, i, eig.eigenvectors());
        });
        return Tensors{e, v};
      }),
      .vjp = eighVjp,
      .gradChecks = matrixChecks(616, {{3, 3}, {2, 3, 3}}),
  });
}

}  // namespace gl
