// Matrix functions over the last two axes, batched over the rest, with Eigen's decompositions
// and TF's gradients (linalg_grad.py): matrix_inverse, matrix_determinant,
// log_abs_determinant (slogdet's second result), cholesky.
#include <cmath>

#include "engine/ops/api.h"
#include "engine/ops/eigen.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// [..., n, n] with n known or not; the batch dims are the leading ones.
void requireSquare(const TypeInfo& t, const char* op) {
  if (t.list || !isFloat(t.dtype))
    throw ShapeError(std::string(op) + " needs a float tensor, got " + t.str());
  const Shape& s = t.shape;
  if (s.size() < 2 || (s[s.size() - 1] >= 0 && s[s.size() - 2] >= 0 && s.back() != s[s.size() - 2]))
    throw ShapeError(std::string(op) + " needs square matrices [..., n, n], got " + shapeStr(s));
}

Shape batchOf(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

// f(matrix k of x as an n x n map, k) for every matrix of the batch.
template <class T, class F>
void eachMatrix(const Tensor& x, F f) {
  const int64_t n = x.shape().back(), count = n == 0 ? 0 : x.numel() / (n * n);
  for (int64_t k = 0; k < count; ++k)
    f(Eigen::Map<const RowMat<T>>(x.data<T>() + k * n * n, n, n), k);
}

Tensor invert(const Tensor& x) {
  Tensor y = Tensor::empty(x.dtype(), x.shape());
  const int64_t n = x.shape().back();
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    eachMatrix<T>(x, [&](const auto& a, int64_t k) {
      Eigen::FullPivLU<RowMat<T>> lu(a);
      if (!lu.isInvertible()) throw EngineError("matrix_inverse: Input is not invertible.");
      Eigen::Map<RowMat<T>>(y.data<T>() + k * n * n, n, n) = lu.inverse();
    });
  });
  return y;
}

Tensor reduceMatrices(const Tensor& x, double (*f)(const RowMat<double>&)) {
  Tensor y = Tensor::empty(x.dtype(), batchOf(x.shape()));
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    eachMatrix<T>(
        x, [&](const auto& a, int64_t k) { y.data<T>()[k] = T(f(a.template cast<double>())); });
  });
  return y;
}

double determinant(const RowMat<double>& a) { return a.rows() == 0 ? 1.0 : a.determinant(); }

double logAbsDeterminant(const RowMat<double>& a) {
  if (a.rows() == 0) return 0;
  const Eigen::PartialPivLU<RowMat<double>> lu(a);
  double s = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i) s += std::log(std::abs(lu.matrixLU()(i, i)));
  return s;
}

Tensor choleskyOf(const Tensor& x) {
  Tensor y = Tensor::zeros(x.dtype(), x.shape());
  const int64_t n = x.shape().back();
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    eachMatrix<T>(x, [&](const auto& a, int64_t k) {
      Eigen::LLT<RowMat<T>> llt(a);  // reads the lower triangle, as TF's Cholesky
      if (llt.info() != Eigen::Success)
        throw EngineError("cholesky: the input is not positive definite");
      Eigen::Map<RowMat<T>>(y.data<T>() + k * n * n, n, n) = llt.matrixL();
    });
  });
  return y;
}

Value transposeLast(Emitter& b, Value x) {
  const int64_t r = int64_t(b.type(x).shape.size());
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < r; ++i) perm.push_back(i);
  std::swap(perm[size_t(r - 1)], perm[size_t(r - 2)]);
  return ops::transpose(b, x, perm);
}

// g of shape [...] as [..., 1, 1], to scale matrices.
Value asMatrixScale(Emitter& b, Value g) {
  return ops::expandDims(b, ops::expandDims(b, g, -1), -1);
}

Tensor randn(Rng& rng, const Shape& s) { return rng.normal(s, 0.0, 1.0, DType::F64); }

// Well-conditioned points: random matrices plus a multiple of the identity; symmetric positive
// definite ones (a a^T + n I) for cholesky.
Tensor shifted(Rng& rng, const Shape& s, double shift, bool spd) {
  Tensor a = randn(rng, s);
  const int64_t n = s.back(), count = a.numel() / (n * n);
  double* p = a.data<double>();
  for (int64_t k = 0; k < count; ++k) {
    Eigen::Map<RowMat<double>> m(p + k * n * n, n, n);
    if (spd) m = (m * m.transpose()).eval();
    m.diagonal().array() += shift;
  }
  return a;
}

std::vector<GradCheckCase> squareChecks(uint64_t seed, bool spd) {
  Rng rng(seed);
  return {{{shifted(rng, {3, 3}, 3.0, spd)}, {}}, {{shifted(rng, {2, 2, 2}, 3.0, spd)}, {}}};
}

Types sameAsInput(const Types& in, const char* op) {
  requireSquare(in.at(0), op);
  return {in[0]};
}

Types batchOfInput(const Types& in, const char* op) {
  requireSquare(in.at(0), op);
  return {{in[0].dtype, batchOf(in[0].shape), false}};
}

}  // namespace

void registerDecompositionOps(Registry& r) {
  r.add({
      .name = "matrix_inverse",
      .math = "Y = A^-1 per matrix\n"
              "dA = -Y^T dY Y^T",
      .arity = 1,
      .shape = [](const Types& in, const Attrs&) { return sameAsInput(in, "matrix_inverse"); },
      .forward =
          tensorKernel([](const Tensors& in, const Attrs&) { return Tensors{invert(in.at(0))}; }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        Emitter& b = c.b;
        const Value y = c.out[0];
        return {ops::neg(
            b, ops::matmul(b, ops::matmul(b, y, c.goutOrZeros(0), true, false), y, false, true))};
      },
      .gradChecks = squareChecks(601, false),
  });
  r.add({
      .name = "matrix_determinant",
      .math = "d = det(A) per matrix\n"
              "dA = g d A^-T",
      .arity = 1,
      .shape = [](const Types& in, const Attrs&) { return batchOfInput(in, "matrix_determinant"); },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) {
        return Tensors{reduceMatrices(in.at(0), determinant)};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        Emitter& b = c.b;
        const Value scale = asMatrixScale(b, ops::mul(b, c.goutOrZeros(0), c.out[0]));
        return {ops::mul(b, scale, transposeLast(b, b.op1("matrix_inverse", {c.in[0]})))};
      },
      .gradChecks = squareChecks(602, false),
  });
  r.add({
      .name = "log_abs_determinant",
      .math = "l = log |det(A)| per matrix (from the LU factors)\n"
              "dA = g A^-T",
      .arity = 1,
      .shape = [](const Types& in,
                  const Attrs&) { return batchOfInput(in, "log_abs_determinant"); },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) {
        return Tensors{reduceMatrices(in.at(0), logAbsDeterminant)};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        Emitter& b = c.b;
        return {ops::mul(b, asMatrixScale(b, c.goutOrZeros(0)),
                         transposeLast(b, b.op1("matrix_inverse", {c.in[0]})))};
      },
      .gradChecks = squareChecks(603, false),
  });
  // TF's _CholeskyGrad, written as TF writes it: phi(X) = the lower triangle of X with its
  // diagonal halved, and the result symmetrised.
  r.add({
      .name = "cholesky",
      .math =
          "L = cholesky(A), A = L L^T (reads A's lower triangle)\n"
          "dA = (S + S^T) / 2, S = L^-T phi(L^T dL) L^-1, phi = lower triangle, diagonal halved",
      .arity = 1,
      .shape = [](const Types& in, const Attrs&) { return sameAsInput(in, "cholesky"); },
      .forward = tensorKernel(
          [](const Tensors& in, const Attrs&) { return Tensors{choleskyOf(in.at(0))}; }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        Emitter& b = c.b;
        const Value l = c.out[0];
        const Shape s = b.type(l).shape;
        const int64_t n = s.back();
        if (n < 0) throw EngineError("the gradient of cholesky needs the matrix size known");
        Tensor phi = Tensor::zeros(b.type(l).dtype, {n, n});
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j <= i; ++j) phi.set(i * n + j, i == j ? 0.5 : 1.0);
        const Value lInv = b.op1("matrix_inverse", {l});
        const Value middle =
            ops::mul(b, ops::matmul(b, l, c.goutOrZeros(0), true, false), b.constant(phi));
        const Value s1 = ops::matmul(b, ops::matmul(b, lInv, middle, true, false), lInv);
        return {ops::scale(b, ops::add(b, s1, transposeLast(b, s1)), 0.5)};
      },
      .noGradCheck = "cholesky reads only A's lower triangle while TF's gradient is symmetrised, "
                     "so finite differences of one entry disagree by design; "
                     "tests/lang/test_tf_api_grads.cpp checks it through cholesky((X + X^T) / 2)",
  });
}

}  // namespace gl
