#pragma once
// What VJP rules and the typed helpers of ops/api.h need to add nodes: primitives by name,
// constants, and static types. The Builder (build/) implements it; the primitive families
// depend only on this interface, so ops/ sits below build/.
#include <string>
#include <vector>

#include "engine/graph/graph.h"

namespace gl {

class Emitter {
 public:
  virtual ~Emitter() = default;
  // A primitive node; returns its outputs. Throws EngineError (op and location) on bad types.
  virtual std::vector<Value> op(const std::string& prim, const std::vector<Value>& inputs,
                                const Attrs& attrs = {}) = 0;
  virtual Value constant(const Tensor& t, const std::string& name = {}) = 0;
  virtual const TypeInfo& type(Value v) const = 0;
  // The node computing v, for VJP rules that fuse with their adjoint's producer (conv2d's filter
  // gradient reads a global average pool's gradient before it is broadcast); null when unknown.
  // Only valid until the next node is added.
  virtual const Node* producer(Value /*v*/) const { return nullptr; }

  Value op1(const std::string& prim, const std::vector<Value>& inputs, const Attrs& attrs = {}) {
    return op(prim, inputs, attrs).at(0);
  }
  Value scalar(double v, DType dt = DType::F32) { return constant(Tensor::scalar(v, dt)); }
  // Zeros of a static type reference no forward value, so reverse loop bodies need not save it.
  Value zerosLike(Value v);
  Value onesLike(Value v) { return op1("ones_like", {v}); }
};

}  // namespace gl
