// The built-in bases tf.keras.layers.Layer, tf.keras.Model and tf.Module for script classes
// (tracer_keras_subclass.h says what each reproduces). The references are Keras 2's
// engine/base_layer.py (Layer.__init__, __setattr__, __call__/_maybe_build, add_weight,
// trainable_weights, _flatten_modules, _gather_children_attribute), engine/training.py (Model,
// summary) and TF's tensorflow/python/module/module.py (_flatten_module).
#include "engine/lang/tracer_keras_subclass.h"

#include <algorithm>
#include <set>

#include "engine/lang/tracer.h"
#include "engine/lang/tracer_classes.h"
#include "engine/lang/tracer_keras_init.h"
#include "engine/lang/tracer_keras_layer.h"
#include "engine/lang/tracer_numpy.h"

namespace gl::lang::trace {

namespace {

const char* baseName(NativeBase b) {
  switch (b) {
    case NativeBase::Layer:
      return "Layer";
    case NativeBase::Model:
      return "Model";
    case NativeBase::Module:
      return "Module";
    case NativeBase::None:
      break;
  }
  return "object";
}

InstanceObj& kerasSelf(Bound& a) { return *a.self.as<InstanceObj>(); }
KerasState& kerasState(Bound& a) { return *kerasSelf(a).keras; }

thread_local std::optional<bool> tlsTraining;
thread_local int tlsCallDepth = 0;

// Layers, modules and variables in a value held by an attribute, in Keras's order: lists and
// tuples in order, dicts by sorted key (data_structures._DictWrapper._values sorts them).
void collectTracked(const Val& v, std::vector<Val>& layers,
                    std::vector<std::shared_ptr<VarState>>* vars, int depth) {
  if (depth > kMaxListNesting) return;
  if (v.var()) {
    if (vars) vars->push_back(v.var());
    return;
  }
  if (isLayerValue(v)) {
    layers.push_back(v);
    return;
  }
  if (auto inst = v.as<InstanceObj>(); inst && inst->keras) {
    layers.push_back(v);  // a tf.Module
    return;
  }
  if (v.isSeq()) {
    for (const Val& x : v.items()) collectTracked(x, layers, vars, depth + 1);
    return;
  }
  if (auto d = v.as<DictObj>()) {
    std::vector<size_t> order(d->keys.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto key = [&](size_t i) {
      const Val& k = d->keys[i];
      return k.kind() == Kind::Str ? k.text() : std::to_string(k.asInt());
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return key(x) < key(y); });
    for (size_t i : order) collectTracked(d->values[i], layers, vars, depth + 1);
  }
}

// The layers a Keras instance tracks directly, in the order its attributes were assigned.
std::vector<Val> childLayers(const InstanceObj& inst) {
  std::vector<Val> layers;
  for (const auto& name : inst.attrs.order)
    collectTracked(inst.attrs.values.at(name), layers, nullptr, 0);
  std::vector<Val> unique;
  std::set<const Object*> seen;
  for (const Val& l : layers)
    if (seen.insert(l.obj().get()).second) unique.push_back(l);
  return unique;
}

using States = std::vector<std::shared_ptr<VarState>>;

void appendUnique(States& out, const States& more) {
  for (const auto& s : more)
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
}

States statesOf(const Val& list) {
  States out;
  if (list.isSeq())
    for (const Val& v : list.items())
      if (v.var()) out.push_back(v.var());
  return out;
}

States ownWeights(const KerasState& k, bool trainable) {
  States out;
  for (const auto& s : k.weights)
    if (s->trainable == trainable) out.push_back(s);
  return out;
}

// tf.Module._flatten_module: the variables in the module's attributes (sorted by name), then
// each submodule's, depth first.
void moduleVariables(Context& cx, const InstanceObj& inst, States& out, const SourceLoc& loc,
                     std::set<const Object*>& seen) {
  if (!seen.insert(&inst).second) return;
  std::vector<std::string> names = inst.attrs.order;
  std::sort(names.begin(), names.end());
  std::vector<Val> submodules;
  for (const auto& name : names) {
    States vars;
    collectTracked(inst.attrs.values.at(name), submodules, &vars, 0);
    appendUnique(out, vars);
  }
  for (const Val& m : submodules) {
    if (auto sub = m.as<InstanceObj>(); sub && sub->keras && sub->keras->base == NativeBase::Module)
      moduleVariables(cx, *sub, out, loc, seen);
    else
      appendUnique(out, layerWeights(cx, m, "weights", loc));
  }
}

// A list (Keras's weight properties) or a tuple (tf.Module's: module.py returns
// tuple(self._flatten(...))).
Val variableList(Context& cx, const States& states, bool tuple = false) {
  std::vector<Val> out;
  for (const auto& s : states) out.push_back(LayerObj::stateVal(cx, s));
  return Val::listOf(std::move(out), tuple);
}

int64_t paramCount(Context& cx, const Val& layer, const SourceLoc& loc) {
  int64_t n = 0;
  for (const auto& s : layerWeights(cx, layer, "weights", loc))
    n += numel(cx.b.type(s->handle).shape);
  return n;
}

std::string withCommas(int64_t n) {
  std::string s = std::to_string(n);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
  return s;
}

std::string layerClassName(const Val& layer) {
  if (auto inst = layer.as<InstanceObj>()) return inst->cls->name;
  return layer.obj()->typeName();
}

std::string layerName(Context& cx, const Val& layer, const SourceLoc& loc) {
  if (auto inst = layer.as<InstanceObj>(); inst && inst->keras) return inst->keras->name;
  Val n = cx.getAttr(layer, "name", loc);
  return n.kind() == Kind::Str ? n.text() : "";
}

// Model.summary() as Keras 2 prints a subclassed model (print_summary with sequential_like:
// columns at 45 % and 85 % of 65 characters; a subclassed model's layers have no single
// output shape, which Keras prints as "multiple").
std::string summaryText(Context& cx, const Val& self, const KerasState& k, const SourceLoc& loc) {
  const int width = 65;
  const int cols[] = {29, 55, 65};
  // Each field starts at its column and keeps two spaces before the next one; the line starts
  // with a space.
  auto row = [&](const std::vector<std::string>& fields) {
    std::string line = " ";
    for (size_t i = 0; i < fields.size(); ++i) {
      const size_t end = size_t(cols[i]) - (i + 1 < fields.size() ? 2 : 0);
      line += fields[i];
      if (line.size() > end) line.resize(end);
      line.resize(size_t(cols[i]), ' ');
    }
    return line;
  };
  std::string out = "Model: \"" + k.name + "\"\n";
  out += std::string(width, '_') + "\n";
  out += row({"Layer (type)", "Output Shape", "Param #"}) + "\n";
  out += std::string(width, '=') + "\n";
  const auto layers = childLayers(*self.as<InstanceObj>());
  for (size_t i = 0; i < layers.size(); ++i) {
    const Val& l = layers[i];
    out += row({layerName(cx, l, loc) + " (" + layerClassName(l) + ")", "multiple",
                std::to_string(paramCount(cx, l, loc))}) +
           "\n";
    out += (i + 1 == layers.size() ? std::string(width, '=') : std::string(width, ' ')) + "\n";
  }
  if (layers.empty()) out += std::string(width, '=') + "\n";
  int64_t trainable = 0, total = 0;
  for (const auto& s : layerWeights(cx, self, "trainable_weights", loc))
    trainable += numel(cx.b.type(s->handle).shape);
  for (const auto& s : layerWeights(cx, self, "weights", loc))
    total += numel(cx.b.type(s->handle).shape);
  out += "Total params: " + withCommas(total) + "\n";
  out += "Trainable params: " + withCommas(trainable) + "\n";
  out += "Non-trainable params: " + withCommas(total - trainable) + "\n";
  out += std::string(width, '_');
  return out;
}

bool functionTakes(const Val& fn, const std::string& param) {
  const FunctionObj* f = nullptr;
  if (auto m = fn.as<BoundMethodObj>()) f = m->function.as<FunctionObj>();
  if (!f) f = fn.as<FunctionObj>();
  if (!f) return true;  // a builtin call() takes what Keras's does
  for (const auto& p : f->params)
    if (p.name == param || p.kind == ParamKind::VarKw) return true;
  return false;
}

// The shape structure build() gets: a TensorShape per tensor (tf_utils.get_shapes).
Val inputShapes(Context& cx, const Val& inputs, const SourceLoc& loc, int depth = 0) {
  if (inputs.isTensor()) return shapeTuple(cx.b.type(inputs.tensorValue()).shape);
  if (inputs.isSeq() && depth < kMaxListNesting) {
    std::vector<Val> shapes;
    for (const Val& x : inputs.items()) shapes.push_back(inputShapes(cx, x, loc, depth + 1));
    return Val::listOf(std::move(shapes), inputs.kind() == Kind::Tuple);
  }
  if (auto d = inputs.as<DictObj>()) {
    auto out = std::make_shared<DictObj>();
    out->keys = d->keys;
    for (const Val& v : d->values) out->values.push_back(inputShapes(cx, v, loc, depth + 1));
    return Val::object(out);
  }
  return Val::none();
}

// Keras converts numpy arrays and Python numbers given as inputs to tensors
// (_convert_numpy_or_python_types).
Val convertInputs(Context& cx, const Val& v, const SourceLoc& loc, int depth = 0) {
  if (v.isNumber() || asNdArray(v)) return Val::tensor(cx.toTensor(v, loc));
  if (v.isSeq() && depth < kMaxListNesting) {
    std::vector<Val> items;
    for (const Val& x : v.items()) items.push_back(convertInputs(cx, x, loc, depth + 1));
    return Val::listOf(std::move(items), v.kind() == Kind::Tuple);
  }
  return v;
}

void requireInitialized(Bound& a, const char* what) {
  if (kerasState(a).initialized) return;
  a.cx.fail(a.callLoc, kerasSelf(a).cls->name + "." + what +
                           " needs the base class set up: call super().__init__() first in " +
                           kerasSelf(a).cls->name + ".__init__ (Keras fails the same way)");
}

void clearLosses(const Val& layer, int depth) {
  auto inst = layer.as<InstanceObj>();
  if (!inst || !inst->keras || depth > kMaxListNesting) return;
  inst->keras->losses.clear();
  for (const Val& c : childLayers(*inst)) clearLosses(c, depth + 1);
}

void collectLosses(Context& cx, const Val& layer, std::vector<Val>& out, const SourceLoc& loc,
                   int depth) {
  auto inst = layer.as<InstanceObj>();
  if (!inst || !inst->keras || depth > kMaxListNesting) return;
  for (const Val& l : inst->keras->losses)
    out.push_back(
        l.kind() == Kind::Object && l.obj()->callable() ? cx.callSimple(l, {}, loc, "loss") : l);
  for (const Val& c : childLayers(*inst)) collectLosses(cx, c, out, loc, depth + 1);
}

// Layer.__call__ (base_layer.py): build on the first call with the inputs' shapes, then call(),
// with `training` as Keras resolves it (given > inherited from the outer call > call's default).
Val layerCall(Bound& a) {
  requireInitialized(a, "__call__");
  Context& cx = a.cx;
  KerasState& k = kerasState(a);
  CallArgs ca;
  ca.loc = a.callLoc;
  for (const Arg& arg : a.rest) ca.pos.push_back(arg);
  std::optional<bool> training;
  for (const auto& [name, arg] : a.extra) {
    if (name == "training") {
      if (!arg.v.isNone()) training = cx.truthy(arg.v, arg.loc);
      continue;
    }
    ca.kw.emplace_back(name, arg);
  }
  Arg* inputs = !ca.pos.empty() ? &ca.pos[0] : nullptr;
  for (auto& [name, arg] : ca.kw)
    if (name == "inputs") inputs = &arg;
  if (!inputs) cx.fail(a.callLoc, kerasSelf(a).cls->name + "() is missing its inputs");
  inputs->v = convertInputs(cx, inputs->v, inputs->loc);
  if (tlsCallDepth == 0) clearLosses(a.self, 0);  // a top-level call starts a new forward pass
  if (!k.built) {
    const Val shapes = inputShapes(cx, inputs->v, inputs->loc);
    const LayerCallScope scope(std::nullopt);
    cx.callSimple(cx.getAttr(a.self, "build", a.callLoc), {shapes}, a.callLoc,
                  kerasSelf(a).cls->name + ".build");
    k.built = true;
    if (k.buildInputShape.isNone()) k.buildInputShape = shapes;
  }
  const Val call = cx.getAttr(a.self, "call", a.callLoc);
  if (!training) training = tlsTraining;
  if (training && functionTakes(call, "training"))
    ca.kw.emplace_back("training", Arg{Val::boolean(*training), a.callLoc, nullptr});
  const LayerCallScope scope(training);
  return cx.call(call, ca, kerasSelf(a).cls->name + ".call");
}

Val layerInit(Bound& a, NativeBase base) {
  KerasState& k = kerasState(a);
  const std::string cls = kerasSelf(a).cls->name;
  for (const auto& [name, arg] : a.extra) {
    if (name == "input_shape" || name == "batch_input_shape" || name == "input_dim")
      a.cx.fail(arg.loc, cls + ": " + name +
                             " on a subclassed layer is not supported yet (it makes an Input "
                             "layer in a Sequential model); build the layer by calling it");
    if (name == "inputs" || name == "outputs")
      a.cx.fail(arg.loc, cls +
                             ": the functional API (Model(inputs, outputs)) is not supported "
                             "yet in GradLab script");
    a.cx.fail(arg.loc, "Keyword argument not understood: '" + name + "' (" + cls +
                           ".__init__ passed it to " + baseName(base) + ".__init__)");
  }
  if (!a.rest.empty())
    a.cx.fail(a.rest[0].loc,
              std::string(baseName(base)) + ".__init__() takes keyword arguments only");
  if (!a.none("dtype")) {
    k.dtype = a.dtype("dtype", DType::F32);
    if (!isFloat(k.dtype)) a.fail("dtype", "must be a float dtype for a layer's weights");
  }
  k.trainable = a.boolean("trainable");
  k.name = a.none("name") ? uniqueLayerName(a.cx, cls) : a.string("name");
  k.initialized = true;
  return Val::none();
}

// Layer.add_weight: a tf.Variable made now, at the top level of the graph, owned by the layer.
Val addWeight(Bound& a) {
  requireInitialized(a, "add_weight");
  Context& cx = a.cx;
  KerasState& k = kerasState(a);
  for (const char* p : {"regularizer", "constraint"})
    if (!a.none(p))
      a.fail(p, "is not supported yet in GradLab script (the weight would be made without it)");
  const Shape shape = a.none("shape") ? Shape{} : a.shape("shape");
  if (!fullyKnown(shape)) a.fail("shape", "must be fully known, got " + shapeStr(shape));
  const DType dt = a.dtype("dtype", k.dtype);
  Val init = a["initializer"];
  Tensor value;
  cx.b.checkBudget(TypeInfo{dt, shape}, "add_weight");
  if (init.isNone()) {
    // Keras's default: glorot_uniform for floats, zeros otherwise.
    init = isFloat(dt) ? Val::str("glorot_uniform") : Val::str("zeros");
  }
  if (init.kind() == Kind::Object && !init.as<BuiltinObj>() && init.obj()->callable() &&
      init.obj()->typeName() == "function") {
    // A function initializer: Keras calls initializer(shape, dtype=dtype).
    CallArgs ca;
    ca.loc = a.loc("initializer");
    ca.pos.push_back(Arg{shapeTuple(shape), ca.loc, nullptr});
    ca.kw.emplace_back("dtype", Arg{Val::dtype(dt), ca.loc, nullptr});
    const Value v = cx.toTensor(cx.call(init, ca, "initializer"), ca.loc, dt);
    auto known = cx.constantValue(v);
    if (!known) a.fail("initializer", "must give a value known while tracing");
    value = *known;
  } else {
    init = initializerValue(cx, init, a.loc("initializer"), "add_weight(): argument 'initializer'");
    value = initialValue(cx, init, shape, dt);
  }
  const std::string wname = a.none("name") ? "Variable" : a.string("name");
  auto var = makeWeightVariable(cx, value, k.name + "/" + wname, a.callLoc);
  var->trainable = a.none("trainable") || a.boolean("trainable");
  k.weights.push_back(var);
  return LayerObj::stateVal(cx, var);
}

Val getConfig(Bound& a) {
  const KerasState& k = kerasState(a);
  auto d = std::make_shared<DictObj>();
  d->keys = {Val::str("name"), Val::str("trainable"), Val::str("dtype")};
  d->values = {Val::str(k.name), Val::boolean(k.trainable), Val::str(dtypeName(k.dtype))};
  return Val::object(d);
}

std::shared_ptr<ClassObj> makeNative(NativeBase b, std::shared_ptr<ClassObj> base) {
  auto c = std::make_shared<ClassObj>();
  c->name = baseName(b);
  c->native = b;
  c->base = std::move(base);
  return c;
}

}  // namespace

std::shared_ptr<ClassObj> nativeClass(NativeBase base) {
  static const auto module = makeNative(NativeBase::Module, nullptr);
  static const auto layer = makeNative(NativeBase::Layer, module);
  static const auto model = makeNative(NativeBase::Model, layer);
  switch (base) {
    case NativeBase::Module:
      return module;
    case NativeBase::Layer:
      return layer;
    case NativeBase::Model:
      return model;
    case NativeBase::None:
      break;
  }
  return nullptr;
}

NativeBase nativeBaseOf(const ClassObj& cls) {
  for (const ClassObj* c = &cls; c; c = c->base.get())
    if (c->native != NativeBase::None) return c->native;
  return NativeBase::None;
}

std::shared_ptr<KerasState> newKerasState(const ClassObj& cls) {
  const NativeBase b = nativeBaseOf(cls);
  if (b == NativeBase::None) return nullptr;
  auto k = std::make_shared<KerasState>();
  k->base = b;
  return k;
}

LayerCallScope::LayerCallScope(std::optional<bool> training) : saved_(tlsTraining) {
  if (training) tlsTraining = training;
  ++tlsCallDepth;
}

LayerCallScope::~LayerCallScope() {
  tlsTraining = saved_;
  --tlsCallDepth;
}

std::optional<bool> inheritedTraining() { return tlsTraining; }

bool trainingOf(Bound& a, const std::string& param) {
  if (!a.none(param)) return a.cx.truthy(a[param], a.loc(param));
  return tlsTraining.value_or(false);
}

bool isLayerValue(const Val& v) {
  if (v.as<LayerObj>()) return true;
  auto inst = v.as<InstanceObj>();
  return inst && inst->keras && inst->keras->base != NativeBase::Module;
}

States layerWeights(Context& cx, const Val& layer, const std::string& which, const SourceLoc& loc) {
  if (auto l = layer.as<LayerObj>()) {
    if (which == "trainable_weights") return statesOf(*l->attr(cx, "trainable_variables"));
    if (which == "non_trainable_weights") {
      auto v = l->attr(cx, "non_trainable_variables");
      return v ? statesOf(*v) : States{};
    }
    return statesOf(*l->attr(cx, "variables"));
  }
  auto inst = layer.as<InstanceObj>();
  if (!inst || !inst->keras) return {};
  const KerasState& k = *inst->keras;
  if (k.base == NativeBase::Module) {
    States all;
    std::set<const Object*> seen;
    moduleVariables(cx, *inst, all, loc, seen);
    if (which == "weights") return all;
    States out;
    for (const auto& s : all)
      if (s->trainable == (which == "trainable_weights")) out.push_back(s);
    return out;
  }
  const auto children = childLayers(*inst);
  auto gather = [&](const char* attribute) {
    States out;
    for (const Val& c : children) appendUnique(out, layerWeights(cx, c, attribute, loc));
    return out;
  };
  if (which == "trainable_weights") {
    if (!k.trainable) return {};
    States out = ownWeights(k, true);
    appendUnique(out, gather("trainable_weights"));
    return out;
  }
  if (which == "non_trainable_weights") {
    States out;
    if (k.trainable) {
      out = ownWeights(k, false);
      appendUnique(out, gather("non_trainable_weights"));
    } else {
      out = ownWeights(k, true);
      appendUnique(out, ownWeights(k, false));
      appendUnique(out, gather("weights"));
    }
    return out;
  }
  States out = layerWeights(cx, layer, "trainable_weights", loc);
  appendUnique(out, layerWeights(cx, layer, "non_trainable_weights", loc));
  return out;
}

std::optional<Val> kerasMethod(const Val& self, NativeBase base, const std::string& name) {
  const std::string prefix = base == NativeBase::Module ? "Module." : "Layer.";
  std::optional<Val> m;
  if (base == NativeBase::Model) m = lookupBuiltin("Model." + name);
  if (!m) m = lookupBuiltin(prefix + name);
  if (!m) return std::nullopt;
  auto b = m->as<BuiltinObj>();
  if (!b) return std::nullopt;
  auto bound = std::make_shared<BuiltinObj>(*b);
  bound->self = self;
  return Val::object(bound);
}

std::vector<std::string> kerasAttrNames(NativeBase base) {
  if (base == NativeBase::Module) return {"name", "trainable_variables", "variables", "submodules"};
  std::vector<std::string> names = {"name",
                                    "built",
                                    "trainable",
                                    "dtype",
                                    "trainable_weights",
                                    "trainable_variables",
                                    "non_trainable_weights",
                                    "non_trainable_variables",
                                    "weights",
                                    "variables",
                                    "losses",
                                    "add_weight",
                                    "add_loss",
                                    "build",
                                    "call",
                                    "get_config"};
  if (base == NativeBase::Model)
    for (const char* n : {"layers", "summary", "compile", "fit", "evaluate", "predict",
                          "train_step", "test_step", "optimizer", "metrics_names"})
      names.push_back(n);
  return names;
}

std::optional<Val> kerasAttr(Context& cx, const Val& self, const std::string& name,
                             const SourceLoc& loc) {
  auto inst = self.as<InstanceObj>();
  const KerasState& k = *inst->keras;
  if (name == "name") return Val::str(k.name);
  if (k.base == NativeBase::Module) {
    if (name == "trainable_variables")
      return variableList(cx, layerWeights(cx, self, "trainable_weights", loc), true);
    if (name == "variables") return variableList(cx, layerWeights(cx, self, "weights", loc), true);
    if (name == "submodules") {
      std::vector<Val> subs;
      std::vector<std::string> names = inst->attrs.order;
      std::sort(names.begin(), names.end());
      for (const auto& n : names) collectTracked(inst->attrs.values.at(n), subs, nullptr, 0);
      return Val::listOf(std::move(subs), true);
    }
    return kerasMethod(self, k.base, name);
  }
  if (name == "built") return Val::boolean(k.built);
  if (name == "trainable") return Val::boolean(k.trainable);
  if (name == "dtype") return Val::str(dtypeName(k.dtype));
  if (name == "trainable_weights" || name == "trainable_variables")
    return variableList(cx, layerWeights(cx, self, "trainable_weights", loc));
  if (name == "non_trainable_weights" || name == "non_trainable_variables")
    return variableList(cx, layerWeights(cx, self, "non_trainable_weights", loc));
  if (name == "weights" || name == "variables")
    return variableList(cx, layerWeights(cx, self, "weights", loc));
  if (name == "losses") {
    std::vector<Val> out;
    collectLosses(cx, self, out, loc, 0);
    return Val::listOf(std::move(out));
  }
  if (k.base == NativeBase::Model) {
    if (name == "layers") return Val::listOf(childLayers(*inst));
    if (name == "optimizer") return k.optimizer;
    if (name == "metrics_names")
      return Val::listOf(k.compiled ? k.metricNames : std::vector<Val>{});
    if (name == "_keras_compiled_loss") return k.loss;
    if (name == "_keras_compiled_metrics") return k.metrics;
  }
  return kerasMethod(self, k.base, name);
}

bool kerasSetAttr(Context& cx, InstanceObj& inst, const std::string& name, const Val& value,
                  const SourceLoc& loc) {
  KerasState& k = *inst.keras;
  if (k.base != NativeBase::Module) {
    if (name == "built") {
      k.built = cx.truthy(value, loc);
      return true;
    }
    if (name == "trainable") {
      k.trainable = cx.truthy(value, loc);
      return true;
    }
  }
  static const std::set<std::string> kReadOnly = {
      "name",    "trainable_weights", "trainable_variables",     "non_trainable_weights",
      "weights", "variables",         "non_trainable_variables", "submodules",
      "losses"};
  if (kReadOnly.count(name))
    cx.fail(loc, "Can't set the attribute \"" + name + "\" of " + inst.cls->name +
                     ": it is a read-only property of " + baseName(k.base) +
                     "; choose a different name");
  std::vector<Val> layers;
  States vars;
  collectTracked(value, layers, &vars, 0);
  if ((!layers.empty() || !vars.empty()) && !k.initialized && k.base != NativeBase::Module)
    cx.fail(loc, "It looks like you are subclassing `" + std::string(baseName(k.base)) +
                     "` and you forgot to call `super().__init__()`. Always start with this "
                     "line (" +
                     inst.cls->name + ".__init__ set self." + name + " before it)");
  // Keras's __setattr__: tf.Variables assigned to attributes become the layer's own weights.
  if (k.base != NativeBase::Module)
    for (const auto& v : vars)
      if (std::find(k.weights.begin(), k.weights.end(), v) == k.weights.end())
        k.weights.push_back(v);
  return false;
}

void addKerasSubclassBuiltins(BuiltinTable& t) {
  t["tf.keras.layers.Layer"] = {{}, {}, true, Val::object(nativeClass(NativeBase::Layer))};
  t["tf.keras.Model"] = {{}, {}, true, Val::object(nativeClass(NativeBase::Model))};
  t["tf.keras.models.Model"] = t["tf.keras.Model"];
  t["tf.Module"] = {{}, {}, true, Val::object(nativeClass(NativeBase::Module))};

  t["Layer.__init__"] = {
      Signature::parse("*args, trainable=True, name=None, dtype=None, ~dynamic=False, **kwargs"),
      [](Bound& a) { return layerInit(a, NativeBase::Layer); }};
  t["Model.__init__"] = {
      Signature::parse("*args, trainable=True, name=None, dtype=None, ~dynamic=False, **kwargs"),
      [](Bound& a) { return layerInit(a, NativeBase::Model); }};
  t["Module.__init__"] = {Signature::parse("name=None"), [](Bound& a) {
                            KerasState& k = kerasState(a);
                            // tf.Module: the class name in snake case, not numbered.
                            k.name = a.none("name") ? toSnakeCase(kerasSelf(a).cls->name)
                                                    : a.string("name");
                            k.initialized = true;
                            return Val::none();
                          }};
  t["Layer.__call__"] = {Signature::parse("*args, **kwargs"), layerCall};
  // Model.build(input_shape) on a subclass builds the weights by calling the model, as Keras
  // does with a placeholder; here unknown dimensions (None) become 1.
  t["Model.build"] = {Signature::parse("input_shape"), [](Bound& a) {
                        KerasState& k = kerasState(a);
                        const Val& s = a["input_shape"];
                        if (k.built || tlsCallDepth > 0) {  // from __call__: nothing to make
                          k.built = true;
                          return Val::none();
                        }
                        if (!s.isSeq()) a.fail("input_shape", "must be a tuple of ints and None");
                        Shape shape;
                        for (const Val& d : s.items()) {
                          if (!d.isNone() && d.kind() != Kind::Int)
                            a.fail("input_shape", "must be a tuple of ints and None");
                          shape.push_back(d.isNone() ? 1 : d.asInt());
                        }
                        a.cx.at(a.callLoc);
                        const Val x = Val::tensor(a.cx.b.constant(Tensor::zeros(k.dtype, shape)));
                        a.cx.callSimple(a.self, {x}, a.callLoc, kerasSelf(a).cls->name);
                        k.buildInputShape = s;
                        return Val::none();
                      }};
  // Whether the script's class (not the built-in base) defines `name` (fit calls an overridden
  // train_step, as Keras does).
  t["Layer._keras_overrides"] = {
      Signature::parse("name"),
      [](Bound& a) { return Val::boolean(kerasSelf(a).cls->lookup(a.string("name")) != nullptr); }};
  t["Layer.build"] = {Signature::parse("input_shape"), [](Bound& a) {
                        KerasState& k = kerasState(a);
                        k.buildInputShape = a["input_shape"];
                        k.built = true;
                        return Val::none();
                      }};
  // Layer.call is the identity; Model.call must be written by the subclass.
  t["Layer.call"] = {Signature::parse("inputs, *args, **kwargs"),
                     [](Bound& a) { return a["inputs"]; }};
  t["Model.call"] = {Signature::parse("inputs, *args, **kwargs"), [](Bound& a) -> Val {
                       a.cx.fail(a.callLoc,
                                 "When subclassing the `Model` class, you should "
                                 "implement a `call()` method (" +
                                     kerasSelf(a).cls->name + " has none)");
                     }};
  t["Layer.add_weight"] = {
      Signature::parse("name=None, shape=None, dtype=None, initializer=None, regularizer=None, "
                       "trainable=None, constraint=None, ~use_resource=None, "
                       "~synchronization=None, ~aggregation=None"),
      addWeight};
  t["Layer.add_loss"] = {Signature::parse("losses, ~inputs=None"), [](Bound& a) {
                           kerasState(a).losses.push_back(a["losses"]);
                           return Val::none();
                         }};
  t["Layer.get_config"] = {Signature::parse(""), getConfig};
  // Layer.set_weights (Keras 2's base_layer.py): one value per weight, in the order of
  // layer.weights, each of its weight's shape; values are cast to the weight's dtype
  // (backend.batch_set_value) and assigned.
  t["Layer.set_weights"] = {
      Signature::parse("weights"), [](Bound& a) {
        const States states = layerWeights(a.cx, a.self, "weights", a.callLoc);
        const Val& w = a["weights"];
        if (!w.isSeq()) a.fail("weights", "must be a list of arrays or tensors");
        const std::string layer = a.cx.getAttr(a.self, "name", a.callLoc).text();
        if (w.items().size() != states.size())
          a.cx.fail(a.loc("weights"), "ValueError: You called `set_weights(weights)` on layer \"" +
                                          layer + "\" with a weight list of length " +
                                          std::to_string(w.items().size()) +
                                          ", but the layer was expecting " +
                                          std::to_string(states.size()) + " weights.");
        for (size_t i = 0; i < states.size(); ++i) {
          Value x = a.cx.toTensor(w.items()[i], a.loc("weights"));
          const TypeInfo& want = a.cx.b.type(states[i]->handle);
          const Shape got = a.cx.b.type(x).shape;
          if (got != want.shape)
            a.cx.fail(a.loc("weights"),
                      "ValueError: Layer " + layer + " weight shape " + shapeStr(want.shape) +
                          " is not compatible with provided weight shape " + shapeStr(got) + ".");
          a.cx.at(a.callLoc);
          if (a.cx.b.type(x).dtype != want.dtype) x = gl::ops::cast(a.cx.b, x, want.dtype);
          a.cx.assignVariable(Val::variable(states[i]), x, a.callLoc, "set_weights");
        }
        return Val::none();
      }};
  t["Model.summary"] = {
      Signature::parse("line_length=None, positions=None, print_fn=None, "
                       "expand_nested=False, show_trainable=False"),
      [](Bound& a) {
        const KerasState& k = kerasState(a);
        if (!k.built)
          a.cx.fail(a.callLoc,
                    "This model has not yet been built. Build the model first "
                    "by calling `build()` or by calling the model on a batch "
                    "of data.");
        for (const char* p : {"line_length", "positions", "print_fn"})
          if (!a.none(p)) a.fail(p, "is not supported yet in GradLab script");
        if (a.boolean("expand_nested") || a.boolean("show_trainable"))
          a.fail("expand_nested", "expand_nested and show_trainable are not supported yet");
        std::string text = summaryText(a.cx, a.self, k, a.callLoc);
        size_t start = 0;
        for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
          a.cx.log(text.substr(start, nl - start));
        a.cx.log(text.substr(start));
        return Val::none();
      }};
}

}  // namespace gl::lang::trace
