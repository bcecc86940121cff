// Batching rules (see batch_rules.h). Each moves the batch axis of its batched inputs to the
// front and rewrites the attrs that count axes, so the primitive itself runs once on the batch:
// the per-example axis k becomes axis k + 1.
#include "engine/ops/batch_rules.h"

#include <algorithm>

#include "engine/ops/api.h"
#include "engine/ops/einsum.h"
#include "engine/ops/emitter.h"

namespace gl::batch {

namespace {

using Values = std::vector<Value>;
using Axes = std::vector<int>;

int rankOf(Emitter& b, Value v) { return int(b.type(v).shape.size()); }
// The rank of one example: the batch axis does not count.
int exampleRank(Emitter& b, Value v, int axis) { return rankOf(b, v) - (axis >= 0 ? 1 : 0); }

[[noreturn]] void cannot(const std::string& why) { throw EngineError(why); }

// The only batched input of a one-input rule, batch first.
Value single(Emitter& b, const Values& in, const Axes& axes) {
  if (in.size() != 1) cannot("expects one input");
  return batchFirst(b, in[0], axes[0]);
}

// Inserts size-1 axes after the batch axis until one example has rank `rank`.
Value padExampleRank(Emitter& b, Value v, int rank) {
  while (rankOf(b, v) - 1 < rank) v = ops::expandDims(b, v, 1);
  return v;
}

std::vector<int64_t> shifted(const std::vector<int64_t>& axes, int rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes) out.push_back(normAxis(a, rank) + 1);
  return out;
}

Values apply(Emitter& b, const Primitive& p, const Values& in, const Attrs& attrs) {
  return b.op(p.name, in, attrs);
}

}  // namespace

Value batchFirst(Emitter& b, Value v, int axis) {
  if (axis <= 0) return v;
  std::vector<int64_t> perm{axis};
  for (int i = 0; i < rankOf(b, v); ++i)
    if (i != axis) perm.push_back(i);
  return ops::transpose(b, v, perm);
}

int64_t batchSize(Emitter& b, const Values& in, const Axes& axes) {
  for (size_t i = 0; i < in.size(); ++i)
    if (axes[i] >= 0) return b.type(in[i]).shape.at(size_t(axes[i]));
  return -1;
}

Value broadcastBatch(Emitter& b, Value v, int64_t n) {
  const Shape& s = b.type(v).shape;
  if (n < 0 || !fullyKnown(s)) cannot("broadcasting along the batch needs static shapes");
  Shape target{n};
  target.insert(target.end(), s.begin(), s.end());
  return ops::broadcastTo(b, ops::expandDims(b, v, 0), target);
}

BatchRule elementwise() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    int rank = 0;
    for (size_t i = 0; i < in.size(); ++i) rank = std::max(rank, exampleRank(b, in[i], axes[i]));
    Values moved;
    for (size_t i = 0; i < in.size(); ++i)
      moved.push_back(axes[i] < 0 ? in[i] : padExampleRank(b, batchFirst(b, in[i], axes[i]), rank));
    return apply(b, p, moved, a);
  };
}

BatchRule reduction() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    const int rank = rankOf(b, x) - 1;
    std::vector<int64_t> reduced = a.ints("axes");
    if (reduced.empty())
      for (int i = 0; i < rank; ++i) reduced.push_back(i);
    // A scalar example reduces over nothing; an empty axes attr would mean "all", batch included.
    if (reduced.empty()) return Values{ops::identity(b, x)};
    Attrs out = a;
    out.set("axes", shifted(reduced, rank));
    return apply(b, p, {x}, out);
  };
}

BatchRule axisAttr(const char* attr) {
  return
      [attr](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
        Value x = single(b, in, axes);
        Attrs out = a;
        out.set(attr, int64_t(normAxis(a.i(attr, -1), rankOf(b, x) - 1) + 1));
        return apply(b, p, {x}, out);
      };
}

BatchRule reshape() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    const int64_t n = b.type(x).shape[0];
    const Shape target = a.ints("shape");
    if (n < 0 && std::count(target.begin(), target.end(), -1) > 0)
      cannot("reshape to a shape with -1 needs a static batch size");
    Shape shape{n};
    shape.insert(shape.end(), target.begin(), target.end());
    Attrs out = a;
    out.set("shape", shape);
    return apply(b, p, {x}, out);
  };
}

BatchRule transpose() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    const int rank = rankOf(b, x) - 1;
    std::vector<int64_t> perm = a.ints("perm");
    if (perm.empty())
      for (int i = rank - 1; i >= 0; --i) perm.push_back(i);
    std::vector<int64_t> out{0};
    for (int64_t q : perm) out.push_back(normAxis(q, rank) + 1);
    Attrs attrs = a;
    attrs.set("perm", out);
    return apply(b, p, {x}, attrs);
  };
}

BatchRule expandDims() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    Attrs out = a;
    out.set("axis", int64_t(normAxis(a.i("axis"), rankOf(b, x)) + 1));
    return apply(b, p, {x}, out);
  };
}

BatchRule squeeze() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    const Shape& s = b.type(x).shape;
    const int rank = int(s.size()) - 1;
    std::vector<int64_t> which = a.ints("axes");
    if (which.empty())
      for (int i = 0; i < rank; ++i)
        if (s[size_t(i) + 1] == 1) which.push_back(i);
    if (which.empty()) return Values{ops::identity(b, x)};  // "all size-1 axes" could hit the batch
    Attrs out = a;
    out.set("axes", shifted(which, rank));
    return apply(b, p, {x}, out);
  };
}

BatchRule join(bool newAxis) {
  return [newAxis](Emitter& b, const Primitive& p, const Values& in, const Axes& axes,
                   const Attrs& a) {
    const int64_t n = batchSize(b, in, axes);
    Values moved;
    for (size_t i = 0; i < in.size(); ++i)
      moved.push_back(axes[i] < 0 ? broadcastBatch(b, in[i], n) : batchFirst(b, in[i], axes[i]));
    const int rank = rankOf(b, moved[0]) - 1 + (newAxis ? 1 : 0);
    Attrs out = a;
    out.set("axis", int64_t(normAxis(a.i("axis"), rank) + 1));
    return apply(b, p, moved, out);
  };
}

BatchRule gather() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    if (axes[0] >= 0 && axes[1] >= 0) cannot("gather with batched params and batched indices");
    if (axes[0] >= 0) {  // params batched: gather one axis further in
      Value params = batchFirst(b, in[0], axes[0]);
      Attrs out = a;
      out.set("axis", int64_t(normAxis(a.i("axis"), rankOf(b, params) - 1) + 1));
      return apply(b, p, {params, in[1]}, out);
    }
    // Indices batched: the batch axis of the indices lands where `axis` was in params.
    const int axis = normAxis(a.i("axis"), rankOf(b, in[0]));
    Value indices = batchFirst(b, in[1], axes[1]);
    Value y = apply(b, p, {in[0], indices}, a).at(0);
    return Values{batchFirst(b, y, axis)};
  };
}

BatchRule scatterAdd() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    if (axes[1] >= 0) cannot("scatter_add at indices that differ per lane");
    Value updates = batchFirst(b, in[0], axes[0]);
    const int64_t n = b.type(updates).shape[0];
    if (n < 0) cannot("scatter_add needs a static batch size");
    const Shape target = a.ints("shape");
    Shape shape{n};
    shape.insert(shape.end(), target.begin(), target.end());
    Attrs out = a;
    out.set("axis", int64_t(normAxis(a.i("axis"), int(target.size())) + 1)).set("shape", shape);
    return apply(b, p, {updates, in[1]}, out);
  };
}

BatchRule einsum() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    std::vector<int> ranks;
    for (size_t i = 0; i < in.size(); ++i) ranks.push_back(exampleRank(b, in[i], axes[i]));
    const einsum::Equation eq = einsum::parse(a.s("equation"), ranks);
    std::string used = eq.output;
    for (const std::string& s : eq.inputs) used += s;
    char label = 0;
    for (char c = 'A'; c <= 'z' && !label; ++c)
      if (std::isalpha(static_cast<unsigned char>(c)) && used.find(c) == std::string::npos)
        label = c;
    if (!label) cannot("einsum uses every letter: none left for the batch axis");
    std::string text;
    Values moved;
    for (size_t i = 0; i < in.size(); ++i) {
      if (i) text += ",";
      text += (axes[i] >= 0 ? std::string(1, label) : std::string()) + eq.inputs[i];
      moved.push_back(axes[i] >= 0 ? batchFirst(b, in[i], axes[i]) : in[i]);
    }
    text += "->" + std::string(1, label) + eq.output;
    Attrs out = a;
    out.set("equation", text);
    return apply(b, p, moved, out);
  };
}

BatchRule matmul() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    int rank = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const int r = exampleRank(b, in[i], axes[i]);
      if (r < 2) cannot("matmul of a rank-1 operand");
      rank = std::max(rank, r);
    }
    Values moved;
    for (size_t i = 0; i < in.size(); ++i)
      moved.push_back(axes[i] < 0 ? in[i] : padExampleRank(b, batchFirst(b, in[i], axes[i]), rank));
    return apply(b, p, moved, a);
  };
}

BatchRule broadcastTo() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    const Shape target = a.ints("shape");
    x = padExampleRank(b, x, int(target.size()));
    Shape shape{b.type(x).shape[0]};
    if (shape[0] < 0) cannot("broadcast_to needs a static batch size");
    shape.insert(shape.end(), target.begin(), target.end());
    Attrs out = a;
    out.set("shape", shape);
    return apply(b, p, {x}, out);
  };
}

BatchRule slice() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    std::vector<int64_t> begin{0}, size{-1};
    for (int64_t v : a.ints("begin")) begin.push_back(v);
    for (int64_t v : a.ints("size")) size.push_back(v);
    Attrs out = a;
    out.set("begin", begin).set("size", size);
    return apply(b, p, {x}, out);
  };
}

BatchRule tile() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    std::vector<int64_t> multiples{1};
    for (int64_t v : a.ints("multiples")) multiples.push_back(v);
    Attrs out = a;
    out.set("multiples", multiples);
    return apply(b, p, {x}, out);
  };
}

BatchRule pad() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    std::vector<int64_t> paddings{0, 0};
    for (int64_t v : a.ints("paddings")) paddings.push_back(v);
    Attrs out = a;
    out.set("paddings", paddings);
    return apply(b, p, {x}, out);
  };
}

BatchRule sumTo() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value x = single(b, in, axes);
    const int64_t n = b.type(x).shape[0];
    if (n < 0) cannot("sum_to needs a static batch size");
    // Right-aligned like broadcasting: the batch axis must not meet the target's leading axes,
    // so the target gets size-1 axes in between, dropped after.
    const Shape target = a.ints("shape");
    const int rank = rankOf(b, x) - 1;
    if (int(target.size()) > rank) cannot("sum_to a shape of higher rank");
    Shape padded{n};
    padded.insert(padded.end(), size_t(rank) - target.size(), 1);
    padded.insert(padded.end(), target.begin(), target.end());
    Attrs out = a;
    out.set("shape", padded);
    Value y = apply(b, p, {x}, out).at(0);
    Shape shape{n};
    shape.insert(shape.end(), target.begin(), target.end());
    return Values{ops::reshape(b, y, shape)};
  };
}

BatchRule rowwise() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    const int64_t n = batchSize(b, in, axes);
    Values moved;
    for (size_t i = 0; i < in.size(); ++i)
      moved.push_back(axes[i] < 0 ? broadcastBatch(b, in[i], n) : batchFirst(b, in[i], axes[i]));
    for (Value v : moved)
      if (b.type(v).shape != b.type(moved[0]).shape) cannot("per-row operands of different shapes");
    return apply(b, p, moved, a);
  };
}

}  // namespace gl::batch
