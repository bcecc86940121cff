// Keras losses (keras/losses.py, keras/backend.py): each a per-sample function, mean over the
// last axis, and a class whose call reduces the per-sample losses ('auto' and
// 'sum_over_batch_size' average them, 'sum' adds them, 'none' keeps them). Probabilities are
// clipped to [eps, 1 - eps] with Keras's eps = 1e-7 before their log, as Keras does.
// Also tf.nn's sigmoid and sparse softmax cross-entropies, which the losses build on.
#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_keras_init.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

constexpr double kEpsilon = 1e-7;  // keras.backend.epsilon()

Value clipProbabilities(Emitter& b, Value p) {
  const DType dt = b.type(p).dtype;
  return o::minimum(b, o::maximum(b, p, b.scalar(kEpsilon, dt)), b.scalar(1 - kEpsilon, dt));
}

// max(x, 0) - x z + log(1 + exp(-|x|)), TF's sigmoid_cross_entropy_with_logits: no overflow
// for large |x|. Written with where(x >= 0, ...) as TF writes it, so that at x = 0 the
// gradient is sigmoid(0) - z (relu's and abs's gradients at 0 would drop terms).
Value sigmoidCrossEntropy(Emitter& b, Value labels, Value logits) {
  const Value zeros = b.zerosLike(logits);
  const Value cond = o::greaterEqual(b, logits, zeros);
  const Value reluLogits = o::where(b, cond, logits, zeros);
  const Value negAbsLogits = o::where(b, cond, o::neg(b, logits), logits);
  const Value softplusNeg = b.op1("log1p", {o::exp(b, negAbsLogits)});
  return o::add(b, o::sub(b, reluLogits, o::mul(b, logits, labels)), softplusNeg);
}

// -log softmax(logits)[label] for int labels over the last axis (known size).
Value sparseSoftmaxCrossEntropy(Bound& a, Value labels, Value logits) {
  Emitter& b = a.cx.b;
  const Shape& s = b.type(logits).shape;
  if (s.empty() || s.back() < 0)
    a.fail("logits", "needs a last (class) axis of known size, got " + shapeStr(s));
  if (isFloat(b.type(labels).dtype)) a.fail("labels", "must be integer class indices");
  const Value onehot = o::oneHot(b, labels, s.back(), 1.0, 0.0, b.type(logits).dtype);
  return o::softmaxCrossEntropy(b, onehot, logits);
}

std::pair<Value, Value> truthAndPrediction(Bound& a) {
  const Value y = a.tensor("y_true");
  const Value p = a.tensorLike("y_pred", y);
  a.cx.at(a.callLoc);
  return {y, p};
}

void requireLastAxis(Bound& a) {
  if (a.integer("axis") != -1) a.fail("axis", "must be -1 (the class axis is the last one)");
}

void requireNoSmoothing(Bound& a) {
  if (a.number("label_smoothing") != 0) a.fail("label_smoothing", "is not supported yet");
}

// Per-sample losses, keras.losses.<name>(y_true, y_pred, ...).
Value categoricalCrossentropy(Bound& a) {
  requireNoSmoothing(a);
  requireLastAxis(a);
  auto [y, p] = truthAndPrediction(a);
  Emitter& b = a.cx.b;
  if (a.boolean("from_logits")) return o::softmaxCrossEntropy(b, y, p);
  const Value q = clipProbabilities(b, o::div(b, p, o::reduceSum(b, p, {-1}, true)));
  return o::neg(b, o::reduceSum(b, o::mul(b, y, o::log(b, q)), {-1}));
}

Value sparseCategoricalCrossentropy(Bound& a) {
  requireLastAxis(a);
  if (!a.none("ignore_class")) a.fail("ignore_class", "is not supported yet");
  Emitter& b = a.cx.b;
  const Value p = a.tensor("y_pred");
  const Value y = a.cx.toTensor(a["y_true"], a.loc("y_true"), DType::I32);
  a.cx.at(a.callLoc);
  // Integer labels, shaped like p without its class axis (Keras drops a trailing 1 too).
  Value labels = isFloat(b.type(y).dtype) ? o::cast(b, y, DType::I32) : y;
  const Shape& ls = b.type(labels).shape;
  if (ls.size() == b.type(p).shape.size() && !ls.empty() && ls.back() == 1)
    labels = o::squeeze(b, labels, {-1});
  // Probabilities: Keras takes the log of the clipped values as logits.
  const Value logits = a.boolean("from_logits") ? p : o::log(b, clipProbabilities(b, p));
  return sparseSoftmaxCrossEntropy(a, labels, logits);
}

Value binaryCrossentropy(Bound& a) {
  requireNoSmoothing(a);
  requireLastAxis(a);
  auto [y, p] = truthAndPrediction(a);
  Emitter& b = a.cx.b;
  Value e;
  if (a.boolean("from_logits")) {
    e = sigmoidCrossEntropy(b, y, p);
  } else {  // -(y log(p + eps) + (1 - y) log(1 - p + eps)), p clipped (keras.backend)
    const Value q = clipProbabilities(b, p);
    const Value one = b.scalar(1, b.type(p).dtype);
    const Value pos = o::mul(b, y, o::log(b, o::addScalar(b, q, kEpsilon)));
    const Value neg =
        o::mul(b, o::sub(b, one, y), o::log(b, o::addScalar(b, o::sub(b, one, q), kEpsilon)));
    e = o::neg(b, o::add(b, pos, neg));
  }
  return o::reduceMean(b, e, {-1});
}

Value meanSquaredError(Bound& a) {
  auto [y, p] = truthAndPrediction(a);
  return o::reduceMean(a.cx.b, o::square(a.cx.b, o::sub(a.cx.b, p, y)), {-1});
}

Value meanAbsoluteError(Bound& a) {
  auto [y, p] = truthAndPrediction(a);
  return o::reduceMean(a.cx.b, o::abs(a.cx.b, o::sub(a.cx.b, p, y)), {-1});
}

// 0.5 e^2 where |e| <= delta, delta (|e| - 0.5 delta) beyond (keras.losses.huber).
Value huber(Bound& a) {
  auto [y, p] = truthAndPrediction(a);
  Emitter& b = a.cx.b;
  const double delta = a.number("delta");
  const Value err = o::abs(b, o::sub(b, p, y));
  const Value quad = o::minimum(b, err, b.scalar(delta, b.type(err).dtype));
  const Value lin = o::sub(b, err, quad);
  const Value loss = o::add(b, o::scale(b, o::square(b, quad), 0.5), o::scale(b, lin, delta));
  return o::reduceMean(b, loss, {-1});
}

struct LossInfo {
  const char* function;   // tf.keras.losses.<function>
  const char* className;  // tf.keras.losses.<className>
  const char* params;     // the function's parameters after y_true, y_pred
  const char* options;    // the class constructor's own options (passed on to the function)
  Value (*perSample)(Bound&);
};

constexpr LossInfo kLosses[] = {
    {"categorical_crossentropy", "CategoricalCrossentropy",
     "from_logits=False, label_smoothing=0.0, axis=-1",
     "from_logits=False, label_smoothing=0.0, axis=-1", categoricalCrossentropy},
    {"sparse_categorical_crossentropy", "SparseCategoricalCrossentropy",
     "from_logits=False, axis=-1, ignore_class=None", "from_logits=False, ignore_class=None",
     sparseCategoricalCrossentropy},
    {"binary_crossentropy", "BinaryCrossentropy", "from_logits=False, label_smoothing=0.0, axis=-1",
     "from_logits=False, label_smoothing=0.0, axis=-1", binaryCrossentropy},
    {"mean_squared_error", "MeanSquaredError", "", "", meanSquaredError},
    {"mean_absolute_error", "MeanAbsoluteError", "", "", meanAbsoluteError},
    {"huber", "Huber", "delta=1.0", "delta=1.0", huber},
};

// "a, b" joined to "c, d" (either may be empty).
std::string signatureOf(const char* head, const char* params) {
  return std::string(head) + (*head && *params ? ", " : "") + params;
}

// A loss object: its constructor's options, applied on every call, then the reduction.
struct LossObj : Object {
  const LossInfo* info = nullptr;
  std::vector<std::pair<std::string, Arg>> options;
  std::string reduction;
  std::string typeName() const override { return info->className; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override {
    const Signature sig =
        Signature::parse(signatureOf("y_true, y_pred", info->params) + ", sample_weight=None");
    for (const auto& [k, v] : options) args.kw.push_back({k, v});
    Bound a(cx, info->className, sig, args);
    const Value perSample = info->perSample(a);
    a.checkAllRead();
    cx.at(args.loc);
    if (reduction == "none") return T(perSample);
    if (reduction == "sum") return T(o::reduceSum(cx.b, perSample));
    return T(o::reduceMean(cx.b, perSample));  // auto, sum_over_batch_size
  }
};

}  // namespace

void addKerasLosses(BuiltinTable& t) {
  for (const LossInfo& info : kLosses) {
    const LossInfo* p = &info;
    t[std::string("tf.keras.losses.") + info.function] = {
        Signature::parse(signatureOf("y_true, y_pred", info.params)),
        [p](Bound& a) { return T(p->perSample(a)); }};
    t[std::string("tf.keras.losses.") + info.className] = {
        Signature::parse(signatureOf(info.options, "reduction='auto', name=None")), [p](Bound& a) {
          auto l = std::make_shared<LossObj>();
          l->info = p;
          for (const ParamSpec& s : Signature::parse(p->options).params)
            l->options.push_back({s.name, {a[s.name], a.loc(s.name), nullptr}});
          l->reduction = a.string("reduction");
          if (l->reduction != "auto" && l->reduction != "sum_over_batch_size" &&
              l->reduction != "sum" && l->reduction != "none")
            a.fail("reduction", "must be 'auto', 'sum_over_batch_size', 'sum' or 'none'");
          return Val::object(l);
        }};
  }
  t["tf.nn.sigmoid_cross_entropy_with_logits"] = {
      Signature::parse("labels=None, logits=None, name=None"), [](Bound& a) {
        auto [labels, logits] = operands(a, "labels", "logits");
        return T(sigmoidCrossEntropy(a.cx.b, labels, logits));
      }};
  t["tf.nn.sparse_softmax_cross_entropy_with_logits"] = {
      Signature::parse("labels, logits, name=None"), [](Bound& a) {
        const Value logits = a.tensor("logits");
        const Value labels = a.cx.toTensor(a["labels"], a.loc("labels"), DType::I32);
        a.cx.at(a.callLoc);
        return T(sparseSoftmaxCrossEntropy(a, labels, logits));
      }};
}

}  // namespace gl::lang::trace
