// Neural-network primitives: softmax, log_softmax and softmax_cross_entropy, with numerically
// stable fused kernels (the maximum is subtracted before exponentiating). Their VJPs are built
// from primitives (mul, sub, sum, exp, softmax), so higher derivatives come for free.
#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

using Values = std::vector<Value>;

// Below this many elements a kernel stays on the calling thread.
using kern::kParallelWork;

void requireFloatTensor(const TypeInfo& t, const std::string& op) {
  if (t.list) throw ShapeError(op + ": expects a tensor, got a list of " + t.str());
  if (!isFloat(t.dtype))
    throw ShapeError(op + ": expects float32 or float64, got " + std::string(dtypeName(t.dtype)));
}

// A tensor seen as [outer, len, inner] around `axis`: element (o, j, i) sits at
// (o * len + j) * inner + i, so the softmax runs along j.
struct AxisView {
  int64_t outer = 1, len = 1, inner = 1;
};

AxisView axisView(const Shape& s, int axis) {
  AxisView v;
  for (int d = 0; d < int(s.size()); ++d) (d < axis ? v.outer : d > axis ? v.inner : v.len) *= s[d];
  return v;
}

// Softmax along the middle axis of a [outer, len, inner] view. For each line the maximum m and
// the sum s = sum_j exp(x_j - m) (in double) give softmax = exp(x - m) / s and
// log_softmax = x - m - log(s); exp never sees a positive argument, so +-1000 logits are fine.
template <class T, bool kLog>
void softmaxLines(const T* x, T* y, const AxisView& v) {
  const int64_t lines = v.outer * v.inner;
  kern::forRange(lines, lines * v.len >= kParallelWork, [&](int64_t l) {
    const int64_t o = l / v.inner, i = l % v.inner;
    const T* px = x + o * v.len * v.inner + i;
    T* py = y + o * v.len * v.inner + i;
    const int64_t st = v.inner;
    T m = -INFINITY;
    for (int64_t j = 0; j < v.len; ++j) m = std::max(m, px[j * st]);
    if (!std::isfinite(m)) m = 0;  // a line of -inf, or a +inf: the arithmetic yields NaN
    double s = 0;
    for (int64_t j = 0; j < v.len; ++j) {
      const T e = std::exp(px[j * st] - m);
      if (!kLog) py[j * st] = e;
      s += e;
    }
    if (kLog) {  // (x - m) - log(s), not x - (m + log(s)), which rounds at the scale of m
      const T ls = T(std::log(s));
      for (int64_t j = 0; j < v.len; ++j) py[j * st] = (px[j * st] - m) - ls;
    } else {
      const T inv = T(1.0 / s);
      for (int64_t j = 0; j < v.len; ++j) py[j * st] *= inv;
    }
  });
}

template <bool kLog>
Tensor softmaxKernel(const Tensor& x, int64_t axis, const std::string& op) {
  requireFloatTensor({x.dtype(), x.shape()}, op);
  if (x.rank() == 0) throw ShapeError(op + ": needs an input of rank >= 1, got a scalar");
  const AxisView v = axisView(x.shape(), normAxis(axis, x.rank()));
  Tensor y = Tensor::empty(x.dtype(), x.shape());
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    softmaxLines<T, kLog>(x.data<T>(), y.data<T>(), v);
  });
  return y;
}

// y has x's type; the axis must exist.
std::function<Types(const Types&, const Attrs&)> softmaxShape(const std::string& op) {
  return [op](const Types& in, const Attrs& a) {
    requireFloatTensor(in.at(0), op);
    if (in[0].shape.empty()) throw ShapeError(op + ": needs an input of rank >= 1, got a scalar");
    normAxis(a.i("axis", -1), int(in[0].shape.size()));
    return Types{in[0]};
  };
}

// labels and logits: one float dtype, equal shapes of rank >= 1 (unknown dims match anything).
// Returns logits' shape with the known dim of either side.
Shape crossEntropyShape(const TypeInfo& labels, const TypeInfo& logits) {
  const std::string op = "softmax_cross_entropy";
  requireFloatTensor(labels, op);
  requireFloatTensor(logits, op);
  if (labels.dtype != logits.dtype)
    throw ShapeError(op + ": labels are " + dtypeName(labels.dtype) + " but logits are " +
                     dtypeName(logits.dtype));
  if (logits.shape.empty()) throw ShapeError(op + ": logits must have rank >= 1, got a scalar");
  if (!compatible(labels.shape, logits.shape))
    throw ShapeError(op + ": labels " + shapeStr(labels.shape) + " and logits " +
                     shapeStr(logits.shape) + " must have the same shape");
  Shape s = logits.shape;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] < 0) s[i] = labels.shape[i];
  return s;
}

// loss[r] = -sum_j labels[r,j] * log_softmax(logits)[r,j] = sum_j labels[r,j] * (lse_r - x_rj),
// with lse_r = m + log(sum_j exp(x_rj - m)).
template <class T>
void crossEntropyRows(const T* labels, const T* x, T* loss, int64_t rows, int64_t len) {
  kern::forRange(rows, rows * len >= kParallelWork, [&](int64_t r) {
    const T* px = x + r * len;
    const T* pl = labels + r * len;
    T m = -INFINITY;
    for (int64_t j = 0; j < len; ++j) m = std::max(m, px[j]);
    if (!std::isfinite(m)) m = 0;
    double s = 0;
    for (int64_t j = 0; j < len; ++j) s += std::exp(double(px[j] - m));
    const double logS = std::log(s);
    double acc = 0;  // lse - x as (m - x) + log(s): exact for x far below m
    for (int64_t j = 0; j < len; ++j) acc += double(pl[j]) * ((double(m) - double(px[j])) + logS);
    loss[r] = T(acc);
  });
}

// g[..., None]: the per-row adjoint broadcast along the class axis.
Value perRow(Emitter& b, Value g) { return ops::expandDims(b, g, -1); }

Tensor randn(Rng& rng, const Shape& s) { return rng.normal(s, 0.0, 1.0, DType::F64); }

// Rows of a valid distribution (positive, summing to 1).
Tensor distributions(Rng& rng, const Shape& s) {
  Tensor t = rng.uniform(s, 0.1, 1.0, DType::F64);
  const int64_t len = s.back();
  for (int64_t r = 0; r < t.numel() / len; ++r) {
    double sum = 0;
    for (int64_t j = 0; j < len; ++j) sum += t.at(r * len + j);
    for (int64_t j = 0; j < len; ++j) t.set(r * len + j, t.at(r * len + j) / sum);
  }
  return t;
}

}  // namespace

void registerNnOps(Registry& r) {
  r.add({
      .name = "softmax",
      .math = "y = exp(x - max(x)) / sum(exp(x - max(x)), axis)\n"
              "dx = y * (g - sum(g * y, axis, keepdims))",
      .arity = 1,
      .shape = softmaxShape("softmax"),
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        return Tensors{softmaxKernel<false>(in.at(0), a.i("axis", -1), "softmax")};
      }),
      .vjp = [](VjpContext& c) -> Values {
        if (!c.needs[0]) return {Value{}};
        Emitter& b = c.b;
        const int64_t axis = normAxis(c.attrs().i("axis", -1), int(c.inType(0).shape.size()));
        const Value y = c.out[0], g = c.goutOrZeros(0);
        const Value gy = ops::reduceSum(b, ops::mul(b, g, y), {axis}, true);
        return {ops::mul(b, y, ops::sub(b, g, gy))};
      },
      .batch = batch::axisAttr(),
      .gradChecks =
          [] {
            Rng rng(601);
            return std::vector<GradCheckCase>{
                {{randn(rng, {3, 5})}, {{"axis", int64_t(-1)}}},
                {{randn(rng, {3, 5})}, {{"axis", int64_t(0)}}},
                {{randn(rng, {2, 3, 4})}, {{"axis", int64_t(1)}}},
            };
          }(),
  });

  r.add({
      .name = "log_softmax",
      .math = "y = x - max(x) - log(sum(exp(x - max(x)), axis))\n"
              "dx = g - exp(y) * sum(g, axis, keepdims)",
      .arity = 1,
      .shape = softmaxShape("log_softmax"),
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        return Tensors{softmaxKernel<true>(in.at(0), a.i("axis", -1), "log_softmax")};
      }),
      .vjp = [](VjpContext& c) -> Values {
        if (!c.needs[0]) return {Value{}};
        Emitter& b = c.b;
        const int64_t axis = normAxis(c.attrs().i("axis", -1), int(c.inType(0).shape.size()));
        const Value y = c.out[0], g = c.goutOrZeros(0);
        const Value gs = ops::reduceSum(b, g, {axis}, true);
        return {ops::sub(b, g, ops::mul(b, ops::exp(b, y), gs))};
      },
      .batch = batch::axisAttr(),
      .gradChecks =
          [] {
            Rng rng(602);
            return std::vector<GradCheckCase>{
                {{randn(rng, {3, 5})}, {{"axis", int64_t(-1)}}},
                {{randn(rng, {3, 5})}, {{"axis", int64_t(0)}}},
            };
          }(),
  });

  r.add({
      .name = "softmax_cross_entropy",
      .math = "loss = -sum(labels * log_softmax(logits), axis=-1), one value per row\n"
              "dlogits = g[...,None] * (softmax(logits) - labels) (label rows sum to 1, as in "
              "TensorFlow), "
              "dlabels = -g[...,None] * log_softmax(logits)",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs&) {
            Shape s = crossEntropyShape(in.at(0), in.at(1));
            s.pop_back();
            return Types{{in[1].dtype, s}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) {
        const Tensor &labels = in.at(0), &logits = in.at(1);
        Shape s =
            crossEntropyShape({labels.dtype(), labels.shape()}, {logits.dtype(), logits.shape()});
        const int64_t len = s.back();
        s.pop_back();
        Tensor loss = Tensor::empty(logits.dtype(), s);
        dispatchFloat(logits.dtype(), [&](auto z) {
          using T = decltype(z);
          crossEntropyRows(labels.data<T>(), logits.data<T>(), loss.data<T>(), loss.numel(), len);
        });
        return Tensors{loss};
      }),
      .vjp = [](VjpContext& c) -> Values {
        Emitter& b = c.b;
        const Value g = perRow(b, c.goutOrZeros(0));
        Values grads(2);
        if (c.needs[0]) grads[0] = ops::neg(b, ops::mul(b, g, ops::logSoftmax(b, c.in[1])));
        if (c.needs[1]) grads[1] = ops::mul(b, g, ops::sub(b, ops::softmax(b, c.in[1]), c.in[0]));
        return grads;
      },
      .batch = batch::rowwise(),
      .gradChecks =
          [] {
            Rng rng(603);
            GradCheckCase rows{{distributions(rng, {4, 5}), randn(rng, {4, 5})}, {}};
            GradCheckCase batched{{distributions(rng, {2, 3, 4}), randn(rng, {2, 3, 4})}, {}};
            return std::vector<GradCheckCase>{rows, batched};
          }(),
  });
}

namespace ops {

Value softmax(Emitter& b, Value logits, int64_t axis) {
  return b.op1("softmax", {logits}, {{"axis", axis}});
}

Value logSoftmax(Emitter& b, Value logits, int64_t axis) {
  return b.op1("log_softmax", {logits}, {{"axis", axis}});
}

Value softmaxCrossEntropy(Emitter& b, Value labels, Value logits) {
  return b.op1("softmax_cross_entropy", {labels, logits});
}

}  // namespace ops

}  // namespace gl
