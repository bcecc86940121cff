// Keras layers and losses, kept close to the seeds' code. A layer owns its variables: they are
// created once, on the first call (from kernel_initializer and bias_initializer: seeded
// Glorot-uniform kernels and zero biases by default), always at the top level of the graph,
// so a layer first called inside a loop or map body still has one set of weights; later calls
// reuse them.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_format.h"
#include "engine/lang/tracer_keras_init.h"
#include "engine/lang/tracer_keras_layer.h"
#include "engine/lang/tracer_keras_subclass.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

std::string toSnakeCase(const std::string& className) {
  static const std::regex kWord("(.)([A-Z][a-z0-9]+)");
  static const std::regex kCamel("([a-z])([A-Z])");
  std::string s = std::regex_replace(className, kWord, "$1_$2");
  s = std::regex_replace(s, kCamel, "$1_$2");
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return !s.empty() && s[0] == '_' ? "private" + s : s;
}

std::string uniqueLayerName(Context& cx, const std::string& className) {
  const std::string base = toSnakeCase(className);
  const int n = cx.nextLayerIndex(base);
  return n == 0 ? base : base + "_" + std::to_string(n);
}

namespace {

struct DenseLayer : LayerObj {
  int64_t units = 0;
  bool useBias = true;
  Val kernelInit, biasInit;
  void build(Context& cx, const Shape& input, DType dt) override {
    makeWeight(cx, kernelInit, {input.back(), units}, dt, "kernel");
    if (useBias) makeWeight(cx, biasInit, {units}, dt, "bias");
    built = true;
  }
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    const int64_t in = lastDim(cx, x, loc);
    if (!built) build(cx, cx.b.type(x).shape, cx.b.type(x).dtype);
    if (cx.b.type(variables[0]).shape[0] != in)
      cx.fail(loc, "this Dense layer was built for inputs of size " +
                       std::to_string(cx.b.type(variables[0]).shape[0]) + ", got " +
                       std::to_string(in));
    cx.at(loc);
    const Shape s = cx.b.type(x).shape;
    Value y;
    if (s.size() == 2) {
      y = o::matmul(cx.b, x, weight(cx, 0));
    } else {
      Shape out = s;
      out.back() = units;
      y = o::reshape(cx.b, o::matmul(cx.b, o::reshape(cx.b, x, {-1, in}), weight(cx, 0)), out);
    }
    if (useBias) y = o::add(cx.b, y, weight(cx, 1));
    return activate(cx, y, loc);
  }
};

// Conv1D and Conv2D: a [k..., in, filters] kernel. Conv1D runs as a conv2d of height 1, as
// Keras's Conv1D runs on TF's conv1d, and keeps Keras's [k, in, filters] weight.
struct ConvLayer : LayerObj {
  int rank = 2;
  int64_t filters = 0;
  std::vector<int64_t> kernel, strides;  // `rank` entries each
  std::string padding;
  bool useBias = true;
  Val kernelInit, biasInit;
  void build(Context& cx, const Shape& input, DType dt) override {
    Shape k(kernel.begin(), kernel.end());
    k.insert(k.end(), {input.back(), filters});
    makeWeight(cx, kernelInit, k, dt, "kernel");
    if (useBias) makeWeight(cx, biasInit, {filters}, dt, "bias");
    built = true;
  }
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    const Shape s = cx.b.type(x).shape;
    if (int(s.size()) != rank + 2)
      cx.fail(loc, kind +
                       (rank == 1 ? " needs NWC inputs of rank 3, got "
                                  : " needs NHWC inputs of rank 4, got ") +
                       shapeStr(s));
    lastDim(cx, x, loc);
    if (!built) build(cx, s, cx.b.type(x).dtype);
    cx.at(loc);
    Emitter& b = cx.b;
    // The bias joins the conv (one pass over y instead of two, as oneDNN's fused conv).
    const Value bias = useBias ? weight(cx, 1) : Value{};
    const Value kernelNow = weight(cx, 0);
    if (rank == 2) return activate(cx, o::conv2d(b, x, kernelNow, strides, padding, bias), loc);
    const Value y = o::conv2d(b, o::expandDims(b, x, 1), o::expandDims(b, kernelNow, 0),
                              {1, strides[0]}, padding, bias);
    return activate(cx, o::squeeze(b, y, {1}), loc);
  }
};

struct PoolLayer : LayerObj {
  bool keepdims = false;
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    cx.at(loc);
    return o::globalAvgPool(cx.b, x, keepdims);
  }
};

struct FlattenLayer : LayerObj {
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    const Shape& s = cx.b.type(x).shape;
    if (s.empty() || !fullyKnown(s))
      cx.fail(loc, "Flatten needs a known shape, got " + shapeStr(s));
    cx.at(loc);
    return o::reshape(cx.b, x, {s[0], -1});
  }
};

struct SequentialLayer : LayerObj {
  std::vector<Val> layers;
  KerasState model;  // compile()'s optimizer, loss and metrics
  KerasState* modelState() override { return &model; }
  std::vector<std::shared_ptr<VarState>> allStates() const override {
    std::vector<std::shared_ptr<VarState>> out;
    for (const Val& l : layers)
      if (auto p = l.as<LayerObj>()) {
        auto vs = p->allStates();
        out.insert(out.end(), vs.begin(), vs.end());
      }
    return out;
  }
  // The layers' weights in order, as each layer (built-in or subclassed) gives them.
  std::optional<Val> attr(Context& cx, const std::string& n) override {
    const char* which = n == "trainable_variables" || n == "trainable_weights" ? "trainable_weights"
                        : n == "non_trainable_variables" || n == "non_trainable_weights"
                            ? "non_trainable_weights"
                        : n == "variables" || n == "weights" ? "weights"
                                                             : nullptr;
    if (!which) {
      if (n == "layers") return Val::listOf(layers);
      if (n == "optimizer") return model.optimizer;
      if (n == "metrics_names")
        return Val::listOf(model.compiled ? model.metricNames : std::vector<Val>{});
      if (n == "losses") return Val::listOf({});
      if (n == "_keras_compiled_loss") return model.loss;
      if (n == "_keras_compiled_metrics") return model.metrics;
      return LayerObj::attr(cx, n);
    }
    std::vector<Val> out;
    for (const Val& l : layers)
      for (const auto& s : layerWeights(cx, l, which, loc)) out.push_back(stateVal(cx, s));
    return Val::listOf(std::move(out));
  }
  // `training` given to the model reaches its layers (Dropout, BatchNormalization).
  Val call(Context& cx, CallArgs& args) override {
    static const Signature sig = Signature::parse("inputs, training=None, mask=None");
    Bound a(cx, kind, sig, args);
    const Value x = a.tensor("inputs");
    std::optional<bool> training;
    if (!a.none("training")) training = cx.truthy(a["training"], a.loc("training"));
    a.checkAllRead();
    const LayerCallScope scope(training);
    return Val::tensor(forward(cx, x, args.loc));
  }
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    Val v = Val::tensor(x);
    const std::vector<Val> order = layers;  // a copy: a layer call must not see .add() mid-way
    for (const Val& l : order) v = cx.callSimple(l, {v}, loc, "layer");
    return cx.toTensor(v, loc);
  }
};

// One positive size per spatial dim, or one for all of them.
std::vector<int64_t> sizes(Bound& a, const char* name, int rank) {
  std::vector<int64_t> v = a.ints(name);
  if (v.size() == 1) v.assign(size_t(rank), v[0]);
  if (int(v.size()) != rank || *std::min_element(v.begin(), v.end()) < 1)
    a.fail(name, rank == 1 ? "must be a positive int" : "must be a positive int or a pair of them");
  return v;
}

// input_shape=(..., features) builds the variables at once, as Keras does.
void buildNow(Bound& a, LayerObj& l) {
  const Val& v = a["input_shape"];
  if (v.isNone()) return;
  // Only the last (feature) dimension matters; others may be None, as in build((None, 3)).
  if (!v.isSeq() || v.items().empty() || v.items().back().kind() != Kind::Int ||
      v.items().back().asInt() < 1)
    a.fail("input_shape", "must be a tuple whose last dimension is a positive int");
  l.build(a.cx, {v.items().back().asInt()}, DType::F32);
}

// use_bias, activation and the two initializers, which Dense and the convolutions share;
// then input_shape, which builds the weights at once.
template <class L>
void readWeightOptions(Bound& a, L& l) {
  l.useBias = a.boolean("use_bias");
  l.activation = a["activation"];
  l.kernelInit = initializerArg(a, "kernel_initializer");
  l.biasInit = initializerArg(a, "bias_initializer");
  buildNow(a, l);
}

// keras.activations.relu with its options, as Keras 2's backend.relu builds it: x where
// threshold < x (capped at max_value), else alpha * (x - threshold); alpha alone is leaky_relu.
// Keras' docstring: [-10, -5, 0, 5, 10] gives [-5 -2.5 0 5 10] with alpha=0.5, [0 0 0 5 5]
// with max_value=5 and [-0 -0 0 0 10] with threshold=5.
Val kerasRelu(Bound& a) {
  Emitter& b = a.cx.b;
  const Value x = a.tensor("x");
  const DType dt = b.type(x).dtype;
  const double alpha = a.number("alpha"), threshold = a.number("threshold");
  const bool clip = !a.none("max_value");
  const double cap = clip ? a.number("max_value") : 0;
  a.cx.at(a.callLoc);
  const Value zero = b.scalar(0.0, dt);
  if (alpha != 0 && !clip && threshold == 0)
    return Val::tensor(o::where(b, o::greater(b, x, zero), x, o::scale(b, x, alpha)));
  Value y = threshold != 0 ? o::mul(b, x, o::cast(b, o::greater(b, x, b.scalar(threshold, dt)), dt))
                           : o::relu(b, x);
  if (clip) y = o::minimum(b, o::maximum(b, y, zero), b.scalar(cap, dt));
  if (alpha != 0) {
    const Value below = o::relu(b, o::addScalar(b, o::neg(b, x), threshold));
    y = o::sub(b, y, o::scale(b, below, alpha));
  }
  return Val::tensor(y);
}

void addDenseAndConv(BuiltinTable& t) {
  // keras.activations.* are the tf functions (added to the table before this).
  t["tf.keras.activations.relu"] = {Signature::parse("x, alpha=0.0, max_value=None, threshold=0.0"),
                                    kerasRelu};
  for (const char* a : {"sigmoid", "tanh"})
    if (t.count(std::string("tf.") + a))
      t[std::string("tf.keras.activations.") + a] = t[std::string("tf.") + a];
  if (t.count("tf.nn.softmax")) t["tf.keras.activations.softmax"] = t["tf.nn.softmax"];
  // keras.activations.linear and get (Keras 2's activations.py): get(None) is linear, a name
  // the function of that name, a callable itself; anything else is Keras's error.
  t["tf.keras.activations.linear"] = {Signature::parse("x"), [](Bound& a) { return a["x"]; }};
  t["tf.keras.activations.get"] = {
      Signature::parse("identifier"), [](Bound& a) -> Val {
        const Val& id = a["identifier"];
        if (id.isNone()) return *moduleAttr("tf.keras.activations.", "linear");
        if (id.kind() == Kind::Str) {
          if (auto f = moduleAttr("tf.keras.activations.", id.text());
              f && f->kind() == Kind::Object)
            return *f;
          // One Keras has and GradLab lacks is GradLab's error, not Keras's ValueError (which
          // a script's except clause could catch where Keras would have succeeded).
          static const char* const kKeras[] = {"elu",      "exponential", "hard_sigmoid",
                                               "mish",     "relu6",       "selu",
                                               "softplus", "softsign",    "swish"};
          if (std::find(std::begin(kKeras), std::end(kKeras), id.text()) != std::end(kKeras))
            a.cx.fail(a.loc("identifier"), "GradLab does not provide the '" + id.text() +
                                               "' activation yet (it has linear, relu, sigmoid, "
                                               "tanh, softmax, gelu)");
          a.cx.fail(a.loc("identifier"), "ValueError: Unknown activation function: '" + id.text() +
                                             "' (GradLab has linear, relu, sigmoid, tanh, softmax, "
                                             "gelu)");
        }
        if (id.kind() == Kind::Object && id.obj()->callable()) return id;
        a.cx.fail(a.loc("identifier"),
                  "TypeError: Could not interpret activation function identifier: " +
                      pyRepr(a.cx.graph(), id));
      }};
  t["tf.keras.layers.Dense"] = {
      Signature::parse(
          "units, activation=None, use_bias=True, kernel_initializer='glorot_uniform', "
          "bias_initializer='zeros', input_shape=None, name=None"),
      [](Bound& a) {
        auto l = layer<DenseLayer>(a, "Dense");
        l->units = a.integer("units");
        if (l->units < 1) a.fail("units", "must be positive");
        readWeightOptions(a, *l);
        return Val::object(l);
      }};
  auto conv = [](Bound& a, const char* kind, int rank) {
    auto l = layer<ConvLayer>(a, kind);
    l->rank = rank;
    l->filters = a.integer("filters");
    if (l->filters < 1) a.fail("filters", "must be positive");
    l->kernel = sizes(a, "kernel_size", rank);
    l->strides = sizes(a, "strides", rank);
    std::string p = a.string("padding");
    for (auto& c : p) c = char(std::toupper(c));
    if (p != "VALID" && p != "SAME") a.fail("padding", "must be 'valid' or 'same'");
    l->padding = p;
    readWeightOptions(a, *l);
    return Val::object(l);
  };
  const char* convOptions =
      "padding='valid', activation=None, use_bias=True, kernel_initializer='glorot_uniform', "
      "bias_initializer='zeros', input_shape=None, name=None";
  t["tf.keras.layers.Conv2D"] = {
      Signature::parse(std::string("filters, kernel_size, strides=(1, 1), ") + convOptions),
      [conv](Bound& a) { return conv(a, "Conv2D", 2); }};
  t["tf.keras.layers.Conv1D"] = {
      Signature::parse(std::string("filters, kernel_size, strides=1, ") + convOptions),
      [conv](Bound& a) { return conv(a, "Conv1D", 1); }};
}

// Flatten, pooling, Sequential, and build() of the layers with variables.
void addOtherLayers(BuiltinTable& t) {
  t["tf.keras.layers.Flatten"] = {Signature::parse("data_format=None, name=None"), [](Bound& a) {
                                    return Val::object(layer<FlattenLayer>(a, "Flatten"));
                                  }};
  for (const char* kind : {"Dense", "Conv1D", "Conv2D"})
    t[std::string(kind) + ".build"] = {Signature::parse("input_shape"), [](Bound& a) {
                                         auto* l = static_cast<LayerObj*>(a.self.obj().get());
                                         if (!l->built) buildNow(a, *l);
                                         return Val::none();
                                       }};
  t["tf.keras.layers.GlobalAveragePooling2D"] = {
      Signature::parse("data_format=None, keepdims=False, name=None"), [](Bound& a) {
        auto l = layer<PoolLayer>(a, "GlobalAveragePooling2D");
        l->keepdims = a.boolean("keepdims");
        return Val::object(l);
      }};
  t["tf.keras.Sequential"] = {Signature::parse("layers=None, name=None"), [](Bound& a) {
                                auto l = layer<SequentialLayer>(a, "Sequential");
                                if (!a.none("layers")) {
                                  if (!a["layers"].isSeq())
                                    a.fail("layers", "must be a list of layers");
                                  for (const Val& x : a["layers"].items()) {
                                    if (x.kind() != Kind::Object || !x.obj()->callable())
                                      a.fail("layers",
                                             "must hold layers, got " + article(typeName(x)));
                                    l->layers.push_back(x);
                                  }
                                }
                                return Val::object(l);
                              }};
  t["Sequential.add"] = {
      Signature::parse("layer"), [](Bound& a) {
        static_cast<SequentialLayer*>(a.self.obj().get())->layers.push_back(a["layer"]);
        return Val::none();
      }};
}

}  // namespace

void addKerasBuiltins(BuiltinTable& t) {
  addKerasInitializers(t);
  addDenseAndConv(t);
  addOtherLayers(t);
  addKerasLosses(t);
  addKerasMoreLayers(t);
  addKerasRnnLayers(t);
  addKerasBatchNorm(t);
}

}  // namespace gl::lang::trace
