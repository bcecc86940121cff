// slice_axis and pad_axis: a slice along one axis, and its adjoint, at an offset and size read
// at run time (int32 scalar inputs). They are how concat, slice and pad differentiate when the
// sizes along an axis are unknown while tracing (a sequence grown in a while_loop): each is the
// other's VJP, so gradients of any order stay dynamic.
#include <cstring>

#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

// A run-time int32 scalar operand.
int64_t scalarOperand(const Tensor& t, const char* op, const char* what) {
  if (t.dtype() != DType::I32 || t.numel() != 1)
    throw ShapeError(std::string(op) + " needs its " + what + " as an int32 scalar");
  return int64_t(t.data<int32_t>()[0]);
}

void requireScalar(const TypeInfo& t, const char* op, const char* what) {
  if (t.list || t.dtype != DType::I32 || !t.shape.empty())
    throw ShapeError(std::string(op) + " needs its " + what + " as an int32 scalar, got " +
                     t.str());
}

int axisOf(const Attrs& a, size_t rank, const char* op) {
  const int64_t axis = a.i("axis");
  if (axis < 0 || axis >= int64_t(rank))
    throw ShapeError(std::string(op) + ": axis " + std::to_string(axis) + " is outside rank " +
                     std::to_string(rank));
  return int(axis);
}

// Copies `rows` blocks of `n` entries (each `inner` elements) between x and y, whose extents
// along the axis are xn and yn, starting at xAt and yAt along it.
void copyAlong(const Tensor& x, int64_t xn, int64_t xAt, Tensor& y, int64_t yn, int64_t yAt,
               int64_t n, int64_t rows, int64_t inner) {
  const size_t e = dtypeSize(x.dtype());
  const size_t chunk = size_t(n * inner) * e;
  if (chunk == 0) return;
  const char* src = static_cast<const char*>(x.raw());
  char* dst = static_cast<char*>(y.raw());
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(dst + size_t((r * yn + yAt) * inner) * e, src + size_t((r * xn + xAt) * inner) * e,
                chunk);
}

// rows = product of the dims before the axis, inner = product after it.
std::pair<int64_t, int64_t> rowsAndInner(const Shape& s, int axis) {
  int64_t rows = 1, inner = 1;
  for (int d = 0; d < axis; ++d) rows *= s[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < s.size(); ++d) inner *= s[d];
  return {rows, inner};
}

// The run-time size of x along axis, as an int32 scalar.
Value sizeAlong(Emitter& b, Value x, int64_t axis) {
  const int64_t n = b.type(x).shape.at(size_t(axis));
  if (n >= 0) return b.scalar(double(n), DType::I32);
  return ops::reshape(b, ops::slice(b, ops::shapeOf(b, x), {axis}, {1}), {});
}

Tensor ints(const std::vector<double>& v, const Shape& s) {
  return Tensor::fromVector(v, s, DType::I32);
}

}  // namespace

void registerDynamicSliceOps(Registry& r) {
  r.add({
      .name = "slice_axis",
      .math = "y = x[.., begin : begin + size, ..] along `axis` (begin, size: run-time scalars)\n"
              "dx = pad_axis(dy, begin, x.shape[axis]); no gradient for begin and size",
      .arity = 3,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = in.at(0);
            if (x.list) throw ShapeError("slice_axis needs a tensor");
            requireScalar(in.at(1), "slice_axis", "begin");
            requireScalar(in.at(2), "slice_axis", "size");
            Shape s = x.shape;
            s[size_t(axisOf(a, s.size(), "slice_axis"))] = a.i("size");  // -1 = unknown
            return Types{{x.dtype, s, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in[0];
        const int axis = axisOf(a, x.shape().size(), "slice_axis");
        const int64_t begin = scalarOperand(in[1], "slice_axis", "begin");
        const int64_t n = scalarOperand(in[2], "slice_axis", "size");
        const int64_t xn = x.shape()[size_t(axis)];
        if (begin < 0 || n < 0 || begin + n > xn || (a.i("size") >= 0 && a.i("size") != n))
          throw ShapeError("slice_axis: [" + std::to_string(begin) + ", " +
                           std::to_string(begin + n) + ") is outside axis " + std::to_string(axis) +
                           " of " + shapeStr(x.shape()));
        Shape s = x.shape();
        s[size_t(axis)] = n;
        Tensor y = Tensor::empty(x.dtype(), s);
        auto [rows, inner] = rowsAndInner(s, axis);
        copyAlong(x, xn, begin, y, n, 0, n, rows, inner);
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g(3);
        if (c.needs[0])
          g[0] = ops::padAxis(c.b, c.goutOrZeros(0), c.in[1],
                              sizeAlong(c.b, c.in[0], c.attrs().i("axis")), c.attrs().i("axis"),
                              c.inType(0).shape[size_t(c.attrs().i("axis"))]);
        return g;
      },
      .gradChecks =
          [] {
            Rng rng(131);
            return std::vector<GradCheckCase>{
                {{rng.normal({3, 5, 2}, 0.0, 1.0, DType::F64), ints({1}, {}), ints({3}, {})},
                 {{"axis", int64_t(1)}, {"size", int64_t(3)}}},
                {{rng.normal({4, 2}, 0.0, 1.0, DType::F64), ints({0}, {}), ints({2}, {})},
                 {{"axis", int64_t(0)}, {"size", int64_t(-1)}}},
            };
          }(),
  });
  r.add({
      .name = "pad_axis",
      .math = "y = zeros of x's shape with `total` along `axis`, and x at [begin, begin + n)\n"
              "dx = slice_axis(dy, begin, x.shape[axis]); no gradient for begin and total",
      .arity = 3,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = in.at(0);
            if (x.list) throw ShapeError("pad_axis needs a tensor");
            requireScalar(in.at(1), "pad_axis", "begin");
            requireScalar(in.at(2), "pad_axis", "total");
            Shape s = x.shape;
            s[size_t(axisOf(a, s.size(), "pad_axis"))] = a.i("total");  // -1 = unknown
            return Types{{x.dtype, s, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in[0];
        const int axis = axisOf(a, x.shape().size(), "pad_axis");
        const int64_t begin = scalarOperand(in[1], "pad_axis", "begin");
        const int64_t total = scalarOperand(in[2], "pad_axis", "total");
        const int64_t n = x.shape()[size_t(axis)];
        if (begin < 0 || begin + n > total || (a.i("total") >= 0 && a.i("total") != total))
          throw ShapeError("pad_axis: [" + std::to_string(begin) + ", " +
                           std::to_string(begin + n) + ") is outside a total of " +
                           std::to_string(total) + " along axis " + std::to_string(axis));
        Shape s = x.shape();
        s[size_t(axis)] = total;
        Tensor y = Tensor::zeros(x.dtype(), s);
        auto [rows, inner] = rowsAndInner(s, axis);
        copyAlong(x, n, 0, y, total, begin, n, rows, inner);
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g(3);
        const int64_t axis = c.attrs().i("axis");
        if (c.needs[0])
          g[0] = ops::sliceAxis(c.b, c.goutOrZeros(0), c.in[1], sizeAlong(c.b, c.in[0], axis), axis,
                                c.inType(0).shape[size_t(axis)]);
        return g;
      },
      .gradChecks =
          [] {
            Rng rng(132);
            return std::vector<GradCheckCase>{
                {{rng.normal({3, 2, 2}, 0.0, 1.0, DType::F64), ints({1}, {}), ints({5}, {})},
                 {{"axis", int64_t(1)}, {"total", int64_t(5)}}},
                {{rng.normal({2, 3}, 0.0, 1.0, DType::F64), ints({2}, {}), ints({4}, {})},
                 {{"axis", int64_t(0)}, {"total", int64_t(-1)}}},
            };
          }(),
  });
}

namespace ops {

Value sliceAxis(Emitter& b, Value x, Value begin, Value size, int64_t axis, int64_t staticSize) {
  return b.op1("slice_axis", {x, begin, size}, {{"axis", axis}, {"size", staticSize}});
}

Value padAxis(Emitter& b, Value x, Value begin, Value total, int64_t axis, int64_t staticTotal) {
  return b.op1("pad_axis", {x, begin, total}, {{"axis", axis}, {"total", staticTotal}});
}

Value sizeAlongAxis(Emitter& b, Value x, int64_t axis) { return sizeAlong(b, x, axis); }

}  // namespace ops

}  // namespace gl
