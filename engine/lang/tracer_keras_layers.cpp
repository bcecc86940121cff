// Keras layers beyond Dense and Conv2D, as keras/layers/ computes them: Activation, ReLU,
// Dropout (active only when called with training=True, as outside fit()), Reshape, Lambda,
// Add, Concatenate, Embedding and LayerNormalization.
#include <algorithm>
#include <optional>

#include "engine/lang/tracer_keras_layer.h"
#include "engine/lang/tracer_keras_subclass.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

struct ActivationLayer : LayerObj {
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    cx.at(loc);
    return activate(cx, x, loc);
  }
};

// max_value if x >= max_value; x if threshold <= x; negative_slope (x - threshold) below.
struct ReluLayer : LayerObj {
  std::optional<double> maxValue;
  double slope = 0, threshold = 0;
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    cx.at(loc);
    Emitter& b = cx.b;
    const DType dt = b.type(x).dtype;
    const Value t = b.scalar(threshold, dt);
    Value y = o::where(b, o::greaterEqual(b, x, t), x, o::scale(b, o::sub(b, x, t), slope));
    if (maxValue) y = o::minimum(b, y, b.scalar(*maxValue, dt));
    return y;
  }
};

struct DropoutLayer : LayerObj {
  double rate = 0;
  std::optional<int64_t> seed;
  Value forward(Context&, Value x, const SourceLoc&) override { return x; }
  // Keras's Dropout drops only in training: outside fit(), training defaults to False.
  Val call(Context& cx, CallArgs& args) override {
    static const Signature sig = Signature::parse("inputs, training=None");
    Bound a(cx, kind, sig, args);
    const Value x = a.tensor("inputs");
    const bool training = trainingOf(a);  // given, or inherited from the layer calling this one
    a.checkAllRead();
    if (!training || rate == 0) return Val::tensor(x);
    Emitter& b = cx.b;
    const Shape& s = b.type(x).shape;
    if (!fullyKnown(s)) cx.fail(args.loc, "Dropout needs a known input shape for its mask");
    cx.at(args.loc);
    const DType dt = b.type(x).dtype;
    const Value u = o::randomUniform(b, s, 0, 1, dt, cx.nextSeed(seed));
    const Value keep = o::cast(b, o::greaterEqual(b, u, b.scalar(rate, dt)), dt);
    return Val::tensor(o::mul(b, o::scale(b, x, 1 / (1 - rate)), keep));
  }
};

// [batch] + target_shape.
struct ReshapeLayer : LayerObj {
  std::vector<int64_t> target;
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    const Shape& s = cx.b.type(x).shape;
    if (s.empty()) cx.fail(loc, "Reshape needs inputs with a batch axis");
    Shape out{s[0] >= 0 ? s[0] : -1};
    out.insert(out.end(), target.begin(), target.end());
    if (std::count(out.begin(), out.end(), int64_t(-1)) > 1)
      cx.fail(loc, "Reshape needs the batch size known when target_shape holds -1");
    cx.at(loc);
    return o::reshape(cx.b, x, out);
  }
};

struct LambdaLayer : LayerObj {
  Val function;
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    return cx.toTensor(cx.callSimple(function, {Val::tensor(x)}, loc, "the Lambda's function"),
                       loc);
  }
};

// Add and Concatenate take a list of inputs.
struct MergeLayer : LayerObj {
  bool concat = false;
  int64_t axis = -1;
  Value forward(Context&, Value x, const SourceLoc&) override { return x; }
  Val call(Context& cx, CallArgs& args) override {
    static const Signature sig = Signature::parse("inputs, ~training=None");
    Bound a(cx, kind, sig, args);
    const Val& in = a["inputs"];
    if (!in.isSeq() || in.items().size() < 2)
      a.fail("inputs", "must be a list of at least two tensors");
    std::vector<Value> xs;
    for (const Val& v : in.items()) xs.push_back(cx.toTensor(v, a.loc("inputs")));
    a.checkAllRead();
    cx.at(args.loc);
    if (concat) return Val::tensor(o::concat(cx.b, xs, axis));
    Value y = xs[0];
    for (size_t i = 1; i < xs.size(); ++i) y = o::add(cx.b, y, xs[i]);
    return Val::tensor(y);
  }
};

struct EmbeddingLayer : LayerObj {
  int64_t inputDim = 0, outputDim = 0;
  Val init;
  void build(Context& cx, const Shape&, DType) override {
    makeWeight(cx, init, {inputDim, outputDim}, DType::F32, "embeddings");
    built = true;
  }
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    if (!built) build(cx, {}, DType::F32);
    cx.at(loc);
    const Value ids = isFloat(cx.b.type(x).dtype) ? o::cast(cx.b, x, DType::I32) : x;
    return o::gather(cx.b, weight(cx, 0), ids, 0);
  }
};

// (x - mean) / sqrt(variance + epsilon) * gamma + beta over the last axis.
struct LayerNormLayer : LayerObj {
  double epsilon = 1e-3;
  bool center = true, scaled = true;
  Val gammaInit, betaInit;
  void build(Context& cx, const Shape& input, DType dt) override {
    if (scaled) makeWeight(cx, gammaInit, {input.back()}, dt, "gamma");
    if (center) makeWeight(cx, betaInit, {input.back()}, dt, "beta");
    built = true;
  }
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    lastDim(cx, x, loc);
    if (!built) build(cx, cx.b.type(x).shape, cx.b.type(x).dtype);
    cx.at(loc);
    Emitter& b = cx.b;
    const Value mean = o::reduceMean(b, x, {-1}, true);
    const Value var = o::reduceMean(b, o::square(b, o::sub(b, x, mean)), {-1}, true);
    Value y = o::mul(b, o::sub(b, x, mean), b.op1("rsqrt", {o::addScalar(b, var, epsilon)}));
    size_t k = 0;
    if (scaled) y = o::mul(b, y, weight(cx, k++));
    if (center) y = o::add(b, y, weight(cx, k));
    return y;
  }
};

struct PoolLayer2d : LayerObj {
  bool max = false;
  std::vector<int64_t> pool, strides;
  std::string padding;
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    return max ? maxPool2d(cx, x, pool, strides, padding, loc)
               : averagePool2d(cx, x, pool, strides, padding, loc);
  }
};

struct GlobalMaxPoolLayer : LayerObj {
  bool keepdims = false;
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    const Shape& s = cx.b.type(x).shape;
    if (s.size() != 4) cx.fail(loc, "GlobalMaxPooling2D needs NHWC inputs, got " + shapeStr(s));
    cx.at(loc);
    return o::reduceMax(cx.b, x, {1, 2}, keepdims);
  }
};

}  // namespace

void addKerasMoreLayers(BuiltinTable& t) {
  // strides default to the pool size, as Keras's.
  for (auto [name, isMax] : {std::pair{"AveragePooling2D", false}, {"MaxPooling2D", true}}) {
    const bool max = isMax;
    const char* kind = name;
    t[std::string("tf.keras.layers.") + name] = {
        Signature::parse(
            "pool_size=(2, 2), strides=None, padding='valid', data_format=None, name=None"),
        [max, kind](Bound& a) {
          if (!a.none("data_format") && a.string("data_format") != "channels_last")
            a.fail("data_format", "must be 'channels_last' in GradLab");
          auto l = layer<PoolLayer2d>(a, kind);
          l->max = max;
          auto pair = [&](const char* param) {
            std::vector<int64_t> v = a.ints(param);
            if (v.size() == 1) v.push_back(v[0]);
            if (v.size() != 2 || v[0] < 1 || v[1] < 1)
              a.fail(param, "must be a positive int or a pair of them");
            return v;
          };
          l->pool = pair("pool_size");
          l->strides = a.none("strides") ? l->pool : pair("strides");
          l->padding = a.string("padding");
          return Val::object(l);
        }};
  }
  t["tf.keras.layers.GlobalMaxPooling2D"] = {
      Signature::parse("data_format=None, keepdims=False, name=None"), [](Bound& a) {
        if (!a.none("data_format") && a.string("data_format") != "channels_last")
          a.fail("data_format", "must be 'channels_last' in GradLab");
        auto l = layer<GlobalMaxPoolLayer>(a, "GlobalMaxPooling2D");
        l->keepdims = a.boolean("keepdims");
        return Val::object(l);
      }};
  t["tf.keras.layers.Activation"] = {Signature::parse("activation, name=None"), [](Bound& a) {
                                       auto l = layer<ActivationLayer>(a, "Activation");
                                       l->activation = a["activation"];
                                       return Val::object(l);
                                     }};
  t["tf.keras.layers.ReLU"] = {
      Signature::parse("max_value=None, negative_slope=0.0, threshold=0.0, name=None"),
      [](Bound& a) {
        auto l = layer<ReluLayer>(a, "ReLU");
        if (!a.none("max_value")) l->maxValue = a.number("max_value");
        l->slope = a.number("negative_slope");
        l->threshold = a.number("threshold");
        return Val::object(l);
      }};
  t["tf.keras.layers.Dropout"] = {Signature::parse("rate, noise_shape=None, seed=None, name=None"),
                                  [](Bound& a) {
                                    auto l = layer<DropoutLayer>(a, "Dropout");
                                    l->rate = a.number("rate");
                                    if (!(l->rate >= 0 && l->rate < 1))
                                      a.fail("rate", "must be in [0, 1)");
                                    if (!a.none("noise_shape"))
                                      a.fail("noise_shape", "is not supported yet");
                                    if (!a.none("seed")) l->seed = a.integer("seed");
                                    return Val::object(l);
                                  }};
  t["tf.keras.layers.Reshape"] = {Signature::parse("target_shape, name=None"), [](Bound& a) {
                                    auto l = layer<ReshapeLayer>(a, "Reshape");
                                    l->target = a.ints("target_shape");
                                    return Val::object(l);
                                  }};
  t["tf.keras.layers.Lambda"] = {
      // output_shape only tells Keras what it could infer; GradLab infers it.
      Signature::parse("function, ~output_shape=None, mask=None, arguments=None, name=None"),
      [](Bound& a) {
        if (!a.none("mask") || !a.none("arguments"))
          a.fail(a.none("mask") ? "arguments" : "mask", "is not supported yet");
        auto l = layer<LambdaLayer>(a, "Lambda");
        l->function = a["function"];
        return Val::object(l);
      }};
  t["tf.keras.layers.Add"] = {Signature::parse("name=None"),
                              [](Bound& a) { return Val::object(layer<MergeLayer>(a, "Add")); }};
  t["tf.keras.layers.Concatenate"] = {Signature::parse("axis=-1, name=None"), [](Bound& a) {
                                        auto l = layer<MergeLayer>(a, "Concatenate");
                                        l->concat = true;
                                        l->axis = a.integer("axis");
                                        return Val::object(l);
                                      }};
  // The functional forms (keras/layers/merging/*.py): a new Add / Concatenate layer called on
  // the inputs, so they take the layers' default names too.
  t["tf.keras.layers.add"] = {Signature::parse("inputs"), [](Bound& a) {
                                const Val l = a.cx.callSimple(*lookupBuiltin("tf.keras.layers.Add"),
                                                              {}, a.callLoc, "Add");
                                return a.cx.callSimple(l, {a["inputs"]}, a.callLoc, "add");
                              }};
  t["tf.keras.layers.concatenate"] = {
      Signature::parse("inputs, axis=-1"), [](Bound& a) {
        const Val l = a.cx.callSimple(*lookupBuiltin("tf.keras.layers.Concatenate"), {a["axis"]},
                                      a.callLoc, "Concatenate");
        return a.cx.callSimple(l, {a["inputs"]}, a.callLoc, "concatenate");
      }};
  t["tf.keras.layers.Embedding"] = {
      Signature::parse("input_dim, output_dim, embeddings_initializer='uniform', name=None"),
      [](Bound& a) {
        auto l = layer<EmbeddingLayer>(a, "Embedding");
        l->inputDim = a.integer("input_dim");
        l->outputDim = a.integer("output_dim");
        if (l->inputDim < 1 || l->outputDim < 1)
          a.fail("input_dim", "and output_dim must be positive");
        l->init = initializerArg(a, "embeddings_initializer");
        return Val::object(l);
      }};
  t["tf.keras.layers.LayerNormalization"] = {
      Signature::parse("axis=-1, epsilon=0.001, center=True, scale=True, "
                       "beta_initializer='zeros', gamma_initializer='ones', name=None"),
      [](Bound& a) {
        const auto axes = a.ints("axis");
        if (axes != std::vector<int64_t>{-1}) a.fail("axis", "must be -1 (the last axis)");
        auto l = layer<LayerNormLayer>(a, "LayerNormalization");
        l->epsilon = a.number("epsilon");
        l->center = a.boolean("center");
        l->scaled = a.boolean("scale");
        l->betaInit = initializerArg(a, "beta_initializer");
        l->gammaInit = initializerArg(a, "gamma_initializer");
        return Val::object(l);
      }};
}

}  // namespace gl::lang::trace
