// Tensors indexed NumPy-style: ints and unit-step slices become one slice op (plus a squeeze
// of the int axes), strided slices and int tensors become gathers, None (tf.newaxis) inserts
// an axis, and one Ellipsis stands for the axes not indexed.
#include "engine/lang/tracer_index.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

// How one input axis is indexed.
struct DimIndex {
  enum Kind { Full, Int, Range, TensorIdx } kind = Full;
  int64_t i = 0;
  PySlice range;
  Value tensor;
};

// The index applied axis by axis: one DimIndex per input axis, and where the new axes (None)
// go in the output.
struct IndexPlan {
  std::vector<DimIndex> dims;
  std::vector<int64_t> newAxes;
};

// How many entries index an input axis (all but None and ...); at most one ellipsis.
int consumingEntries(Context& cx, const std::vector<Val>& entries, const SourceLoc& loc) {
  int consuming = 0;
  bool ellipsis = false;
  for (const Val& e : entries) {
    if (e.kind() == Kind::Ellipsis) {
      if (ellipsis) cx.fail(loc, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (!e.isNone()) {
      ++consuming;
    }
  }
  return consuming;
}

DimIndex intIndex(Context& cx, int64_t i, int d, int64_t n, const SourceLoc& loc) {
  DimIndex di;
  di.kind = DimIndex::Int;
  if (n < 0) {
    // Unknown size (a dynamic TensorArray's stack): a gather, whose gradient needs no size.
    if (i < 0) cx.fail(loc, "a negative index needs a known dimension");
    di.kind = DimIndex::TensorIdx;
    di.tensor = cx.b.constant(Tensor::scalar(double(i), DType::I32));
  } else {
    di.i = wrapIndex(cx, i, n, loc, "axis " + std::to_string(d));
  }
  return di;
}

// Entry e applied to axis d, of size n (-1: unknown); outPos counts the output axes so far.
DimIndex axisIndex(Context& cx, const Val& e, int d, int64_t n, int& outPos, const SourceLoc& loc) {
  if (e.kind() == Kind::Int || e.kind() == Kind::Bool)
    return intIndex(cx, e.kind() == Kind::Int ? e.asInt() : e.asBool(), d, n, loc);
  DimIndex di;
  Val lo, hi, st;
  if (sliceParts(e, lo, hi, st)) {
    if (!lo.isNone() || !hi.isNone() || !st.isNone()) {
      if (n < 0) cx.fail(loc, "slicing an axis of unknown size is not supported");
      di.kind = DimIndex::Range;
      di.range = resolveSlice(cx, lo, hi, st, n, loc);
    }
    ++outPos;
    return di;
  }
  if (!e.isTensor())
    cx.fail(loc, "tensor indices must be ints, slices, tensors, None or ..., not " + typeName(e));
  const TypeInfo& it = cx.b.type(e.tensorValue());
  if (isFloat(it.dtype) || it.dtype == DType::Bool || it.list)
    cx.fail(loc, std::string("tensor indices must be integers, got ") + it.str() +
                     "; use tf.cast(i, tf.int32)");
  cx.checkRegion(e.tensorValue(), loc);
  di.kind = DimIndex::TensorIdx;
  di.tensor = e.tensorValue();
  outPos += int(it.shape.size());
  return di;
}

IndexPlan planIndex(Context& cx, const Shape& shape, const std::vector<Val>& entries,
                    const SourceLoc& loc) {
  const int rank = int(shape.size());
  int consuming = consumingEntries(cx, entries, loc);
  if (consuming > rank)
    cx.fail(loc, "too many indices for a tensor of rank " + std::to_string(rank) + " (shape " +
                     shapeStr(shape) + ")");
  IndexPlan plan;
  plan.dims.resize(size_t(rank));
  int d = 0, outPos = 0;
  for (const Val& e : entries) {
    if (e.kind() == Kind::Ellipsis) {
      const int n = rank - consuming;  // the axes the ellipsis stands for
      d += n, outPos += n;
      consuming += n;
    } else if (e.isNone()) {
      plan.newAxes.push_back(outPos++);
    } else {
      plan.dims[size_t(d)] = axisIndex(cx, e, d, shape[size_t(d)], outPos, loc);
      ++d;
    }
  }
  return plan;
}

// 1. Ints and unit-step ranges: one slice.
Value sliceAxes(Builder& b, Value x, const std::vector<DimIndex>& dims) {
  const size_t rank = dims.size();
  std::vector<int64_t> begin(rank, 0), size(rank, -1);
  bool needSlice = false;
  for (size_t k = 0; k < rank; ++k) {
    const DimIndex& di = dims[k];
    if (di.kind == DimIndex::Int) {
      begin[k] = di.i, size[k] = 1, needSlice = true;
    } else if (di.kind == DimIndex::Range && di.range.step == 1) {
      begin[k] = di.range.start;
      size[k] = std::max<int64_t>(0, di.range.stop - di.range.start);
      needSlice = true;
    }
  }
  return needSlice ? o::slice(b, x, begin, size) : x;
}

// 2. Strided ranges and tensor indices: gathers, last axis first so earlier axes keep place.
Value gatherAxes(Builder& b, Value x, const std::vector<DimIndex>& dims) {
  for (int k = int(dims.size()) - 1; k >= 0; --k) {
    const DimIndex& di = dims[size_t(k)];
    if (di.kind == DimIndex::Range && di.range.step != 1) {
      std::vector<double> idx;
      for (int64_t i : sliceIndices(di.range)) idx.push_back(double(i));
      Value iv = b.constant(Tensor::fromVector(idx, {int64_t(idx.size())}, DType::I32));
      x = o::gather(b, x, iv, k);
    } else if (di.kind == DimIndex::TensorIdx) {
      Value idx = di.tensor;
      if (b.type(idx).dtype != DType::I32) idx = o::cast(b, idx, DType::I32);
      x = o::gather(b, x, idx, k);
    }
  }
  return x;
}

// 3. Drop the axes of int indices (a tensor index puts its own axes in place of one).
Value squeezeInts(Builder& b, Value x, const std::vector<DimIndex>& dims) {
  std::vector<int64_t> squeeze;
  int pos = 0;
  for (const DimIndex& di : dims) {
    if (di.kind == DimIndex::Int)
      squeeze.push_back(pos++);
    else if (di.kind == DimIndex::TensorIdx)
      pos += int(b.type(di.tensor).shape.size());
    else
      ++pos;
  }
  return squeeze.empty() ? x : o::squeeze(b, x, squeeze);
}

}  // namespace

Value indexTensor(Context& cx, Value x, const std::vector<Val>& entries, const SourceLoc& loc) {
  const Shape shape = cx.b.type(x).shape;
  const IndexPlan plan = planIndex(cx, shape, entries, loc);
  cx.at(loc);
  Value y = sliceAxes(cx.b, x, plan.dims);
  y = gatherAxes(cx.b, y, plan.dims);
  y = squeezeInts(cx.b, y, plan.dims);
  // 4. New axes.
  for (int64_t a : plan.newAxes) y = o::expandDims(cx.b, y, a);
  if (y == x) y = o::identity(cx.b, y);
  return y;
}

}  // namespace gl::lang::trace
