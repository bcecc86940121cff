#pragma once
// Typed helpers over Emitter::op, so VJP rules and the C++ API read like math:
//   return {mul(b, g, cos(b, x))};
// Each family file (ops/<family>.cpp) defines the helpers of its own primitives.
#include <string>
#include <vector>

#include "engine/ops/emitter.h"

namespace gl::ops {

// elementwise.cpp -------------------------------------------------------------------------
Value identity(Emitter& b, Value x);
Value neg(Emitter& b, Value x);
Value exp(Emitter& b, Value x);
Value log(Emitter& b, Value x);
Value sin(Emitter& b, Value x);
Value cos(Emitter& b, Value x);
Value tanh(Emitter& b, Value x);
Value sigmoid(Emitter& b, Value x);
Value relu(Emitter& b, Value x);
Value sqrt(Emitter& b, Value x);
Value abs(Emitter& b, Value x);
Value square(Emitter& b, Value x);
Value sign(Emitter& b, Value x);
Value add(Emitter& b, Value x, Value y);
Value sub(Emitter& b, Value x, Value y);
Value mul(Emitter& b, Value x, Value y);
Value div(Emitter& b, Value x, Value y);  // int32: floor division (Python's //)
// TF's truediv (x / y, tf.divide, tf.math.truediv): int32 operands divide as float64.
Value trueDiv(Emitter& b, Value x, Value y);
Value pow(Emitter& b, Value x, Value y);
Value maximum(Emitter& b, Value x, Value y);
Value minimum(Emitter& b, Value x, Value y);
// Comparisons return bool tensors and carry no gradient.
Value equal(Emitter& b, Value x, Value y);
Value notEqual(Emitter& b, Value x, Value y);
Value less(Emitter& b, Value x, Value y);
Value lessEqual(Emitter& b, Value x, Value y);
Value greater(Emitter& b, Value x, Value y);
Value greaterEqual(Emitter& b, Value x, Value y);
Value logicalAnd(Emitter& b, Value x, Value y);
Value logicalOr(Emitter& b, Value x, Value y);
Value logicalNot(Emitter& b, Value x);
// where(c, x, y): no gradient into the predicate c.
Value where(Emitter& b, Value c, Value x, Value y);
Value cast(Emitter& b, Value x, DType dt);
Value stopGradient(Emitter& b, Value x);
// Multiplies by / adds a Python scalar of x's dtype.
Value scale(Emitter& b, Value x, double s);
Value addScalar(Emitter& b, Value x, double s);

// reduce.cpp ------------------------------------------------------------------------------
// axes empty = all axes.
Value reduceSum(Emitter& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
Value reduceMean(Emitter& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
Value reduceMax(Emitter& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
Value reduceMin(Emitter& b, Value x, const std::vector<int64_t>& axes = {}, bool keepdims = false);
// Sums the broadcast dimensions of x away so that it has `shape` (reverse of broadcasting).
Value sumTo(Emitter& b, Value x, const Shape& shape);
// sumTo(x, shape of `like`) and broadcastTo(x, shape of `like`): the static shape when it is
// fully known, else the run-time one (shape_of(like)), as TF's gradients read
// array_ops.shape(op.inputs[0]). VJPs use these, never a static shape with unknown dims.
Value sumToLike(Emitter& b, Value x, Value like);
Value broadcastLike(Emitter& b, Value x, Value like);
Value argmax(Emitter& b, Value x, int64_t axis);

// shape_ops.cpp ---------------------------------------------------------------------------
Value reshape(Emitter& b, Value x, const Shape& shape);                       // one -1 is inferred
Value transpose(Emitter& b, Value x, const std::vector<int64_t>& perm = {});  // {} = reverse
Value expandDims(Emitter& b, Value x, int64_t axis);
Value squeeze(Emitter& b, Value x, const std::vector<int64_t>& axes = {});
Value tile(Emitter& b, Value x, const std::vector<int64_t>& multiples);
Value broadcastTo(Emitter& b, Value x, const Shape& shape);
// tf.shape(x): the run-time shape as an int32 vector (not differentiable).
Value shapeOf(Emitter& b, Value x);
Value concat(Emitter& b, const std::vector<Value>& xs, int64_t axis);
Value stack(Emitter& b, const std::vector<Value>& xs, int64_t axis = 0);
std::vector<Value> unstack(Emitter& b, Value x, int64_t axis = 0);
// begin/size per dimension; size -1 = to the end.
Value slice(Emitter& b, Value x, const std::vector<int64_t>& begin,
            const std::vector<int64_t>& size);
// Zero padding: paddings = {before0, after0, before1, after1, ...}.
Value pad(Emitter& b, Value x, const std::vector<int64_t>& paddings);
// A slice along one axis at a run-time begin and size (int32 scalars), and its adjoint: x placed
// at begin in zeros of run-time extent total. The static sizes are what is known (-1: unknown).
Value sliceAxis(Emitter& b, Value x, Value begin, Value size, int64_t axis, int64_t staticSize);
Value padAxis(Emitter& b, Value x, Value begin, Value total, int64_t axis, int64_t staticTotal);
// x's size along axis as an int32 scalar: a constant when known, else read at run time.
Value sizeAlongAxis(Emitter& b, Value x, int64_t axis);
// TF's Assert: stops the run with message and the first `summarize` entries of each data
// tensor when the bool scalar condition is false (ops/asserts.cpp). Mark the node a side effect.
Value assertThat(Emitter& b, Value condition, const std::vector<Value>& data,
                 const std::string& message, int64_t summarize);
// gather(params, indices, axis): out.shape = params[:axis] + indices.shape + params[axis+1:].
Value gather(Emitter& b, Value params, Value indices, int64_t axis = 0);
// Adds slices of `updates` into zeros of params' shape (the reverse of gather).
Value scatterAdd(Emitter& b, Value updates, Value indices, int64_t axis, const Shape& paramsShape);
Value oneHot(Emitter& b, Value indices, int64_t depth, double on = 1.0, double off = 0.0,
             DType dt = DType::F32);

// linalg.cpp ------------------------------------------------------------------------------
// Batch dimensions broadcast; rank-1 operands are not promoted (use reshape).
Value matmul(Emitter& b, Value x, Value y, bool transposeA = false, bool transposeB = false);
Value einsum(Emitter& b, const std::string& equation, const std::vector<Value>& operands);

// conv.cpp --------------------------------------------------------------------------------
// x NHWC, filter HWIO; padding "VALID" or "SAME"; an optional bias [O] added to every pixel.
Value conv2d(Emitter& b, Value x, Value filter, const std::vector<int64_t>& strides,
             const std::string& padding, Value bias = {});
Value globalAvgPool(Emitter& b, Value x, bool keepdims = false);

// nn.cpp ----------------------------------------------------------------------------------
Value softmax(Emitter& b, Value logits, int64_t axis = -1);
Value logSoftmax(Emitter& b, Value logits, int64_t axis = -1);
// Per-row loss: -sum(labels * log_softmax(logits), axis=-1).
Value softmaxCrossEntropy(Emitter& b, Value labels, Value logits);

// random.cpp ------------------------------------------------------------------------------
Value randomNormal(Emitter& b, const Shape& shape, double mean, double stddev, DType dt,
                   int64_t seed);
Value randomUniform(Emitter& b, const Shape& shape, double lo, double hi, DType dt, int64_t seed);

}  // namespace gl::ops
