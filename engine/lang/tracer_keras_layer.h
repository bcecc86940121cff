#pragma once
// The Keras layer object every layer kind derives from: its variables (made once, at the top
// level of the graph, from Keras initializers), its activation, and the call protocol.
#include <memory>
#include <string>
#include <vector>

#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_keras_init.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

struct KerasState;

// A weight: a tf.Variable at the top level of the graph whatever region is being built (Keras
// makes weights inside tf.init_scope), named as Keras names it (tfName "dense/kernel" for
// dense/kernel:0) and located where its layer was made.
inline std::shared_ptr<VarState> makeWeightVariable(Context& cx, const Tensor& init,
                                                    const std::string& tfName,
                                                    const SourceLoc& loc) {
  const int region = cx.b.currentRegion();
  const SourceLoc saved = cx.b.loc();
  cx.b.setCurrentRegion(0);
  cx.b.setLoc(loc);
  Value v = cx.b.variable(init, tfName);
  cx.b.graph().node(v).attrs.set("tf_name", tfName);
  auto var = std::make_shared<VarState>();
  var->handle = var->current = v;
  cx.registerVariable(var);  // at the top level, where the weight lives
  cx.b.setCurrentRegion(region);
  cx.b.setLoc(saved);
  return var;
}

struct LayerObj : Object {
  std::string kind;  // "Dense", "Conv2D", ...
  std::string name;
  SourceLoc loc;   // where the layer was made: its variables are located there
  Val activation;  // None, a string or a function
  bool built = false;
  std::vector<Value> variables;                   // the weights' Variable nodes
  std::vector<std::shared_ptr<VarState>> states;  // the same weights as tf.Variables
  std::string typeName() const override { return kind; }
  bool callable() const override { return true; }
  std::optional<Val> attr(Context& cx, const std::string& n) override {
    if (n == "trainable_variables" || n == "variables" || n == "weights") {
      std::vector<Val> vs;
      for (const auto& s : allStates()) vs.push_back(stateVal(cx, s));
      return Val::listOf(std::move(vs));
    }
    if (n == "kernel" && !states.empty()) return stateVal(cx, states[0]);
    if (n == "bias" && states.size() > 1) return stateVal(cx, states[1]);
    if (n == "built") return Val::boolean(built);
    if (n == "name") return Val::str(name);
    if (n == "set_weights") {  // Keras's base Layer method, shared with script subclasses
      auto m = std::make_shared<BuiltinObj>(*lookupBuiltin("Layer.set_weights")->as<BuiltinObj>());
      m->self = Val::object(shared_from_this());
      return Val::object(m);
    }
    return std::nullopt;
  }
  std::vector<std::string> attrNames() const override {
    return {"trainable_variables", "variables", "weights", "kernel", "bias", "built", "name",
            "set_weights"};
  }
  virtual std::vector<std::shared_ptr<VarState>> allStates() const { return states; }
  // What compile() keeps for a built-in model (Sequential); null for other layers.
  virtual KerasState* modelState() { return nullptr; }
  // A weight as the script sees it: a tf.Variable (optimizers assign it, tapes read it).
  static Val stateVal(Context& cx, const std::shared_ptr<VarState>& s) {
    return cx.fresh(Val::variable(s));
  }
  // Weight k's current value, read as a tf.Variable's: recording tapes watch it, and what an
  // optimizer assigned is what later calls compute with.
  Value weight(Context& cx, size_t k) {
    return cx.readVariable(Val::variable(states.at(k))).tensorValue();
  }
  // Creates the variables for inputs of this shape (last dimension known); layers without
  // variables have nothing to build.
  virtual void build(Context&, const Shape&, DType) { built = true; }
  virtual Value forward(Context& cx, Value x, const SourceLoc& loc) = 0;
  Val call(Context& cx, CallArgs& args) override {
    // `training` changes nothing in these layers (no dropout or batch statistics); a mask is
    // refused, as Keras refuses it for layers that do not support masking.
    static const Signature sig = Signature::parse("inputs, ~training=None, mask=None");
    Bound a(cx, kind, sig, args);
    Value x = a.tensor("inputs");
    a.checkAllRead();
    return Val::tensor(forward(cx, x, args.loc));
  }

  // A variable at the top level of the graph, whatever region is being built.
  Value makeVariable(Context& cx, const Tensor& init, const std::string& what) {
    auto var = makeWeightVariable(cx, init, name + "/" + what, loc);
    variables.push_back(var->handle);
    states.push_back(var);
    return var->handle;
  }
  // Weights from a Keras initializer (kernel_initializer, bias_initializer).
  Value makeWeight(Context& cx, const Val& init, const Shape& s, DType dt,
                   const std::string& what) {
    cx.b.checkBudget(TypeInfo{dt, s}, kind + " " + what);  // before the weights are allocated
    return makeVariable(cx, initialValue(cx, init, s, dt), what);
  }
  Value activate(Context& cx, Value y, const SourceLoc& callLoc) {
    return activateWith(cx, activation, y, callLoc);
  }
  // y through `act`: None, an activation's name or a function.
  Value activateWith(Context& cx, const Val& act, Value y, const SourceLoc& callLoc) {
    if (act.isNone()) return y;
    if (act.kind() == Kind::Str) {
      const std::string& s = act.text();
      if (s == "linear") return y;
      if (s == "relu") return gl::ops::relu(cx.b, y);
      if (s == "sigmoid") return gl::ops::sigmoid(cx.b, y);
      if (s == "tanh") return gl::ops::tanh(cx.b, y);
      if (s == "softmax") return gl::ops::softmax(cx.b, y);
      cx.fail(loc, "unknown activation '" + s + "' (relu, sigmoid, tanh, softmax, linear)");
    }
    Val r = cx.callSimple(act, {Val::tensor(y)}, callLoc, "activation");
    return cx.toTensor(r, callLoc);
  }
  int64_t lastDim(Context& cx, Value x, const SourceLoc& callLoc) {
    const Shape& s = cx.b.type(x).shape;
    if (s.empty() || s.back() < 0)
      cx.fail(callLoc, kind + " needs inputs with a known last dimension, got " + shapeStr(s));
    return s.back();
  }
};

// Keras's generic_utils.to_snake_case: "Conv2D" -> "conv2d", "MyModel" -> "my_model",
// "GlobalAveragePooling2D" -> "global_average_pooling2d"; a leading '_' gets "private".
std::string toSnakeCase(const std::string& className);
// A layer's default name as Keras's backend.unique_object_name makes it: the class name in snake
// case, numbered from the second layer of that name on ("dense", "dense_1").
std::string uniqueLayerName(Context& cx, const std::string& className);

template <class L>
std::shared_ptr<L> layer(Bound& a, const char* kind) {
  auto l = std::make_shared<L>();
  l->kind = kind;
  l->loc = a.callLoc;
  if (a.none("name")) {
    l->name = uniqueLayerName(a.cx, kind);
  } else {
    l->name = a.string("name");
  }
  return l;
}

// Layers beyond Dense, Conv2D, pooling and Sequential (tracer_keras_layers.cpp).
void addKerasMoreLayers(BuiltinTable& t);
// SimpleRNN, GRU, LSTM and their cells (tracer_keras_rnn.cpp).
void addKerasRnnLayers(BuiltinTable& t);
// BatchNormalization (tracer_keras_batchnorm.cpp).
void addKerasBatchNorm(BuiltinTable& t);

}  // namespace gl::lang::trace
