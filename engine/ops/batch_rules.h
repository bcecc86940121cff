#pragma once
// Batching rules for vectorized_map, shared by the registry entries that use them (each entry
// names its rule beside its forward and VJP: `.batch = batch::elementwise()`). A rule sees the
// inputs with their batch axis (-1 = not batched; at least one is batched) and returns every
// output batched along axis 0. A rule that cannot apply (a shape it does not handle) throws
// EngineError with the reason, and the batching transform falls back to a loop for that node.
#include "engine/ops/registry.h"

namespace gl::batch {

// Elementwise with NumPy broadcasting over any number of inputs (unary, binary, where): the
// per-example shapes broadcast, so a batched input of lower rank gets size-1 axes after its
// batch axis.
BatchRule elementwise();
// Reductions with attrs axes (empty = all) and keepdims.
BatchRule reduction();
// Ops with one int attr "axis" counted in the output's per-example rank (softmax, argmax).
BatchRule axisAttr(const char* attr = "axis");
BatchRule reshape();
BatchRule transpose();
BatchRule expandDims();
BatchRule squeeze();
// concat / stack: unbatched operands are broadcast along the batch first. `newAxis` for stack.
BatchRule join(bool newAxis);
BatchRule gather();
// scatter_add(updates, indices) with batched updates and shared indices.
BatchRule scatterAdd();
BatchRule einsum();
BatchRule matmul();
BatchRule broadcastTo();
BatchRule slice();
BatchRule tile();
BatchRule pad();
// sum_to(shape), the reverse of broadcasting (in VJPs, so in batched jacobians).
BatchRule sumTo();
// softmax_cross_entropy(labels, logits): per row over the last axis.
BatchRule rowwise();

// TensorArray ops (batch_rules_list.cpp). A batched list holds entries that carry the batch axis
// first: entry i of lane l is entry i's row l. Every list input of a rule is batched (the
// transform makes an unbatched list batched before a write or an add of per-lane values), but
// a shared list may be read at a per-lane index (a gather); writes at a per-lane index throw.
// list_new / list_zeros: called with one batched input that only gives the batch size (the
// ops have no inputs; the transform calls it when an unbatched list becomes batched).
// `knownElem`: prefix the batch axis to elem_shape even when empty (zero-default lists read
// unwritten entries as zeros of elem_shape, so [] means scalars there, not "unknown").
BatchRule newList(bool knownElem);
BatchRule listWrite();
BatchRule listRead();
BatchRule listStack();
BatchRule listUnstack();
BatchRule listGather();
BatchRule listScatter();
BatchRule listSize();
BatchRule listAdd();

// Helpers for rules written elsewhere.
// v with its batch axis moved to 0 (v itself when axis is 0).
Value batchFirst(Emitter& b, Value v, int axis);
// The batch size of the first batched input, or -1 when it is not known statically.
int64_t batchSize(Emitter& b, const std::vector<Value>& in, const std::vector<int>& axes);
// v (unbatched) broadcast to a leading batch axis of size n.
Value broadcastBatch(Emitter& b, Value v, int64_t n);

}  // namespace gl::batch
