#pragma once
// The built-in object types that code outside the file making them tests for by type (as<T>,
// never by display name): Python's range, tf.range with tensor bounds, tf.TensorArray. The
// other objects (tapes, layers, modules, functions) stay private to the files that make them.
#include <map>

#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

// range(...) stays lazy so that `for i in range(10**12)` stops at maxUnroll, not in malloc.
struct RangeObj : Object {
  int64_t start = 0, stop = 0, step = 1;
  std::string typeName() const override { return "range"; }
  std::optional<Val> attr(Context&, const std::string& n) override {
    if (n == "start") return Val::integer(start);
    if (n == "stop") return Val::integer(stop);
    if (n == "step") return Val::integer(step);
    return std::nullopt;
  }
  int64_t size() const {  // in 128 bits: range(-2**63, 2**63 - 1) must not overflow
    const __int128 a = start, z = stop, s = step;
    const __int128 n =
        s > 0 ? (z > a ? (z - a + s - 1) / s : 0) : (a > z ? (a - z - s - 1) / -s : 0);
    return n > INT64_MAX ? INT64_MAX : int64_t(n);
  }
};

// tf.range with tensor bounds, or too long for a constant: its length is known only when the
// graph runs, so only a for loop (one while_loop) or a conversion to a tensor can use it.
struct LazyRangeObj : Object {
  explicit LazyRangeObj(std::shared_ptr<const RangeInfo> r) : range(std::move(r)) {}
  std::string typeName() const override { return "tf.range"; }
  std::shared_ptr<const RangeInfo> range;
};

// tf.TensorArray: a value (write returns a new one) whose graph state is one list tensor
// (tracer_builtins_objects.cpp).
struct TensorArrayObj : Object {
  DType dtype = DType::F32;
  Value list;
  int64_t size = -1;  // static size; -1 when dynamic or unknown
  bool dynamic = false;
  // infer_shape=False: entries of different shapes. GradLab keeps them while tracing, one graph
  // value per Python int index (ordinary ops between them carry the gradient), not in `list`.
  bool varyingShapes = false;
  std::map<int64_t, Value> entries;
  std::string typeName() const override { return "TensorArray"; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override { return {"dtype"}; }
};

}  // namespace gl::lang::trace
