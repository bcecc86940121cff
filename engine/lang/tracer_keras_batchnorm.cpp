// tf.keras.layers.BatchNormalization (keras/layers/normalization/batch_normalization.py,
// TF 2.x) over the last axis: gamma and beta are trainable weights; moving_mean and
// moving_variance are non-trainable state, tf.Variables (VarState) so that calls with
// training=True update them: moving -= (moving - batch statistic) (1 - momentum), Keras's
// _assign_moving_average, with the batch's biased variance. (Keras's fused kernel, used for
// rank-4 float32 inputs, adds Bessel's correction to the variance it averages and removes it
// from the result, which comes to the same update.) In training the output uses the batch's
// mean and biased variance; otherwise the moving statistics. `training` defaults to False, as
// a call outside fit().
#include "engine/lang/tracer_keras_layer.h"
#include "engine/lang/tracer_keras_subclass.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

struct BatchNormLayer : LayerObj {
  double momentum = 0.99, epsilon = 1e-3;
  bool center = true, scaled = true;
  Val gammaInit, betaInit, meanInit, varianceInit;
  std::shared_ptr<VarState> movingMean, movingVariance;

  // A non-trainable state variable at the top level of the graph, like the layer's weights.
  std::shared_ptr<VarState> makeState(Context& cx, const Tensor& init, const std::string& what) {
    const int region = cx.b.currentRegion();
    const SourceLoc saved = cx.b.loc();
    cx.b.setCurrentRegion(0);
    cx.b.setLoc(loc);
    auto var = std::make_shared<VarState>();
    var->handle = var->current = cx.b.constant(init, name + "/" + what);
    var->trainable = false;
    cx.registerVariable(var);
    cx.b.setCurrentRegion(region);
    cx.b.setLoc(saved);
    return var;
  }
  void build(Context& cx, const Shape& input, DType dt) override {
    const Shape p{input.back()};
    if (scaled) makeWeight(cx, gammaInit, p, dt, "gamma");
    if (center) makeWeight(cx, betaInit, p, dt, "beta");
    movingMean = makeState(cx, initialValue(cx, meanInit, p, dt), "moving_mean");
    movingVariance = makeState(cx, initialValue(cx, varianceInit, p, dt), "moving_variance");
    built = true;
  }
  std::optional<Val> attr(Context& cx, const std::string& n) override {
    if (built) {
      size_t k = 0;
      if (n == "gamma" && scaled) return stateVal(cx, states[0]);
      if (scaled) ++k;
      if (n == "beta" && center) return stateVal(cx, states[k]);
      if (n == "moving_mean") return stateVal(cx, movingMean);
      if (n == "moving_variance") return stateVal(cx, movingVariance);
      if (n == "weights" || n == "variables" || n == "non_trainable_variables") {
        std::vector<Val> vs;
        if (n != "non_trainable_variables")
          for (const auto& s : states) vs.push_back(stateVal(cx, s));
        vs.push_back(stateVal(cx, movingMean));
        vs.push_back(stateVal(cx, movingVariance));
        return Val::listOf(std::move(vs));
      }
    }
    if (n == "kernel" || n == "bias") return std::nullopt;
    return LayerObj::attr(cx, n);
  }
  std::vector<std::string> attrNames() const override {
    return {"gamma",
            "beta",
            "moving_mean",
            "moving_variance",
            "trainable_variables",
            "weights",
            "non_trainable_variables",
            "built",
            "name"};
  }

  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    return normalize(cx, x, false, loc);
  }
  Val call(Context& cx, CallArgs& args) override {
    static const Signature sig = Signature::parse("inputs, training=None, mask=None");
    Bound a(cx, kind, sig, args);
    const Value x = a.tensor("inputs");
    const bool training = trainingOf(a);  // given, or inherited from the layer calling this one
    a.checkAllRead();
    return Val::tensor(normalize(cx, x, training, args.loc));
  }

  Value normalize(Context& cx, Value x, bool training, const SourceLoc& loc) {
    lastDim(cx, x, loc);
    const Shape& s = cx.b.type(x).shape;
    if (s.size() < 2) cx.fail(loc, kind + " needs inputs with a batch axis, got " + shapeStr(s));
    if (!built) build(cx, s, cx.b.type(x).dtype);
    cx.at(loc);
    Emitter& b = cx.b;
    std::vector<int64_t> axes;
    for (int64_t i = 0; i + 1 < int64_t(s.size()); ++i) axes.push_back(i);
    Value mean, variance;
    if (training) {
      mean = o::reduceMean(b, x, axes, false);
      variance = o::reduceMean(b, o::square(b, o::sub(b, x, mean)), axes, false);
      for (auto [state, batch] : {std::pair{movingMean, mean}, {movingVariance, variance}}) {
        if (cx.b.currentRegion() != state->region)
          cx.fail(loc, kind +
                           " updates its moving statistics here, inside a loop body or "
                           "branch that does not carry them: call the layer once before "
                           "the loop (its first call makes them)");
        const Value now = state->current;
        cx.assignVariable(stateVal(cx, state),
                          o::sub(b, now, o::scale(b, o::sub(b, now, batch), 1 - momentum)), loc,
                          kind + " moving statistics");
      }
      cx.at(loc);
    } else {
      mean = movingMean->current;
      variance = movingVariance->current;
    }
    // tf.nn.batch_normalization: x inv + (beta - mean inv), inv = rsqrt(variance + eps) gamma.
    Value inv = b.op1("rsqrt", {o::addScalar(b, variance, epsilon)});
    size_t k = 0;
    if (scaled) inv = o::mul(b, inv, weight(cx, k++));
    Value shift = o::neg(b, o::mul(b, mean, inv));
    if (center) shift = o::add(b, shift, weight(cx, k));
    return o::add(b, o::mul(b, x, inv), shift);
  }
};

}  // namespace

void addKerasBatchNorm(BuiltinTable& t) {
  t["tf.keras.layers.BatchNormalization"] = {
      Signature::parse("axis=-1, momentum=0.99, epsilon=0.001, center=True, scale=True, "
                       "beta_initializer='zeros', gamma_initializer='ones', "
                       "moving_mean_initializer='zeros', moving_variance_initializer='ones', "
                       "beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, "
                       "gamma_constraint=None, synchronized=False, ~fused=None, renorm=False, "
                       "virtual_batch_size=None, adjustment=None, input_shape=None, name=None"),
      [](Bound& a) {
        const auto axes = a.ints("axis");
        if (axes != std::vector<int64_t>{-1})
          a.fail("axis", "must be -1 (the last axis) in GradLab");
        if (a.boolean("renorm")) a.fail("renorm", "is not supported by GradLab yet");
        if (a.boolean("synchronized")) a.fail("synchronized", "is not supported by GradLab");
        auto l = layer<BatchNormLayer>(a, "BatchNormalization");
        l->momentum = a.number("momentum");
        l->epsilon = a.number("epsilon");
        l->center = a.boolean("center");
        l->scaled = a.boolean("scale");
        l->betaInit = initializerArg(a, "beta_initializer");
        l->gammaInit = initializerArg(a, "gamma_initializer");
        l->meanInit = initializerArg(a, "moving_mean_initializer");
        l->varianceInit = initializerArg(a, "moving_variance_initializer");
        const Val& shape = a["input_shape"];
        if (!shape.isNone()) {
          if (!shape.isSeq() || shape.items().empty() || shape.items().back().kind() != Kind::Int)
            a.fail("input_shape", "must be a tuple with an int last dimension");
          l->build(a.cx, {shape.items().back().asInt()}, DType::F32);
        }
        return Val::object(l);
      }};
}

}  // namespace gl::lang::trace
