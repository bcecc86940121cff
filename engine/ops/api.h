#pragma once
// Typed helpers over Builder::op, so VJP rules and the C++ API read like math:
//   return {mul(b, g, cos(b, x))};
// Each family file (ops/<family>.cpp) defines the helpers of its own primitives.
#include <string>
#include <vector>

#include "engine/graph/builder.h"

namespace gl::ops {

// elementwise.cpp -------------------------------------------------------------------------
Value identity(Builder& b, Value x);
Value neg(Builder& b, Value x);
Value exp(Builder& b, Value x);
Value log(Builder& b, Value x);
Value sin(Builder& b, Value x);
Value cos(Builder& b, Value x);
Value tanh(Builder& b, Value x);
Value sigmoid(Builder& b, Value x);
Value relu(Builder& b, Value x);
Value sqrt(Builder& b, Value x);
Value abs(Builder& b, Value x);
Value square(Builder& b, Value x);
Value sign(Builder& b, Value x);
Value add(Builder& b, Value x, Value y);
Value sub(Builder& b, Value x, Value y);
Value mul(Builder& b, Value x, Value y);
Value div(Builder& b, Value x, Value y);
Value pow(Builder& b, Value x, Value y);
Value maximum(Builder& b, Value x, Value y);
Value minimum(Builder& b, Value x, Value y);
// Comparisons return bool tensors and carry no gradient.
Value equal(Builder& b, Value x, Value y);
Value notEqual(Builder& b, Value x, Value y);
Value less(Builder& b, Value x, Value y);
Value lessEqual(Builder& b, Value x, Value y);
Value greater(Builder& b, Value x, Value y);
Value greaterEqual(Builder& b, Value x, Value y);
Value logicalAnd(Builder& b, Value x, Value y);
Value logicalOr(Builder& b, Value x, Value y);
Value logicalNot(Builder& b, Value x);
// where(c, x, y): no gradient into the predicate c.
Value where(Builder& b, Value c, Value x, Value y);
Value cast(Builder& b, Value x, DType dt);
Value stopGradient(Builder& b, Value x);
// Multiplies by / adds a Python scalar of x's dtype.
Value scale(Builder& b, Value x, double s);
Value addScalar(Builder& b, Value x, double s);

// reduce.cpp ------------------------------------------------------------------------------
// axes empty = all axes.
Value reduceSum(Builder& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
Value reduceMean(Builder& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
Value reduceMax(Builder& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
Value reduceMin(Builder& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
// Sums the broadcast dimensions of x away so that it has `shape` (reverse of broadcasting).
Value sumTo(Builder& b, Value x, const Shape& shape);
Value argmax(Builder& b, Value x, int64_t axis);

// shape_ops.cpp ---------------------------------------------------------------------------
Value reshape(Builder& b, Value x, const Shape& shape);                       // one -1 is inferred
Value transpose(Builder& b, Value x, const std::vector<int64_t>& perm = {});  // {} = reverse
Value expandDims(Builder& b, Value x, int64_t axis);
Value squeeze(Builder& b, Value x, const std::vector<int64_t>& axes = {});
Value tile(Builder& b, Value x, const std::vector<int64_t>& multiples);
Value broadcastTo(Builder& b, Value x, const Shape& shape);
Value concat(Builder& b, const std::vector<Value>& xs, int64_t axis);
Value stack(Builder& b, const std::vector<Value>& xs, int64_t axis = 0);
std::vector<Value> unstack(Builder& b, Value x, int64_t axis = 0);
// begin/size per dimension; size -1 = to the end.
Value slice(Builder& b, Value x, const std::vector<int64_t>& begin,
            const std::vector<int64_t>& size);
// Zero padding: paddings = {before0, after0, before1, after1, ...}.
Value pad(Builder& b, Value x, const std::vector<int64_t>& paddings);
// gather(params, indices, axis): out.shape = params[:axis] + indices.shape + params[axis+1:].
Value gather(Builder& b, Value params, Value indices, int64_t axis = 0);
// Adds slices of `updates` into zeros of params' shape (the reverse of gather).
Value scatterAdd(Builder& b, Value updates, Value indices, int64_t axis, const Shape& paramsShape);
Value oneHot(Builder& b, Value indices, int64_t depth, double on = 1.0, double off = 0.0,
             DType dt = DType::F32);

// linalg.cpp ------------------------------------------------------------------------------
// Batch dimensions broadcast; rank-1 operands are not promoted (use reshape).
Value matmul(Builder& b, Value x, Value y, bool transposeA = false, bool transposeB = false);
Value einsum(Builder& b, const std::string& equation, const std::vector<Value>& operands);

// conv.cpp --------------------------------------------------------------------------------
// x NHWC, filter HWIO; padding "VALID" or "SAME".
Value conv2d(Builder& b, Value x, Value filter, const std::vector<int64_t>& strides,
             const std::string& padding);
Value globalAvgPool(Builder& b, Value x, bool keepdims = false);

// nn.cpp ----------------------------------------------------------------------------------
Value softmax(Builder& b, Value logits, int64_t axis = -1);
Value logSoftmax(Builder& b, Value logits, int64_t axis = -1);
// Per-row loss: -sum(labels * log_softmax(logits), axis=-1).
Value softmaxCrossEntropy(Builder& b, Value labels, Value logits);

// random.cpp ------------------------------------------------------------------------------
Value randomNormal(Builder& b, const Shape& shape, double mean, double stddev, DType dt,
                   int64_t seed);
Value randomUniform(Builder& b, const Shape& shape, double lo, double hi, DType dt, int64_t seed);

}  // namespace gl::ops
