// Subscripts: x[index] goes to sequence indexing (lists, tuples, strings) or tensor indexing;
// the slice objects of x[a:b:c] and Python's slice arithmetic both share; x[i] on the stack of
// a dynamic TensorArray reads the TensorArray.
#include <algorithm>

#include "engine/lang/tracer.h"
#include "engine/lang/tracer_index.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/registry.h"
#include "engine/tensor/diagnostic.h"

namespace gl::lang::trace {

namespace {

struct SliceObj : Object {
  Val lower, upper, step;
  std::string typeName() const override { return "slice"; }
};

int64_t sliceBound(Context& cx, const Val& v, const SourceLoc& loc, const char* what) {
  if (v.kind() == Kind::Int) return v.asInt();
  if (v.kind() == Kind::Bool) return v.asBool();
  if (v.isTensor())
    cx.fail(loc, std::string("slice ") + what +
                     " must be a Python int known while tracing, got a "
                     "tensor; use tf.gather or tf.slice with a tensor");
  cx.fail(loc, std::string("slice ") + what + " must be an int, got " + typeName(v));
}

}  // namespace

Val makeSlice(Val lower, Val upper, Val step) {
  auto s = std::make_shared<SliceObj>();
  s->lower = std::move(lower);
  s->upper = std::move(upper);
  s->step = std::move(step);
  return Val::object(s);
}

bool sliceParts(const Val& v, Val& lower, Val& upper, Val& step) {
  auto s = v.as<SliceObj>();
  if (!s) return false;
  lower = s->lower, upper = s->upper, step = s->step;
  return true;
}

PySlice resolveSlice(Context& cx, const Val& lo, const Val& hi, const Val& st, int64_t n,
                     const SourceLoc& loc) {
  PySlice s;
  s.step = st.isNone() ? 1 : sliceBound(cx, st, loc, "step");
  if (s.step == 0) cx.fail(loc, "slice step cannot be zero");
  auto clampIdx = [&](const Val& v, int64_t def) {
    if (v.isNone()) return def;
    int64_t i = sliceBound(cx, v, loc, "bound");
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

int64_t wrapIndex(Context& cx, int64_t i, int64_t n, const SourceLoc& loc,
                  const std::string& what) {
  const int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n)
    cx.fail(loc,
            diagnosed("index " + std::to_string(i) + " is out of range for " + what + " of size " +
                          std::to_string(n),
                      {DiagCode::IndexOutOfRange, {}, {std::to_string(i), std::to_string(n)}}));
  return j;
}

std::optional<Value> Tracer::readStacked(Value x, const Val& index, const SourceLoc& loc) {
  const Node& n = g_.node(x);
  const Shape& s = b_.type(x).shape;
  if (!runs(n, prims::listStack()) || s.empty() || s[0] >= 0) return std::nullopt;
  if (index.kind() == Kind::Int && index.asInt() < 0) return std::nullopt;
  if (index.isTensor()) {
    const TypeInfo& t = b_.type(index.tensorValue());
    if (!t.shape.empty() || t.dtype != DType::I32) return std::nullopt;
  } else if (index.kind() != Kind::Int) {
    return std::nullopt;
  }
  Value i = toTensor(index, loc, DType::I32);
  at(loc);
  return b_.op1("list_read", {n.inputs[0], i});
}

Val Tracer::subscript(const Val& v, const Val& index, const SourceLoc& loc) {
  if (v.isSeq() || v.kind() == Kind::Str) {
    Val item = indexSequence(cx_, v, index, loc);
    return item.var() ? readVariable(item) : item;
  }
  if (auto d = v.as<DictObj>()) {
    const int at = d->find(index);
    if (at < 0 && d->environ) fail(loc, unsetEnvironMessage(index));
    if (at < 0) fail(loc, "KeyError: " + repr(g_, index) + " is not a key of this dict");
    const Val& item = d->values[size_t(at)];
    return item.var() ? readVariable(item) : item;
  }
  if (const NdArrayObj* a = asNdArray(v)) {
    // Indexed by a tensor (a loop counter): the array becomes a constant tensor, indexed there.
    if (tensorish(index)) return subscript(Val::tensor(toTensor(v, loc)), index, loc);
    return ndarraySubscript(cx_, *a, index, loc);
  }
  if (!v.isTensor()) {
    if (v.as<TensorArrayObj>()) fail(loc, "a TensorArray is read with ta.read(i), not ta[i]");
    fail(loc, "'" + typeName(v) + "' object is not subscriptable");
  }
  if (v.var()) return subscript(Val::tensor(v.var()->current), index, loc);  // its value now
  checkRegion(v.tensorValue(), loc);
  const std::vector<Val> parts =
      index.kind() == Kind::Tuple ? index.items() : std::vector<Val>{index};
  // x[i, ...] on a dynamic TensorArray's stack: read item i, then index the rest.
  if (!parts.empty())
    if (auto r = readStacked(v.tensorValue(), parts[0], loc)) {
      if (parts.size() == 1) return Val::tensor(*r);
      return subscript(Val::tensor(*r), Val::listOf({parts.begin() + 1, parts.end()}, true), loc);
    }
  return Val::tensor(indexTensor(cx_, v.tensorValue(), parts, loc));
}

}  // namespace gl::lang::trace
