#pragma once
// What Python sees of a tensor under TF 2's execution model (issue #27). Where code runs eagerly
// (Context::eager: outside tf.function, not in a loop body being traced) a tensor is TF's
// EagerTensor: printing shows its value, and float()/int()/bool()/len()/__index__ read it, as
// tensorflow/python/framework/ops.py's _EagerTensorBase does. Elsewhere it is a symbolic tensor,
// and these are TF's errors (tensor.py's Tensor), located at the script's line and column.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/lang/tracer_context.h"

namespace gl::lang::trace {

// repr()'s reader of eager values through the Context; a failed evaluation is an error at loc.
class EagerValues final : public TensorValues {
 public:
  EagerValues(Context& cx, SourceLoc loc) : cx_(cx), loc_(std::move(loc)) {}
  std::optional<Tensor> valueNow(Value v) const override;

 private:
  Context& cx_;
  SourceLoc loc_;
};

// str(v) and repr(v) as Python prints them, tensors with their values where they have one.
std::string strOf(Context& cx, const Val& v, const SourceLoc& loc);
std::string reprOf(Context& cx, const Val& v, const SourceLoc& loc);

// The value of tensor v (a tf.Variable: its value now) where it runs eagerly; nullopt for a
// symbolic tensor.
std::optional<Tensor> eagerValueOf(Context& cx, const Val& v, const SourceLoc& loc);

// Whether graph value v has a value now: code runs eagerly (Context::eager) and v was built
// eagerly (at the top level, not in a traced body). The one place that decides whether a tensor
// is TF's EagerTensor or a symbolic one, for printing, conversions, numpy() and type().
bool hasEagerValue(const Context& cx, Value v);
// hasEagerValue of a tensor Val (a tf.Variable: its value now); false for anything else.
bool isEagerTensor(const Context& cx, const Val& v);

// The Python conversions of a tensor (float(x), int(x), operator.index(x) as range() and list
// indexing use it): EagerTensor's __float__/__int__/__index__ on its numpy value, TF's TypeError
// for a symbolic tensor. `what` names the construct in messages ("float()", "range()").
enum class PyNumber { Float, Int, Index };
Val tensorToNumber(Context& cx, const Val& v, PyNumber how, const std::string& what,
                   const SourceLoc& loc);
// bool(x) and the truth that if/while/and/or/not read: EagerTensor.__bool__ (numpy's truth of
// the value: ambiguous for more than one element), TF's OperatorNotAllowedInGraphError for a
// symbolic tensor.
bool tensorTruth(Context& cx, const Val& v, const SourceLoc& loc);
// len(x) of an eager tensor (TF's TypeError for a scalar); nullopt for a symbolic tensor, whose
// len() AutoGraph computes from the static shape.
std::optional<int64_t> eagerTensorLen(Context& cx, const Val& v, const SourceLoc& loc);

}  // namespace gl::lang::trace
