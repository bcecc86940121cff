// Elementwise primitives: unary math, broadcasting binary arithmetic, comparisons and logic,
// where, cast, stop_gradient and zeros/ones_like.

#include <cmath>
#include <type_traits>

#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/block_kernels.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

// lgamma and digamma: Eigen's special functions, whose AVX-512 paths trip GCC 12's false
// "uninitialized" warnings (GCC bug 105593), as kernels.h notes.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <unsupported/Eigen/SpecialFunctions>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace gl {

namespace {

using Values = std::vector<Value>;
using VjpFn = std::function<Values(VjpContext&)>;

// Type rules ------------------------------------------------------------------------------------

// Which dtypes an op accepts, as a bit mask (a template argument of the kernels, so that e.g.
// exp is never instantiated for int32).
enum : unsigned { kFloat = 1, kInt = 2, kBool = 4, kNumeric = kFloat | kInt, kAny = 7 };

constexpr unsigned dtypeBit(DType t) {
  return t == DType::I32 ? kInt : t == DType::Bool ? kBool : kFloat;
}

template <class T>
constexpr bool supports(unsigned mask) {
  if constexpr (std::is_floating_point_v<T>) return mask & kFloat;
  if constexpr (std::is_same_v<T, int32_t>) return mask & kInt;
  return mask & kBool;
}

std::string allowedNames(unsigned mask) {
  std::vector<std::string> n;
  if (mask & kFloat) n.insert(n.end(), {"float32", "float64"});
  if (mask & kInt) n.push_back("int32");
  if (mask & kBool) n.push_back("bool");
  std::string s;
  for (size_t i = 0; i < n.size(); ++i) s += (i ? (i + 1 == n.size() ? " or " : ", ") : "") + n[i];
  return s;
}

void requireTensor(const TypeInfo& t) {
  if (t.list) throw ShapeError("expects a tensor, got a list of " + t.str());
}

void requireDtype(DType t, unsigned mask) {
  if (!(dtypeBit(t) & mask))
    throw ShapeError("expects " + allowedNames(mask) + ", got " + dtypeName(t));
}

// Binary ops never promote silently: mixing float32 and float64 is almost always a bug in a
// lesson script, so it is reported with both sides.
void requireSameDtype(DType a, DType b) {
  if (a != b)
    throw ShapeError(std::string("dtype mismatch: ") + dtypeName(a) + " vs " + dtypeName(b));
}

// y has x's type.
std::function<Types(const Types&, const Attrs&)> sameTypeRule(unsigned mask) {
  return [mask](const Types& in, const Attrs&) -> Types {
    requireTensor(in.at(0));
    requireDtype(in[0].dtype, mask);
    return {in[0]};
  };
}

// Same-dtype inputs broadcast together; the output has their dtype, or bool for comparisons.
std::function<Types(const Types&, const Attrs&)> broadcastRule(unsigned mask, bool boolOut) {
  return [mask, boolOut](const Types& in, const Attrs&) -> Types {
    requireTensor(in.at(0));
    requireTensor(in.at(1));
    requireSameDtype(in[0].dtype, in[1].dtype);
    requireDtype(in[0].dtype, mask);
    return {{boolOut ? DType::Bool : in[0].dtype, broadcastShapes(in[0].shape, in[1].shape)}};
  };
}

// Forward kernels ------------------------------------------------------------------------------

// The output of an elementwise kernel: the buffer of an input that dies here (bit k of
// KernelContext::forwardable) when it already has the output's dtype and shape, else a new
// tensor (TF's forward_input_or_allocate_output). A step then holds one buffer fewer: the ODE's
// vectorized peak went from 841,088 to 641,000 B (its time did not move: each pass is bound by
// L2 bandwidth either way). Safe because each output element depends only on the input
// elements at its own index.
Tensor outputOf(const Tensors& in, const KernelContext* ctx, DType dt, const Shape& shape) {
  const uint32_t forwardable = ctx ? ctx->forwardable : 0;
  for (size_t k = 0; forwardable >> k; ++k)
    if ((forwardable >> k & 1u) && in[k].dtype() == dt && in[k].shape() == shape) return in[k];
  return Tensor::empty(dt, shape);
}

// check_numerics inside an elementwise kernel: the flag its blocks clear on a NaN or an Inf
// (kern::checkWritten), and the answer back to the executor.
class FiniteCheck {
 public:
  explicit FiniteCheck(KernelContext* ctx) : ctx_(ctx && ctx->checkFinite ? ctx : nullptr) {}
  std::atomic<bool>* flag() { return ctx_ ? &finite_ : nullptr; }
  void report() {
    if (ctx_) ctx_->outputsFinite = finite_.load(std::memory_order_relaxed);
  }

 private:
  KernelContext* ctx_;
  std::atomic<bool> finite_{true};
};

// f maps an Eigen array expression: [](const auto& x) { return x.exp(); }.
template <unsigned kMask, class F>
auto unaryKernel(F f) {
  return [f](const Tensors& in, const Attrs&, KernelContext* ctx = nullptr) -> Tensors {
    const Tensor& x = in.at(0);
    requireDtype(x.dtype(), kMask);
    Tensor out = outputOf(in, ctx, x.dtype(), x.shape());
    FiniteCheck check(ctx);
    dispatchAll(x.dtype(), [&](auto z) {
      using T = decltype(z);
      if constexpr (supports<T>(kMask)) kern::unaryMap<T, T>(x, out, f, check.flag());
    });
    check.report();
    return {out};
  };
}

// f maps two scalars of the input type: [](auto x, auto y) { return x + y; }. Equal shapes and
// a scalar operand, what loop bodies mostly have, take the other operand's shape as it is
// instead of building a new one.
template <unsigned kMask, bool kBoolOut, class F>
auto binaryKernel(F f) {
  return [f](const Tensors& in, const Attrs&, KernelContext* ctx = nullptr) -> Tensors {
    const Tensor& a = in.at(0);
    const Tensor& b = in.at(1);
    requireSameDtype(a.dtype(), b.dtype());
    requireDtype(a.dtype(), kMask);
    const DType dt = kBoolOut ? DType::Bool : a.dtype();
    Tensor out;
    if (a.shape() == b.shape() || b.shape().empty())
      out = outputOf(in, ctx, dt, a.shape());
    else if (a.shape().empty())
      out = outputOf(in, ctx, dt, b.shape());
    else
      out = outputOf(in, ctx, dt, broadcastShapes(a.shape(), b.shape()));
    FiniteCheck check(ctx);
    dispatchAll(a.dtype(), [&](auto z) {
      using T = decltype(z);
      using O = std::conditional_t<kBoolOut, uint8_t, T>;
      if constexpr (supports<T>(kMask)) kern::binaryMap<T, O>(a, b, out, f, check.flag());
    });
    check.report();
    return {out};
  };
}

// Integer division by zero would trap the process; report it as a script error instead.
void checkNoIntZero(const Tensor& y) {
  if (y.dtype() != DType::I32) return;
  const int32_t* p = y.data<int32_t>();
  for (int64_t i = 0; i < y.numel(); ++i)
    if (p[i] == 0) throw EngineError("integer division by zero");
}

// Python semantics: floats divide exactly, ints floor-divide (-7 / 2 = -4).
template <class T>
T divide(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if (y == -1) return static_cast<T>(0u - static_cast<uint32_t>(x));  // INT_MIN / -1 wraps
    T q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0))) --q;
    return q;
  } else {
    return x / y;
  }
}

// x^y; for integers by repeated squaring in unsigned arithmetic, so it wraps on overflow as
// TF's int32 Pow does. Negative integer exponents are refused before (checkNoNegativeIntPower).
template <class T>
T power(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    uint32_t base = static_cast<uint32_t>(x), result = 1;
    for (uint32_t e = y < 0 ? 0u : static_cast<uint32_t>(y); e != 0; e >>= 1) {
      if (e & 1u) result *= base;
      base *= base;
    }
    return static_cast<T>(result);
  } else {
    return std::pow(x, y);
  }
}

// TF: "Integers to negative integer powers are not allowed" (cwise_ops.h's safe_pow).
void checkNoNegativeIntPower(const Tensor& y) {
  if (y.dtype() != DType::I32) return;
  const int32_t* p = y.data<int32_t>();
  for (int64_t i = 0; i < y.numel(); ++i)
    if (p[i] < 0) throw EngineError("integers to negative integer powers are not allowed");
}

// Ties go to x; a NaN in either input propagates (as in NumPy).
template <class T>
bool isNan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  return false;
}
template <class T>
T maxOf(T x, T y) {
  return (x >= y || isNan(x)) ? x : y;
}
template <class T>
T minOf(T x, T y) {
  return (x <= y || isNan(x)) ? x : y;
}

// The elementwise kernels' signature: tensors, attributes, the executor's context (or null).
using ElementwiseFn = std::function<Tensors(const Tensors&, const Attrs&, KernelContext*)>;

Tensors divKernel(const Tensors& in, const Attrs& a, KernelContext* ctx) {
  static const ElementwiseFn k =
      binaryKernel<kNumeric, false>([](auto x, auto y) { return divide(x, y); });
  checkNoIntZero(in.at(1));
  return k(in, a, ctx);
}

Tensors powKernel(const Tensors& in, const Attrs& a, KernelContext* ctx) {
  static const ElementwiseFn general =
      binaryKernel<kNumeric, false>([](auto x, auto y) { return power(x, y); });
  const Tensor& x = in.at(0);
  const Tensor& y = in.at(1);
  checkNoNegativeIntPower(y);
  // x**2 (losses) is the common case: one exact multiply instead of std::pow.
  if (x.dtype() == y.dtype() && isFloat(x.dtype()) && y.numel() == 1 && y.at(0) == 2.0 &&
      broadcastShapes(x.shape(), y.shape()) == x.shape()) {
    Tensor out = outputOf(in, ctx, x.dtype(), x.shape());
    FiniteCheck check(ctx);
    dispatchFloat(x.dtype(), [&](auto z) {
      using T = decltype(z);
      kern::unaryMap<T, T>(
          x, out, [](const auto& v) { return v.square(); }, check.flag());
    });
    check.report();
    return {out};
  }
  return general(in, a, ctx);
}

// VJP helpers -----------------------------------------------------------------------------------

Value grad(VjpContext& c) { return c.goutOrZeros(0); }

// A float unary rule dx = f(c, g); nothing for non-float inputs.
template <class F>
VjpFn unaryVjp(F f) {
  return [f](VjpContext& c) -> Values {
    if (!c.needs.at(0) || !isFloat(c.inType(0).dtype)) return {Value{}};
    return {f(c, grad(c))};
  };
}

// f(c, g) returns the raw adjoint of each input (invalid where not needed), shaped like the
// output; each is summed back to its input's shape where broadcasting happened. Integer and bool
// outputs carry no gradient.
template <class F>
VjpFn broadcastVjp(F f) {
  return [f](VjpContext& c) -> Values {
    Values r(c.in.size());
    if (!isFloat(c.b.type(c.out.at(0)).dtype)) return r;
    const Values raw = f(c, grad(c));
    for (size_t i = 0; i < raw.size(); ++i)
      if (raw[i].valid() && c.needs.at(i)) r[i] = ops::sumToLike(c.b, raw[i], c.in[i]);
    return r;
  };
}

Value scalarLike(Emitter& b, Value like, double v) { return b.scalar(v, b.type(like).dtype); }

// Grad-check cases -------------------------------------------------------------------------------

using Gen = std::function<Tensor(Rng&, const Shape&)>;

Gen uniformGen(double lo, double hi) {
  return [lo, hi](Rng& r, const Shape& s) { return gradcheck::uniform(r, s, lo, hi); };
}
Gen awayGen(double lo, double hi) {
  return [lo, hi](Rng& r, const Shape& s) { return gradcheck::awayFromZero(r, s, lo, hi); };
}

std::vector<GradCheckCase> unaryChecks(uint64_t seed, const Gen& gen) {
  Rng rng(seed);
  return {{{gen(rng, {3, 4})}, {}}, {{gen(rng, {2, 3, 2})}, {}}};
}

// [3,4] with [4]; [3,1] with [1,4] (both sides broadcast); [2,3] with a scalar.
std::vector<GradCheckCase> binaryChecks(uint64_t seed, const Gen& gx, const Gen& gy) {
  Rng rng(seed);
  std::vector<GradCheckCase> cs;
  cs.push_back({{gx(rng, {3, 4}), gy(rng, {4})}, {}});
  cs.push_back({{gx(rng, {3, 1}), gy(rng, {1, 4})}, {}});
  cs.push_back({{gx(rng, {2, 3}), gy(rng, {})}, {}});
  return cs;
}

std::vector<GradCheckCase> distinctChecks(uint64_t seed) {
  Rng rng(seed);
  std::vector<GradCheckCase> cs;
  for (const Shape& ys : {Shape{3, 4}, Shape{4}, Shape{3, 1}})
    cs.push_back({gradcheck::distinct(rng, {{3, 4}, ys}), {}});
  return cs;
}

Tensor randomBool(Rng& rng, const Shape& s) {
  Tensor t = Tensor::empty(DType::Bool, s);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, rng.uniform() < 0.5);
  return t;
}

// Registration ----------------------------------------------------------------------------------

void registerUnary(Registry& r) {
  r.add({
      .name = "identity",
      .math = "y = x\ndy/dx = 1",
      .arity = 1,
      .shape = sameTypeRule(kAny),
      .forward = tensorKernel(
          [](const Tensors& in, const Attrs&) -> Tensors { return {in.at(0).clone()}; }),
      .vjp = unaryVjp([](VjpContext&, Value g) { return g; }),
      .batch = batch::elementwise(),
      .elementwise = blocks::copy(),
      .gradChecks = unaryChecks(101, uniformGen(-2, 2)),
  });
  // tf.custom_gradient's node: inputs [x..., y...] (attr "inputs" = how many x), outputs y.
  // It passes f's results through; reverse mode replaces its VJP with the script's grad_fn
  // (engine/autodiff/custom_gradient.h), so the gradient reaches x and never f's own ops.
  r.add({
      .name = "custom_gradient",
      .math = "y' = y\ndy'/dx = grad_fn(dy')",
      .arity = -1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const size_t nx = size_t(a.i("inputs"));
            if (nx >= in.size()) throw EngineError("custom_gradient needs at least one result");
            return Types(in.begin() + std::ptrdiff_t(nx), in.end());
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) -> Tensors {
        Tensors out;
        for (size_t i = size_t(a.i("inputs")); i < in.size(); ++i) out.push_back(in[i].clone());
        return out;
      }),
      .vjp = [](VjpContext&) -> std::vector<Value> {
        throw EngineError("custom_gradient: the node's gradient function was not recorded");
      },
      .noGradCheck = "its gradient is the script's grad_fn; tests/lang/conformance/"
                     "custom_gradient_*.gl check it against TF's values",
  });
  r.add({
      .name = "neg",
      .math = "y = -x\ndy/dx = -1",
      .arity = 1,
      .shape = sameTypeRule(kNumeric),
      .forward = tensorKernel(unaryKernel<kNumeric>([](const auto& x) { return -x; })),
      .vjp = unaryVjp([](VjpContext& c, Value g) { return ops::neg(c.b, g); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return -x; }),
      .gradChecks = unaryChecks(102, uniformGen(-2, 2)),
  });
  r.add({
      .name = "exp",
      .math = "y = exp(x)\ndy/dx = exp(x) = y",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.exp(); })),
      .vjp = unaryVjp([](VjpContext& c, Value g) { return ops::mul(c.b, g, c.out[0]); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.exp(); }),
      .gradChecks = unaryChecks(103, uniformGen(-1, 1)),
  });
  r.add({
      .name = "log",
      .math = "y = log(x)\ndy/dx = 1 / x",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.log(); })),
      .vjp = unaryVjp([](VjpContext& c, Value g) { return ops::div(c.b, g, c.in[0]); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.log(); }),
      .gradChecks = unaryChecks(104, uniformGen(0.5, 2)),
  });
  r.add({
      .name = "sin",
      .math = "y = sin(x)\ndy/dx = cos(x)",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.sin(); })),
      .vjp =
          unaryVjp([](VjpContext& c, Value g) { return ops::mul(c.b, g, ops::cos(c.b, c.in[0])); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.sin(); }),
      .gradChecks = unaryChecks(105, uniformGen(-2, 2)),
  });
  r.add({
      .name = "cos",
      .math = "y = cos(x)\ndy/dx = -sin(x)",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.cos(); })),
      .vjp = unaryVjp([](VjpContext& c, Value g) {
        return ops::neg(c.b, ops::mul(c.b, g, ops::sin(c.b, c.in[0])));
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.cos(); }),
      .gradChecks = unaryChecks(106, uniformGen(-2, 2)),
  });
  r.add({
      .name = "tanh",
      .math = "y = tanh(x)\ndy/dx = 1 - tanh(x)^2 = 1 - y^2",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.tanh(); })),
      .vjp = unaryVjp([](VjpContext& c, Value g) {
        Emitter& b = c.b;
        Value y = c.out[0];
        return ops::mul(b, g, ops::sub(b, scalarLike(b, y, 1.0), ops::square(b, y)));
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.tanh(); }),
      .gradChecks = unaryChecks(107, uniformGen(-2, 2)),
  });
  r.add({
      .name = "sigmoid",
      .math = "y = 1 / (1 + exp(-x))\ndy/dx = y * (1 - y)",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.logistic(); })),
      .vjp = unaryVjp([](VjpContext& c, Value g) {
        Emitter& b = c.b;
        Value y = c.out[0];
        Value dydx = ops::mul(b, y, ops::sub(b, scalarLike(b, y, 1.0), y));
        return ops::mul(b, g, dydx);
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.logistic(); }),
      .gradChecks = unaryChecks(108, uniformGen(-3, 3)),
  });
  r.add({
      .name = "relu",
      .math = "y = max(x, 0)\ndy/dx = 1 if x > 0 else 0",
      .arity = 1,
      .shape = sameTypeRule(kNumeric),
      .forward = tensorKernel(unaryKernel<kNumeric>([](const auto& x) {
        using T = typename std::decay_t<decltype(x)>::Scalar;
        return x.max(T(0));
      })),
      // y > 0 exactly where x > 0, so the mask reads the output.
      .vjp = unaryVjp([](VjpContext& c, Value g) {
        Emitter& b = c.b;
        Value zero = scalarLike(b, g, 0.0);
        return ops::where(b, ops::greater(b, c.out[0], zero), g, zero);
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) {
        using T = typename std::decay_t<decltype(x)>::Scalar;
        return x.max(T(0));
      }),
      .gradChecks = unaryChecks(109, awayGen(0.2, 1.5)),
  });
  r.add({
      .name = "sqrt",
      .math = "y = sqrt(x)\ndy/dx = 1 / (2 sqrt(x)) = 0.5 / y",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) { return x.sqrt(); })),
      .vjp = unaryVjp(
          [](VjpContext& c, Value g) { return ops::div(c.b, ops::scale(c.b, g, 0.5), c.out[0]); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.sqrt(); }),
      .gradChecks = unaryChecks(110, uniformGen(0.5, 2)),
  });
  r.add({
      .name = "abs",
      .math = "y = |x|\ndy/dx = sign(x)",
      .arity = 1,
      .shape = sameTypeRule(kNumeric),
      .forward = tensorKernel(unaryKernel<kNumeric>([](const auto& x) { return x.abs(); })),
      .vjp = unaryVjp(
          [](VjpContext& c, Value g) { return ops::mul(c.b, g, ops::sign(c.b, c.in[0])); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.abs(); }),
      .gradChecks = unaryChecks(111, awayGen(0.2, 1.5)),
  });
  r.add({
      .name = "square",
      .math = "y = x^2\ndy/dx = 2x",
      .arity = 1,
      .shape = sameTypeRule(kNumeric),
      .forward = tensorKernel(unaryKernel<kNumeric>([](const auto& x) { return x.square(); })),
      .vjp = unaryVjp(
          [](VjpContext& c, Value g) { return ops::mul(c.b, g, ops::scale(c.b, c.in[0], 2.0)); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.square(); }),
      .gradChecks = unaryChecks(112, uniformGen(-2, 2)),
  });
  r.add({
      .name = "sign",
      .math = "y = sign(x) in {-1, 0, 1}\n"
              "dy/dx = 0, a zero gradient (not None), as TF's _SignGrad registers",
      .arity = 1,
      .shape = sameTypeRule(kNumeric),
      .forward = tensorKernel(unaryKernel<kNumeric>([](const auto& x) { return x.sign(); })),
      .vjp = unaryVjp([](VjpContext& c, Value) { return c.b.zerosLike(c.in[0]); }),
      .batch = batch::elementwise(),
      .elementwise = blocks::array([](const auto& x) { return x.sign(); }),
      .gradChecks = unaryChecks(113, awayGen(0.2, 1.5)),
  });
  r.add({
      .name = "round",
      .math = "y = x rounded half to even (TF's tf.round)\nnot differentiable: dy/dx = 0 "
              "almost everywhere",
      .arity = 1,
      .differentiable = false,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel(unaryKernel<kFloat>([](const auto& x) {
        // nearbyint under the default rounding mode rounds half to even, as TF does.
        return x.unaryExpr([](auto v) { return decltype(v)(std::nearbyint(v)); });
      })),
      .elementwise = blocks::array([](const auto& x) {
        return x.unaryExpr([](auto v) { return decltype(v)(std::nearbyint(v)); });
      }),
  });
  r.add({
      .name = "logical_not",
      .math = "y = not x\n(bool: not differentiable)",
      .arity = 1,
      .differentiable = false,
      .shape = sameTypeRule(kBool),
      .forward = tensorKernel([](const Tensors& in, const Attrs&) -> Tensors {
        const Tensor& x = in.at(0);
        requireDtype(x.dtype(), kBool);
        Tensor out = Tensor::empty(DType::Bool, x.shape());
        const uint8_t* px = x.data<uint8_t>();
        uint8_t* po = out.data<uint8_t>();
        kern::forBlocks(x.numel(), [&](int64_t s, int64_t e) {
          for (int64_t i = s; i < e; ++i) po[i] = px[i] == 0;
        });
        return {out};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::unary([](auto x) { return x == 0 ? decltype(x)(1) : decltype(x)(0); }),
  });
}

// A float unary entry: y = f(x) elementwise (an Eigen array expression, also the fused block),
// with the VJP dx = grad(c, g) and grad checks drawn by gen.
template <class F, class G>
Primitive floatUnary(const char* name, const char* math, F f, G grad, uint64_t seed, Gen gen) {
  return {.name = name,
          .math = math,
          .arity = 1,
          .shape = sameTypeRule(kFloat),
          .forward = tensorKernel(unaryKernel<kFloat>(f)),
          .vjp = unaryVjp(grad),
          .batch = batch::elementwise(),
          .elementwise = blocks::array(f),
          .gradChecks = unaryChecks(seed, gen)};
}

// std::<fn> applied to every element, for the functions Eigen's arrays do not all have.
#define GL_STD_UNARY(fn) \
  [](const auto& x) { return x.unaryExpr([](auto v) { return decltype(v)(std::fn(v)); }); }

// The rest of tf.math's elementwise functions, each with TF's gradient (math_grad.py).
void registerMath(Registry& r) {
  auto op = [](VjpContext& c, const char* name, Value x) { return c.b.op1(name, {x}); };
  auto one = [](VjpContext& c, Value like) { return scalarLike(c.b, like, 1.0); };
  // 1 - x^2 and 1 + x^2, which the inverse trigonometric gradients share.
  auto oneMinusSq = [one](VjpContext& c) {
    return ops::sub(c.b, one(c, c.in[0]), ops::square(c.b, c.in[0]));
  };
  auto onePlusSq = [one](VjpContext& c) {
    return ops::add(c.b, one(c, c.in[0]), ops::square(c.b, c.in[0]));
  };
  r.add(floatUnary(
      "acos", "y = acos(x)\ndy/dx = -1 / sqrt(1 - x^2)", [](const auto& x) { return x.acos(); },
      [=](VjpContext& c, Value g) {
        return ops::neg(c.b, ops::div(c.b, g, ops::sqrt(c.b, oneMinusSq(c))));
      },
      120, uniformGen(-0.8, 0.8)));
  r.add(floatUnary(
      "asin", "y = asin(x)\ndy/dx = 1 / sqrt(1 - x^2)", [](const auto& x) { return x.asin(); },
      [=](VjpContext& c, Value g) { return ops::div(c.b, g, ops::sqrt(c.b, oneMinusSq(c))); }, 121,
      uniformGen(-0.8, 0.8)));
  r.add(floatUnary(
      "atan", "y = atan(x)\ndy/dx = 1 / (1 + x^2)", [](const auto& x) { return x.atan(); },
      [=](VjpContext& c, Value g) { return ops::div(c.b, g, onePlusSq(c)); }, 122,
      uniformGen(-2, 2)));
  r.add(floatUnary(
      "sinh", "y = sinh(x)\ndy/dx = cosh(x)", [](const auto& x) { return x.sinh(); },
      [=](VjpContext& c, Value g) { return ops::mul(c.b, g, op(c, "cosh", c.in[0])); }, 123,
      uniformGen(-2, 2)));
  r.add(floatUnary(
      "cosh", "y = cosh(x)\ndy/dx = sinh(x)", [](const auto& x) { return x.cosh(); },
      [=](VjpContext& c, Value g) { return ops::mul(c.b, g, op(c, "sinh", c.in[0])); }, 124,
      uniformGen(-2, 2)));
  r.add(floatUnary(
      "tan", "y = tan(x)\ndy/dx = sec(x)^2 = 1 / cos(x)^2", [](const auto& x) { return x.tan(); },
      [](VjpContext& c, Value g) {
        return ops::div(c.b, g, ops::square(c.b, ops::cos(c.b, c.in[0])));
      },
      125, uniformGen(-1.2, 1.2)));
  r.add(floatUnary(
      "asinh", "y = asinh(x)\ndy/dx = 1 / cosh(y) = 1 / sqrt(x^2 + 1)", GL_STD_UNARY(asinh),
      [=](VjpContext& c, Value g) { return ops::div(c.b, g, op(c, "cosh", c.out[0])); }, 126,
      uniformGen(-2, 2)));
  r.add(floatUnary(
      "acosh", "y = acosh(x) (x >= 1)\ndy/dx = 1 / sinh(y) = 1 / sqrt(x^2 - 1)",
      GL_STD_UNARY(acosh),
      [=](VjpContext& c, Value g) { return ops::div(c.b, g, op(c, "sinh", c.out[0])); }, 127,
      uniformGen(1.2, 3)));
  r.add(floatUnary(
      "atanh", "y = atanh(x) (|x| < 1)\ndy/dx = 1 / (1 - x^2)", GL_STD_UNARY(atanh),
      [=](VjpContext& c, Value g) { return ops::div(c.b, g, oneMinusSq(c)); }, 128,
      uniformGen(-0.8, 0.8)));
  r.add(floatUnary(
      "expm1", "y = exp(x) - 1, exact near 0\ndy/dx = exp(x)", GL_STD_UNARY(expm1),
      [](VjpContext& c, Value g) { return ops::mul(c.b, g, ops::exp(c.b, c.in[0])); }, 129,
      uniformGen(-2, 2)));
  r.add(floatUnary(
      "log1p", "y = log(1 + x), exact near 0\ndy/dx = 1 / (1 + x)", GL_STD_UNARY(log1p),
      [=](VjpContext& c, Value g) {
        return ops::div(c.b, g, ops::add(c.b, one(c, c.in[0]), c.in[0]));
      },
      130, uniformGen(-0.5, 2)));
  // d erf(x)/dx = 2/sqrt(pi) exp(-x^2); erfc = 1 - erf.
  auto erfSlope = [](VjpContext& c, Value g, double sign) {
    Value e = ops::exp(c.b, ops::neg(c.b, ops::square(c.b, c.in[0])));
    return ops::mul(c.b, g, ops::scale(c.b, e, sign * 2 / std::sqrt(M_PI)));
  };
  r.add(floatUnary(
      "erf", "y = erf(x)\ndy/dx = 2 / sqrt(pi) exp(-x^2)", GL_STD_UNARY(erf),
      [=](VjpContext& c, Value g) { return erfSlope(c, g, 1.0); }, 131, uniformGen(-2, 2)));
  r.add(floatUnary(
      "erfc", "y = erfc(x) = 1 - erf(x)\ndy/dx = -2 / sqrt(pi) exp(-x^2)", GL_STD_UNARY(erfc),
      [=](VjpContext& c, Value g) { return erfSlope(c, g, -1.0); }, 132, uniformGen(-2, 2)));
  r.add(floatUnary(
      "reciprocal", "y = 1 / x\ndy/dx = -y^2", [](const auto& x) { return x.inverse(); },
      [](VjpContext& c, Value g) {
        return ops::neg(c.b, ops::mul(c.b, g, ops::square(c.b, c.out[0])));
      },
      133, awayGen(0.5, 2)));
  r.add(floatUnary(
      "rsqrt", "y = 1 / sqrt(x)\ndy/dx = -y^3 / 2", [](const auto& x) { return x.rsqrt(); },
      [](VjpContext& c, Value g) {
        Value y = c.out[0];
        return ops::scale(c.b, ops::mul(c.b, g, ops::mul(c.b, y, ops::square(c.b, y))), -0.5);
      },
      134, uniformGen(0.5, 2)));
  r.add(floatUnary(
      "softsign", "y = x / (1 + |x|)\ndy/dx = 1 / (1 + |x|)^2",
      [](const auto& x) { return x / (x.abs() + 1); },
      [=](VjpContext& c, Value g) {
        Value d = ops::add(c.b, one(c, c.in[0]), ops::abs(c.b, c.in[0]));
        return ops::div(c.b, g, ops::square(c.b, d));
      },
      135, awayGen(0.2, 2)));
  // min(x, 0) - log1p(exp(-|x|)): no overflow for large |x| (TF's log_sigmoid is
  // -softplus(-x), computed the same way).
  r.add(floatUnary(
      "log_sigmoid", "y = log(sigmoid(x)) = -softplus(-x)\ndy/dx = sigmoid(-x) = 1 - sigmoid(x)",
      [](const auto& x) {
        using T = typename std::decay_t<decltype(x)>::Scalar;
        return x.min(T(0)) - (-x.abs()).exp().log1p();
      },
      [](VjpContext& c, Value g) {
        return ops::mul(c.b, g, ops::sigmoid(c.b, ops::neg(c.b, c.in[0])));
      },
      136, uniformGen(-3, 3)));
  r.add({
      .name = "atan2",
      .math = "z = atan2(y, x), the angle of (x, y)\n"
              "dz/dy = x / (x^2 + y^2), dz/dx = -y / (x^2 + y^2)",
      .arity = 2,
      .shape = broadcastRule(kFloat, false),
      .forward = tensorKernel(
          binaryKernel<kFloat, false>([](auto y, auto x) { return std::atan2(y, x); })),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        Emitter& b = c.b;
        const Value y = c.in[0], x = c.in[1];
        const Value r = ops::div(b, g, ops::add(b, ops::square(b, x), ops::square(b, y)));
        return {c.needs[0] ? ops::mul(b, r, x) : Value{},
                c.needs[1] ? ops::neg(b, ops::mul(b, r, y)) : Value{}};
      }),
      .batch = batch::elementwise(),
      .gradChecks = binaryChecks(137, awayGen(0.5, 2), awayGen(0.5, 2)),
  });
  // TF's MulNoNan: 0 wherever y is 0, even for an infinite or NaN x (_MulNoNanGrad).
  r.add({
      .name = "mul_no_nan",
      .math = "z = 0 where y == 0, else x * y\n"
              "dz/dx = mul_no_nan(g, y), dz/dy = mul_no_nan(x, g)",
      .arity = 2,
      .shape = broadcastRule(kFloat, false),
      .forward = tensorKernel(binaryKernel<kFloat, false>(
          [](auto x, auto y) { return y == 0 ? decltype(x)(0) : x * y; })),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        return {c.needs[0] ? c.b.op1("mul_no_nan", {g, c.in[1]}) : Value{},
                c.needs[1] ? c.b.op1("mul_no_nan", {c.in[0], g}) : Value{}};
      }),
      .batch = batch::elementwise(),
      .gradChecks = binaryChecks(138, uniformGen(-2, 2), awayGen(0.5, 2)),
  });
  r.add({
      .name = "check_numerics",
      .math = "y = x, or an error (attr message) where x holds a NaN or an infinity\n"
              "dx = check_numerics(dy), as TF's _CheckNumericsGrad",
      .arity = 1,
      .shape = sameTypeRule(kFloat),
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) -> Tensors {
        const Tensor& x = in.at(0);
        for (int64_t i = 0; i < x.numel(); ++i)
          if (const double v = x.at(i); !std::isfinite(v))
            throw EngineError(a.s("message") + " : Tensor had " + (std::isnan(v) ? "NaN" : "Inf") +
                              " values");
        return {x};
      }),
      .vjp = unaryVjp([](VjpContext& c, Value g) {
        const std::string m = "Not a number (NaN) or infinity (Inf) values detected in gradient. " +
                              c.attrs().s("message");
        return c.b.op1("check_numerics", {g}, {{"message", m}});
      }),
      .gradChecks = unaryChecks(139, uniformGen(-2, 2)),
  });
  // log |Gamma(x)| and its derivatives, from Eigen's special functions (unsupported module).
  r.add(floatUnary(
      "lgamma", "y = log |Gamma(x)|\ndy/dx = digamma(x)", [](const auto& x) { return x.lgamma(); },
      [](VjpContext& c, Value g) { return ops::mul(c.b, g, c.b.op1("digamma", {c.in[0]})); }, 140,
      uniformGen(0.5, 4)));
  r.add(floatUnary(
      "digamma", "y = digamma(x) = d log Gamma(x) / dx\ndy/dx = polygamma(1, x)",
      [](const auto& x) { return x.digamma(); },
      [](VjpContext& c, Value g) {
        return ops::mul(c.b, g, c.b.op1("polygamma", {c.in[0]}, {{"order", int64_t(1)}}));
      },
      141, uniformGen(0.5, 4)));
  // polygamma(n, x) for n >= 1 (attr order): its gradient is polygamma(n + 1, x), so every
  // order of lgamma's derivatives has one.
  r.add({
      .name = "polygamma",
      .math = "y = polygamma(n, x), the n-th derivative of digamma (attr order = n >= 1)\n"
              "dy/dx = polygamma(n + 1, x)",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            if (a.i("order", 1) < 1) throw ShapeError("polygamma needs an order >= 1");
            return sameTypeRule(kFloat)(in, a);
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) -> Tensors {
        const Tensor& x = in.at(0);
        requireDtype(x.dtype(), kFloat);
        const double n = double(a.i("order", 1));
        Tensor y = Tensor::empty(x.dtype(), x.shape());
        dispatchFloat(x.dtype(), [&](auto z) {
          using T = decltype(z);
          const T* px = x.data<T>();
          T* py = y.data<T>();
          for (int64_t k = 0; k < x.numel(); ++k)
            py[k] = Eigen::internal::polygamma_impl<T>::run(T(n), px[k]);
        });
        return {y};
      }),
      .vjp = unaryVjp([](VjpContext& c, Value g) {
        const int64_t n = c.attrs().i("order", 1);
        return ops::mul(c.b, g, c.b.op1("polygamma", {c.in[0]}, {{"order", n + 1}}));
      }),
      .batch = batch::elementwise(),
      .gradChecks =
          [] {
            Rng rng(142);
            return std::vector<GradCheckCase>{
                {{gradcheck::uniform(rng, {3, 4}, 0.5, 4)}, {{"order", int64_t(1)}}},
                {{gradcheck::uniform(rng, {2, 3}, 0.5, 4)}, {{"order", int64_t(2)}}},
            };
          }(),
  });
  // TF registers None for both (_FloorGrad and _CeilGrad return [None]).
  auto rounding = [](const char* name, const char* math, auto f) {
    return Primitive{.name = name,
                     .math = math,
                     .arity = 1,
                     .differentiable = false,
                     .shape = sameTypeRule(kFloat),
                     .forward = tensorKernel(unaryKernel<kFloat>(f)),
                     .batch = batch::elementwise(),
                     .elementwise = blocks::array(f)};
  };
  r.add(rounding("floor", "y = the largest integer <= x\nno gradient (TF: None)",
                 [](const auto& x) { return x.floor(); }));
  r.add(rounding("ceil", "y = the smallest integer >= x\nno gradient (TF: None)",
                 [](const auto& x) { return x.ceil(); }));
}

#undef GL_STD_UNARY

void registerBinary(Registry& r) {
  r.add({
      .name = "add",
      .math = "z = x + y\ndz/dx = 1, dz/dy = 1",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward = tensorKernel(binaryKernel<kNumeric, false>([](auto x, auto y) { return x + y; })),
      .vjp = broadcastVjp([](VjpContext&, Value g) -> Values {
        return {g, g};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return x + y; }),
      .gradChecks = binaryChecks(201, uniformGen(-2, 2), uniformGen(-2, 2)),
  });
  r.add({
      .name = "sub",
      .math = "z = x - y\ndz/dx = 1, dz/dy = -1",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward = tensorKernel(binaryKernel<kNumeric, false>([](auto x, auto y) { return x - y; })),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        return {g, c.needs[1] ? ops::neg(c.b, g) : Value{}};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return x - y; }),
      .gradChecks = binaryChecks(202, uniformGen(-2, 2), uniformGen(-2, 2)),
  });
  r.add({
      .name = "mul",
      .math = "z = x * y\ndz/dx = y, dz/dy = x",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward = tensorKernel(binaryKernel<kNumeric, false>([](auto x, auto y) { return x * y; })),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        return {c.needs[0] ? ops::mul(c.b, g, c.in[1]) : Value{},
                c.needs[1] ? ops::mul(c.b, g, c.in[0]) : Value{}};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return x * y; }),
      .gradChecks = binaryChecks(203, uniformGen(-2, 2), uniformGen(-2, 2)),
  });
  r.add({
      .name = "div",
      .math = "z = x / y (int32: floor division)\ndz/dx = 1 / y, dz/dy = -x / y^2 = -z / y",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward = tensorKernel(divKernel),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        Emitter& b = c.b;
        return {c.needs[0] ? ops::div(b, g, c.in[1]) : Value{},
                c.needs[1] ? ops::neg(b, ops::div(b, ops::mul(b, g, c.out[0]), c.in[1])) : Value{}};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return divide(x, y); }),
      .gradChecks = binaryChecks(204, uniformGen(-2, 2), awayGen(0.5, 2)),
  });
  r.add({
      .name = "pow",
      .math = "z = x^y\ndz/dx = y x^(y-1), dz/dy = log(x) x^y (0 where x <= 0, as in TF)",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward = tensorKernel(powKernel),
      // Each part only references the forward values it needs: dz/dy takes log(x), which is NaN
      // for x <= 0 even when only dz/dx is wanted.
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        Emitter& b = c.b;
        Value x = c.in[0], y = c.in[1];
        Values r(2);
        if (c.needs[0]) {
          Value xPow = ops::pow(b, x, ops::sub(b, y, scalarLike(b, y, 1.0)));
          r[0] = ops::mul(b, g, ops::mul(b, y, xPow));
        }
        if (c.needs[1]) {
          // TF's PowGrad: log(x) is taken as 0 where x <= 0 (a real x^y has no slope in y
          // there). x is replaced by 1 before the log so no NaN reaches a second derivative.
          Value positive = ops::greater(b, x, scalarLike(b, x, 0.0));
          Value safeX = ops::where(b, positive, x, b.onesLike(x));
          Value logX = ops::where(b, positive, ops::log(b, safeX), b.zerosLike(x));
          r[1] = ops::mul(b, g, ops::mul(b, logX, c.out[0]));
        }
        return r;
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return power(x, y); }),
      .gradChecks = binaryChecks(205, uniformGen(0.5, 2), uniformGen(-1.5, 1.5)),
  });
  r.add({
      .name = "maximum",
      .math = "z = max(x, y) (a NaN wins)\n"
              "dz/dx = 1 if x >= y else 0, dz/dy = 1 if y > x else 0 (ties go to x)",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward =
          tensorKernel(binaryKernel<kNumeric, false>([](auto x, auto y) { return maxOf(x, y); })),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        Emitter& b = c.b;
        Value xWins = ops::greaterEqual(b, c.in[0], c.in[1]);
        Value zero = scalarLike(b, g, 0.0);
        return {c.needs[0] ? ops::where(b, xWins, g, zero) : Value{},
                c.needs[1] ? ops::where(b, xWins, zero, g) : Value{}};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return maxOf(x, y); }),
      .gradChecks = distinctChecks(206),
  });
  r.add({
      .name = "minimum",
      .math = "z = min(x, y) (a NaN wins)\n"
              "dz/dx = 1 if x <= y else 0, dz/dy = 1 if y < x else 0 (ties go to x)",
      .arity = 2,
      .shape = broadcastRule(kNumeric, false),
      .forward =
          tensorKernel(binaryKernel<kNumeric, false>([](auto x, auto y) { return minOf(x, y); })),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        Emitter& b = c.b;
        Value xWins = ops::lessEqual(b, c.in[0], c.in[1]);
        Value zero = scalarLike(b, g, 0.0);
        return {c.needs[0] ? ops::where(b, xWins, g, zero) : Value{},
                c.needs[1] ? ops::where(b, xWins, zero, g) : Value{}};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::binary([](auto x, auto y) { return minOf(x, y); }),
      .gradChecks = distinctChecks(207),
  });
}

// Comparisons and logic: bool outputs, not differentiable.
template <unsigned kMask, class F>
void addPredicate(Registry& r, const char* name, const char* math, F f) {
  r.add({
      .name = name,
      .math = math,
      .arity = 2,
      .differentiable = false,
      .shape = broadcastRule(kMask, true),
      .forward = tensorKernel(binaryKernel<kMask, true>(f)),
      .batch = batch::elementwise(),
      .elementwise = blocks::compare(f),
  });
}

void registerPredicates(Registry& r) {
  addPredicate<kAny>(r, "equal", "z = (x == y)\n(bool: not differentiable)",
                     [](auto x, auto y) { return x == y; });
  addPredicate<kAny>(r, "not_equal", "z = (x != y)\n(bool: not differentiable)",
                     [](auto x, auto y) { return x != y; });
  addPredicate<kAny>(r, "less", "z = (x < y)\n(bool: not differentiable)",
                     [](auto x, auto y) { return x < y; });
  addPredicate<kAny>(r, "less_equal", "z = (x <= y)\n(bool: not differentiable)",
                     [](auto x, auto y) { return x <= y; });
  addPredicate<kAny>(r, "greater", "z = (x > y)\n(bool: not differentiable)",
                     [](auto x, auto y) { return x > y; });
  addPredicate<kAny>(r, "greater_equal", "z = (x >= y)\n(bool: not differentiable)",
                     [](auto x, auto y) { return x >= y; });
  addPredicate<kBool>(r, "logical_and", "z = x and y\n(bool: not differentiable)",
                      [](auto x, auto y) { return x && y; });
  addPredicate<kBool>(r, "logical_or", "z = x or y\n(bool: not differentiable)",
                      [](auto x, auto y) { return x || y; });
}

void registerSelectAndCast(Registry& r) {
  r.add({
      .name = "where",
      .math = "z = x if c else y, elementwise\n"
              "dz/dx = c, dz/dy = not c; no gradient into the predicate c",
      .arity = 3,
      .shape = [](const Types& in, const Attrs&) -> Types {
        for (const TypeInfo& t : in) requireTensor(t);
        if (in[0].dtype != DType::Bool)
          throw ShapeError(std::string("the condition must be bool, got ") +
                           dtypeName(in[0].dtype));
        requireSameDtype(in[1].dtype, in[2].dtype);
        const Shape s = broadcastShapes(broadcastShapes(in[0].shape, in[1].shape), in[2].shape);
        return {{in[1].dtype, s}};
      },
      .forward = tensorKernel([](const Tensors& in, const Attrs&) -> Tensors {
        const Tensor &c = in.at(0), &x = in.at(1), &y = in.at(2);
        requireSameDtype(x.dtype(), y.dtype());
        const Shape s = broadcastShapes(broadcastShapes(c.shape(), x.shape()), y.shape());
        Tensor out = Tensor::empty(x.dtype(), s);
        dispatchAll(x.dtype(), [&](auto z) {
          using T = decltype(z);
          kern::ternaryMap<uint8_t, T, T, T>(c, x, y, out,
                                             [](uint8_t k, T a, T b) { return k ? a : b; });
        });
        return {out};
      }),
      .vjp = broadcastVjp([](VjpContext& c, Value g) -> Values {
        Emitter& b = c.b;
        Value zero = scalarLike(b, g, 0.0);
        return {Value{}, c.needs[1] ? ops::where(b, c.in[0], g, zero) : Value{},
                c.needs[2] ? ops::where(b, c.in[0], zero, g) : Value{}};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::where(),
      .gradChecks =
          [] {
            Rng rng(301);
            return std::vector<GradCheckCase>{
                {{randomBool(rng, {3, 4}), gradcheck::uniform(rng, {3, 4}, -2, 2),
                  gradcheck::uniform(rng, {4}, -2, 2)},
                 {}},
                {{randomBool(rng, {3, 1}), gradcheck::uniform(rng, {1, 4}, -2, 2),
                  gradcheck::uniform(rng, {}, -2, 2)},
                 {}},
            };
          }(),
  });
  r.add({
      .name = "cast",
      .math = "y = cast(x, dtype)\n"
              "dy/dx = 1 between float types (g cast back to x's dtype); casting to int "
              "or bool cuts the gradient",
      .arity = 1,
      .shape = [](const Types& in, const Attrs& a) -> Types {
        requireTensor(in.at(0));
        return {{dtypeFromName(a.s("dtype", "float32")), in[0].shape}};
      },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) -> Tensors {
        return {in.at(0).astype(dtypeFromName(a.s("dtype", "float32")))};
      }),
      .vjp = [](VjpContext& c) -> Values {
        const DType from = c.inType(0).dtype, to = c.b.type(c.out[0]).dtype;
        if (!c.needs.at(0) || !isFloat(from) || !isFloat(to)) return {Value{}};
        Value g = grad(c);
        return {from == to ? g : ops::cast(c.b, g, from)};
      },
      .batch = batch::elementwise(),
      .gradChecks =
          [] {
            Rng rng(302);
            return std::vector<GradCheckCase>{
                {{gradcheck::uniform(rng, {3, 4}, -2, 2)}, {{"dtype", std::string("float64")}}}};
          }(),
  });
  r.add({
      .name = "stop_gradient",
      .math = "y = x\ndy/dx = 0 (gradients stop here)",
      .arity = 1,
      .noGradient = "tf.stop_gradient, which blocks the gradient on purpose",
      .shape = sameTypeRule(kAny),
      .forward = tensorKernel(
          [](const Tensors& in, const Attrs&) -> Tensors { return {in.at(0).clone()}; }),
      .vjp = [](VjpContext&) -> Values { return {Value{}}; },
      .batch = batch::elementwise(),
      .elementwise = blocks::copy(),
      .noGradCheck = "finite differences see the identity; the rule says zero on purpose",
  });
  r.add({
      .name = "zeros_like",
      .math = "y = 0 with x's type\n(not differentiable)",
      .arity = 1,
      .differentiable = false,
      .shape = sameTypeRule(kAny),
      .forward = tensorKernel([](const Tensors& in, const Attrs&) -> Tensors {
        return {Tensor::zeros(in.at(0).dtype(), in[0].shape())};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::unary([](auto x) { return decltype(x)(0); }),
  });
  r.add({
      .name = "ones_like",
      .math = "y = 1 with x's type\n(not differentiable)",
      .arity = 1,
      .differentiable = false,
      .shape = sameTypeRule(kAny),
      .forward = tensorKernel([](const Tensors& in, const Attrs&) -> Tensors {
        return {Tensor::full(in.at(0).dtype(), in[0].shape(), 1.0)};
      }),
      .batch = batch::elementwise(),
      .elementwise = blocks::unary([](auto x) { return decltype(x)(1); }),
  });
}

}  // namespace

void registerElementwiseOps(Registry& r) {
  registerUnary(r);
  registerMath(r);
  registerBinary(r);
  registerPredicates(r);
  registerSelectAndCast(r);
}

namespace ops {

Value identity(Emitter& b, Value x) { return b.op1("identity", {x}); }
Value neg(Emitter& b, Value x) { return b.op1("neg", {x}); }
Value exp(Emitter& b, Value x) { return b.op1("exp", {x}); }
Value log(Emitter& b, Value x) { return b.op1("log", {x}); }
Value sin(Emitter& b, Value x) { return b.op1("sin", {x}); }
Value cos(Emitter& b, Value x) { return b.op1("cos", {x}); }
Value tanh(Emitter& b, Value x) { return b.op1("tanh", {x}); }
Value sigmoid(Emitter& b, Value x) { return b.op1("sigmoid", {x}); }
Value relu(Emitter& b, Value x) { return b.op1("relu", {x}); }
Value sqrt(Emitter& b, Value x) { return b.op1("sqrt", {x}); }
Value abs(Emitter& b, Value x) { return b.op1("abs", {x}); }
Value square(Emitter& b, Value x) { return b.op1("square", {x}); }
Value sign(Emitter& b, Value x) { return b.op1("sign", {x}); }
Value add(Emitter& b, Value x, Value y) { return b.op1("add", {x, y}); }
Value sub(Emitter& b, Value x, Value y) { return b.op1("sub", {x, y}); }
Value mul(Emitter& b, Value x, Value y) { return b.op1("mul", {x, y}); }
Value div(Emitter& b, Value x, Value y) { return b.op1("div", {x, y}); }
Value trueDiv(Emitter& b, Value x, Value y) {
  if (b.type(x).dtype != DType::I32 || b.type(y).dtype != DType::I32) return div(b, x, y);
  return div(b, cast(b, x, DType::F64), cast(b, y, DType::F64));
}
Value pow(Emitter& b, Value x, Value y) { return b.op1("pow", {x, y}); }
Value maximum(Emitter& b, Value x, Value y) { return b.op1("maximum", {x, y}); }
Value minimum(Emitter& b, Value x, Value y) { return b.op1("minimum", {x, y}); }
Value equal(Emitter& b, Value x, Value y) { return b.op1("equal", {x, y}); }
Value notEqual(Emitter& b, Value x, Value y) { return b.op1("not_equal", {x, y}); }
Value less(Emitter& b, Value x, Value y) { return b.op1("less", {x, y}); }
Value lessEqual(Emitter& b, Value x, Value y) { return b.op1("less_equal", {x, y}); }
Value greater(Emitter& b, Value x, Value y) { return b.op1("greater", {x, y}); }
Value greaterEqual(Emitter& b, Value x, Value y) { return b.op1("greater_equal", {x, y}); }
Value logicalAnd(Emitter& b, Value x, Value y) { return b.op1("logical_and", {x, y}); }
Value logicalOr(Emitter& b, Value x, Value y) { return b.op1("logical_or", {x, y}); }
Value logicalNot(Emitter& b, Value x) { return b.op1("logical_not", {x}); }
Value where(Emitter& b, Value c, Value x, Value y) { return b.op1("where", {c, x, y}); }
Value cast(Emitter& b, Value x, DType dt) {
  return b.op1("cast", {x}, {{"dtype", std::string(dtypeName(dt))}});
}
Value stopGradient(Emitter& b, Value x) { return b.op1("stop_gradient", {x}); }
// The constant is a graph node of its own, so reverse loop bodies never need to save it.
Value scale(Emitter& b, Value x, double s) { return mul(b, x, b.scalar(s, b.type(x).dtype)); }
Value addScalar(Emitter& b, Value x, double s) { return add(b, x, b.scalar(s, b.type(x).dtype)); }

}  // namespace ops

}  // namespace gl
