#pragma once
// Script classes derived from tf.keras.layers.Layer, tf.keras.Model and tf.Module: the three
// built-in bases, the state they keep in each instance (KerasState) and the attributes they give
// it (tracer_keras_subclass.cpp). What Keras does in Layer.__setattr__, __call__ and its weight
// properties is reproduced here as Keras 2 (TF 2.x) documents and implements it:
//   - weights made by add_weight() or assigned as tf.Variable attributes are the layer's own, in
//     creation order; layers, variables and modules held in attributes (also inside lists,
//     tuples and dicts) are tracked in the order they were assigned;
//   - trainable_weights = own trainable + each tracked child's trainable_weights (deduplicated);
//   - __call__ builds the layer on its first call (build(input_shape)), then runs call(), passing
//     `training` only to a call() that takes it and handing an outer call's `training` down to
//     the layers called inside it.
// tf.Module orders its variables as tf.Module._flatten_module does: attributes sorted by name,
// a module's own variables before its submodules'.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_classes.h"

namespace gl::lang::trace {

// What the built-in base keeps in an instance of a class derived from it.
struct KerasState {
  NativeBase base = NativeBase::None;
  bool initialized = false;  // the base's __init__ ran (super().__init__())
  bool built = false;
  bool trainable = true;
  std::string name;
  DType dtype = DType::F32;
  // Own weights: add_weight() and tf.Variables assigned to attributes, in creation order.
  std::vector<std::shared_ptr<VarState>> weights;
  std::vector<Val> losses;  // add_loss()
  Val buildInputShape;      // what build() was given
  // What Model.compile() resolved (tracer_keras_training.cpp).
  bool compiled = false;
  Val optimizer, loss, metrics;  // metrics: a list of (name, function) pairs
  std::vector<Val> metricNames;  // "loss", then each metric's name
};

// The built-in base class (one per kind, shared and never changed).
std::shared_ptr<ClassObj> nativeClass(NativeBase base);
// The built-in base at the root of cls's chain, or None.
NativeBase nativeBaseOf(const ClassObj& cls);
// A new instance's state when its class derives from a built-in base; null otherwise.
std::shared_ptr<KerasState> newKerasState(const ClassObj& cls);

// An attribute the built-in base gives `self` (methods bound to it, weight properties);
// nullopt when the base has no such attribute.
std::optional<Val> kerasAttr(Context& cx, const Val& self, const std::string& name,
                             const SourceLoc& loc);
// The base's method `name` bound to self (super().build(...)); nullopt when it has none.
std::optional<Val> kerasMethod(const Val& self, NativeBase base, const std::string& name);
std::vector<std::string> kerasAttrNames(NativeBase base);
// self.name = value on an instance of a Keras class: tracks the variables in value as Keras's
// __setattr__ does, and refuses what Keras refuses. Returns true when it stored the value
// itself (built, trainable).
bool kerasSetAttr(Context& cx, InstanceObj& inst, const std::string& name, const Val& value,
                  const SourceLoc& loc);

// For the duration of one layer call: the `training` that the layers it calls inherit (Keras
// hands an outer call's `training` down; unchanged when nullopt), and the depth of nested calls.
class LayerCallScope {
 public:
  explicit LayerCallScope(std::optional<bool> training);
  ~LayerCallScope();
  LayerCallScope(const LayerCallScope&) = delete;
  LayerCallScope& operator=(const LayerCallScope&) = delete;

 private:
  std::optional<bool> saved_;
};
std::optional<bool> inheritedTraining();
// `training` as a layer that takes it sees it: the argument when given, else the outer call's,
// else False (Keras's default outside fit()).
bool trainingOf(Bound& a, const std::string& param = "training");

// The weights of a layer-like value (a built-in layer, a Keras or tf.Module instance) as the
// property `which` ("trainable_weights", "non_trainable_weights", "weights") gives them.
std::vector<std::shared_ptr<VarState>> layerWeights(Context& cx, const Val& layer,
                                                    const std::string& which, const SourceLoc& loc);
// True for values Keras tracks as layers (built-in layers, Keras instances).
bool isLayerValue(const Val& v);

}  // namespace gl::lang::trace
