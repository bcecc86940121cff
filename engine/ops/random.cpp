// Random constructors: random_normal and random_uniform. They have no inputs and their kernels
// read the KernelContext: the stream is seeded from the "seed" attr and the executor's
// per-execution KernelContext::seed, so each execution (e.g. each loop iteration) draws new
// numbers while two runs of the same graph draw the same ones.
#include <cmath>
#include <string>

#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

// The attrs common to both ops: a known non-negative shape and a dtype name.
TypeInfo randomType(const Attrs& a, const std::string& op, bool intOk) {
  const Shape s = a.ints("shape");
  for (int64_t d : s)
    if (d < 0)
      throw ShapeError(op + ": shape " + shapeStr(s) + " must have known non-negative dims");
  DType dt;
  try {
    dt = dtypeFromName(a.s("dtype", "float32"));
  } catch (const std::exception& e) {
    throw ShapeError(op + ": " + e.what());
  }
  if (!isFloat(dt) && !(intOk && dt == DType::I32))
    throw ShapeError(op + ": dtype must be float32 or float64" + (intOk ? " or int32" : "") +
                     ", got " + dtypeName(dt));
  return {dt, s};
}

// minval < maxval for integers (the range is [minval, maxval)); minval <= maxval for floats.
void checkRange(const Attrs& a, DType dt) {
  const double lo = a.f("minval", 0.0), hi = a.f("maxval", 1.0);
  if (dt == DType::I32) {
    if (!a.has("maxval"))
      throw ShapeError("random_uniform: int32 needs maxval (values are in [minval, maxval))");
    if (!(std::ceil(lo) < std::ceil(hi)))  // the integers in [lo, hi)
      throw ShapeError("random_uniform: int32 range [" + std::to_string(int64_t(lo)) + ", " +
                       std::to_string(int64_t(hi)) + ") is empty");
  } else if (!(lo <= hi)) {
    throw ShapeError("random_uniform: minval " + std::to_string(lo) + " exceeds maxval " +
                     std::to_string(hi));
  }
}

// One stream per (seed attr, execution): the attr seed is hashed before it meets the
// executor's seed, so that seeds 1 and 2 are not neighbouring states of one stream. A
// "stateless" draw (tf.random.stateless_*) is a function of its seed alone: the same numbers
// in every execution.
Rng streamFor(const Attrs& a, const KernelContext& ctx) {
  Rng hash(uint64_t(a.i("seed", 0)));
  return Rng(hash.next() ^ (a.b("stateless") ? 0 : ctx.seed));
}

template <class T, class F>
void fill(Tensor& t, F draw) {
  T* p = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = draw();
}

}  // namespace

void registerRandomOps(Registry& r) {
  r.add({
      .name = "random_normal",
      .math = "y ~ Normal(mean, stddev^2), elementwise, of attr shape and dtype (truncated: "
              "redrawn beyond 2 stddev)\n"
              "(a random source: not differentiable)",
      .arity = 0,
      .differentiable = false,
      .noGradient = "random_normal, a random draw, which has no gradient",
      .stateful = true,
      .shape = [](const Types&,
                  const Attrs& a) { return Types{randomType(a, "random_normal", false)}; },
      .forward = dataKernel([](const Data&, const Attrs& a, KernelContext& ctx) {
        const TypeInfo t = randomType(a, "random_normal", false);
        const double mean = a.f("mean", 0.0), sd = a.f("stddev", 1.0);
        Rng rng = streamFor(a, ctx);
        const bool truncated = a.b("truncated");  // tf.random.truncated_normal
        auto draw = [&] {
          double z = rng.normal();
          while (truncated && std::abs(z) > 2) z = rng.normal();
          return mean + sd * z;
        };
        Tensor y = Tensor::empty(t.dtype, t.shape);
        dispatchFloat(t.dtype, [&](auto z) {
          using T = decltype(z);
          fill<T>(y, [&] { return T(draw()); });
        });
        return Data{y};
      }),
  });

  r.add({
      .name = "random_uniform",
      .math = "y ~ Uniform[minval, maxval), elementwise; int32: integers in [minval, maxval)\n"
              "(a random source: not differentiable)",
      .arity = 0,
      .differentiable = false,
      .noGradient = "random_uniform, a random draw, which has no gradient",
      .stateful = true,
      .shape =
          [](const Types&, const Attrs& a) {
            const TypeInfo t = randomType(a, "random_uniform", true);
            checkRange(a, t.dtype);
            return Types{t};
          },
      .forward = dataKernel([](const Data&, const Attrs& a, KernelContext& ctx) {
        const TypeInfo t = randomType(a, "random_uniform", true);
        checkRange(a, t.dtype);
        const double lo = a.f("minval", 0.0), hi = a.f("maxval", 1.0);
        Rng rng = streamFor(a, ctx);
        Tensor y = Tensor::empty(t.dtype, t.shape);
        if (t.dtype == DType::I32) {
          const double ilo = std::ceil(lo), span = std::ceil(hi) - ilo;  // integers in range
          fill<int32_t>(y, [&] { return int32_t(ilo + std::floor(span * rng.uniform())); });
          return Data{y};
        }
        dispatchFloat(t.dtype, [&](auto z) {
          using T = decltype(z);
          // Rounding to float32 can land on maxval itself; keep the interval half-open.
          const T top = hi > lo ? std::nextafter(T(hi), T(lo)) : T(hi);
          fill<T>(y, [&] { return std::min(T(lo + (hi - lo) * rng.uniform()), top); });
        });
        return Data{y};
      }),
  });
}

namespace ops {

Value randomNormal(Emitter& b, const Shape& shape, double mean, double stddev, DType dt,
                   int64_t seed) {
  return b.op1("random_normal", {},
               {{"shape", shape},
                {"dtype", std::string(dtypeName(dt))},
                {"mean", mean},
                {"stddev", stddev},
                {"seed", seed}});
}

Value randomUniform(Emitter& b, const Shape& shape, double lo, double hi, DType dt, int64_t seed) {
  return b.op1("random_uniform", {},
               {{"shape", shape},
                {"dtype", std::string(dtypeName(dt))},
                {"minval", lo},
                {"maxval", hi},
                {"seed", seed}});
}

}  // namespace ops

}  // namespace gl
