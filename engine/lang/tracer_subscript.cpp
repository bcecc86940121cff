// Subscripts: Python lists and strings by int or slice; tensors NumPy-style — ints and slices
// become one slice op (plus a squeeze), strided slices and tensor indices become gathers,
// None/tf.newaxis inserts an axis.
#include "engine/lang/tracer.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

struct PySlice {
  int64_t start = 0, stop = 0, step = 1;
};

int64_t sliceBound(Tracer& t, const Val& v, const SourceLoc& loc, const char* what) {
  if (v.kind == Kind::Int) return v.i;
  if (v.kind == Kind::Bool) return v.b;
  if (v.isTensor())
    t.fail(loc, std::string("slice ") + what +
                    " must be a Python int known while tracing, got a "
                    "tensor; use tf.gather or tf.slice with a tensor");
  t.fail(loc, std::string("slice ") + what + " must be an int, got " + typeName(v));
}

// Python's slice.indices(n).
PySlice resolveSlice(Tracer& t, const Val& lo, const Val& hi, const Val& st, int64_t n,
                     const SourceLoc& loc) {
  PySlice s;
  s.step = st.isNone() ? 1 : sliceBound(t, st, loc, "step");
  if (s.step == 0) t.fail(loc, "slice step cannot be zero");
  auto clampIdx = [&](const Val& v, int64_t def) {
    if (v.isNone()) return def;
    int64_t i = sliceBound(t, v, loc, "bound");
    if (i < 0) i += n;
    if (s.step > 0) return std::clamp<int64_t>(i, 0, n);
    return std::clamp<int64_t>(i, -1, n - 1);
  };
  s.start = clampIdx(lo, s.step > 0 ? 0 : n - 1);
  s.stop = clampIdx(hi, s.step > 0 ? n : -1);
  return s;
}

std::vector<int64_t> sliceIndices(const PySlice& s) {
  std::vector<int64_t> idx;
  for (int64_t i = s.start; s.step > 0 ? i < s.stop : i > s.stop; i += s.step) idx.push_back(i);
  return idx;
}

int64_t wrapIndex(Tracer& t, int64_t i, int64_t n, const SourceLoc& loc, const std::string& what) {
  const int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n)
    t.fail(loc, "index " + std::to_string(i) + " is out of range for " + what + " of size " +
                    std::to_string(n));
  return j;
}

struct DimIndex {
  enum Kind { Full, Int, Range, TensorIdx } kind = Full;
  int64_t i = 0;
  PySlice range;
  Value tensor;
};

}  // namespace

std::optional<Value> Tracer::readStacked(Value x, const Val& index, const SourceLoc& loc) {
  const Node& n = g.node(x);
  const Shape& s = b.type(x).shape;
  if (!runs(n, prims::listStack()) || s.empty() || s[0] >= 0) return std::nullopt;
  if (index.kind == Kind::Int && index.i < 0) return std::nullopt;
  if (index.isTensor()) {
    const TypeInfo& t = b.type(index.t);
    if (!t.shape.empty() || t.dtype != DType::I32) return std::nullopt;
  } else if (index.kind != Kind::Int) {
    return std::nullopt;
  }
  Value i = toTensor(index, loc, DType::I32);
  at(loc);
  return b.op1("list_read", {n.inputs[0], i});
}

Val Tracer::subscript(const Val& v, const Val& index, const SourceLoc& loc) {
  Val lo, hi, st;
  if (v.isSeq() || v.kind == Kind::Str) {
    const int64_t n = v.kind == Kind::Str ? int64_t(v.s.size()) : int64_t(v.items().size());
    if (index.kind == Kind::Int || index.kind == Kind::Bool) {
      const int64_t j = wrapIndex(*this, index.kind == Kind::Int ? index.i : index.b, n, loc,
                                  article(typeName(v)));
      if (v.kind == Kind::Str) return Val::str(v.s.substr(size_t(j), 1));
      return v.items()[size_t(j)];
    }
    if (sliceParts(index, lo, hi, st)) {
      std::vector<int64_t> idx = sliceIndices(resolveSlice(*this, lo, hi, st, n, loc));
      if (v.kind == Kind::Str) {
        std::string s;
        for (int64_t i : idx) s += v.s[size_t(i)];
        return Val::str(s);
      }
      std::vector<Val> items;
      for (int64_t i : idx) items.push_back(v.items()[size_t(i)]);
      return Val::listOf(std::move(items), v.kind == Kind::Tuple);
    }
    if (index.isTensor())
      fail(loc,
           "a Python " + typeName(v) +
               " cannot be indexed by a tensor: the index is known "
               "only when the graph runs (seed-b's TF1 code does weights_loop[tf.cast(steps, "
               "tf.int32)]). Stack the items into one tensor and use tf.gather, or index with a "
               "Python int");
    fail(loc, typeName(v) + " indices must be integers or slices, not " + typeName(index));
  }
  if (!v.isTensor()) {
    if (v.kind == Kind::Object && v.obj->typeName() == "TensorArray")
      fail(loc, "a TensorArray is read with ta.read(i), not ta[i]");
    fail(loc, "'" + typeName(v) + "' object is not subscriptable");
  }
  checkRegion(v.t, loc);
  {
    const std::vector<Val> parts =
        index.kind == Kind::Tuple ? index.items() : std::vector<Val>{index};
    if (auto r = readStacked(v.t, parts[0], loc)) {
      if (parts.size() == 1) return Val::tensor(*r);
      return subscript(Val::tensor(*r), Val::listOf({parts.begin() + 1, parts.end()}, true), loc);
    }
  }
  const Shape shape = b.type(v.t).shape;
  const int rank = int(shape.size());
  std::vector<Val> entries = index.kind == Kind::Tuple ? index.items() : std::vector<Val>{index};
  int consuming = 0;
  bool ellipsis = false;
  for (const Val& e : entries) {
    if (e.kind == Kind::Ellipsis) {
      if (ellipsis) fail(loc, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (!e.isNone()) {
      ++consuming;
    }
  }
  if (consuming > rank)
    fail(loc, "too many indices for a tensor of rank " + std::to_string(rank) + " (shape " +
                  shapeStr(shape) + ")");
  // One DimIndex per input axis; newaxis positions counted in the output.
  std::vector<DimIndex> dims(static_cast<size_t>(rank));
  std::vector<int64_t> newAxes;
  int d = 0, outPos = 0;
  for (const Val& e : entries) {
    if (e.kind == Kind::Ellipsis) {
      const int n = rank - consuming;  // the axes the ellipsis stands for
      for (int k = 0; k < n; ++k) ++d, ++outPos;
      consuming += n;
      continue;
    }
    if (e.isNone()) {
      newAxes.push_back(outPos++);
      continue;
    }
    DimIndex& di = dims[size_t(d)];
    const int64_t n = shape[size_t(d)];
    if (e.kind == Kind::Int || e.kind == Kind::Bool) {
      di.kind = DimIndex::Int;
      const int64_t i = e.kind == Kind::Int ? e.i : e.b;
      if (n < 0) {
        // Unknown size (a dynamic TensorArray's stack): a gather, whose gradient needs no size.
        if (i < 0) fail(loc, "a negative index needs a known dimension");
        di.kind = DimIndex::TensorIdx;
        di.tensor = b.constant(Tensor::scalar(double(i), DType::I32));
      } else {
        di.i = wrapIndex(*this, i, n, loc, "axis " + std::to_string(d));
      }
    } else if (sliceParts(e, lo, hi, st)) {
      if (lo.isNone() && hi.isNone() && st.isNone()) {
        di.kind = DimIndex::Full;
      } else {
        if (n < 0) fail(loc, "slicing an axis of unknown size is not supported");
        di.kind = DimIndex::Range;
        di.range = resolveSlice(*this, lo, hi, st, n, loc);
      }
      ++outPos;
    } else if (e.isTensor()) {
      const TypeInfo& it = b.type(e.t);
      if (isFloat(it.dtype) || it.dtype == DType::Bool || it.list)
        fail(loc, std::string("tensor indices must be integers, got ") + it.str() +
                      "; use tf.cast(i, tf.int32)");
      checkRegion(e.t, loc);
      di.kind = DimIndex::TensorIdx;
      di.tensor = e.t;
      outPos += int(it.shape.size());
    } else {
      fail(loc, "tensor indices must be ints, slices, tensors, None or ..., not " + typeName(e));
    }
    ++d;
  }
  // 1. Ints and unit-step ranges: one slice.
  Value x = v.t;
  std::vector<int64_t> begin(static_cast<size_t>(rank), 0), size(static_cast<size_t>(rank), -1);
  bool needSlice = false;
  for (int k = 0; k < rank; ++k) {
    const DimIndex& di = dims[size_t(k)];
    if (di.kind == DimIndex::Int) {
      begin[size_t(k)] = di.i, size[size_t(k)] = 1, needSlice = true;
    } else if (di.kind == DimIndex::Range && di.range.step == 1) {
      begin[size_t(k)] = di.range.start;
      size[size_t(k)] = std::max<int64_t>(0, di.range.stop - di.range.start);
      needSlice = true;
    }
  }
  at(loc);
  if (needSlice) x = o::slice(b, x, begin, size);
  // 2. Strided ranges and tensor indices: gathers, last axis first so earlier axes keep place.
  for (int k = rank - 1; k >= 0; --k) {
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
  // 3. Drop the axes of int indices.
  std::vector<int64_t> squeeze;
  int pos = 0;
  for (int k = 0; k < rank; ++k) {
    const DimIndex& di = dims[size_t(k)];
    if (di.kind == DimIndex::Int)
      squeeze.push_back(pos++);
    else if (di.kind == DimIndex::TensorIdx)
      pos += int(b.type(di.tensor).shape.size());
    else
      ++pos;
  }
  if (!squeeze.empty()) x = o::squeeze(b, x, squeeze);
  // 4. New axes.
  for (int64_t a : newAxes) x = o::expandDims(b, x, a);
  if (x == v.t) x = o::identity(b, x);
  return Val::tensor(x);
}

}  // namespace gl::lang::trace
