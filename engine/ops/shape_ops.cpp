// Shape primitives: reshape, transpose, expand_dims, squeeze, tile, broadcast_to, concat, stack,
// unstack, slice, pad, gather, scatter_add, one_hot.
//
// Most of them only move bytes, so their kernels work for every dtype through one strided-copy
// routine (stridedCopy) that sees the element size, not the type. Shape rules accept unknown
// dims (-1), propagate them and check only what is known; kernels recheck with concrete shapes.
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/block_kernels.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

// Below this many elements a kernel runs on one thread: spawning a team costs more than it saves.
using kern::kParallelWork;

// ---------------------------------------------------------------------------------------------
// Small helpers for messages and attributes.

// "[7,-1]": unlike shapeStr, shows -1 literally, for attributes where -1 means "infer".
std::string dimsStr(const std::vector<int64_t>& v) {
  std::string r = "[";
  for (size_t i = 0; i < v.size(); ++i) r += (i ? "," : "") + std::to_string(v[i]);
  return r + "]";
}

std::string num(int64_t v) { return std::to_string(v); }

bool known(int64_t d) { return d >= 0; }

// The tensor (not list) input i of a shape rule.
const TypeInfo& tensorIn(const Types& in, size_t i) {
  if (in.at(i).list) throw ShapeError("input " + num(int64_t(i)) + " is a list, expected a tensor");
  return in[i];
}

// Of two dims that must be equal, the known one (or -1 if neither is known).
int64_t mergeDim(int64_t a, int64_t b) { return known(a) ? a : b; }

Shape withoutAxis(const Shape& s, int axis) {
  Shape r = s;
  r.erase(r.begin() + axis);
  return r;
}

Shape withAxis(const Shape& s, int axis, int64_t dim) {
  Shape r = s;
  r.insert(r.begin() + axis, dim);
  return r;
}

// Product of s[from, to).
int64_t prodRange(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

// Static shapes as attributes: unknown dims become -1. VJP rules that pass an input's shape to a
// primitive that infers one -1 (reshape) must not have more than one.
Shape oneUnknownAtMost(const Shape& s, const char* what) {
  if (std::count_if(s.begin(), s.end(), [](int64_t d) { return !known(d); }) > 1)
    throw EngineError(std::string("the gradient of ") + what +
                      " needs the input shape with at most one unknown dim, got " + shapeStr(s));
  return s;
}

Shape requireKnown(const Shape& s, const char* what) {
  if (!fullyKnown(s))
    throw EngineError(std::string("the gradient of ") + what + " needs known input dims, got " +
                      shapeStr(s));
  return s;
}

// Normalises each axis of a permutation and checks that it is one.
std::vector<int64_t> normPerm(const std::vector<int64_t>& permIn, int rank) {
  std::vector<int64_t> perm = permIn;
  if (perm.empty()) {
    perm.resize(size_t(rank));
    for (int i = 0; i < rank; ++i) perm[size_t(i)] = rank - 1 - i;
    return perm;
  }
  std::vector<bool> seen(size_t(rank), false);
  bool ok = int(perm.size()) == rank;
  for (size_t i = 0; ok && i < perm.size(); ++i) {
    const int64_t a = perm[i] < 0 ? perm[i] + rank : perm[i];
    ok = a >= 0 && a < rank && !seen[size_t(a)];
    if (ok) seen[size_t(a)] = true, perm[i] = a;
  }
  if (!ok)
    throw ShapeError("transpose perm " + dimsStr(permIn) + " is not a permutation of the " +
                     num(rank) + " axes of the input");
  return perm;
}

// ---------------------------------------------------------------------------------------------
// Strided copies: the workhorse of transpose, slice, pad, tile, broadcast_to, concat, stack,
// unstack. A copy is described by a shape and, per axis, the element stride in the destination
// and in the source (0 in the source = broadcast).

struct Layout {
  Shape shape;
  std::vector<int64_t> ds, ss;
};

// Drops size-1 axes and merges neighbours that are contiguous in both views, so that e.g. a
// transpose that keeps its last axes in order becomes a copy of long rows. False if empty.
bool simplify(Layout& l) {
  Layout o;
  for (size_t i = 0; i < l.shape.size(); ++i) {
    const int64_t n = l.shape[i];
    if (n == 0) return false;
    if (n == 1) continue;
    if (!o.shape.empty() && o.ds.back() == l.ds[i] * n && o.ss.back() == l.ss[i] * n) {
      o.shape.back() *= n;
      o.ds.back() = l.ds[i];
      o.ss.back() = l.ss[i];
    } else {
      o.shape.push_back(n);
      o.ds.push_back(l.ds[i]);
      o.ss.push_back(l.ss[i]);
    }
  }
  if (o.shape.empty()) o = {{1}, {1}, {1}};  // a single element
  l = std::move(o);
  return true;
}

// Calls f(dstOffset, srcOffset) for every index of `shape` in row-major order. The index range
// is split into contiguous chunks, one odometer each, and the chunks run on OpenMP threads when
// `work` (elements moved in total) is large.
template <class F>
void forEachIndex(const Shape& shape, const std::vector<int64_t>& ds,
                  const std::vector<int64_t>& ss, int64_t work, F&& f) {
  const int r = int(shape.size());
  const int64_t count = numel(shape);
  const int64_t chunks =
      work >= kParallelWork ? std::min<int64_t>(count, 4 * omp_get_max_threads()) : 1;
  kern::forRange(chunks, chunks > 1, [&](int64_t c) {
    const int64_t begin = count * c / chunks, end = count * (c + 1) / chunks;
    std::vector<int64_t> idx(size_t(r), 0);
    int64_t d = 0, s = 0, rem = begin;
    for (int i = r - 1; i >= 0; --i) {
      idx[size_t(i)] = rem % shape[size_t(i)];
      rem /= shape[size_t(i)];
      d += idx[size_t(i)] * ds[size_t(i)];
      s += idx[size_t(i)] * ss[size_t(i)];
    }
    for (int64_t k = begin; k < end; ++k) {
      f(d, s);
      for (int i = r - 1; i >= 0; --i) {
        d += ds[size_t(i)];
        s += ss[size_t(i)];
        if (++idx[size_t(i)] < shape[size_t(i)]) break;
        d -= ds[size_t(i)] * shape[size_t(i)];
        s -= ss[size_t(i)] * shape[size_t(i)];
        idx[size_t(i)] = 0;
      }
    }
  });
}

template <class E>
void copyLayout(E* dst, const E* src, const Layout& l) {
  const size_t last = l.shape.size() - 1;
  const int64_t n = l.shape[last], dsl = l.ds[last], ssl = l.ss[last];
  const int64_t total = numel(l.shape);
  // A transpose moves the source's contiguous axis k away from the end. Copying square tiles
  // keeps both the reads (along k) and the writes (along the last axis) within cache lines.
  int k = -1;
  if (dsl == 1 && ssl != 1 && ssl != 0)
    for (size_t i = 0; i < last; ++i)
      if (l.ss[i] == 1) k = int(i);
  if (k >= 0) {
    Layout outer;
    for (size_t i = 0; i < last; ++i)
      if (int(i) != k) {
        outer.shape.push_back(l.shape[i]);
        outer.ds.push_back(l.ds[i]);
        outer.ss.push_back(l.ss[i]);
      }
    const int64_t rows = l.shape[size_t(k)], dk = l.ds[size_t(k)];
    constexpr int64_t T = 16;
    // Tasks are (outer index, band of T rows), so a single large matrix still uses all threads.
    const int64_t bands = (rows + T - 1) / T, tasks = numel(outer.shape) * bands;
    kern::forRange(tasks, total >= kParallelWork, [&](int64_t t) {
      int64_t rem = t / bands, d = 0, s = 0;
      for (size_t a = outer.shape.size(); a-- > 0;) {
        const int64_t idx = rem % outer.shape[a];
        rem /= outer.shape[a];
        d += idx * outer.ds[a];
        s += idx * outer.ss[a];
      }
      const int64_t i0 = (t % bands) * T, i1 = std::min(i0 + T, rows);
      for (int64_t j0 = 0; j0 < n; j0 += T) {
        const int64_t j1 = std::min(j0 + T, n);
        for (int64_t i = i0; i < i1; ++i) {
          E* dr = dst + d + i * dk;
          const E* sr = src + s + i;
          for (int64_t j = j0; j < j1; ++j) dr[j] = sr[j * ssl];
        }
      }
    });
    return;
  }
  const Shape rows(l.shape.begin(), l.shape.end() - 1);
  const std::vector<int64_t> rds(l.ds.begin(), l.ds.end() - 1), rss(l.ss.begin(), l.ss.end() - 1);
  forEachIndex(rows, rds, rss, total, [&](int64_t d, int64_t s) {
    if (dsl == 1 && ssl == 1) {
      std::memcpy(dst + d, src + s, size_t(n) * sizeof(E));
    } else if (ssl == 0) {
      const E v = src[s];
      for (int64_t j = 0; j < n; ++j) dst[d + j * dsl] = v;
    } else {
      for (int64_t j = 0; j < n; ++j) dst[d + j * dsl] = src[s + j * ssl];
    }
  });
}

// Copies the view `l` of src into dst; pointers are already offset to the first element.
void stridedCopy(void* dst, const void* src, Layout l, size_t esize) {
  if (!simplify(l)) return;
  if (esize == 1)
    copyLayout(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), l);
  else if (esize == 4)
    copyLayout(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), l);
  else
    copyLayout(static_cast<uint64_t*>(dst), static_cast<const uint64_t*>(src), l);
}

char* bytesAt(Tensor& t, int64_t elem) {
  return static_cast<char*>(t.raw()) + elem * int64_t(dtypeSize(t.dtype()));
}
const char* bytesAt(const Tensor& t, int64_t elem) {
  return static_cast<const char*>(t.raw()) + elem * int64_t(dtypeSize(t.dtype()));
}

// Copies all of `src` into the region of `dst` that starts at element `offset` and has src's
// shape (dst strides); used by concat, stack and pad.
void copyInto(Tensor& dst, int64_t offset, const Shape& region, const Tensor& src) {
  Layout l{region, stridesOf(dst.shape()), stridesOf(region)};
  stridedCopy(bytesAt(dst, offset), src.raw(), l, dtypeSize(src.dtype()));
}

// ---------------------------------------------------------------------------------------------
// Shape computations shared by shape rules (possibly unknown dims) and kernels (concrete).

// Resolves the one -1 of a reshape target. With an unknown input the inferred dim stays -1.
Shape reshapeTarget(const Shape& in, const Shape& target) {
  int inferAt = -1;
  int64_t rest = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      if (inferAt >= 0)
        throw ShapeError("reshape target " + dimsStr(target) + " has more than one -1");
      inferAt = int(i);
    } else if (target[i] < 0) {
      throw ShapeError("reshape target " + dimsStr(target) + " has a negative dim");
    } else {
      rest *= target[i];
    }
  }
  const int64_t n = numel(in);
  if (!known(n)) return target;
  auto fail = [&] {
    throw ShapeError("cannot reshape " + shapeStr(in) + " (" + num(n) + " elements) to " +
                     dimsStr(target));
  };
  Shape out = target;
  if (inferAt >= 0) {
    if (rest == 0 || n % rest != 0) fail();
    out[size_t(inferAt)] = n / rest;
  } else if (rest != n) {
    fail();
  }
  return out;
}

// The sorted axes squeeze removes; empty `axes` = every size-1 dim, which needs known dims.
std::vector<int64_t> squeezeAxes(const Shape& s, const std::vector<int64_t>& axes) {
  std::vector<int64_t> r;
  if (axes.empty()) {
    if (!fullyKnown(s))
      throw ShapeError("squeeze without axes needs known dims, got " + shapeStr(s) +
                       "; pass the axes to remove");
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == 1) r.push_back(int64_t(i));
    return r;
  }
  for (int64_t a : axes) {
    const int n = normAxis(a, int(s.size()));
    if (known(s[size_t(n)]) && s[size_t(n)] != 1)
      throw ShapeError("cannot squeeze axis " + num(a) + " of " + shapeStr(s) + ": its size is " +
                       num(s[size_t(n)]) + ", not 1");
    r.push_back(n);
  }
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

Shape squeezed(const Shape& s, const std::vector<int64_t>& axes) {
  Shape r;
  for (size_t i = 0; i < s.size(); ++i)
    if (!std::binary_search(axes.begin(), axes.end(), int64_t(i))) r.push_back(s[i]);
  return r;
}

// NumPy broadcasting of `in` to `target`; a -1 in target keeps the input's dim.
Shape broadcastTarget(const Shape& in, const Shape& target) {
  auto fail = [&] {
    throw ShapeError("cannot broadcast " + shapeStr(in) + " to " + dimsStr(target));
  };
  if (target.size() < in.size()) fail();
  const size_t lead = target.size() - in.size();
  Shape out(target.size());
  for (size_t i = 0; i < target.size(); ++i) {
    const int64_t d = i < lead ? 1 : in[i - lead], t = target[i];
    if (t < -1) fail();
    if (t == -1)
      out[i] = d;
    else if (d == t || d == 1 || !known(d))
      out[i] = t;
    else
      fail();
  }
  return out;
}

// The static shape of x broadcast to a target of which only `hint` is known (-1 = unknown): an
// unknown target dim is x's dim where that is known and not 1 (broadcasting keeps it), else
// unknown. Never x's unknown dim for the target's: a [-1] input may be [1] at run time.
Shape broadcastHint(const Shape& in, const Shape& hint) {
  if (hint.size() < in.size())
    throw ShapeError("cannot broadcast " + shapeStr(in) + " to " + shapeStr(hint));
  const size_t lead = hint.size() - in.size();
  Shape out(hint.size());
  for (size_t i = 0; i < hint.size(); ++i) {
    const int64_t d = i < lead ? 1 : in[i - lead], t = hint[i];
    if (known(t) && known(d) && d != 1 && d != t)
      throw ShapeError("cannot broadcast " + shapeStr(in) + " to " + shapeStr(hint));
    out[i] = known(t) ? t : (known(d) && d != 1 ? d : -1);
  }
  return out;
}

// A run-time shape operand (the int32 vector shape_of gives) as a Shape. It must fit `hint`,
// the static shape the graph was built with.
Shape shapeOperand(const Tensor& s, const Shape& hint, const char* op) {
  if (s.dtype() != DType::I32 || s.rank() != 1 || s.numel() != int64_t(hint.size()))
    throw ShapeError(std::string(op) + " needs its shape as an int32 vector of " +
                     num(int64_t(hint.size())) + " dims");
  const int32_t* d = s.data<int32_t>();
  Shape r(d, d + s.numel());
  if (std::any_of(r.begin(), r.end(), [](int64_t v) { return v < 0; }) || !compatible(r, hint))
    throw ShapeError(std::string(op) + " got the shape " + dimsStr(r) + " at run time, where " +
                     shapeStr(hint) + " was expected");
  return r;
}

// The static check of a shape operand: an int32 vector as long as the known part of it.
void requireShapeVector(const TypeInfo& t, const Shape& hint, const char* op) {
  if (t.list || t.dtype != DType::I32 || t.shape != Shape{int64_t(hint.size())})
    throw ShapeError(std::string(op) + " needs its shape as an int32 vector of " +
                     num(int64_t(hint.size())) + " dims, got " + dtypeName(t.dtype) +
                     shapeStr(t.shape));
}

// x's elements repeated to `out` (a valid NumPy broadcast of x's shape).
Tensor broadcastCopy(const Tensor& x, const Shape& out) {
  if (out == x.shape()) return x;
  const auto st = stridesOf(x.shape());
  const size_t lead = out.size() - x.shape().size();
  Layout l{out, stridesOf(out), std::vector<int64_t>(out.size(), 0)};
  for (size_t i = lead; i < out.size(); ++i)
    if (x.shape()[i - lead] != 1) l.ss[i] = st[i - lead];
  Tensor y = Tensor::empty(x.dtype(), out);
  stridedCopy(y.raw(), x.raw(), l, dtypeSize(x.dtype()));
  return y;
}

Shape tileShape(const Shape& in, const std::vector<int64_t>& multiples) {
  if (multiples.size() != in.size())
    throw ShapeError("tile multiples " + dimsStr(multiples) + " must have one entry per dim of " +
                     shapeStr(in));
  Shape out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (multiples[i] < 0)
      throw ShapeError("tile multiples " + dimsStr(multiples) + " are negative");
    out[i] = known(in[i]) ? in[i] * multiples[i] : -1;
  }
  return out;
}

// Output shape of slice; size -1 = to the end of the dim.
Shape sliceShape(const Shape& in, const std::vector<int64_t>& begin,
                 const std::vector<int64_t>& size) {
  auto fail = [&] {
    throw ShapeError("slice begin " + dimsStr(begin) + " size " + dimsStr(size) +
                     " is out of bounds for " + shapeStr(in));
  };
  if (begin.size() != in.size() || size.size() != in.size())
    throw ShapeError("slice begin " + dimsStr(begin) + " and size " + dimsStr(size) +
                     " need one entry per dim of " + shapeStr(in));
  Shape out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (begin[i] < 0 || size[i] < -1) fail();
    if (known(in[i]) && (begin[i] > in[i] || (size[i] >= 0 && begin[i] + size[i] > in[i]))) fail();
    out[i] = size[i] >= 0 ? size[i] : known(in[i]) ? in[i] - begin[i] : -1;
  }
  return out;
}

Shape padShape(const Shape& in, const std::vector<int64_t>& p) {
  if (p.size() != 2 * in.size())
    throw ShapeError("pad paddings " + dimsStr(p) +
                     " need two entries (before, after) per dim of " + shapeStr(in));
  Shape out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (p[2 * i] < 0 || p[2 * i + 1] < 0)
      throw ShapeError("pad paddings " + dimsStr(p) + " must not be negative");
    out[i] = known(in[i]) ? p[2 * i] + in[i] + p[2 * i + 1] : -1;
  }
  return out;
}

// concat: all inputs share dtype, rank and every dim but `axis`.
TypeInfo concatType(const Types& in, int64_t axisAttr) {
  if (in.empty()) throw ShapeError("concat needs at least one input");
  const TypeInfo& t0 = tensorIn(in, 0);
  const int r = int(t0.shape.size());
  if (r == 0) throw ShapeError("cannot concat scalars; stack them instead");
  const int axis = normAxis(axisAttr, r);
  Shape out = t0.shape;
  for (size_t k = 1; k < in.size(); ++k) {
    const TypeInfo& t = tensorIn(in, k);
    bool ok = t.dtype == t0.dtype && int(t.shape.size()) == r;
    for (int i = 0; ok && i < r; ++i)
      if (i != axis) {
        ok = !known(t.shape[size_t(i)]) || !known(out[size_t(i)]) ||
             t.shape[size_t(i)] == out[size_t(i)];
        out[size_t(i)] = mergeDim(out[size_t(i)], t.shape[size_t(i)]);
      }
    if (!ok)
      throw ShapeError("cannot concat " + std::string(dtypeName(t0.dtype)) + shapeStr(t0.shape) +
                       " and " + dtypeName(t.dtype) + shapeStr(t.shape) + " along axis " +
                       num(axisAttr));
    out[size_t(axis)] = known(out[size_t(axis)]) && known(t.shape[size_t(axis)])
                            ? out[size_t(axis)] + t.shape[size_t(axis)]
                            : -1;
  }
  return {t0.dtype, out, false};
}

// stack: all inputs share dtype and shape; a new axis of size n is inserted.
TypeInfo stackType(const Types& in, int64_t axisAttr) {
  if (in.empty()) throw ShapeError("stack needs at least one input");
  const TypeInfo& t0 = tensorIn(in, 0);
  Shape s = t0.shape;
  for (size_t k = 1; k < in.size(); ++k) {
    const TypeInfo& t = tensorIn(in, k);
    if (t.dtype != t0.dtype || !compatible(t.shape, s))
      throw ShapeError("cannot stack " + std::string(dtypeName(t0.dtype)) + shapeStr(t0.shape) +
                       " and " + dtypeName(t.dtype) + shapeStr(t.shape) +
                       ": all inputs need the same dtype and shape");
    for (size_t i = 0; i < s.size(); ++i) s[i] = mergeDim(s[i], t.shape[i]);
  }
  const int axis = normAxis(axisAttr, int(s.size()) + 1);
  return {t0.dtype, withAxis(s, axis, int64_t(in.size())), false};
}

void requireInt32(const TypeInfo& t, const char* what) {
  if (t.dtype != DType::I32)
    throw ShapeError(std::string(what) + " must be int32, got " + dtypeName(t.dtype));
}

// gather: params[:axis] + indices.shape + params[axis+1:].
Shape gatherShape(const Shape& params, const Shape& indices, int axis) {
  Shape out(params.begin(), params.begin() + axis);
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), params.begin() + axis + 1, params.end());
  return out;
}

// scatter_add's output shape: the attr "shape" with unknown non-axis dims taken from updates.
Shape scatterShape(const Shape& updates, const Shape& indices, const Shape& attrShape,
                   int64_t axisAttr) {
  const int r = int(attrShape.size());
  if (r == 0) throw ShapeError("scatter_add needs a params shape of rank >= 1");
  const int axis = normAxis(axisAttr, r);
  if (!known(attrShape[size_t(axis)]))
    throw ShapeError("scatter_add needs the size of axis " + num(axisAttr) + " of params shape " +
                     shapeStr(attrShape) + " known");
  if (int(updates.size()) != r - 1 + int(indices.size()))
    throw ShapeError("scatter_add updates " + shapeStr(updates) + " do not match indices " +
                     shapeStr(indices) + " and params shape " + shapeStr(attrShape) +
                     " along axis " + num(axisAttr));
  Shape out = attrShape;
  for (int i = 0; i < r; ++i) {
    if (i == axis) continue;
    const int64_t u = updates[size_t(i < axis ? i : i - 1 + int(indices.size()))];
    if (known(u) && known(out[size_t(i)]) && u != out[size_t(i)])
      throw ShapeError("scatter_add updates " + shapeStr(updates) + " do not match indices " +
                       shapeStr(indices) + " and params shape " + shapeStr(attrShape) +
                       " along axis " + num(axisAttr));
    out[size_t(i)] = mergeDim(out[size_t(i)], u);
  }
  for (size_t j = 0; j < indices.size(); ++j) {
    const int64_t u = updates[size_t(axis) + j], ix = indices[j];
    if (known(u) && known(ix) && u != ix)
      throw ShapeError("scatter_add updates " + shapeStr(updates) + " do not match indices " +
                       shapeStr(indices) + " and params shape " + shapeStr(attrShape) +
                       " along axis " + num(axisAttr));
  }
  return out;
}

// Indices are checked before any copy: a bad one reports instead of reading out of bounds.
void checkIndices(const Tensor& idx, int64_t size, int axis, const char* op) {
  if (idx.dtype() != DType::I32)
    throw ShapeError(std::string(op) + " indices must be int32, got " + dtypeName(idx.dtype()));
  const int32_t* p = idx.data<int32_t>();
  for (int64_t i = 0; i < idx.numel(); ++i)
    if (p[i] < 0 || p[i] >= size)
      throw ShapeError(std::string(op) + " index " + num(p[i]) + " is out of range for axis " +
                       num(axis) + " of size " + num(size));
}

// out[o, j, :] = params[o, idx[j], :] with o over params[:axis] and blocks of `inner` elements.
template <class E>
void gatherBlocks(E* out, const E* params, const int32_t* idx, int64_t outer, int64_t n,
                  int64_t nIdx, int64_t inner) {
  const int64_t blocks = outer * nIdx;
  kern::forRange(blocks, blocks * inner >= kParallelWork, [&](int64_t bI) {
    const int64_t o = bI / nIdx, j = bI % nIdx;
    const E* src = params + (o * n + idx[j]) * inner;
    E* dst = out + bI * inner;
    if (inner == 1)
      *dst = *src;
    else
      std::memcpy(dst, src, size_t(inner) * sizeof(E));
  });
}

// out[o, idx[j], :] += updates[o, j, :]. Threads own disjoint (o, column chunk) pairs and walk
// all j, so repeated indices never race.
template <class T>
void scatterAddBlocks(T* out, const T* upd, const int32_t* idx, int64_t outer, int64_t n,
                      int64_t nIdx, int64_t inner) {
  constexpr int64_t kChunk = 512;
  const int64_t chunksPerRow = (inner + kChunk - 1) / kChunk;
  const int64_t tasks = outer * chunksPerRow;
  kern::forRange(tasks, outer * nIdx * inner >= kParallelWork, [&](int64_t t) {
    const int64_t o = t / chunksPerRow, c0 = (t % chunksPerRow) * kChunk;
    const int64_t c1 = std::min(c0 + kChunk, inner);
    for (int64_t j = 0; j < nIdx; ++j) {
      T* dst = out + (o * n + idx[j]) * inner;
      const T* src = upd + (o * nIdx + j) * inner;
      for (int64_t c = c0; c < c1; ++c) dst[c] += src[c];
    }
  });
}

// scatter_add's kernel: zeros of the params shape (attrShape, every dim known) with each slice
// of updates added at its index along axis.
Tensor scatterAddKernel(const Tensor& u, const Tensor& idx, const Shape& attrShape,
                        int64_t axisAttr) {
  const Shape out = scatterShape(u.shape(), idx.shape(), attrShape, axisAttr);
  const int axis = normAxis(axisAttr, int(out.size()));
  const int64_t n = out[size_t(axis)];
  checkIndices(idx, n, axis, "scatter_add");
  Tensor y = Tensor::zeros(u.dtype(), out);
  const int64_t outer = prodRange(out, 0, size_t(axis));
  const int64_t inner = prodRange(out, size_t(axis) + 1, out.size());
  dispatchAll(u.dtype(), [&](auto z) {
    using T = decltype(z);
    scatterAddBlocks(y.data<T>(), u.data<T>(), idx.data<int32_t>(), outer, n, idx.numel(), inner);
  });
  return y;
}

// Calls f(E{}) with an unsigned type of the given element size: byte movers ignore the dtype.
template <class F>
void dispatchBySize(size_t esize, F&& f) {
  if (esize == 1)
    f(uint8_t{});
  else if (esize == 4)
    f(uint32_t{});
  else
    f(uint64_t{});
}

// Float gradient-check inputs, reproducible.
Tensor randn(Rng& rng, const Shape& s) { return rng.normal(s, 0.0, 1.0, DType::F64); }
Tensor ints(const std::vector<double>& v, const Shape& s) {
  return Tensor::fromVector(v, s, DType::I32);
}

std::vector<Value> noGrads(size_t n) { return std::vector<Value>(n); }

}  // namespace

// =============================================================================================

void registerShapeOps(Registry& r) {
  // A while_loop's shape_invariants: the loop variable's static shape becomes the invariant
  // (None dims unknown), so the body may change those dims from one iteration to the next.
  r.add({
      .name = "relax_shape",
      .math = "y = x, with a less specific static shape (attr shape, -1 = unknown)\n"
              "dx = dy",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            TypeInfo x = tensorIn(in, 0);
            if (!a.has("shape")) return Types{x};
            const Shape s = a.ints("shape");
            if (!compatible(s, x.shape))
              throw ShapeError("the shape invariant " + shapeStr(s) +
                               " does not fit the loop variable's shape " + shapeStr(x.shape));
            x.shape = s;
            return Types{x};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) { return Tensors{in[0]}; }),
      .vjp = [](VjpContext& c) -> std::vector<Value> { return {c.goutOrZeros(0)}; },
      .work = viewWork,
      .gradChecks =
          [] {
            // The checker allocates from the static output shape, so the invariant here
            // is fully known; the VJP does not depend on it.
            Rng rng(103);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3})}, {{"shape", Shape{2, 3}}}},
            };
          }(),
  });

  r.add({
      .name = "reshape",
      .math = "y = reshape(x, shape), row-major order kept, one -1 inferred\n"
              "dx = reshape(dy, shape(x))",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{x.dtype, reshapeTarget(x.shape, a.ints("shape")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        // Same buffer, new shape: reshaping never copies.
        return Tensors{in[0].reshaped(reshapeTarget(in[0].shape(), a.ints("shape")))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        return {
            ops::reshape(c.b, c.goutOrZeros(0), oneUnknownAtMost(c.inType(0).shape, "reshape"))};
      },
      .batch = batch::reshape(),
      .work = viewWork,
      .gradChecks =
          [] {
            Rng rng(101);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3, 2})}, {{"shape", Shape{3, -1}}}},
                {{randn(rng, {6})}, {{"shape", Shape{1, 2, 3}}}},
            };
          }(),
  });

  r.add({
      .name = "transpose",
      .math = "y.shape[k] = x.shape[perm[k]], y[i_perm] = x[i] (empty perm = reverse)\n"
              "dx = transpose(dy, inverse(perm))",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            const auto perm = normPerm(a.ints("perm"), int(x.shape.size()));
            Shape out;
            for (auto p : perm) out.push_back(x.shape[size_t(p)]);
            return Types{{x.dtype, out, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in[0];
        const auto perm = normPerm(a.ints("perm"), x.rank());
        const auto st = stridesOf(x.shape());
        Layout l;
        for (auto p : perm) {
          l.shape.push_back(x.shape()[size_t(p)]);
          l.ss.push_back(st[size_t(p)]);
        }
        l.ds = stridesOf(l.shape);
        // If the axes of size > 1 keep their order, the bytes do not move.
        std::vector<int64_t> moved;
        for (auto p : perm)
          if (x.shape()[size_t(p)] != 1) moved.push_back(p);
        if (std::is_sorted(moved.begin(), moved.end())) return Tensors{x.reshaped(l.shape)};
        Tensor y = Tensor::empty(x.dtype(), l.shape);
        stridedCopy(y.raw(), x.raw(), l, dtypeSize(x.dtype()));
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        const auto perm = normPerm(c.attrs().ints("perm"), int(c.inType(0).shape.size()));
        std::vector<int64_t> inv(perm.size());
        for (size_t i = 0; i < perm.size(); ++i) inv[size_t(perm[i])] = int64_t(i);
        return {ops::transpose(c.b, c.goutOrZeros(0), inv)};
      },
      .batch = batch::transpose(),
      .gradChecks =
          [] {
            Rng rng(102);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3, 4})}, {{"perm", std::vector<int64_t>{1, 2, 0}}}},
                {{randn(rng, {3, 4})}, {}},
            };
          }(),
  });

  r.add({
      .name = "expand_dims",
      .math = "y = x with a new size-1 axis at `axis`\n"
              "dx = squeeze(dy, axis)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            const int axis = normAxis(a.i("axis"), int(x.shape.size()) + 1);
            return Types{{x.dtype, withAxis(x.shape, axis, 1), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const int axis = normAxis(a.i("axis"), in[0].rank() + 1);
        return Tensors{in[0].reshaped(withAxis(in[0].shape(), axis, 1))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        const int axis = normAxis(c.attrs().i("axis"), int(c.inType(0).shape.size()) + 1);
        return {ops::squeeze(c.b, c.goutOrZeros(0), {axis})};
      },
      .batch = batch::expandDims(),
      .work = viewWork,
      .gradChecks =
          [] {
            Rng rng(103);
            return std::vector<GradCheckCase>{{{randn(rng, {2, 3})}, {{"axis", int64_t(1)}}}};
          }(),
  });

  r.add({
      .name = "squeeze",
      .math = "y = x without its size-1 axes `axes` (empty = all size-1 axes)\n"
              "dx = expand_dims(dy) at those axes",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{x.dtype, squeezed(x.shape, squeezeAxes(x.shape, a.ints("axes"))), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Shape& s = in[0].shape();
        return Tensors{in[0].reshaped(squeezed(s, squeezeAxes(s, a.ints("axes"))))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        // Re-inserting the axes in ascending order needs no input dims (unlike reshape).
        Value g = c.goutOrZeros(0);
        for (int64_t ax : squeezeAxes(c.inType(0).shape, c.attrs().ints("axes")))
          g = ops::expandDims(c.b, g, ax);
        return {g};
      },
      .batch = batch::squeeze(),
      .work = viewWork,
      .gradChecks =
          [] {
            Rng rng(104);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 1, 3, 1})}, {}},
                {{randn(rng, {2, 1, 3, 1})}, {{"axes", std::vector<int64_t>{-1}}}},
            };
          }(),
  });

  r.add({
      .name = "tile",
      .math = "y[i] = x[i mod x.shape], y.shape = x.shape * multiples\n"
              "dx = sum_to(reshape(dy, [m0,d0,m1,d1,..]), [1,d0,1,d1,..]), reshaped",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{x.dtype, tileShape(x.shape, a.ints("multiples")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        // A tile is a broadcast of x to [m0,d0,m1,d1,..] (stride 0 on the m axes) laid out
        // as [m0*d0, m1*d1, ..].
        const Tensor& x = in[0];
        const auto m = a.ints("multiples");
        const Shape out = tileShape(x.shape(), m);
        const auto st = stridesOf(x.shape());
        Layout l;
        for (size_t i = 0; i < m.size(); ++i) {
          l.shape.insert(l.shape.end(), {m[i], x.shape()[i]});
          l.ss.insert(l.ss.end(), {0, st[i]});
        }
        l.ds = stridesOf(l.shape);
        Tensor y = Tensor::empty(x.dtype(), out);
        stridedCopy(y.raw(), x.raw(), l, dtypeSize(x.dtype()));
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        const Shape d = requireKnown(c.inType(0).shape, "tile");
        const auto m = c.attrs().ints("multiples");
        Shape split, kept;
        for (size_t i = 0; i < d.size(); ++i) {
          if (m[i] != 1) split.push_back(m[i]), kept.push_back(1);
          split.push_back(d[i]);
          kept.push_back(d[i]);
        }
        Value g = ops::reshape(c.b, c.goutOrZeros(0), split);
        g = c.b.op1("sum_to", {g}, {{"shape", kept}});
        return {ops::reshape(c.b, g, d)};
      },
      .batch = batch::tile(),
      .gradChecks =
          [] {
            Rng rng(105);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3})}, {{"multiples", std::vector<int64_t>{2, 3}}}},
                {{randn(rng, {2, 1, 3})}, {{"multiples", std::vector<int64_t>{1, 4, 1}}}},
            };
          }(),
  });

  r.add({
      .name = "broadcast_to",
      .math = "y = x broadcast to `shape` (NumPy rules)\n"
              "dx = sum_to(dy, shape(x))",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{x.dtype, broadcastTarget(x.shape, a.ints("shape")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        return Tensors{broadcastCopy(in[0], broadcastTarget(in[0].shape(), a.ints("shape")))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        return {ops::sumToLike(c.b, c.goutOrZeros(0), c.in[0])};
      },
      .batch = batch::broadcastTo(),
      // A copy of each element when x is a scalar or already has the shape: the only uses the
      // fusion pass fuses (it fuses an input only if it is one value or the full shape).
      .elementwise = blocks::copy(),
      .gradChecks =
          [] {
            Rng rng(106);
            return std::vector<GradCheckCase>{
                {{randn(rng, {3, 1})}, {{"shape", Shape{2, 3, 4}}}},
            };
          }(),
  });

  // Shapes known only at run time (a while_loop's shape_invariants, a dynamic TensorArray): the
  // gradients of broadcasting ops read the input's shape when it runs, as TF's read
  // array_ops.shape(op.inputs[0]). A static shape with -1 in it would guess the input's size.
  r.add({
      .name = "shape_of",
      .math = "y = shape(x), x's dims at run time as an int32 vector (tf.shape)\n"
              "no gradient: y depends on x's shape, not on its values",
      .arity = 1,
      .differentiable = false,
      .noGradient = "shape_of (tf.shape), whose value depends only on the input's shape",
      .shape =
          [](const Types& in, const Attrs&) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{DType::I32, Shape{int64_t(x.shape.size())}, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) {
        const Shape& s = in[0].shape();
        return Tensors{Tensor::fromVector(std::vector<double>(s.begin(), s.end()),
                                          {int64_t(s.size())}, DType::I32)};
      }),
      .work = outputWork,
  });

  r.add({
      .name = "broadcast_to_dynamic",
      .math = "y = x broadcast to the run-time shape s (input 1; attr shape: what is known of s)\n"
              "dx = sum_to(dy, shape(x)); no gradient for s",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            requireShapeVector(in.at(1), a.ints("shape"), "broadcast_to_dynamic");
            return Types{{x.dtype, broadcastHint(x.shape, a.ints("shape")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Shape target = shapeOperand(in[1], a.ints("shape"), "broadcast_to_dynamic");
        return Tensors{broadcastCopy(in[0], broadcastTarget(in[0].shape(), target))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g = noGrads(2);
        if (c.needs[0]) g[0] = ops::sumToLike(c.b, c.goutOrZeros(0), c.in[0]);
        return g;
      },
      .gradChecks =
          [] {
            Rng rng(113);
            return std::vector<GradCheckCase>{
                {{randn(rng, {3, 1}), ints({2, 3, 4}, {3})}, {{"shape", Shape{-1, 3, -1}}}},
                {{randn(rng, {1}), ints({5}, {1})}, {{"shape", Shape{-1}}}},
            };
          }(),
  });

  r.add({
      .name = "sum_to_dynamic",
      .math = "y = x summed to the run-time shape s (input 1; attr shape: what is known of s)\n"
              "dx = broadcast_to(dy, shape(x)); no gradient for s",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            const Shape hint = a.ints("shape");
            requireShapeVector(in.at(1), hint, "sum_to_dynamic");
            // Checks what is known (the target must broadcast to x); unknown dims stay unknown.
            const Shape checked = Registry::instance().get("sum_to").shape({x}, a).at(0).shape;
            Shape out = hint;
            for (size_t i = 0; i < out.size(); ++i)
              if (!known(out[i]) && checked[i] == 1) out[i] = 1;
            return Types{{x.dtype, out, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Shape target = shapeOperand(in[1], a.ints("shape"), "sum_to_dynamic");
        return Registry::instance().get("sum_to").run({in[0]}, Attrs{{"shape", target}});
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g = noGrads(2);
        if (c.needs[0] && isFloat(c.inType(0).dtype))
          g[0] = ops::broadcastLike(c.b, c.goutOrZeros(0), c.in[0]);
        return g;
      },
      .gradChecks =
          [] {
            Rng rng(114);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3, 4}), ints({3, 1}, {2})}, {{"shape", Shape{-1, -1}}}},
                {{randn(rng, {4}), ints({1}, {1})}, {{"shape", Shape{-1}}}},
            };
          }(),
  });

  r.add({
      .name = "concat",
      .math = "y = [x0, x1, ..] joined along `axis`\n"
              "dx_i = slice(dy) along axis at offset sum_{j<i} x_j.shape[axis]",
      .arity = -1,
      .shape = [](const Types& in, const Attrs& a) { return Types{concatType(in, a.i("axis"))}; },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        Types types;
        for (const auto& t : in) types.push_back({t.dtype(), t.shape(), false});
        const TypeInfo out = concatType(types, a.i("axis"));
        const int axis = normAxis(a.i("axis"), int(out.shape.size()));
        Tensor y = Tensor::empty(out.dtype, out.shape);
        const int64_t step = stridesOf(out.shape)[size_t(axis)];
        int64_t offset = 0;
        for (const auto& t : in) {
          copyInto(y, offset * step, t.shape(), t);
          offset += t.shape()[size_t(axis)];
        }
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        const int r = int(c.inType(0).shape.size());
        const int axis = normAxis(c.attrs().i("axis"), r);
        Value g = c.goutOrZeros(0);
        std::vector<Value> grads(c.in.size());
        int64_t offset = 0;
        Value runOffset;  // the offset read at run time, once a size before it is unknown
        for (size_t i = 0; i < c.in.size(); ++i) {
          const int64_t n = c.inType(i).shape[size_t(axis)];
          const bool lastOne = i + 1 == c.in.size();
          if (c.needs[i] && known(offset) && (known(n) || lastOne)) {
            std::vector<int64_t> begin(size_t(r), 0), size(size_t(r), -1);
            begin[size_t(axis)] = offset;
            size[size_t(axis)] = known(n) ? n : -1;
            grads[i] = ops::slice(c.b, g, begin, size);
          } else if (c.needs[i]) {
            // Sizes unknown while tracing (a sequence grown in a loop): slice at run time.
            Value at = runOffset.valid() ? runOffset : c.b.scalar(double(offset), DType::I32);
            grads[i] = ops::sliceAxis(c.b, g, at, ops::sizeAlongAxis(c.b, c.in[i], axis), axis, n);
          }
          if (known(offset) && known(n)) {
            offset += n;
          } else {
            Value before = runOffset.valid() ? runOffset : c.b.scalar(double(offset), DType::I32);
            runOffset = ops::add(c.b, before, ops::sizeAlongAxis(c.b, c.in[i], axis));
            offset = -1;
          }
        }
        return grads;
      },
      .batch = batch::join(false),
      .gradChecks =
          [] {
            Rng rng(107);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 1, 3}), randn(rng, {2, 2, 3}), randn(rng, {2, 3, 3})},
                 {{"axis", int64_t(1)}}},
                {{randn(rng, {2, 3}), randn(rng, {1, 3})}, {{"axis", int64_t(0)}}},
            };
          }(),
  });

  r.add({
      .name = "stack",
      .math = "y[.., i, ..] = x_i, a new axis of size n at `axis`\n"
              "dx_i = unstack(dy, axis)[i]",
      .arity = -1,
      .shape = [](const Types& in, const Attrs& a) { return Types{stackType(in, a.i("axis"))}; },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        Types types;
        for (const auto& t : in) types.push_back({t.dtype(), t.shape(), false});
        const TypeInfo out = stackType(types, a.i("axis"));
        const int axis = normAxis(a.i("axis"), int(out.shape.size()));
        Tensor y = Tensor::empty(out.dtype, out.shape);
        const int64_t step = stridesOf(out.shape)[size_t(axis)];
        for (size_t i = 0; i < in.size(); ++i)
          copyInto(y, int64_t(i) * step, withAxis(in[i].shape(), axis, 1), in[i]);
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        const int axis = normAxis(c.attrs().i("axis"), int(c.inType(0).shape.size()) + 1);
        return ops::unstack(c.b, c.goutOrZeros(0), axis);
      },
      .batch = batch::join(true),
      .gradChecks =
          [] {
            Rng rng(108);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3}), randn(rng, {2, 3}), randn(rng, {2, 3})},
                 {{"axis", int64_t(1)}}},
                {{randn(rng, {4}), randn(rng, {4})}, {{"axis", int64_t(-1)}}},
            };
          }(),
  });

  r.add({
      .name = "unstack",
      .math = "y_i = x[.., i, ..] for each i along `axis` (its size must be known)\n"
              "dx = stack([dy_i, or zeros where y_i has no adjoint], axis)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            if (x.shape.empty()) throw ShapeError("cannot unstack a scalar");
            const int axis = normAxis(a.i("axis"), int(x.shape.size()));
            const int64_t n = x.shape[size_t(axis)];
            if (!known(n))
              throw ShapeError("unstack needs the size of axis " + num(a.i("axis")) +
                               " known, got " + shapeStr(x.shape));
            return Types(size_t(n), TypeInfo{x.dtype, withoutAxis(x.shape, axis), false});
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in[0];
        if (x.rank() == 0) throw ShapeError("cannot unstack a scalar");
        const int axis = normAxis(a.i("axis"), x.rank());
        const auto st = stridesOf(x.shape());
        Layout l;
        l.shape = withoutAxis(x.shape(), axis);
        l.ds = stridesOf(l.shape);
        l.ss = withoutAxis(st, axis);
        Tensors outs;
        for (int64_t i = 0; i < x.shape()[size_t(axis)]; ++i) {
          Tensor y = Tensor::empty(x.dtype(), l.shape);
          stridedCopy(y.raw(), bytesAt(x, i * st[size_t(axis)]), l, dtypeSize(x.dtype()));
          outs.push_back(y);
        }
        return outs;
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> gs;
        for (size_t i = 0; i < c.out.size(); ++i) gs.push_back(c.goutOrZeros(i));
        return {ops::stack(c.b, gs, c.attrs().i("axis"))};
      },
      .gradChecks =
          [] {
            Rng rng(109);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3, 4})}, {{"axis", int64_t(1)}}},
                {{randn(rng, {3, 2})}, {{"axis", int64_t(0)}}},
            };
          }(),
  });

  r.add({
      .name = "slice",
      .math = "y = x[begin_k : begin_k + size_k] per dim k (size -1 = to the end)\n"
              "dx = pad(dy, before = begin, after = x.shape - begin - size)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{x.dtype, sliceShape(x.shape, a.ints("begin"), a.ints("size")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in[0];
        const auto begin = a.ints("begin");
        const Shape out = sliceShape(x.shape(), begin, a.ints("size"));
        const auto st = stridesOf(x.shape());
        int64_t offset = 0;
        for (size_t i = 0; i < begin.size(); ++i) offset += begin[i] * st[i];
        Tensor y = Tensor::empty(x.dtype(), out);
        stridedCopy(y.raw(), bytesAt(x, offset), {out, stridesOf(out), st}, dtypeSize(x.dtype()));
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        // A sized slice of an unknown dim pads back to x's run-time size (pad_axis).
        const Shape& s = c.inType(0).shape;
        const auto begin = c.attrs().ints("begin"), size = c.attrs().ints("size");
        std::vector<int64_t> p;
        std::vector<int64_t> dynamic;
        for (size_t i = 0; i < s.size(); ++i) {
          const bool late = size[i] != -1 && !known(s[i]);
          if (late) dynamic.push_back(int64_t(i));
          p.push_back(late ? 0 : begin[i]);
          p.push_back(size[i] == -1 || late ? 0 : s[i] - begin[i] - size[i]);
        }
        Value g = ops::pad(c.b, c.goutOrZeros(0), p);
        for (int64_t d : dynamic)
          g = ops::padAxis(c.b, g, c.b.scalar(double(begin[size_t(d)]), DType::I32),
                           ops::sizeAlongAxis(c.b, c.in[0], d), d, -1);
        return {g};
      },
      .batch = batch::slice(),
      .work = outputWork,
      .gradChecks =
          [] {
            Rng rng(110);
            return std::vector<GradCheckCase>{
                {{randn(rng, {3, 4, 5})},
                 {{"begin", std::vector<int64_t>{1, 0, 2}},
                  {"size", std::vector<int64_t>{2, -1, 2}}}},
            };
          }(),
  });

  r.add({
      .name = "pad",
      .math = "y = x surrounded by zeros, paddings = {before0, after0, before1, after1, ..}\n"
              "dx = slice(dy, begin = before, size = x.shape)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& x = tensorIn(in, 0);
            return Types{{x.dtype, padShape(x.shape, a.ints("paddings")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in[0];
        const auto p = a.ints("paddings");
        const Shape out = padShape(x.shape(), p);
        Tensor y = Tensor::zeros(x.dtype(), out);  // all-zero bytes: 0, 0.0 and false
        const auto st = stridesOf(out);
        int64_t offset = 0;
        for (size_t i = 0; i < out.size(); ++i) offset += p[2 * i] * st[i];
        copyInto(y, offset, x.shape(), x);
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        // An unknown dim padded after: slice it at run time, x's size read from x (slice_axis).
        const Shape& s = c.inType(0).shape;
        const auto p = c.attrs().ints("paddings");
        std::vector<int64_t> begin, size;
        std::vector<int64_t> dynamic;
        for (size_t i = 0; i < s.size(); ++i) {
          const bool late = !known(s[i]) && p[2 * i + 1] != 0;
          if (late) dynamic.push_back(int64_t(i));
          begin.push_back(late ? 0 : p[2 * i]);
          size.push_back(known(s[i]) ? s[i] : -1);
        }
        Value g = c.goutOrZeros(0);
        for (int64_t d : dynamic)
          g = ops::sliceAxis(c.b, g, c.b.scalar(double(p[size_t(2 * d)]), DType::I32),
                             ops::sizeAlongAxis(c.b, c.in[0], d), d, -1);
        return {ops::slice(c.b, g, begin, size)};
      },
      .batch = batch::pad(),
      .gradChecks =
          [] {
            Rng rng(111);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3})}, {{"paddings", std::vector<int64_t>{1, 0, 2, 1}}}},
            };
          }(),
  });

  r.add({
      .name = "gather",
      .math = "y[a.., j.., b..] = params[a.., indices[j..], b..] (a = axes before `axis`)\n"
              "dparams = scatter_add(dy, indices, axis, shape(params)); no gradient for indices",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& p = tensorIn(in, 0);
            const TypeInfo& idx = tensorIn(in, 1);
            requireInt32(idx, "gather indices");
            if (p.shape.empty()) throw ShapeError("cannot gather from a scalar");
            const int axis = normAxis(a.i("axis"), int(p.shape.size()));
            return Types{{p.dtype, gatherShape(p.shape, idx.shape, axis), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor &p = in[0], &idx = in[1];
        if (p.rank() == 0) throw ShapeError("cannot gather from a scalar");
        const int axis = normAxis(a.i("axis"), p.rank());
        const Shape& ps = p.shape();
        const int64_t n = ps[size_t(axis)];
        checkIndices(idx, n, axis, "gather");
        Tensor y = Tensor::empty(p.dtype(), gatherShape(ps, idx.shape(), axis));
        const int64_t outer = prodRange(ps, 0, size_t(axis));
        const int64_t inner = prodRange(ps, size_t(axis) + 1, ps.size());
        dispatchBySize(dtypeSize(p.dtype()), [&](auto e) {
          using E = decltype(e);
          gatherBlocks(y.data<E>(), p.data<E>(), idx.data<int32_t>(), outer, n, idx.numel(), inner);
        });
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g = noGrads(2);
        if (c.needs[0]) {
          const Shape& s = c.inType(0).shape;
          const int64_t axis = c.attrs().i("axis");
          const size_t at = size_t(axis < 0 ? axis + int64_t(s.size()) : axis);
          g[0] = known(s[at]) ? ops::scatterAdd(c.b, c.goutOrZeros(0), c.in[1], axis, s)
                              : c.b.op1("scatter_add_dynamic",
                                        {c.goutOrZeros(0), c.in[1],
                                         ops::sizeAlongAxis(c.b, c.in[0], int64_t(at))},
                                        {{"axis", axis}, {"shape", s}});
        }
        return g;
      },
      .batch = batch::gather(),
      .work = outputWork,
      .gradChecks =
          [] {
            Rng rng(112);
            return std::vector<GradCheckCase>{
                {{randn(rng, {5, 3}), ints({0, 2, 2, 4}, {4})}, {{"axis", int64_t(0)}}},
                {{randn(rng, {3, 4}), ints({1, 3, 1, 0}, {2, 2})}, {{"axis", int64_t(1)}}},
            };
          }(),
  });

  r.add({
      .name = "scatter_add",
      .math = "y = zeros(shape); y[a.., indices[j..], b..] += updates[a.., j.., b..]\n"
              "dupdates = gather(dy, indices, axis); no gradient for indices",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& u = tensorIn(in, 0);
            const TypeInfo& idx = tensorIn(in, 1);
            requireInt32(idx, "scatter_add indices");
            if (u.dtype == DType::Bool) throw ShapeError("scatter_add cannot add bool values");
            return Types{
                {u.dtype, scatterShape(u.shape, idx.shape, a.ints("shape"), a.i("axis")), false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor &u = in[0], &idx = in[1];
        if (u.dtype() == DType::Bool) throw ShapeError("scatter_add cannot add bool values");
        return Tensors{scatterAddKernel(u, idx, a.ints("shape"), a.i("axis"))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g = noGrads(2);
        if (c.needs[0]) g[0] = ops::gather(c.b, c.goutOrZeros(0), c.in[1], c.attrs().i("axis"));
        return g;
      },
      .batch = batch::scatterAdd(),
      .gradChecks =
          [] {
            Rng rng(113);
            return std::vector<GradCheckCase>{
                {{randn(rng, {4, 3}), ints({0, 2, 2, 4}, {4})},
                 {{"axis", int64_t(0)}, {"shape", Shape{5, 3}}}},
                {{randn(rng, {2, 3}), ints({1, 1, 0}, {3})},
                 {{"axis", int64_t(1)}, {"shape", Shape{2, 2}}}},
            };
          }(),
  });

  // scatter_add where the params' size along the axis is only known at run time (input 2):
  // gather's VJP at unknown sizes.
  r.add({
      .name = "scatter_add_dynamic",
      .math = "y = zeros(shape with n along axis); y[a.., indices[j..], b..] += updates[a.., j.., "
              "b..]\n"
              "dupdates = gather(dy, indices, axis); no gradient for indices and n",
      .arity = 3,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& u = tensorIn(in, 0);
            const TypeInfo& idx = tensorIn(in, 1);
            requireInt32(idx, "scatter_add_dynamic indices");
            const TypeInfo& n = tensorIn(in, 2);
            if (n.dtype != DType::I32 || !n.shape.empty())
              throw ShapeError("scatter_add_dynamic needs its size as an int32 scalar");
            if (u.dtype == DType::Bool) throw ShapeError("scatter_add cannot add bool values");
            Shape known = a.ints("shape");
            const int axis = normAxis(a.i("axis"), int(known.size()));
            const int64_t size = known[size_t(axis)];
            known[size_t(axis)] = 1;  // any size: checked at run time
            Shape out = scatterShape(u.shape, idx.shape, known, a.i("axis"));
            out[size_t(axis)] = size;
            return Types{{u.dtype, out, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor &u = in[0], &idx = in[1];
        Shape known = a.ints("shape");
        const int axis = normAxis(a.i("axis"), int(known.size()));
        known[size_t(axis)] = int64_t(in[2].at(0));
        return Tensors{scatterAddKernel(u, idx, known, a.i("axis"))};
      }),
      .vjp = [](VjpContext& c) -> std::vector<Value> {
        std::vector<Value> g = noGrads(3);
        if (c.needs[0]) g[0] = ops::gather(c.b, c.goutOrZeros(0), c.in[1], c.attrs().i("axis"));
        return g;
      },
      .gradChecks =
          [] {
            Rng rng(114);
            return std::vector<GradCheckCase>{
                {{randn(rng, {4, 3}), ints({0, 2, 2, 4}, {4}), ints({5}, {})},
                 {{"axis", int64_t(0)}, {"shape", Shape{-1, 3}}}},
                {{randn(rng, {2, 3}), ints({1, 1, 0}, {3}), ints({2}, {})},
                 {{"axis", int64_t(1)}, {"shape", Shape{2, -1}}}},
            };
          }(),
  });

  r.add({
      .name = "one_hot",
      .math = "y[j.., k] = indices[j..] == k ? on : off (out-of-range indices: all off)\n"
              "not differentiable",
      .arity = 1,
      .differentiable = false,
      .shape =
          [](const Types& in, const Attrs& a) {
            const TypeInfo& idx = tensorIn(in, 0);
            requireInt32(idx, "one_hot indices");
            if (a.i("depth") < 0) throw ShapeError("one_hot depth " + num(a.i("depth")) + " < 0");
            Shape s = idx.shape;
            s.push_back(a.i("depth"));
            return Types{{dtypeFromName(a.s("dtype", "float32")), s, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& idx = in[0];
        if (idx.dtype() != DType::I32)
          throw ShapeError("one_hot indices must be int32, got " +
                           std::string(dtypeName(idx.dtype())));
        const int64_t depth = a.i("depth");
        if (depth < 0) throw ShapeError("one_hot depth " + num(depth) + " < 0");
        Shape s = idx.shape();
        s.push_back(depth);
        const DType dt = dtypeFromName(a.s("dtype", "float32"));
        Tensor y = Tensor::full(dt, s, a.f("off", 0.0));
        const int32_t* ix = idx.data<int32_t>();
        dispatchAll(dt, [&](auto z) {
          using T = decltype(z);
          const T on = dt == DType::Bool ? T(a.f("on", 1.0) != 0.0) : T(a.f("on", 1.0));
          T* out = y.data<T>();
          for (int64_t i = 0; i < idx.numel(); ++i)
            if (ix[i] >= 0 && ix[i] < depth) out[i * depth + ix[i]] = on;
        });
        return Tensors{y};
      }),
  });
}

// ---------------------------------------------------------------------------------------------
// Typed helpers (api.h).

namespace ops {

Value reshape(Emitter& b, Value x, const Shape& shape) {
  return b.op1("reshape", {x}, {{"shape", shape}});
}

Value transpose(Emitter& b, Value x, const std::vector<int64_t>& perm) {
  return b.op1("transpose", {x}, {{"perm", perm}});
}

Value expandDims(Emitter& b, Value x, int64_t axis) {
  return b.op1("expand_dims", {x}, {{"axis", axis}});
}

Value squeeze(Emitter& b, Value x, const std::vector<int64_t>& axes) {
  return b.op1("squeeze", {x}, {{"axes", axes}});
}

Value tile(Emitter& b, Value x, const std::vector<int64_t>& multiples) {
  return b.op1("tile", {x}, {{"multiples", multiples}});
}

Value broadcastTo(Emitter& b, Value x, const Shape& shape) {
  return b.op1("broadcast_to", {x}, {{"shape", shape}});
}

Value shapeOf(Emitter& b, Value x) { return b.op1("shape_of", {x}, {}); }

Value concat(Emitter& b, const std::vector<Value>& xs, int64_t axis) {
  return b.op1("concat", xs, {{"axis", axis}});
}

Value stack(Emitter& b, const std::vector<Value>& xs, int64_t axis) {
  return b.op1("stack", xs, {{"axis", axis}});
}

std::vector<Value> unstack(Emitter& b, Value x, int64_t axis) {
  return b.op("unstack", {x}, {{"axis", axis}});
}

Value slice(Emitter& b, Value x, const std::vector<int64_t>& begin,
            const std::vector<int64_t>& size) {
  return b.op1("slice", {x}, {{"begin", begin}, {"size", size}});
}

Value pad(Emitter& b, Value x, const std::vector<int64_t>& paddings) {
  return b.op1("pad", {x}, {{"paddings", paddings}});
}

Value gather(Emitter& b, Value params, Value indices, int64_t axis) {
  return b.op1("gather", {params, indices}, {{"axis", axis}});
}

Value scatterAdd(Emitter& b, Value updates, Value indices, int64_t axis, const Shape& paramsShape) {
  return b.op1("scatter_add", {updates, indices}, {{"axis", axis}, {"shape", paramsShape}});
}

Value oneHot(Emitter& b, Value indices, int64_t depth, double on, double off, DType dt) {
  return b.op1("one_hot", {indices},
               {{"depth", depth}, {"on", on}, {"off", off}, {"dtype", std::string(dtypeName(dt))}});
}

}  // namespace ops

}  // namespace gl
