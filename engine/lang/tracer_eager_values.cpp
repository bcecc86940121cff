// What Python sees of a tensor under TF 2's execution model: an eager tensor's value (printing,
// conversions, truth) and a symbolic tensor's errors. Each rule names the TF source it follows;
// TF 2.16 with numpy 1.26 is the reference, as for the rest of GradLab's numpy.
#include "engine/lang/tracer_eager_values.h"

#include <cmath>

#include "engine/exec/run.h"
#include "engine/lang/tracer_format.h"
#include "engine/lang/tracer_numpy.h"

namespace gl::lang::trace {

namespace {

// The graph value a tensor Val stands for now: a tf.Variable's current value (TF reads the
// variable when it is printed or converted).
Value currentValue(const Val& v) { return v.var() ? v.var()->current : v.tensorValue(); }

}  // namespace

std::optional<Tensor> EagerValues::valueNow(Value v) const {
  if (!hasEagerValue(cx_, v) || cx_.graph().type(v).list) return std::nullopt;
  try {
    return cx_.eagerValue(v, loc_);
  } catch (const CancelledError&) {
    throw;
  } catch (const EngineError& e) {
    if (e.loc().line > 0) throw;
    cx_.fail(loc_,
             "this tensor's value cannot be computed while GradLab traces (" + e.message() + ")");
  }
}

std::string strOf(Context& cx, const Val& v, const SourceLoc& loc) {
  const EagerValues values(cx, loc);
  return repr(cx.graph(), v, 0, &values);
}

std::string reprOf(Context& cx, const Val& v, const SourceLoc& loc) {
  const EagerValues values(cx, loc);
  return pyRepr(cx.graph(), v, &values);
}

bool hasEagerValue(const Context& cx, Value v) {
  return cx.eager() && cx.graph().node(v).region == 0;
}

bool isEagerTensor(const Context& cx, const Val& v) {
  return v.isTensor() && hasEagerValue(cx, currentValue(v));
}

std::optional<Tensor> eagerValueOf(Context& cx, const Val& v, const SourceLoc& loc) {
  return EagerValues(cx, loc).valueNow(currentValue(v));
}

Val tensorToNumber(Context& cx, const Val& v, PyNumber how, const std::string& what,
                   const SourceLoc& loc) {
  const std::optional<Tensor> t = eagerValueOf(cx, v, loc);
  if (!t) {
    // A symbolic tensor (tensor.py's Tensor) has no __float__/__int__/__index__: Python's
    // TypeError names its type. (The int()/float() builtins cast it instead, as AutoGraph's
    // int_/float_ do; this is %d/%f formatting and the like.)
    if (how == PyNumber::Index)
      cx.fail(loc, "TypeError: " + what +
                       " needs a Python int, and this tensor is symbolic (inside a tf.function "
                       "or a tensor loop, its value exists only when the graph runs): index "
                       "with tf.gather, or loop with tf.range");
    cx.fail(loc, "TypeError: " + what +
                     " needs a real number, not 'SymbolicTensor' (a tensor inside a tf.function "
                     "or a tensor loop has no value while it is traced): use tf.cast(x, " +
                     (how == PyNumber::Float ? "tf.float32" : "tf.int32") + "), or tf.print");
  }
  // _EagerTensorBase.__float__/__int__: float(self._numpy()), which numpy allows for one
  // element only ("only length-1 arrays can be converted to Python scalars", numpy 1.26).
  if (t->numel() != 1)
    cx.fail(loc, how == PyNumber::Index
                     ? "TypeError: only integer scalar arrays can be converted to a scalar index"
                     : "TypeError: only length-1 arrays can be converted to Python scalars");
  const double x = t->at(0);
  if (how == PyNumber::Float) return Val::real(x);
  // __index__: numpy's ndarray.__index__, for integer (and bool) values of rank 0 only.
  if (how == PyNumber::Index) {
    if (isFloat(t->dtype()) || t->rank() != 0)
      cx.fail(loc, "TypeError: only integer scalar arrays can be converted to a scalar index (" +
                       what + " got a " + dtypeName(t->dtype()) + " tensor of shape " +
                       shapeStr(t->shape()) + "; use int(x) for a float)");
    return Val::integer(int64_t(x));
  }
  if (!std::isfinite(x))
    cx.fail(loc, std::isnan(x) ? "ValueError: cannot convert float NaN to integer"
                               : "OverflowError: cannot convert float infinity to integer");
  return Val::integer(int64_t(x));
}

bool tensorTruth(Context& cx, const Val& v, const SourceLoc& loc) {
  const std::optional<Tensor> t = eagerValueOf(cx, v, loc);
  if (!t)
    // tensor.py, Tensor._disallow_bool_casting.
    cx.fail(loc,
            "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is "
            "not allowed: inside a tf.function or a tensor loop the tensor has no value while "
            "it is traced. An if/while statement on a tensor becomes tf.cond/tf.while_loop; in "
            "an expression use tf.where, tf.logical_and/or/not or tf.cond");
  // _EagerTensorBase.__bool__: bool(x.size > 0 and x) on the numpy value.
  if (t->numel() == 0) return false;
  if (t->numel() > 1)
    cx.fail(loc,
            "ValueError: The truth value of an array with more than one element is ambiguous. "
            "Use a.any() or a.all() (here: tf.reduce_any / tf.reduce_all)");
  return t->at(0) != 0;
}

std::optional<int64_t> eagerTensorLen(Context& cx, const Val& v, const SourceLoc& loc) {
  if (!isEagerTensor(cx, v)) return std::nullopt;
  const Shape& s = cx.graph().type(currentValue(v)).shape;
  // _EagerTensorBase.__len__.
  if (s.empty()) cx.fail(loc, "TypeError: Scalar tensor has no `len()`");
  return s[0];
}

}  // namespace gl::lang::trace
