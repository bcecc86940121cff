// Keras initializers (keras/initializers/initializers_v2.py): the formulas and defaults below
// are Keras's. Random ones draw from GradLab's generator, so their values differ from TF's;
// Zeros, Ones and Constant give TF's exact weights.
#include "engine/lang/tracer_keras_init.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "engine/tensor/rng.h"

namespace gl::lang::trace {

namespace {

enum class InitKind {
  Zeros,
  Ones,
  Constant,
  RandomNormal,
  RandomUniform,
  TruncatedNormal,
  GlorotUniform,
  GlorotNormal,
  HeNormal,
  HeUniform,
  Orthogonal,
};

struct InitInfo {
  const char* className;  // tf.keras.initializers.<className>
  const char* name;       // the string a layer argument may give instead
  InitKind kind;
};

constexpr InitInfo kInitializers[] = {
    {"Zeros", "zeros", InitKind::Zeros},
    {"Ones", "ones", InitKind::Ones},
    {"Constant", "constant", InitKind::Constant},
    {"RandomNormal", "random_normal", InitKind::RandomNormal},
    {"RandomUniform", "random_uniform", InitKind::RandomUniform},
    {"RandomUniform", "uniform", InitKind::RandomUniform},  // Keras's other name for it
    {"TruncatedNormal", "truncated_normal", InitKind::TruncatedNormal},
    {"GlorotUniform", "glorot_uniform", InitKind::GlorotUniform},
    {"GlorotNormal", "glorot_normal", InitKind::GlorotNormal},
    {"HeNormal", "he_normal", InitKind::HeNormal},
    {"HeUniform", "he_uniform", InitKind::HeUniform},
    {"Orthogonal", "orthogonal", InitKind::Orthogonal},
};

// Keras's variance-scaling initializers draw a normal truncated at two standard deviations;
// this is the standard deviation of the unit normal so truncated, which they divide by.
constexpr double kTruncatedStd = 0.87962566103423978;

struct InitializerObj : Object {
  const InitInfo* info = nullptr;
  double value = 0, mean = 0, stddev = 0.05, minval = -0.05, maxval = 0.05, gain = 1;
  std::optional<int64_t> seed;
  std::string typeName() const override { return info->className; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override;
};

// Keras's _compute_fans: [in, out] for a matrix; a conv kernel [kh, kw, in, out] counts its
// receptive field in both.
std::pair<double, double> fans(const Shape& s) {
  if (s.empty()) return {1, 1};
  if (s.size() == 1) return {double(s[0]), double(s[0])};
  double receptive = 1;
  for (size_t i = 0; i + 2 < s.size(); ++i) receptive *= double(s[i]);
  return {double(s[s.size() - 2]) * receptive, double(s.back()) * receptive};
}

// Normal draws, each redrawn until it lies within two standard deviations of the mean (as
// tf.random.truncated_normal).
Tensor truncatedNormal(Rng& rng, const Shape& s, double mean, double stddev, DType dt) {
  Tensor t = Tensor::empty(DType::F64, s);
  double* p = t.data<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    double z = rng.normal();
    while (std::abs(z) > 2) z = rng.normal();
    p[i] = mean + stddev * z;
  }
  return t.astype(dt);
}

// Keras's Orthogonal: a [max(r, c), min(r, c)] standard normal matrix (r the product of all
// but the last dim, c the last) made orthonormal by Gram-Schmidt, which is the Q of its QR
// with R's diagonal made positive (Keras: q *= sign(diag(r))); transposed when r < c; times
// gain.
Tensor orthogonal(Rng& rng, const Shape& s, double gain, DType dt) {
  if (s.size() < 2) return rng.normal(s, 0, 1, dt);  // Keras refuses rank < 2: see the caller
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < s.size(); ++i) rows *= s[i];
  const int64_t cols = s.back(), n = std::max(rows, cols), k = std::min(rows, cols);
  std::vector<double> q(size_t(n * k));  // column j is q[j * n .. j * n + n)
  for (double& x : q) x = rng.normal();
  for (int64_t j = 0; j < k; ++j) {
    double* c = &q[size_t(j * n)];
    for (int pass = 0; pass < 2; ++pass)  // twice, for orthogonality to rounding
      for (int64_t i = 0; i < j; ++i) {
        const double* p = &q[size_t(i * n)];
        double d = 0;
        for (int64_t r = 0; r < n; ++r) d += p[r] * c[r];
        for (int64_t r = 0; r < n; ++r) c[r] -= d * p[r];
      }
    double norm = 0;
    for (int64_t r = 0; r < n; ++r) norm += c[r] * c[r];
    norm = std::sqrt(norm);
    for (int64_t r = 0; r < n; ++r) c[r] /= norm;
  }
  Tensor t = Tensor::empty(DType::F64, s);
  double* out = t.data<double>();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = gain * (rows >= cols ? q[size_t(c * n + r)] : q[size_t(r * n + c)]);
  return t.astype(dt);
}

Tensor makeValue(Context& cx, const InitializerObj& init, const Shape& shape, DType dt) {
  switch (init.info->kind) {
    case InitKind::Zeros:
      return Tensor::zeros(dt, shape);
    case InitKind::Ones:
      return Tensor::full(dt, shape, 1.0);
    case InitKind::Constant:
      return Tensor::full(dt, shape, init.value);
    default:
      break;
  }
  // Only random kinds take a seed from the sequence, so zero biases leave later draws as
  // they were.
  Rng rng(uint64_t(init.seed ? *init.seed : cx.nextSeed(std::nullopt)));
  const auto [fanIn, fanOut] = fans(shape);
  switch (init.info->kind) {
    case InitKind::RandomNormal:
      return rng.normal(shape, init.mean, init.stddev, dt);
    case InitKind::RandomUniform:
      return rng.uniform(shape, init.minval, init.maxval, dt);
    case InitKind::TruncatedNormal:
      return truncatedNormal(rng, shape, init.mean, init.stddev, dt);
    case InitKind::GlorotUniform: {
      const double limit = std::sqrt(6.0 / (fanIn + fanOut));
      return rng.uniform(shape, -limit, limit, dt);
    }
    case InitKind::GlorotNormal:
      return truncatedNormal(rng, shape, 0, std::sqrt(2.0 / (fanIn + fanOut)) / kTruncatedStd, dt);
    case InitKind::HeNormal:
      return truncatedNormal(rng, shape, 0, std::sqrt(2.0 / fanIn) / kTruncatedStd, dt);
    case InitKind::HeUniform: {
      const double limit = std::sqrt(6.0 / fanIn);
      return rng.uniform(shape, -limit, limit, dt);
    }
    case InitKind::Orthogonal:
      if (shape.size() < 2)
        throw EngineError("the orthogonal initializer needs a shape of rank 2 or more (Keras)");
      return orthogonal(rng, shape, init.gain, dt);
    default:
      break;
  }
  return Tensor::zeros(dt, shape);
}

Val InitializerObj::call(Context& cx, CallArgs& args) {
  static const Signature sig = Signature::parse("shape, dtype=None");
  Bound a(cx, info->className, sig, args);
  const Shape shape = a.shape("shape");
  const DType dt = a.dtype("dtype", DType::F32);
  if (!isFloat(dt)) a.fail("dtype", "must be a float dtype");
  a.checkAllRead();
  cx.b.checkBudget(TypeInfo{dt, shape}, std::string(info->className) + " values");
  return Val::tensor(cx.b.constant(makeValue(cx, *this, shape, dt)));
}

std::shared_ptr<InitializerObj> initializerOf(const InitInfo& info) {
  auto init = std::make_shared<InitializerObj>();
  init->info = &info;
  return init;
}

std::optional<int64_t> seedArg(Bound& a) {
  if (a.none("seed")) return std::nullopt;
  return a.integer("seed");
}

}  // namespace

Val initializerArg(Bound& a, const std::string& param) {
  return initializerValue(a.cx, a[param], a.loc(param), a.fn + "(): argument '" + param + "'");
}

Val initializerValue(Context& cx, const Val& given, const SourceLoc& loc, const std::string& what) {
  Val v = given;
  // Keras's initializers.get instantiates a class given in place of an instance
  // (initializer=tf.initializers.RandomNormal).
  if (auto b = v.as<BuiltinObj>(); b && b->name.rfind("tf.keras.initializers.", 0) == 0)
    v = cx.callSimple(v, {}, loc, b->name);
  if (v.kind() == Kind::Str) {
    for (const InitInfo& info : kInitializers)
      if (v.text() == info.name || v.text() == info.className) {
        if (info.kind == InitKind::Constant)
          cx.fail(loc,
                  what + ": 'constant' needs a value: use tf.keras.initializers.Constant(value)");
        return Val::object(initializerOf(info));
      }
    std::string known;
    for (const InitInfo& info : kInitializers)
      if (info.kind != InitKind::Constant)
        known += std::string(known.empty() ? "" : ", ") + info.name;
    cx.fail(loc, what + " names no initializer GradLab knows: '" + v.text() + "' (" + known + ")");
  }
  if (v.as<InitializerObj>()) return v;
  cx.fail(loc, what + " must be an initializer's name or a tf.keras.initializers object, got " +
                   article(typeName(v)));
}

Tensor initialValue(Context& cx, const Val& init, const Shape& shape, DType dt) {
  return makeValue(cx, *init.as<InitializerObj>(), shape, dt);
}

void addKerasInitializers(BuiltinTable& t) {
  for (const InitInfo& info : kInitializers) {
    const std::string key = std::string("tf.keras.initializers.") + info.className;
    switch (info.kind) {
      case InitKind::Zeros:
      case InitKind::Ones:
        t[key] = {Signature::parse(""),
                  [p = &info](Bound&) { return Val::object(initializerOf(*p)); }};
        break;
      case InitKind::Constant:
        t[key] = {Signature::parse("value=0"), [p = &info](Bound& a) {
                    auto init = initializerOf(*p);
                    init->value = a.number("value");
                    return Val::object(init);
                  }};
        break;
      case InitKind::RandomNormal:
      case InitKind::TruncatedNormal:
        t[key] = {Signature::parse("mean=0.0, stddev=0.05, seed=None"), [p = &info](Bound& a) {
                    auto init = initializerOf(*p);
                    init->mean = a.number("mean");
                    init->stddev = a.number("stddev");
                    init->seed = seedArg(a);
                    return Val::object(init);
                  }};
        break;
      case InitKind::RandomUniform:
        t[key] = {Signature::parse("minval=-0.05, maxval=0.05, seed=None"), [p = &info](Bound& a) {
                    auto init = initializerOf(*p);
                    init->minval = a.number("minval");
                    init->maxval = a.number("maxval");
                    init->seed = seedArg(a);
                    return Val::object(init);
                  }};
        break;
      case InitKind::Orthogonal:
        t[key] = {Signature::parse("gain=1.0, seed=None"), [p = &info](Bound& a) {
                    auto init = initializerOf(*p);
                    init->gain = a.number("gain");
                    init->seed = seedArg(a);
                    return Val::object(init);
                  }};
        break;
      case InitKind::GlorotUniform:
      case InitKind::GlorotNormal:
      case InitKind::HeNormal:
      case InitKind::HeUniform:
        t[key] = {Signature::parse("seed=None"), [p = &info](Bound& a) {
                    auto init = initializerOf(*p);
                    init->seed = seedArg(a);
                    return Val::object(init);
                  }};
        break;
    }
  }
}

}  // namespace gl::lang::trace
