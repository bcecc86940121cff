// tf.math and tf.nn functions that TF itself builds from other ops, built here from primitives
// the same way so their gradients are TF's: the *_no_nan and x*y-style functions, the
// predicates is_nan / is_inf / is_finite, the statistics reductions, and the activations.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "engine/lang/tracer_builtins.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

Value scalarOf(Emitter& b, Value like, double v) { return b.scalar(v, b.type(like).dtype); }

Value requireFloat(Bound& a, const char* name) {
  Value x = a.tensor(name);
  if (!isFloat(a.cx.b.type(x).dtype))
    a.fail(name, std::string("must be a float tensor, got ") + dtypeName(a.cx.b.type(x).dtype));
  return x;
}

// x op y where the result is 0 wherever `zeroWhere` holds. The other branch is computed on safe
// operands, so neither its value nor its gradient is NaN there (TF's *_no_nan gradients are 0).
void addNoNan(BuiltinTable& t) {
  // divide_no_nan(x, y) = 0 where y == 0, else x / y (TF: _DivNoNanGrad).
  t["tf.math.divide_no_nan"] = {
      Signature::parse("x, y, name=None"), [](Bound& a) {
        auto [x, y] = operands(a, "x", "y");
        Emitter& b = a.cx.b;
        const Value zero = o::equal(b, y, scalarOf(b, y, 0));
        const Value safeY = o::where(b, zero, scalarOf(b, y, 1), y);
        return T(o::where(b, zero, b.zerosLike(o::div(b, x, safeY)), o::div(b, x, safeY)));
      }};
  t["tf.math.multiply_no_nan"] = {Signature::parse("x, y, name=None"), [](Bound& a) {
                                    auto [x, y] = operands(a, "x", "y");
                                    return T(a.cx.b.op1("mul_no_nan", {x, y}));
                                  }};
  // xdivy(x, y) = 0 where x == 0, else x / y; xlogy(x, y) = 0 where x == 0, else x log(y).
  t["tf.math.xdivy"] = {Signature::parse("x, y, name=None"), [](Bound& a) {
                          auto [x, y] = operands(a, "x", "y");
                          Emitter& b = a.cx.b;
                          const Value zero = o::equal(b, x, scalarOf(b, x, 0));
                          const Value safeY = o::where(b, zero, b.onesLike(y), y);
                          const Value q = o::div(b, x, safeY);
                          return T(o::where(b, zero, b.zerosLike(q), q));
                        }};
  t["tf.math.xlogy"] = {Signature::parse("x, y, name=None"), [](Bound& a) {
                          auto [x, y] = operands(a, "x", "y");
                          Emitter& b = a.cx.b;
                          const Value zero = o::equal(b, x, scalarOf(b, x, 0));
                          const Value safeY = o::where(b, zero, b.onesLike(y), y);
                          const Value p = o::mul(b, x, o::log(b, safeY));
                          return T(o::where(b, zero, b.zerosLike(p), p));
                        }};
  t["tf.math.squared_difference"] = {Signature::parse("x, y, name=None"), [](Bound& a) {
                                       auto [x, y] = operands(a, "x", "y");
                                       return T(o::square(a.cx.b, o::sub(a.cx.b, x, y)));
                                     }};
  // Floats: x - floor(x / y) y, the sign of y (TF's FloorMod; _FloorModGrad: dx = g,
  // dy = -g floor(x / y)). int32: floor semantics through the div primitive.
  t["tf.math.floormod"] = {Signature::parse("x, y, name=None"), [](Bound& a) {
                             auto [x, y] = operands(a, "x", "y");
                             Emitter& b = a.cx.b;
                             if (!isFloat(b.type(x).dtype))
                               return T(o::sub(b, x, o::mul(b, o::div(b, x, y), y)));
                             const Value q = b.op1("floor", {o::div(b, x, y)});
                             return T(o::sub(b, x, o::mul(b, q, y)));
                           }};
  t["tf.atan2"] = {Signature::parse("y, x, name=None"), [](Bound& a) {
                     auto [y, x] = operands(a, "y", "x");
                     return T(a.cx.b.op1("atan2", {y, x}));
                   }};
  t["tf.math.logical_xor"] = {Signature::parse("x, y, name=None"), [](Bound& a) {
                                auto [x, y] = operands(a, "x", "y");
                                if (a.cx.b.type(x).dtype != DType::Bool)
                                  a.fail("x", "must be a bool tensor");
                                return T(o::notEqual(a.cx.b, x, y));
                              }};
}

// is_nan(x) = x != x; is_inf(x) = |x| == inf; is_finite(x) = |x| < inf (false for NaN).
void addPredicates(BuiltinTable& t) {
  t["tf.math.is_nan"] = {Signature::parse("x, name=None"), [](Bound& a) {
                           const Value x = requireFloat(a, "x");
                           return T(o::notEqual(a.cx.b, x, x));
                         }};
  t["tf.math.is_inf"] = {Signature::parse("x, name=None"), [](Bound& a) {
                           const Value x = requireFloat(a, "x");
                           Emitter& b = a.cx.b;
                           return T(o::equal(b, o::abs(b, x), scalarOf(b, x, INFINITY)));
                         }};
  t["tf.math.is_finite"] = {Signature::parse("x, name=None"), [](Bound& a) {
                              const Value x = requireFloat(a, "x");
                              Emitter& b = a.cx.b;
                              return T(o::less(b, o::abs(b, x), scalarOf(b, x, INFINITY)));
                            }};
}

// The statistics reductions, as TF's math_ops builds them.
void addStatistics(BuiltinTable& t) {
  const Signature sig = Signature::parse("input_tensor, axis=None, keepdims=False, name=None");
  // log(sum(exp(x))) = m + log(sum(exp(x - m))) with m the (gradient-free) max, 0 where it is
  // not finite: no overflow, and the gradient is softmax(x) along the axes.
  t["tf.reduce_logsumexp"] = {
      sig, [](Bound& a) {
        const Value x = requireFloat(a, "input_tensor");
        Emitter& b = a.cx.b;
        const auto axes = a.axes("axis");
        const bool keep = a.boolean("keepdims");
        Value m = o::stopGradient(b, o::reduceMax(b, x, axes, true));
        const Value finite = o::less(b, o::abs(b, m), scalarOf(b, m, INFINITY));
        m = o::where(b, finite, m, b.zerosLike(m));
        const Value s = o::reduceSum(b, o::exp(b, o::sub(b, x, m)), axes, keep);
        const Value mk = keep ? m : o::reduceSum(b, m, axes, false);
        return T(o::add(b, o::log(b, s), mk));
      }};
  // variance = mean(|x - mean(x)|^2) over the axes; std = sqrt(variance).
  auto variance = [](Bound& a) {
    const Value x = requireFloat(a, "input_tensor");
    Emitter& b = a.cx.b;
    const auto axes = a.axes("axis");
    const Value d = o::sub(b, x, o::reduceMean(b, x, axes, true));
    return o::reduceMean(b, o::square(b, d), axes, a.boolean("keepdims"));
  };
  t["tf.reduce_variance"] = {sig, [variance](Bound& a) { return T(variance(a)); }};
  t["tf.reduce_std"] = {sig, [variance](Bound& a) { return T(o::sqrt(a.cx.b, variance(a))); }};
  t["tf.math.reduce_euclidean_norm"] = {
      sig, [](Bound& a) {
        const Value x = requireFloat(a, "input_tensor");
        Emitter& b = a.cx.b;
        return T(
            o::sqrt(b, o::reduceSum(b, o::square(b, x), a.axes("axis"), a.boolean("keepdims"))));
      }};
}

// Activations (nn_ops.py; keras/activations.py for gelu's formulas).
void addActivations(BuiltinTable& t) {
  t["tf.nn.relu6"] = {Signature::parse("features, name=None"), [](Bound& a) {
                        const Value x = requireFloat(a, "features");
                        Emitter& b = a.cx.b;
                        return T(o::minimum(b, o::relu(b, x), scalarOf(b, x, 6)));
                      }};
  // x where x > 0, alpha x elsewhere (TF's gradient: 1 or alpha).
  t["tf.nn.leaky_relu"] = {Signature::parse("features, alpha=0.2, name=None"), [](Bound& a) {
                             const Value x = requireFloat(a, "features");
                             Emitter& b = a.cx.b;
                             const Value pos = o::greater(b, x, scalarOf(b, x, 0));
                             return T(o::where(b, pos, x, o::scale(b, x, a.number("alpha"))));
                           }};
  // scale (x if x > 0 else alpha (exp(x) - 1)), Klambauer et al.'s constants, as TF's Selu.
  t["tf.nn.selu"] = {Signature::parse("features, name=None"), [](Bound& a) {
                       const Value x = requireFloat(a, "features");
                       Emitter& b = a.cx.b;
                       constexpr double kAlpha = 1.6732632423543772848170429916717;
                       constexpr double kScale = 1.0507009873554804934193349852946;
                       const Value pos = o::greater(b, x, scalarOf(b, x, 0));
                       const Value neg = o::scale(b, b.op1("expm1", {x}), kAlpha);
                       return T(o::scale(b, o::where(b, pos, x, neg), kScale));
                     }};
  // x sigmoid(beta x) (tf.nn.silu, a.k.a. swish).
  t["tf.nn.silu"] = {Signature::parse("features, beta=1.0"), [](Bound& a) {
                       const Value x = requireFloat(a, "features");
                       Emitter& b = a.cx.b;
                       return T(o::mul(b, x, o::sigmoid(b, o::scale(b, x, a.number("beta")))));
                     }};
  // 0.5 x (1 + erf(x / sqrt 2)); approximate: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  auto gelu = [](Bound& a, const char* xName) {
    const Value x = requireFloat(a, xName);
    Emitter& b = a.cx.b;
    Value inner;
    if (a.boolean("approximate")) {
      const Value cube = o::mul(b, x, o::square(b, x));
      inner =
          o::tanh(b, o::scale(b, o::add(b, x, o::scale(b, cube, 0.044715)), std::sqrt(2.0 / M_PI)));
    } else {
      inner = b.op1("erf", {o::scale(b, x, 1.0 / std::sqrt(2.0))});
    }
    return T(o::mul(b, o::scale(b, x, 0.5), o::addScalar(b, inner, 1.0)));
  };
  t["tf.nn.gelu"] = {Signature::parse("features, approximate=False, name=None"),
                     [gelu](Bound& a) { return gelu(a, "features"); }};
  t["tf.keras.activations.gelu"] = {Signature::parse("x, approximate=False"),
                                    [gelu](Bound& a) { return gelu(a, "x"); }};
}

// Normalisation and lookups (nn_impl.py, embedding_ops.py), as TF composes them.
void addNormalisation(BuiltinTable& t) {
  // x / sqrt(max(sum(x^2, axis), epsilon)).
  t["tf.math.l2_normalize"] = {
      Signature::parse("x, axis=None, epsilon=1e-12, name=None, dim=None"), [](Bound& a) {
        if (!a.none("dim")) a.fail("dim", "is deprecated in TF; use axis");
        const Value x = requireFloat(a, "x");
        Emitter& b = a.cx.b;
        const Value ss = o::reduceSum(b, o::square(b, x), a.axes("axis"), true);
        const Value floor = o::maximum(b, ss, scalarOf(b, ss, a.number("epsilon")));
        return T(o::mul(b, x, b.op1("rsqrt", {floor})));
      }};
  t["tf.nn.l2_normalize"] = t["tf.math.l2_normalize"];
  t["tf.nn.bias_add"] = {Signature::parse("value, bias, data_format=None, name=None"),
                         [](Bound& a) {
                           if (!a.none("data_format") && a.string("data_format") != "NHWC" &&
                               a.string("data_format") != "N...C")
                             a.fail("data_format", "must be channels-last (NHWC) in GradLab");
                           auto [x, bias] = operands(a, "value", "bias");
                           if (a.cx.b.type(bias).shape.size() != 1)
                             a.fail("bias", "must be a vector");
                           return T(o::add(a.cx.b, x, bias));
                         }};
  // (mean, variance) over axes; the variance's deviations from a stop_gradient mean, as TF's
  // nn_impl.moments (shift is unused by TF 2).
  t["tf.nn.moments"] = {
      Signature::parse("x, axes, ~shift=None, keepdims=False, name=None"), [](Bound& a) {
        const Value x = requireFloat(a, "x");
        Emitter& b = a.cx.b;
        const auto axes = a.axes("axes");
        const bool keep = a.boolean("keepdims");
        const Value mean = o::reduceMean(b, x, axes, true);
        const Value dev = o::sub(b, x, o::stopGradient(b, mean));
        const Value var = o::reduceMean(b, o::square(b, dev), axes, true);
        auto out = [&](Value v) { return keep ? v : o::reduceSum(b, v, axes, false); };
        return Val::listOf({T(out(mean)), T(out(var))}, true);
      }};
  // x * inv + (offset - mean * inv), inv = scale / sqrt(variance + epsilon).
  t["tf.nn.batch_normalization"] = {
      Signature::parse("x, mean, variance, offset, scale, variance_epsilon, name=None"),
      [](Bound& a) {
        const Value x = requireFloat(a, "x");
        Emitter& b = a.cx.b;
        const Value mean = a.tensorLike("mean", x), var = a.tensorLike("variance", x);
        Value inv = b.op1("rsqrt", {o::addScalar(b, var, a.number("variance_epsilon"))});
        if (!a.none("scale")) inv = o::mul(b, inv, a.tensorLike("scale", x));
        Value shift = o::neg(b, o::mul(b, mean, inv));
        if (!a.none("offset")) shift = o::add(b, a.tensorLike("offset", x), shift);
        return T(o::add(b, o::mul(b, x, inv), shift));
      }};
  t["tf.nn.embedding_lookup"] = {
      Signature::parse("params, ids, max_norm=None, name=None"), [](Bound& a) {
        if (!a.none("max_norm")) a.fail("max_norm", "is not supported yet");
        const Value ids = a.cx.toTensor(a["ids"], a.loc("ids"), DType::I32);
        if (isFloat(a.cx.b.type(ids).dtype)) a.fail("ids", "must be integers");
        return T(o::gather(a.cx.b, a.tensor("params"), ids, 0));
      }};
}

int64_t seedOf(Bound& a) {
  return a.cx.nextSeed(a.none("seed") ? std::nullopt : std::optional(a.integer("seed")));
}

// Random functions beyond normal and uniform. Draws come from GradLab's generator: their
// distribution is TF's, their values are not.
void addRandom(BuiltinTable& t) {
  t["tf.random.truncated_normal"] = {
      Signature::parse("shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None"),
      [](Bound& a) {
        const int64_t seed = seedOf(a);
        return T(a.cx.b.op1("random_normal", {},
                            {{"shape", a.shape("shape")},
                             {"dtype", std::string(dtypeName(a.dtype("dtype", DType::F32)))},
                             {"mean", a.number("mean")},
                             {"stddev", a.number("stddev")},
                             {"seed", seed},
                             {"truncated", true}}));
      }};
  // The stateless draws are functions of seed = [s0, s1]: the same numbers every execution.
  auto statelessSeed = [](Bound& a) {
    const auto s = a.ints("seed");
    if (s.size() != 2) a.fail("seed", "must be a pair of ints, [s0, s1]");
    return s[0] * 1000003 + s[1];
  };
  t["tf.random.stateless_normal"] = {
      Signature::parse(
          "shape, seed, mean=0.0, stddev=1.0, dtype=None, name=None, ~alg='auto_select'"),
      [statelessSeed](Bound& a) {
        return T(a.cx.b.op1("random_normal", {},
                            {{"shape", a.shape("shape")},
                             {"dtype", std::string(dtypeName(a.dtype("dtype", DType::F32)))},
                             {"mean", a.number("mean")},
                             {"stddev", a.number("stddev")},
                             {"seed", statelessSeed(a)},
                             {"stateless", true}}));
      }};
  t["tf.random.stateless_uniform"] = {
      Signature::parse(
          "shape, seed, minval=0, maxval=None, dtype=None, name=None, ~alg='auto_select'"),
      [statelessSeed](Bound& a) {
        const DType dt = a.dtype("dtype", DType::F32);
        if (a.none("maxval") && !isFloat(dt)) a.fail("maxval", "is required for integer dtypes");
        return T(a.cx.b.op1("random_uniform", {},
                            {{"shape", a.shape("shape")},
                             {"dtype", std::string(dtypeName(dt))},
                             {"minval", a.number("minval")},
                             {"maxval", a.none("maxval") ? 1.0 : a.number("maxval")},
                             {"seed", statelessSeed(a)},
                             {"stateless", true}}));
      }};
  // dropout: x / (1 - rate) where a uniform draw >= rate, else 0 (nn_ops.dropout_v2).
  t["tf.nn.dropout"] = {
      Signature::parse("x, rate, noise_shape=None, seed=None, name=None"), [](Bound& a) {
        const Value x = requireFloat(a, "x");
        Emitter& b = a.cx.b;
        const double rate = a.number("rate");
        if (!(rate >= 0 && rate < 1)) a.fail("rate", "must be in [0, 1)");
        const Shape s = a.none("noise_shape") ? b.type(x).shape : a.shape("noise_shape");
        if (!fullyKnown(s)) a.fail("x", "needs a known shape for its dropout mask");
        const int64_t seed = seedOf(a);
        const DType dt = b.type(x).dtype;
        const Value u = o::randomUniform(b, s, 0, 1, dt, seed);
        const Value keep = o::cast(b, o::greaterEqual(b, u, scalarOf(b, u, rate)), dt);
        return T(o::mul(b, o::scale(b, x, 1 / (1 - rate)), keep));
      }};
}

// An assert node: a side effect, run although nothing reads it. summarize: entries shown per
// data tensor (TF's default 3).
void assertNode(Bound& a, Value condition, const std::vector<Value>& data,
                const std::string& message) {
  const int64_t summarize = a.none("summarize") ? 3 : a.integer("summarize");
  if (summarize < 0) a.fail("summarize", "must not be negative");
  a.cx.at(a.callLoc);
  const Value v = o::assertThat(a.cx.b, condition, data, message, summarize);
  a.cx.b.graph().node(v).sideEffect = true;
}

void addChecksAndSampling(BuiltinTable& t) {
  // The tensor itself, checked when it is computed; a side effect, so the check runs even when
  // nothing reads the result (TF keeps the stateful op in its function).
  t["tf.debugging.check_numerics"] = {
      Signature::parse("tensor, message, name=None"), [](Bound& a) {
        const Value x = requireFloat(a, "tensor");
        const Value y = a.cx.b.op1("check_numerics", {x}, {{"message", a.string("message")}});
        a.cx.b.graph().node(y).sideEffect = true;
        return T(y);
      }};
  // tf.debugging.Assert(condition, data): stops the run, showing data, when condition is false.
  t["tf.debugging.Assert"] = {
      Signature::parse("condition, data, summarize=None, name=None"), [](Bound& a) {
        const Value c = a.cx.toTensor(a["condition"], a.loc("condition"), DType::Bool);
        if (a.cx.b.type(c).dtype != DType::Bool || !a.cx.b.type(c).shape.empty())
          a.fail("condition", "must be a bool scalar");
        std::vector<Value> data;
        const Val& d = a["data"];
        for (const Val& v : d.isSeq() ? d.items() : std::vector<Val>{d})
          if (v.kind() != Kind::Str) data.push_back(a.cx.toTensor(v, a.loc("data")));
        std::string text = "assertion failed:";
        for (const Val& v : d.isSeq() ? d.items() : std::vector<Val>{d})
          if (v.kind() == Kind::Str) text += " " + v.text();
        assertNode(a, c, data, text);
        return Val::none();
      }};
  // tf.debugging.assert_equal and its kin: the comparison holds for every entry (broadcast),
  // else the run stops with TF's "Condition x == y did not hold element-wise:" and the data.
  struct Comparison {
    const char* name;
    const char* symbol;
    Value (*op)(Emitter&, Value, Value);
  };
  for (const Comparison k :
       {Comparison{"assert_equal", "==", o::equal},
        Comparison{"assert_none_equal", "!=", o::notEqual}, Comparison{"assert_less", "<", o::less},
        Comparison{"assert_less_equal", "<=", o::lessEqual},
        Comparison{"assert_greater", ">", o::greater},
        Comparison{"assert_greater_equal", ">=", o::greaterEqual}})
    t[std::string("tf.debugging.") + k.name] = {
        Signature::parse("x, y, message=None, summarize=None, name=None"), [k](Bound& a) {
          auto [x, y] = operands(a, "x", "y");
          Emitter& b = a.cx.b;
          const Value holds = o::cast(b, k.op(b, x, y), DType::F32);
          const Value all = o::greater(b, o::reduceMin(b, holds), b.scalar(0.5));
          std::string text = a.none("message") ? "" : a.string("message") + "\n";
          text += std::string("Condition x ") + k.symbol + " y did not hold element-wise:";
          assertNode(a, all, {x, y}, text);
          return Val::none();
        }};
  // log(cumsum(exp(x))) along axis, shifted by the (gradient-free) max so it cannot overflow.
  t["tf.math.cumulative_logsumexp"] = {
      Signature::parse("x, axis=0, exclusive=False, reverse=False, name=None"), [](Bound& a) {
        const Value x = requireFloat(a, "x");
        Emitter& b = a.cx.b;
        const int64_t axis = a.integer("axis");
        Value m = o::stopGradient(b, o::reduceMax(b, x, {axis}, true));
        m = o::where(b, o::less(b, o::abs(b, m), scalarOf(b, m, INFINITY)), m, b.zerosLike(m));
        const Value s = cumsumAlong(a, o::exp(b, o::sub(b, x, m)));
        return T(o::add(b, o::log(b, s), m));
      }};
  // Gumbel-max: argmax(logits + Gumbel noise) draws class k with probability softmax(logits)_k.
  t["tf.random.categorical"] = {
      Signature::parse("logits, num_samples, dtype=None, seed=None, name=None"), [](Bound& a) {
        const Value logits = requireFloat(a, "logits");
        Emitter& b = a.cx.b;
        const Shape s = b.type(logits).shape;
        if (s.size() != 2 || !fullyKnown(s))
          a.fail("logits", "must be [batch, classes] of known size, got " + shapeStr(s));
        if (!a.none("dtype") && a.dtype("dtype", DType::I32) != DType::I32)
          a.fail("dtype", "must be tf.int32 (GradLab's integers are int32)");
        const int64_t n = a.integer("num_samples");
        const int64_t seed =
            a.cx.nextSeed(a.none("seed") ? std::nullopt : std::optional(a.integer("seed")));
        const DType dt = b.type(logits).dtype;
        const Value u = o::randomUniform(b, {s[0], n, s[1]}, 0, 1, dt, seed);
        const Value gumbel = o::neg(b, o::log(b, o::neg(b, o::log(b, u))));
        return T(
            o::argmax(b, o::add(b, o::expandDims(b, o::stopGradient(b, logits), 1), gumbel), -1));
      }};
}

// ksize / strides of tf.nn pooling: one int, one per spatial dim, or the full NHWC form.
std::vector<int64_t> windowArg(Bound& a, const char* name, size_t spatial) {
  std::vector<int64_t> v = a.ints(name);
  if (v.size() == 1) v.assign(spatial, v[0]);
  if (v.size() == spatial + 2) v = std::vector<int64_t>(v.begin() + 1, v.end() - 1);
  if (v.size() != spatial || *std::min_element(v.begin(), v.end()) < 1)
    a.fail(name, "must be a positive int or one per spatial dim");
  return v;
}

void addPooling(BuiltinTable& t) {
  t["tf.nn.avg_pool2d"] = {
      Signature::parse("input, ksize, strides, padding, data_format='NHWC', name=None"),
      [](Bound& a) {
        if (a.string("data_format") != "NHWC") a.fail("data_format", "must be 'NHWC' in GradLab");
        return T(averagePool2d(a.cx, a.tensor("input"), windowArg(a, "ksize", 2),
                               windowArg(a, "strides", 2), a.string("padding"), a.callLoc));
      }};
  t["tf.nn.max_pool2d"] = {
      Signature::parse("input, ksize, strides, padding, data_format='NHWC', name=None"),
      [](Bound& a) {
        if (a.string("data_format") != "NHWC") a.fail("data_format", "must be 'NHWC' in GradLab");
        return T(maxPool2d(a.cx, a.tensor("input"), windowArg(a, "ksize", 2),
                           windowArg(a, "strides", 2), a.string("padding"), a.callLoc));
      }};
  t["tf.nn.max_pool1d"] = {
      Signature::parse("input, ksize, strides, padding, data_format='NWC', name=None"),
      [](Bound& a) {
        if (a.string("data_format") != "NWC") a.fail("data_format", "must be 'NWC' in GradLab");
        Emitter& b = a.cx.b;
        const auto k = windowArg(a, "ksize", 1), s = windowArg(a, "strides", 1);
        const Value y = maxPool2d(a.cx, o::expandDims(b, a.tensor("input"), 1), {1, k[0]},
                                  {1, s[0]}, a.string("padding"), a.callLoc);
        return T(o::squeeze(b, y, {1}));
      }};
  // avg_pool1d over [N, W, C]: a pool of height 1.
  t["tf.nn.avg_pool1d"] = {
      Signature::parse("input, ksize, strides, padding, data_format='NWC', name=None"),
      [](Bound& a) {
        if (a.string("data_format") != "NWC") a.fail("data_format", "must be 'NWC' in GradLab");
        Emitter& b = a.cx.b;
        const auto k = windowArg(a, "ksize", 1), s = windowArg(a, "strides", 1);
        const Value y = averagePool2d(a.cx, o::expandDims(b, a.tensor("input"), 1), {1, k[0]},
                                      {1, s[0]}, a.string("padding"), a.callLoc);
        return T(o::squeeze(b, y, {1}));
      }};
}

}  // namespace

Value averagePool2d(Context& cx, Value x, const std::vector<int64_t>& k,
                    const std::vector<int64_t>& s, const std::string& padding,
                    const SourceLoc& loc) {
  Emitter& b = cx.b;
  const Shape xs = b.type(x).shape;
  if (xs.size() != 4 || xs[1] < 0 || xs[2] < 0 || xs[3] < 0)
    cx.fail(loc, "average pooling needs NHWC inputs with H, W and C known, got " + shapeStr(xs));
  std::string pad = padding;
  for (auto& c : pad) c = char(std::toupper(c));
  if (pad != "VALID" && pad != "SAME") cx.fail(loc, "padding must be 'VALID' or 'SAME'");
  const int64_t c = xs[3];
  const DType dt = b.type(x).dtype;
  // Window sums channel by channel, then the number of inside positions per window.
  Tensor perChannel = Tensor::zeros(dt, {k[0], k[1], c, c});
  for (int64_t i = 0; i < k[0] * k[1]; ++i)
    for (int64_t ch = 0; ch < c; ++ch) perChannel.set((i * c + ch) * c + ch, 1.0);
  cx.at(loc);
  const Value sums = o::conv2d(b, x, b.constant(perChannel, "pool window"), s, pad);
  const Value inside = b.constant(Tensor::full(dt, {1, xs[1], xs[2], 1}, 1.0));
  const Value count =
      o::conv2d(b, inside, b.constant(Tensor::full(dt, {k[0], k[1], 1, 1}, 1.0)), s, pad);
  return o::div(b, sums, count);
}

Value maxPool2d(Context& cx, Value x, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
                const std::string& padding, const SourceLoc& loc) {
  Emitter& b = cx.b;
  const Shape xs = b.type(x).shape;
  if (xs.size() != 4 || !fullyKnown(xs))
    cx.fail(loc, "max pooling needs NHWC inputs of known shape, got " + shapeStr(xs));
  std::string pad = padding;
  for (auto& c : pad) c = char(std::toupper(c));
  if (pad != "VALID" && pad != "SAME") cx.fail(loc, "padding must be 'VALID' or 'SAME'");
  const int64_t n = xs[0], h = xs[1], w = xs[2], c = xs[3];
  // Output size and the padding before, as TF's conv geometry.
  auto geometry = [&](int64_t in, int64_t win, int64_t st, int64_t& out, int64_t& before) {
    if (pad == "VALID") {
      out = in >= win ? (in - win) / st + 1 : 0;
      before = 0;
    } else {
      out = (in + st - 1) / st;
      before = std::max<int64_t>((out - 1) * st + win - in, 0) / 2;
    }
  };
  int64_t oh = 0, ow = 0, ph = 0, pw = 0;
  geometry(h, k[0], s[0], oh, ph);
  geometry(w, k[1], s[1], ow, pw);
  // Positions into [N, H*W + 1, C]: H*W is a row of -inf that stands for the padding.
  std::vector<double> idx;
  for (int64_t i = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j)
      for (int64_t di = 0; di < k[0]; ++di)
        for (int64_t dj = 0; dj < k[1]; ++dj) {
          const int64_t r = i * s[0] + di - ph, q = j * s[1] + dj - pw;
          idx.push_back(r >= 0 && r < h && q >= 0 && q < w ? double(r * w + q) : double(h * w));
        }
  cx.at(loc);
  const DType dt = b.type(x).dtype;
  const Value rows = o::reshape(b, x, {n, h * w, c});
  const Value padRow = b.constant(Tensor::full(dt, {n, 1, c}, -INFINITY));
  const Value withPad = o::concat(b, {rows, padRow}, 1);
  const Value where = b.constant(Tensor::fromVector(idx, {oh, ow, k[0] * k[1]}, DType::I32));
  const Value patches = o::gather(b, withPad, where, 1);  // [N, oh, ow, window, C]
  return o::reduceMax(b, patches, {3});
}

void addTfMathMoreBuiltins(BuiltinTable& t) {
  addNoNan(t);
  addPredicates(t);
  addStatistics(t);
  addActivations(t);
  addNormalisation(t);
  addRandom(t);
  addChecksAndSampling(t);
  addPooling(t);
}

}  // namespace gl::lang::trace
