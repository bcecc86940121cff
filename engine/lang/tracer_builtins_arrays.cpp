// Array and matrix functions built from primitives with constant index and mask tensors, so
// their gradients are those of gather, matmul and mul: argmin, reverse, roll, repeat, split,
// meshgrid, sequence_mask, cumsum, polyval, and tf.linalg's trace, diag_part, band_part,
// matvec. They need the sizes they index known while tracing, and say so where they are not.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

#include "engine/lang/tracer_builtins.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

// The normalised axis `param` of x, whose size must be known while tracing.
int64_t knownAxis(Bound& a, Value x, const char* param, int64_t axis) {
  const Shape& s = a.cx.b.type(x).shape;
  const int64_t r = int64_t(s.size());
  if (axis < -r || axis >= r)
    a.fail(param, "is out of range for a tensor of rank " + std::to_string(r));
  if (axis < 0) axis += r;
  if (s[size_t(axis)] < 0)
    a.fail(param, "needs the size of axis " + std::to_string(axis) + " known, got " + shapeStr(s));
  return axis;
}

Value indexConstant(Emitter& b, const std::vector<int64_t>& idx) {
  std::vector<double> d(idx.begin(), idx.end());
  return b.constant(Tensor::fromVector(d, {int64_t(d.size())}, DType::I32));
}

// x's entries along `axis` in the order `idx` (a gather: its gradient sums repeats back).
Value pick(Emitter& b, Value x, const std::vector<int64_t>& idx, int64_t axis) {
  return o::gather(b, x, indexConstant(b, idx), axis);
}

// x with `axis` moved last, and back.
std::vector<int64_t> moveLast(int64_t rank, int64_t axis) {
  std::vector<int64_t> p;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis) p.push_back(i);
  p.push_back(axis);
  return p;
}
std::vector<int64_t> inverse(const std::vector<int64_t>& p) {
  std::vector<int64_t> q(p.size());
  for (size_t i = 0; i < p.size(); ++i) q[size_t(p[i])] = int64_t(i);
  return q;
}

void addReorderings(BuiltinTable& t) {
  // argmin(x) = argmax(-x): the first smallest, as TF returns (int32 here).
  t["tf.argmin"] = {
      Signature::parse("input, axis=None, output_type=None, name=None"), [](Bound& a) {
        if (!a.none("output_type") && a.dtype("output_type", DType::I32) != DType::I32)
          a.fail("output_type", "must be tf.int32 (GradLab's integers are int32)");
        const Value x = a.tensor("input");
        return T(o::argmax(a.cx.b, o::neg(a.cx.b, x), a.none("axis") ? 0 : a.integer("axis")));
      }};
  t["tf.reverse"] = {Signature::parse("tensor, axis, name=None"), [](Bound& a) {
                       Value x = a.tensor("tensor");
                       for (int64_t ax : a.ints("axis")) {
                         ax = knownAxis(a, x, "axis", ax);
                         const int64_t n = a.cx.b.type(x).shape[size_t(ax)];
                         std::vector<int64_t> idx(static_cast<size_t>(n));
                         for (int64_t i = 0; i < n; ++i) idx[size_t(i)] = n - 1 - i;
                         x = pick(a.cx.b, x, idx, ax);
                       }
                       return T(x);
                     }};
  // roll: element i moves to (i + shift) mod n along each axis.
  t["tf.roll"] = {Signature::parse("input, shift, axis, name=None"), [](Bound& a) {
                    Value x = a.tensor("input");
                    const auto shifts = a.ints("shift"), axes = a.ints("axis");
                    if (shifts.size() != axes.size()) a.fail("shift", "needs one shift per axis");
                    for (size_t k = 0; k < axes.size(); ++k) {
                      const int64_t ax = knownAxis(a, x, "axis", axes[k]);
                      const int64_t n = a.cx.b.type(x).shape[size_t(ax)];
                      std::vector<int64_t> idx(static_cast<size_t>(n));
                      for (int64_t i = 0; i < n; ++i)
                        idx[size_t(i)] = (((i - shifts[k]) % n) + n) % n;
                      x = pick(a.cx.b, x, idx, ax);
                    }
                    return T(x);
                  }};
  // repeat: each entry along axis `repeats` times (one count, or one per entry); axis None
  // repeats the flattened tensor.
  t["tf.repeat"] = {Signature::parse("input, repeats, axis=None, name=None"), [](Bound& a) {
                      Value x = a.tensor("input");
                      int64_t ax = 0;
                      if (a.none("axis")) {
                        const Shape& s = a.cx.b.type(x).shape;
                        if (!fullyKnown(s))
                          a.fail("input", "needs a known shape when axis is None");
                        x = o::reshape(a.cx.b, x, {-1});
                      } else {
                        ax = knownAxis(a, x, "axis", a.integer("axis"));
                      }
                      const int64_t n = a.cx.b.type(x).shape[size_t(ax)];
                      std::vector<int64_t> reps = a.ints("repeats");
                      if (reps.size() == 1) reps.assign(size_t(n), reps[0]);
                      if (int64_t(reps.size()) != n)
                        a.fail("repeats",
                               "needs one count, or one per entry (" + std::to_string(n) + ")");
                      std::vector<int64_t> idx;
                      for (int64_t i = 0; i < n; ++i) {
                        if (reps[size_t(i)] < 0) a.fail("repeats", "must not be negative");
                        idx.insert(idx.end(), size_t(reps[size_t(i)]), i);
                      }
                      return T(pick(a.cx.b, x, idx, ax));
                    }};
}

// strided_slice as Python slicing per axis (begin:end:stride, begin_mask / end_mask bits
// meaning "from the start" / "to the end", shrink_axis_mask bits taking one index and dropping
// the axis): a gather per axis with the positions the slice visits.
Val stridedSlice(Bound& a) {
  Value x = a.tensor("input_");
  Emitter& b = a.cx.b;
  for (const char* m : {"ellipsis_mask", "new_axis_mask"})
    if (a.integer(m) != 0) a.fail(m, "is not supported yet (use Python slicing)");
  const auto begin = a.ints("begin"), end = a.ints("end");
  std::vector<int64_t> strides =
      a.none("strides") ? std::vector<int64_t>(begin.size(), 1) : a.ints("strides");
  if (begin.size() != end.size() || begin.size() != strides.size())
    a.fail("begin", "end and strides must have the same length");
  const int64_t beginMask = a.integer("begin_mask"), endMask = a.integer("end_mask"),
                shrinkMask = a.integer("shrink_axis_mask");
  std::vector<int64_t> dropped;
  for (size_t i = 0; i < begin.size(); ++i) {
    const int64_t ax = knownAxis(a, x, "begin", int64_t(i));
    const int64_t n = b.type(x).shape[size_t(ax)], st = strides[i];
    if (st == 0) a.fail("strides", "must not be 0");
    std::vector<int64_t> idx;
    if (shrinkMask >> i & 1) {
      const int64_t k = begin[i] < 0 ? begin[i] + n : begin[i];
      if (k < 0 || k >= n)
        a.fail("begin", "index " + std::to_string(begin[i]) + " is out of range");
      idx.push_back(k);
      dropped.push_back(ax);
    } else {
      // Python's slice.indices: negative bounds count from the end, then clamp.
      auto bound = [&](int64_t v, bool masked, bool isBegin) {
        if (masked) return isBegin ? (st > 0 ? int64_t(0) : n - 1) : (st > 0 ? n : int64_t(-1));
        if (v < 0) v += n;
        return st > 0 ? std::clamp<int64_t>(v, 0, n) : std::clamp<int64_t>(v, -1, n - 1);
      };
      const int64_t from = bound(begin[i], beginMask >> i & 1, true);
      const int64_t to = bound(end[i], endMask >> i & 1, false);
      for (int64_t k = from; st > 0 ? k < to : k > to; k += st) idx.push_back(k);
    }
    x = pick(b, x, idx, ax);
  }
  if (!dropped.empty()) x = o::squeeze(b, x, dropped);
  return T(x);
}

void addSplitsAndGrids(BuiltinTable& t) {
  t["tf.strided_slice"] = {
      Signature::parse("input_, begin, end, strides=None, begin_mask=0, end_mask=0, "
                       "ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, var=None, name=None"),
      stridedSlice};
  // split: num_or_size_splits equal parts, or parts of the given sizes (one -1 inferred).
  t["tf.split"] = {
      Signature::parse("value, num_or_size_splits, axis=0, num=None, name=None"), [](Bound& a) {
        const Value x = a.tensor("value");
        const int64_t ax = knownAxis(a, x, "axis", a.integer("axis"));
        const Shape s = a.cx.b.type(x).shape;
        const int64_t n = s[size_t(ax)];
        std::vector<int64_t> sizes;
        const Val& v = a["num_or_size_splits"];
        if (v.kind() == Kind::Int) {
          if (v.asInt() <= 0 || n % v.asInt() != 0)
            a.fail("num_or_size_splits",
                   "must divide the axis size " + std::to_string(n) + " into equal parts");
          sizes.assign(size_t(v.asInt()), n / v.asInt());
        } else {
          sizes = a.ints("num_or_size_splits");
          const auto unknown = std::count(sizes.begin(), sizes.end(), int64_t(-1));
          const int64_t known = std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) + unknown;
          if (unknown > 1) a.fail("num_or_size_splits", "may hold one -1 at most");
          for (auto& z : sizes)
            if (z == -1) z = n - known;
          if (std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != n ||
              std::any_of(sizes.begin(), sizes.end(), [](int64_t z) { return z < 0; }))
            a.fail("num_or_size_splits", "must add up to the axis size " + std::to_string(n));
        }
        if (!a.none("num") && a.integer("num") != int64_t(sizes.size()))
          a.fail("num", "does not match the number of parts");
        std::vector<Val> parts;
        int64_t begin = 0;
        for (int64_t z : sizes) {
          std::vector<int64_t> b(s.size(), 0), size(s.size(), -1);
          b[size_t(ax)] = begin;
          size[size_t(ax)] = z;
          parts.push_back(T(o::slice(a.cx.b, x, b, size)));
          begin += z;
        }
        return Val::listOf(std::move(parts));
      }};
  // meshgrid(*args, indexing='xy'): N-D grids of the 1-D inputs; 'xy' swaps the first two axes.
  t["tf.meshgrid"] = {
      Signature::parse("*args, indexing='xy', name=None"), [](Bound& a) {
        const std::string ix = a.string("indexing");
        if (ix != "xy" && ix != "ij") a.fail("indexing", "must be 'xy' or 'ij'");
        std::vector<Value> xs;
        Shape grid;
        for (const Arg& arg : a.rest) {
          xs.push_back(o::reshape(a.cx.b, a.cx.toTensor(arg.v, arg.loc), {-1}));
          const int64_t n = a.cx.b.type(xs.back()).shape[0];
          if (n < 0) a.fail("", "meshgrid needs inputs of known size");
          grid.push_back(n);
        }
        const bool xy = ix == "xy" && xs.size() >= 2;
        if (xy) std::swap(grid[0], grid[1]);
        std::vector<Val> out;
        for (size_t i = 0; i < xs.size(); ++i) {
          const size_t at = xy && i < 2 ? 1 - i : i;
          Shape s(grid.size(), 1);
          s[at] = grid[at];
          out.push_back(T(o::broadcastTo(a.cx.b, o::reshape(a.cx.b, xs[i], s), grid)));
        }
        return Val::listOf(std::move(out));
      }};
  // sequence_mask(lengths, maxlen): mask[..., j] = j < lengths[...].
  t["tf.sequence_mask"] = {
      Signature::parse("lengths, maxlen=None, dtype=None, name=None"), [](Bound& a) {
        if (a.none("maxlen")) a.fail("maxlen", "is needed in GradLab (the mask's width)");
        const Value len = a.cx.toTensor(a["lengths"], a.loc("lengths"), DType::I32);
        const int64_t m = a.integer("maxlen");
        std::vector<int64_t> cols(size_t(std::max<int64_t>(m, 0)));
        std::iota(cols.begin(), cols.end(), 0);
        Emitter& b = a.cx.b;
        Value mask = o::less(b, indexConstant(b, cols), o::expandDims(b, len, -1));
        const DType dt = a.dtype("dtype", DType::Bool);
        return T(dt == DType::Bool ? mask : o::cast(b, mask, dt));
      }};
}

// cumsum along an axis as a product with a 0/1 triangle: out[j] = sum of x[i] for i <= j
// (i < j exclusive; i >= j, i > j reversed). O(n^2), which the lessons' sizes afford; the
// gradient is the transposed triangle, as TF's _CumsumGrad (a reversed cumsum).
}  // namespace

Value cumsumAlong(Bound& a, Value x) {
  Emitter& b = a.cx.b;
  if (!isFloat(b.type(x).dtype)) a.fail("x", "must be a float tensor in GradLab");
  const int64_t ax = knownAxis(a, x, "axis", a.integer("axis"));
  const int64_t rank = int64_t(b.type(x).shape.size()), n = b.type(x).shape[size_t(ax)];
  const bool exclusive = a.boolean("exclusive"), reverse = a.boolean("reverse");
  Tensor tri = Tensor::zeros(b.type(x).dtype, {n, n});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const bool in = reverse ? (exclusive ? i > j : i >= j) : (exclusive ? i < j : i <= j);
      if (in) tri.set(i * n + j, 1.0);
    }
  const Value triangle = b.constant(tri, "cumsum triangle");
  if (rank == 1)  // matmul wants matrices: a row vector
    return o::squeeze(b, o::matmul(b, o::expandDims(b, x, 0), triangle), {0});
  const auto perm = moveLast(rank, ax);
  const Value last = o::transpose(b, x, perm);
  return o::transpose(b, o::matmul(b, last, triangle), inverse(perm));
}

namespace {

// cumprod along an axis as a running product of its slices: the gradient is that of the
// multiplications, exact also where x holds zeros.
Value cumprodAlong(Bound& a, Value x) {
  Emitter& b = a.cx.b;
  if (!isFloat(b.type(x).dtype)) a.fail("x", "must be a float tensor in GradLab");
  const int64_t ax = knownAxis(a, x, "axis", a.integer("axis"));
  const int64_t n = b.type(x).shape[size_t(ax)];
  if (n == 0) return x;
  const bool exclusive = a.boolean("exclusive"), reverse = a.boolean("reverse");
  const std::vector<Value> slices = o::unstack(b, x, ax);
  std::vector<Value> out(static_cast<size_t>(n));
  Value acc = b.onesLike(slices[0]);
  for (int64_t step = 0; step < n; ++step) {
    const size_t i = size_t(reverse ? n - 1 - step : step);
    if (exclusive) out[i] = acc;
    acc = step == 0 && !exclusive ? slices[i] : o::mul(b, acc, slices[i]);
    if (!exclusive) out[i] = acc;
  }
  return o::stack(b, out, ax);
}

void addScansAndPolynomials(BuiltinTable& t) {
  const Signature sig = Signature::parse("x, axis=0, exclusive=False, reverse=False, name=None");
  t["tf.cumsum"] = {sig, [](Bound& a) { return T(cumsumAlong(a, a.tensor("x"))); }};
  t["tf.math.cumprod"] = {sig, [](Bound& a) { return T(cumprodAlong(a, a.tensor("x"))); }};
  // polyval(coeffs, x) = coeffs[0] x^(n-1) + ... + coeffs[n-1], by Horner's rule.
  t["tf.math.polyval"] = {Signature::parse("coeffs, x, name=None"), [](Bound& a) {
                            const Val& c = a["coeffs"];
                            if (!c.isSeq() || c.items().empty())
                              a.fail("coeffs", "must be a non-empty list of coefficients");
                            const Value x = a.tensor("x");
                            Emitter& b = a.cx.b;
                            const DType dt = b.type(x).dtype;
                            Value y = a.cx.toTensor(c.items()[0], a.loc("coeffs"), dt);
                            for (size_t i = 1; i < c.items().size(); ++i)
                              y = o::add(b, o::mul(b, y, x),
                                         a.cx.toTensor(c.items()[i], a.loc("coeffs"), dt));
                            return T(y);
                          }};
}

// x times a constant 0/1 mask over its last two axes (which must be known).
Value masked(Bound& a, Value x, const char* param, bool (*keep)(int64_t, int64_t, int64_t, int64_t),
             int64_t lo = 0, int64_t hi = 0) {
  Emitter& b = a.cx.b;
  const Shape& s = b.type(x).shape;
  if (s.size() < 2 || s[s.size() - 1] < 0 || s[s.size() - 2] < 0)
    a.fail(param, "needs a matrix (or batch of them) of known size, got " + shapeStr(s));
  const int64_t m = s[s.size() - 2], n = s.back();
  Tensor mask = Tensor::zeros(b.type(x).dtype, {m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (keep(i, j, lo, hi)) mask.set(i * n + j, 1.0);
  return o::mul(b, x, b.constant(mask));
}

void addMatrixParts(BuiltinTable& t) {
  auto diagonal = [](int64_t i, int64_t j, int64_t, int64_t) { return i == j; };
  // trace = the sum of the main diagonal of the last two axes.
  t["tf.linalg.trace"] = {Signature::parse("x, name=None"), [diagonal](Bound& a) {
                            const Value d = masked(a, a.tensor("x"), "x", diagonal);
                            return T(o::reduceSum(a.cx.b, d, {-2, -1}));
                          }};
  // diag_part (k = 0): x[..., i, i] for i < min(m, n).
  t["tf.linalg.diag_part"] = {
      Signature::parse("input, name=None, k=0, padding_value=0, ~align='RIGHT_LEFT'"),
      [diagonal](Bound& a) {
        if (a.integer("k") != 0) a.fail("k", "must be 0 (the main diagonal) in GradLab");
        if (a.number("padding_value") != 0) a.fail("padding_value", "must be 0 in GradLab");
        const Value x = a.tensor("input");
        const Value rows = o::reduceSum(a.cx.b, masked(a, x, "input", diagonal), {-1});
        const Shape& s = a.cx.b.type(x).shape;
        const int64_t m = s[s.size() - 2], n = s.back();
        if (m <= n) return T(rows);
        std::vector<int64_t> begin(s.size() - 1, 0), size(s.size() - 1, -1);
        size.back() = n;
        return T(o::slice(a.cx.b, rows, begin, size));
      }};
  // band_part: keeps i - j <= num_lower and j - i <= num_upper (a negative bound keeps all).
  t["tf.linalg.band_part"] = {Signature::parse("input, num_lower, num_upper, name=None"),
                              [](Bound& a) {
                                return T(masked(
                                    a, a.tensor("input"), "input",
                                    [](int64_t i, int64_t j, int64_t lo, int64_t hi) {
                                      return (lo < 0 || i - j <= lo) && (hi < 0 || j - i <= hi);
                                    },
                                    a.integer("num_lower"), a.integer("num_upper")));
                              }};
  // matvec(a, b) = a @ b[..., None], squeezed.
  t["tf.linalg.matvec"] = {
      Signature::parse("a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, "
                       "b_is_sparse=False, name=None"),
      [](Bound& a) {
        auto [m, v] = operands(a, "a", "b");
        Emitter& b = a.cx.b;
        const bool ta = a.boolean("transpose_a") || a.boolean("adjoint_a");  // real: adjoint = T
        if (a.boolean("a_is_sparse") || a.boolean("b_is_sparse"))
          a.fail("a_is_sparse", "sparse operands are not supported");
        return T(o::squeeze(b, o::matmul(b, m, o::expandDims(b, v, -1), ta, false), {-1}));
      }};
}

Value transposeLast(Emitter& b, Value x) {
  const int64_t r = int64_t(b.type(x).shape.size());
  std::vector<int64_t> perm(static_cast<size_t>(r));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[size_t(r - 1)], perm[size_t(r - 2)]);
  return o::transpose(b, x, perm);
}

// tf.linalg on the decomposition primitives (ops/linalg_decomp.cpp, ops/linalg_spectral.cpp).
// Real matrices: the adjoint is the transpose.
void addDecompositions(BuiltinTable& t) {
  auto unary = [](const char* prim) {
    return [p = std::string(prim)](Bound& a) { return T(a.cx.b.op1(p, {a.tensor("input")})); };
  };
  t["tf.linalg.det"] = {Signature::parse("input, name=None"), unary("matrix_determinant")};
  t["tf.linalg.cholesky"] = {Signature::parse("input, name=None"), unary("cholesky")};
  t["tf.linalg.inv"] = {Signature::parse("input, adjoint=False, name=None"), [](Bound& a) {
                          Value x = a.tensor("input");
                          if (a.boolean("adjoint")) x = transposeLast(a.cx.b, x);
                          return T(a.cx.b.op1("matrix_inverse", {x}));
                        }};
  // log det of a (symmetric positive definite) matrix: log |det|, from the LU factors.
  t["tf.linalg.logdet"] = {Signature::parse("matrix, name=None"), [](Bound& a) {
                             return T(a.cx.b.op1("log_abs_determinant", {a.tensor("matrix")}));
                           }};
  // (sign(det), log |det|): the sign has no gradient, as in TF.
  t["tf.linalg.slogdet"] = {
      Signature::parse("input, name=None"), [](Bound& a) {
        const Value x = a.tensor("input");
        Emitter& b = a.cx.b;
        const Value sign = o::stopGradient(b, o::sign(b, b.op1("matrix_determinant", {x})));
        return Val::listOf({T(sign), T(b.op1("log_abs_determinant", {x}))}, true);
      }};
  // qr -> (q, r), Eigen's Householder QR as TF's CPU kernel (r's diagonal signs as LAPACK's).
  t["tf.linalg.qr"] = {Signature::parse("input, full_matrices=False, name=None"), [](Bound& a) {
                         const auto qr = a.cx.b.op("qr", {a.tensor("input")},
                                                   {{"full_matrices", a.boolean("full_matrices")}});
                         return Val::listOf({T(qr[0]), T(qr[1])}, true);
                       }};
  // svd -> (s, u, v) in TF's order, v not v^T; compute_uv=False -> s.
  t["tf.linalg.svd"] = {
      Signature::parse("tensor, full_matrices=False, compute_uv=True, name=None"), [](Bound& a) {
        const bool uv = a.boolean("compute_uv");
        const auto out =
            a.cx.b.op("svd", {a.tensor("tensor")},
                      {{"full_matrices", a.boolean("full_matrices")}, {"compute_uv", uv}});
        if (!uv) return T(out[0]);
        return Val::listOf({T(out[0]), T(out[1]), T(out[2])}, true);
      }};
  // eigh -> (e, v), e ascending; reads the lower triangle, as TF.
  t["tf.linalg.eigh"] = {Signature::parse("tensor, name=None"), [](Bound& a) {
                           const auto ev = a.cx.b.op("self_adjoint_eig", {a.tensor("tensor")});
                           return Val::listOf({T(ev[0]), T(ev[1])}, true);
                         }};
  t["tf.linalg.eigvalsh"] = {Signature::parse("tensor, name=None"), [](Bound& a) {
                               return T(a.cx.b.op("self_adjoint_eig", {a.tensor("tensor")})[0]);
                             }};
  // solve(A, B) = A^-1 B (adjoint: A^-T B); the gradients are those of the inverse.
  t["tf.linalg.solve"] = {Signature::parse("matrix, rhs, adjoint=False, name=None"), [](Bound& a) {
                            auto [m, rhs] = operands(a, "matrix", "rhs");
                            Emitter& b = a.cx.b;
                            if (a.boolean("adjoint")) m = transposeLast(b, m);
                            return T(o::matmul(b, b.op1("matrix_inverse", {m}), rhs));
                          }};
  // triangular_solve reads one triangle of A (lower by default) and ignores the other, as TF.
  t["tf.linalg.triangular_solve"] = {
      Signature::parse("matrix, rhs, lower=True, adjoint=False, name=None"), [](Bound& a) {
        auto [m, rhs] = operands(a, "matrix", "rhs");
        Emitter& b = a.cx.b;
        const bool lower = a.boolean("lower");
        m = masked(
            a, m, "matrix",
            [](int64_t i, int64_t j, int64_t lo, int64_t) { return lo ? j <= i : j >= i; },
            lower ? 1 : 0, 0);
        if (a.boolean("adjoint")) m = transposeLast(b, m);
        return T(o::matmul(b, b.op1("matrix_inverse", {m}), rhs));
      }};
}

// int32 indices from argument `name`.
Value indexArg(Bound& a, const char* name) {
  const Value v = a.cx.toTensor(a[name], a.loc(name), DType::I32);
  if (a.cx.b.type(v).dtype != DType::I32) a.fail(name, "must be int32 indices");
  return v;
}

// indices [..., k] into the first k dims of `shape` as flat row numbers (row-major).
Value linearIndex(Bound& a, Value idx, const Shape& shape, const char* param) {
  Emitter& b = a.cx.b;
  const Shape& is = b.type(idx).shape;
  if (is.empty() || is.back() < 0) a.fail(param, "needs a last axis of known length");
  const int64_t k = is.back();
  if (k > int64_t(shape.size())) a.fail(param, "indexes more dims than the tensor has");
  std::vector<int64_t> strides(size_t(k), 1);
  for (int64_t j = k - 1; j >= 0; --j) {
    if (shape[size_t(j)] < 0) a.fail(param, "needs the indexed dims known, got " + shapeStr(shape));
    if (j + 1 < k) strides[size_t(j)] = strides[size_t(j + 1)] * shape[size_t(j + 1)];
  }
  return o::reduceSum(b, o::mul(b, idx, indexConstant(b, strides)), {-1});
}

// shape with its first k dims merged into one.
Shape mergedLeading(const Shape& s, int64_t k) {
  int64_t rows = 1;
  for (int64_t j = 0; j < k; ++j) rows *= s[size_t(j)];
  Shape out{rows};
  out.insert(out.end(), s.begin() + k, s.end());
  return out;
}

// gather_nd / scatter_nd as a gather / scatter_add over the indexed dims merged into one:
// their gradients are those of gather and scatter_add.
void addNdIndexing(BuiltinTable& t) {
  t["tf.gather_nd"] = {Signature::parse("params, indices, batch_dims=0, name=None"), [](Bound& a) {
                         if (a.integer("batch_dims") != 0) a.fail("batch_dims", "must be 0");
                         const Value p = a.tensor("params"), idx = indexArg(a, "indices");
                         Emitter& b = a.cx.b;
                         const Shape ps = b.type(p).shape;
                         const int64_t k = b.type(idx).shape.back();
                         const Value rows = linearIndex(a, idx, ps, "indices");
                         return T(o::gather(b, o::reshape(b, p, mergedLeading(ps, k)), rows, 0));
                       }};
  auto scatterNd = [](Bound& a, Value idx, Value updates, const Shape& shape) {
    Emitter& b = a.cx.b;
    if (!fullyKnown(shape)) a.fail("shape", "must be known while tracing");
    const int64_t k = b.type(idx).shape.back();
    const Value rows = linearIndex(a, idx, shape, "indices");
    const Value flat = o::scatterAdd(b, updates, rows, 0, mergedLeading(shape, k));
    return o::reshape(b, flat, shape);
  };
  t["tf.scatter_nd"] = {Signature::parse("indices, updates, shape, name=None"),
                        [scatterNd](Bound& a) {
                          const Value idx = indexArg(a, "indices");
                          return T(scatterNd(a, idx, a.tensor("updates"), a.shape("shape")));
                        }};
  t["tf.tensor_scatter_nd_add"] = {
      Signature::parse("tensor, indices, updates, name=None"), [scatterNd](Bound& a) {
        const Value x = a.tensor("tensor"), idx = indexArg(a, "indices");
        const Value u = a.tensorLike("updates", x);
        return T(o::add(a.cx.b, x, scatterNd(a, idx, u, a.cx.b.type(x).shape)));
      }};
  // x where no index points, the update where one does (indices must be distinct).
  t["tf.tensor_scatter_nd_update"] = {
      Signature::parse("tensor, indices, updates, name=None"), [scatterNd](Bound& a) {
        const Value x = a.tensor("tensor"), idx = indexArg(a, "indices");
        const Value u = a.tensorLike("updates", x);
        Emitter& b = a.cx.b;
        if (const auto c = a.cx.constantValue(idx)) {
          std::set<std::vector<double>> seen;
          const int64_t k = c->shape().back();
          const auto v = c->toVector();
          for (size_t i = 0; i + size_t(k) <= v.size(); i += size_t(k))
            if (!seen.insert({v.begin() + long(i), v.begin() + long(i + size_t(k))}).second)
              a.fail("indices", "holds an index twice; TF leaves which update wins unspecified");
        }
        const Shape s = b.type(x).shape;
        const Value hit = scatterNd(a, idx, b.onesLike(u), s);
        const Value keep = o::sub(b, b.onesLike(x), hit);
        return T(o::add(b, o::mul(b, x, keep), scatterNd(a, idx, u, s)));
      }};
  // boolean_mask with a mask known while tracing: a gather of its true positions.
  t["tf.boolean_mask"] = {Signature::parse("tensor, mask, axis=None, name=None"), [](Bound& a) {
                            const Value x = a.tensor("tensor");
                            const Value m = a.cx.toTensor(a["mask"], a.loc("mask"), DType::Bool);
                            const auto c = a.cx.constantValue(m);
                            if (!c)
                              a.fail("mask",
                                     "must be known while tracing in GradLab (the result's size "
                                     "depends on it)");
                            const int64_t axis = a.none("axis") ? 0 : a.integer("axis");
                            if (axis != 0) a.fail("axis", "must be 0 in GradLab");
                            Emitter& b = a.cx.b;
                            const Shape xs = b.type(x).shape;
                            const int64_t k = int64_t(c->shape().size());
                            if (k == 0 || k > int64_t(xs.size()) ||
                                !std::equal(c->shape().begin(), c->shape().end(), xs.begin()))
                              a.fail("mask", "must have the shape of the tensor's leading dims");
                            std::vector<int64_t> rows;
                            for (int64_t i = 0; i < c->numel(); ++i)
                              if (c->at(i) != 0) rows.push_back(i);
                            return T(pick(b, o::reshape(b, x, mergedLeading(xs, k)), rows, 0));
                          }};
}

// Segment reductions: data rows summed (averaged, maximised) into segment_ids' segments.
// sum and mean are scatter_adds; max is a masked reduce_max, its gradient split between ties.
void addSegments(BuiltinTable& t) {
  enum class Kind { Sum, Mean, Max };
  auto segment = [](Bound& a, Kind kind, int64_t segments) {
    const Value x = a.tensor("data"), ids = indexArg(a, "segment_ids");
    Emitter& b = a.cx.b;
    const Shape xs = b.type(x).shape, is = b.type(ids).shape;
    const size_t k = is.size();
    if (k > xs.size() || !std::equal(is.begin(), is.end(), xs.begin()))
      a.fail("segment_ids", "must have the shape of the data's leading dims");
    Shape out{segments};
    out.insert(out.end(), xs.begin() + long(k), xs.end());
    if (kind == Kind::Max) {
      if (k != 1 || !fullyKnown(xs)) a.fail("segment_ids", "must be a vector (and the data known)");
      // onehot[s, i] = (ids[i] == s); max over i of data where selected, else -inf.
      std::vector<int64_t> all(static_cast<size_t>(segments));
      std::iota(all.begin(), all.end(), 0);
      Value sel = o::equal(b, o::expandDims(b, indexConstant(b, all), 1), ids);
      Value data = o::expandDims(b, x, 0);
      for (size_t d = 1; d < xs.size(); ++d) sel = o::expandDims(b, sel, -1);
      const DType dt = b.type(x).dtype;
      const Value lowest = b.scalar(-INFINITY, dt);
      const Value m = o::reduceMax(b, o::where(b, sel, data, lowest), {1});
      // An empty segment is the lowest float, as TF gives.
      const Value empty = o::equal(b, m, lowest);
      return o::where(
          b, empty,
          b.scalar(dt == DType::F32 ? -3.4028234663852886e38 : -1.7976931348623157e308, dt), m);
    }
    const Value sum = o::scatterAdd(b, x, ids, 0, out);
    if (kind == Kind::Sum) return sum;
    const Value count = o::scatterAdd(b, b.onesLike(x), ids, 0, out);
    return o::div(b, sum, o::maximum(b, count, b.scalar(1, b.type(count).dtype)));
  };
  // Sorted segment_ids: as many segments as the largest id + 1, which must be known.
  auto sortedCount = [](Bound& a) {
    const Value ids = indexArg(a, "segment_ids");
    const auto c = a.cx.constantValue(ids);
    if (!c) a.fail("segment_ids", "must be known while tracing (they give the result's size)");
    double top = -1;
    for (double v : c->toVector()) top = std::max(top, v);
    return int64_t(top) + 1;
  };
  const std::pair<const char*, Kind> kinds[] = {
      {"sum", Kind::Sum}, {"mean", Kind::Mean}, {"max", Kind::Max}};
  for (auto [name, kind] : kinds) {
    const Kind kd = kind;
    t[std::string("tf.math.segment_") + name] = {
        Signature::parse("data, segment_ids, name=None"),
        [segment, sortedCount, kd](Bound& a) { return T(segment(a, kd, sortedCount(a))); }};
    t[std::string("tf.math.unsorted_segment_") + name] = {
        Signature::parse("data, segment_ids, num_segments, name=None"),
        [segment, kd](Bound& a) { return T(segment(a, kd, a.integer("num_segments"))); }};
  }
}

// The sort primitive along `axis` (moved last and back): (values, indices).
std::pair<Value, Value> sortAlong(Bound& a, Value x, int64_t axis, bool descending) {
  Emitter& b = a.cx.b;
  const int64_t rank = int64_t(b.type(x).shape.size());
  if (rank == 0) a.fail("values", "must have rank >= 1");
  if (axis < -rank || axis >= rank) a.fail("axis", "is out of range");
  if (axis < 0) axis += rank;
  const auto perm = moveLast(rank, axis);
  const bool moved = axis != rank - 1;
  const Value in = moved ? o::transpose(b, x, perm) : x;
  const auto out = b.op("sort", {in}, {{"descending", descending}});
  if (!moved) return {out[0], out[1]};
  return {o::transpose(b, out[0], inverse(perm)), o::transpose(b, out[1], inverse(perm))};
}

bool descendingArg(Bound& a) {
  const std::string d = a.string("direction");
  if (d != "ASCENDING" && d != "DESCENDING")
    a.fail("direction", "must be 'ASCENDING' or 'DESCENDING'");
  return d == "DESCENDING";
}

// The constant value of an int argument: these functions' result sizes depend on it, so it
// must be known while tracing.
Tensor constantInts(Bound& a, const char* name, Value v) {
  const auto c = a.cx.constantValue(v);
  if (!c) a.fail(name, "must be known while tracing in GradLab (the result's size depends on it)");
  return *c;
}

// Partitions, stitches and unique with their indices known while tracing: gathers, so the
// gradients are those of gather (TF's _DynamicPartitionGrads and _DynamicStitchGrads are the
// same gathers and stitches); unique's results are constants, and TF registers no gradient.
void addPartitions(BuiltinTable& t) {
  t["tf.dynamic_partition"] = {
      Signature::parse("data, partitions, num_partitions, name=None"), [](Bound& a) {
        const Value x = a.tensor("data");
        const Tensor p = constantInts(a, "partitions", indexArg(a, "partitions"));
        Emitter& b = a.cx.b;
        const Shape xs = b.type(x).shape;
        const size_t k = p.shape().size();
        if (k > xs.size() || !std::equal(p.shape().begin(), p.shape().end(), xs.begin()))
          a.fail("partitions", "must have the shape of the data's leading dims");
        const int64_t n = a.integer("num_partitions");
        std::vector<std::vector<int64_t>> rows(static_cast<size_t>(std::max<int64_t>(n, 0)));
        for (int64_t i = 0; i < p.numel(); ++i) {
          const int64_t q = int64_t(p.at(i));
          if (q < 0 || q >= n)
            a.fail("partitions", "holds " + std::to_string(q) + ", not in [0, num_partitions)");
          rows[size_t(q)].push_back(i);
        }
        const Value flat = o::reshape(b, x, mergedLeading(xs, int64_t(k)));
        std::vector<Val> out;
        for (const auto& r : rows) out.push_back(T(pick(b, flat, r, 0)));
        return Val::listOf(std::move(out));
      }};
  // merged[indices[m][i]] = data[m][i], a later write winning, as TF's dynamic_stitch.
  t["tf.dynamic_stitch"] = {Signature::parse("indices, data, name=None"), [](Bound& a) {
                              const Val& iv = a["indices"];
                              const Val& dv = a["data"];
                              if (!iv.isSeq() || !dv.isSeq() ||
                                  iv.items().size() != dv.items().size() || iv.items().empty())
                                a.fail("indices", "and data must be lists of the same length");
                              Emitter& b = a.cx.b;
                              std::vector<Value> parts;
                              std::vector<int64_t> source;  // merged position -> row of parts
                              int64_t row = 0;
                              for (size_t m = 0; m < iv.items().size(); ++m) {
                                const Value im =
                                    a.cx.toTensor(iv.items()[m], a.loc("indices"), DType::I32);
                                const Tensor c = constantInts(a, "indices", im);
                                const Value d = a.cx.toTensor(dv.items()[m], a.loc("data"));
                                const Shape ds = b.type(d).shape;
                                const int64_t k = int64_t(c.shape().size());
                                if (!fullyKnown(ds) || k > int64_t(ds.size()))
                                  a.fail("data", "needs known shapes led by their indices' shape");
                                parts.push_back(o::reshape(b, d, mergedLeading(ds, k)));
                                for (int64_t i = 0; i < c.numel(); ++i, ++row) {
                                  const int64_t at = int64_t(c.at(i));
                                  if (at < 0) a.fail("indices", "must not be negative");
                                  if (at >= int64_t(source.size()))
                                    source.resize(size_t(at) + 1, -1);
                                  source[size_t(at)] = row;
                                }
                              }
                              for (int64_t r : source)
                                if (r < 0) a.fail("indices", "must cover 0 .. max(indices)");
                              return T(pick(b, o::concat(b, parts, 0), source, 0));
                            }};
  // unique of a vector known while tracing: (y, idx) with x = gather(y, idx), y in order of
  // first occurrence.
  t["tf.unique"] = {
      Signature::parse("x, out_idx=None, name=None"), [](Bound& a) {
        if (!a.none("out_idx") && a.dtype("out_idx", DType::I32) != DType::I32)
          a.fail("out_idx", "must be tf.int32 (GradLab's integers are int32)");
        const Value x = a.tensor("x");
        const auto c = a.cx.constantValue(x);
        if (!c)
          a.fail("x", "must be known while tracing in GradLab (the result's size depends on it)");
        if (c->rank() != 1) a.fail("x", "must be a vector");
        std::vector<double> y, idx;
        for (int64_t i = 0; i < c->numel(); ++i) {
          const double v = c->at(i);
          auto it = std::find(y.begin(), y.end(), v);
          if (it == y.end()) y.push_back(v), it = y.end() - 1;
          idx.push_back(double(it - y.begin()));
        }
        Emitter& b = a.cx.b;
        const DType dt = c->dtype();
        return Val::listOf(
            {T(b.constant(Tensor::fromVector(y, {int64_t(y.size())}, dt))),
             T(b.constant(Tensor::fromVector(idx, {int64_t(idx.size())}, DType::I32)))},
            true);
      }};
}

void addSorting(BuiltinTable& t) {
  t["tf.sort"] = {
      Signature::parse("values, axis=-1, direction='ASCENDING', name=None"), [](Bound& a) {
        return T(sortAlong(a, a.tensor("values"), a.integer("axis"), descendingArg(a)).first);
      }};
  // A stable sort is one of the orders an unstable one may give.
  t["tf.argsort"] = {
      Signature::parse("values, axis=-1, direction='ASCENDING', ~stable=False, name=None"),
      [](Bound& a) {
        return T(sortAlong(a, a.tensor("values"), a.integer("axis"), descendingArg(a)).second);
      }};
  // top_k: the k largest along the last axis, largest first, with their indices.
  t["tf.math.top_k"] = {
      Signature::parse("input, k=1, sorted=True, index_type=None, name=None"), [](Bound& a) {
        if (!a.boolean("sorted")) a.fail("sorted", "must be True in GradLab");
        if (!a.none("index_type") && a.dtype("index_type", DType::I32) != DType::I32)
          a.fail("index_type", "must be tf.int32 (GradLab's integers are int32)");
        const Value x = a.tensor("input");
        Emitter& b = a.cx.b;
        const Shape s = b.type(x).shape;
        const int64_t k = a.integer("k");
        if (s.empty() || s.back() < 0 || k < 0 || k > s.back())
          a.fail("k", "must be between 0 and the last axis's known size, got " + std::to_string(k));
        auto [v, i] = sortAlong(a, x, -1, true);
        std::vector<int64_t> begin(s.size(), 0), size(s.size(), -1);
        size.back() = k;
        return Val::listOf({T(o::slice(b, v, begin, size)), T(o::slice(b, i, begin, size))}, true);
      }};
  // shuffle: the rows in the order of a uniform draw's argsort (each order equally likely).
  t["tf.random.shuffle"] = {Signature::parse("value, seed=None, name=None"), [](Bound& a) {
                              const Value x = a.tensor("value");
                              Emitter& b = a.cx.b;
                              const Shape& s = b.type(x).shape;
                              if (s.empty() || s[0] < 0)
                                a.fail("value", "needs a first axis of known size");
                              const int64_t seed = a.cx.nextSeed(
                                  a.none("seed") ? std::nullopt : std::optional(a.integer("seed")));
                              const Value u = o::randomUniform(b, {s[0]}, 0, 1, DType::F64, seed);
                              const Value order = b.op("sort", {u}, {})[1];
                              return T(o::gather(b, x, order, 0));
                            }};
}

}  // namespace

void addTfArrayMoreBuiltins(BuiltinTable& t) {
  addReorderings(t);
  addSplitsAndGrids(t);
  addScansAndPolynomials(t);
  addMatrixParts(t);
  addDecompositions(t);
  addNdIndexing(t);
  addSegments(t);
  addSorting(t);
  addPartitions(t);
}

}  // namespace gl::lang::trace
