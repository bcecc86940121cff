// Batching rules of the TensorArray ops (see batch_rules.h). A batched list keeps the batch axis
// first in every entry, so writes and reads at a shared index stay one op on the whole batch,
// and stack / gather only move the batch axis in front of the entry axis.
#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/emitter.h"

namespace gl::batch {

namespace {

using Values = std::vector<Value>;
using Axes = std::vector<int>;

[[noreturn]] void cannot(const std::string& why) { throw EngineError(why); }

// Swaps axes 0 and 1: [k, B, ...] <-> [B, k, ...].
Value swapFront(Emitter& b, Value v) {
  std::vector<int64_t> perm{1, 0};
  for (int64_t k = 2; k < int64_t(b.type(v).shape.size()); ++k) perm.push_back(k);
  return ops::transpose(b, v, perm);
}

// A list input must arrive batched; an index must not.
void requireBatchedList(const Axes& axes, size_t list, const char* op) {
  if (axes[list] < 0) cannot(std::string(op) + " of a TensorArray shared by all lanes");
}
void requireSharedIndex(const Axes& axes, size_t index, const char* op) {
  if (axes[index] >= 0) cannot(std::string(op) + " at an index that differs per lane");
}

// The batch size of a batched list: its entries' leading axis (-1 while the entry shape is
// still unknown, before the first write).
int64_t listLanes(Emitter& b, Value list) {
  const Shape& s = b.type(list).shape;
  return s.empty() ? -1 : s[0];
}

}  // namespace

BatchRule newList(bool knownElem) {
  return [knownElem](Emitter& b, const Primitive& p, const Values& in, const Axes& axes,
                     const Attrs& a) {
    const int64_t n = batchSize(b, in, axes);
    if (n < 0) cannot("a TensorArray over a batch of unknown size");
    Shape elem = a.ints("elem_shape");
    Attrs out = a;
    if (knownElem || !elem.empty()) {
      elem.insert(elem.begin(), n);
      out.set("elem_shape", elem);
    }
    return b.op(p.name, {}, out);
  };
}

BatchRule listWrite() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    requireBatchedList(axes, 0, "a write into");
    requireSharedIndex(axes, 1, "a TensorArray write");
    Value v = in[2];
    if (axes[2] < 0) {
      const int64_t n = listLanes(b, in[0]);
      if (n < 0) cannot("writing a shared value into a batched TensorArray of unknown shape");
      v = broadcastBatch(b, v, n);
    } else {
      v = batchFirst(b, v, axes[2]);
    }
    return b.op(p.name, {in[0], in[1], v}, a);
  };
}

BatchRule listRead() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    // A shared list read at a per-lane index: lane l reads entry i[l], a gather of the entries.
    if (axes[0] < 0 && axes[1] >= 0) {
      const Value i = batchFirst(b, in[1], axes[1]);
      if (b.type(i).shape.size() != 1) cannot("a TensorArray read at a per-lane index of rank > 0");
      return Values{b.op1("list_gather", {in[0], i})};
    }
    requireSharedIndex(axes, 1, "a TensorArray read");
    return b.op(p.name, in, a);
  };
}

BatchRule listStack() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    requireBatchedList(axes, 0, "a stack");
    return Values{swapFront(b, b.op1(p.name, in, a))};
  };
}

BatchRule listUnstack() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    Value t = batchFirst(b, in[0], axes[0]);
    if (b.type(t).shape.size() < 2) cannot("unstack of a per-lane scalar");
    return b.op(p.name, {swapFront(b, t)}, a);
  };
}

BatchRule listGather() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    requireBatchedList(axes, 0, "a gather");
    requireSharedIndex(axes, 1, "a TensorArray gather");
    return Values{swapFront(b, b.op1(p.name, in, a))};
  };
}

BatchRule listScatter() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    requireSharedIndex(axes, 0, "a TensorArray scatter");
    Value t = batchFirst(b, in[1], axes[1]);
    if (b.type(t).shape.size() < 2) cannot("scatter of a per-lane scalar");
    return b.op(p.name, {in[0], swapFront(b, t)}, a);
  };
}

BatchRule listSize() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    requireBatchedList(axes, 0, "the size");
    // Every lane has the same size; rules return batched outputs, so it is broadcast.
    return Values{broadcastBatch(b, b.op1(p.name, in, a), batchSize(b, in, axes))};
  };
}

BatchRule listAdd() {
  return [](Emitter& b, const Primitive& p, const Values& in, const Axes& axes, const Attrs& a) {
    requireBatchedList(axes, 0, "a sum");
    requireBatchedList(axes, 1, "a sum");
    return b.op(p.name, in, a);
  };
}

}  // namespace gl::batch
