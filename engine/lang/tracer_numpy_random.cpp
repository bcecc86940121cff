// np.random, numpy's legacy global RandomState: MT19937 seeded by np.random.seed(n) as numpy's
// legacy seeding does for an int (init_genrand, which std::mt19937 implements), and numpy's
// transforms on its stream, so seeded scripts draw numpy's numbers:
//   random_sample  (a >> 5, b >> 6) -> (a * 2^26 + b) / 2^53
//   randn/normal   the legacy polar Box-Muller, keeping the second value for the next draw
//   randint        masked rejection on 32-bit draws (ranges below 2^32)
//   shuffle        Fisher-Yates from the end with random_interval (masked rejection)
// An unseeded script draws from seed 0 at the start of every trace (numpy seeds from the OS), so
// a script traces to the same arrays each time GradLab traces it.
#include <cmath>
#include <random>

#include "engine/lang/tracer_numpy.h"

namespace gl::lang::trace {

namespace {

struct NpRandomState {
  std::mt19937 mt{0u};
  bool hasGauss = false;
  double gauss = 0;
};

NpRandomState& npRandom(Context& cx) {
  thread_local NpRandomState state;
  // A new trace starts from the unseeded state.
  if (cx.noteOnce("numpy.random.state")) state = NpRandomState();
  return state;
}

double npNextDouble(NpRandomState& s) {
  const uint32_t a = s.mt() >> 5, b = s.mt() >> 6;
  return (double(a) * 67108864.0 + double(b)) / 9007199254740992.0;
}

double npGauss(NpRandomState& s) {
  if (s.hasGauss) {
    s.hasGauss = false;
    return s.gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * npNextDouble(s) - 1.0;
    x2 = 2.0 * npNextDouble(s) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  s.gauss = f * x1;
  s.hasGauss = true;
  return f * x2;
}

uint64_t npMask(uint64_t max) {
  uint64_t m = max;
  m |= m >> 1, m |= m >> 2, m |= m >> 4, m |= m >> 8, m |= m >> 16, m |= m >> 32;
  return m;
}

// A value in [0, max] by masked rejection (numpy's random_interval and bounded_masked_uint32).
uint64_t npInterval(NpRandomState& s, uint64_t max) {
  if (max == 0) return 0;
  const uint64_t mask = npMask(max);
  uint64_t v;
  if (max <= 0xffffffffULL) {
    while ((v = (s.mt() & mask)) > max) {
    }
  } else {
    auto next64 = [&] { return (uint64_t(s.mt()) << 32) | s.mt(); };
    while ((v = (next64() & mask)) > max) {
    }
  }
  return v;
}

// A size argument: None (one value), an int or a tuple of ints.
std::optional<std::vector<int64_t>> npSize(Bound& a, const std::vector<Val>& dims,
                                           const std::string& what) {
  std::vector<int64_t> s;
  for (const Val& d : dims) {
    if (d.kind() != Kind::Int) a.cx.fail(a.callLoc, what + " must be ints, got " + typeName(d));
    if (d.asInt() < 0) a.cx.fail(a.callLoc, "ValueError: negative dimensions are not allowed");
    s.push_back(d.asInt());
  }
  int64_t n = 1;
  for (int64_t d : s) {
    if (d > 0 && n > maxPythonItems() / d)
      a.cx.fail(a.callLoc, "this draw asks for more than " + std::to_string(maxPythonItems()) +
                               " numbers, more than GradLab holds while tracing");
    n *= d;
  }
  return s;
}

std::optional<std::vector<int64_t>> npSizeArg(Bound& a, const std::string& name) {
  if (a.none(name)) return std::nullopt;
  const Val& v = a[name];
  return npSize(a, v.isSeq() ? v.items() : std::vector<Val>{v}, "size");
}

Val npDraw(Context& cx, const std::optional<std::vector<int64_t>>& size, NpType t,
           const std::function<double(NpRandomState&)>& draw) {
  NpRandomState& s = npRandom(cx);
  if (!size) {
    NdPtr one = makeNdArray(t, {}, {draw(s)});
    one->scalar = true;
    // numpy gives a Python float (rand, normal, ...) or int (randint) for one draw.
    if (t == NpType::Float64) return Val::real(one->data[0]);
    if (t == NpType::Int64) return Val::integer(int64_t(one->data[0]));
    return ndVal(one);
  }
  int64_t n = 1;
  for (int64_t d : *size) n *= d;
  std::vector<double> out(static_cast<size_t>(n));
  for (double& x : out) x = draw(s);
  return ndVal(makeNdArray(t, *size, std::move(out)));
}

// rand(d0, d1, ...) / randn(...): dimensions as separate ints; none = one float.
std::optional<std::vector<int64_t>> npDims(Bound& a) {
  if (a.rest.empty()) return std::nullopt;
  std::vector<Val> dims;
  for (const Arg& x : a.rest) dims.push_back(x.v);
  return npSize(a, dims, "the dimensions");
}

}  // namespace

void addNumpyRandomBuiltins(BuiltinTable& t) {
  const std::string m = "py.numpy.random.";
  t[m + "seed"] = {Signature::parse("seed=None"), [](Bound& a) {
                     NpRandomState& s = npRandom(a.cx);
                     if (a.none("seed"))
                       a.fail("seed",
                              "None (seeding from the OS) is not supported: GradLab traces "
                              "reproducibly; pass an int");
                     const int64_t seed = a.integer("seed");
                     if (seed < 0 || seed > 4294967295LL)
                       a.fail("seed", "ValueError: Seed must be between 0 and 2**32 - 1");
                     s.mt.seed(uint32_t(seed));
                     s.hasGauss = false;
                     return Val::none();
                   }};
  t[m + "rand"] = {Signature::parse("*dims"),
                   [](Bound& a) { return npDraw(a.cx, npDims(a), NpType::Float64, npNextDouble); }};
  t[m + "randn"] = {Signature::parse("*dims"),
                    [](Bound& a) { return npDraw(a.cx, npDims(a), NpType::Float64, npGauss); }};
  for (const char* name : {"random", "random_sample", "sample", "ranf"})
    t[m + name] = {Signature::parse("size=None"), [](Bound& a) {
                     return npDraw(a.cx, npSizeArg(a, "size"), NpType::Float64, npNextDouble);
                   }};
  t[m + "normal"] = {Signature::parse("loc=0.0, scale=1.0, size=None"), [](Bound& a) {
                       const double loc = a.number("loc"), scale = a.number("scale");
                       if (scale < 0) a.fail("scale", "ValueError: scale < 0");
                       return npDraw(
                           a.cx, npSizeArg(a, "size"), NpType::Float64,
                           [loc, scale](NpRandomState& s) { return loc + scale * npGauss(s); });
                     }};
  t[m + "standard_normal"] = {Signature::parse("size=None"), [](Bound& a) {
                                return npDraw(a.cx, npSizeArg(a, "size"), NpType::Float64, npGauss);
                              }};
  t[m + "uniform"] = {
      Signature::parse("low=0.0, high=1.0, size=None"), [](Bound& a) {
        const double lo = a.number("low"), hi = a.number("high");
        return npDraw(a.cx, npSizeArg(a, "size"), NpType::Float64,
                      [lo, hi](NpRandomState& s) { return lo + (hi - lo) * npNextDouble(s); });
      }};
  t[m + "randint"] = {
      Signature::parse("low, high=None, size=None, dtype=None"), [](Bound& a) {
        int64_t lo = a.integer("low"), hi;
        if (a.none("high")) {
          hi = lo;
          lo = 0;
        } else {
          hi = a.integer("high");
        }
        if (lo >= hi) a.cx.fail(a.callLoc, "ValueError: low >= high");
        NpType dt = NpType::Int64;
        if (!a.none("dtype")) {
          auto d = npTypeOf(a["dtype"]);
          if (!d || !npIsInt(*d)) a.fail("dtype", "must be an integer numpy dtype");
          if (*d != NpType::Int64)
            a.fail("dtype",
                   "other than int64 draws a different stream in numpy; GradLab draws int64 only");
          dt = *d;
        }
        const uint64_t rng = uint64_t(hi - lo - 1);
        return npDraw(a.cx, npSizeArg(a, "size"), dt, [lo, rng](NpRandomState& s) {
          return double(lo + int64_t(npInterval(s, rng)));
        });
      }};
  t[m + "shuffle"] = {
      Signature::parse("x"), [](Bound& a) {
        const Val& x = a["x"];
        NpRandomState& s = npRandom(a.cx);
        if (x.kind() == Kind::List) {
          auto& items = x.list()->items;
          for (size_t i = items.size(); i-- > 1;) std::swap(items[i], items[npInterval(s, i)]);
          return Val::none();
        }
        if (auto* arr = const_cast<NdArrayObj*>(asNdArray(x)); arr && !arr->shape.empty()) {
          const int64_t n = arr->shape[0];
          const int64_t row = n ? arr->size() / n : 0;
          for (int64_t i = n; i-- > 1;) {
            const int64_t j = int64_t(npInterval(s, uint64_t(i)));
            std::swap_ranges(arr->data.begin() + i * row, arr->data.begin() + (i + 1) * row,
                             arr->data.begin() + j * row);
          }
          return Val::none();
        }
        if (x.isTensor())
          a.fail("x",
                 "is a tensor, which is immutable: np.random.shuffle shuffles in "
                 "place; use tf.random.shuffle");
        a.fail("x", "must be a list or an ndarray, got " + typeName(x));
      }};
  t[m + "permutation"] = {Signature::parse("x"), [](Bound& a) {
                            const Val& x = a["x"];
                            NdPtr arr;
                            if (x.kind() == Kind::Int) {
                              std::vector<double> d;
                              for (int64_t i = 0; i < x.asInt(); ++i) d.push_back(double(i));
                              arr = makeNdArray(NpType::Int64, {x.asInt()}, std::move(d));
                            } else {
                              NdPtr src = toNdArray(a.cx, x, a.loc("x"));
                              arr = makeNdArray(src->dtype, src->shape, src->data);
                            }
                            if (arr->shape.empty()) a.fail("x", "must be an int or an array");
                            NpRandomState& s = npRandom(a.cx);
                            const int64_t n = arr->shape[0];
                            const int64_t row = n ? arr->size() / n : 0;
                            for (int64_t i = n; i-- > 1;) {
                              const int64_t j = int64_t(npInterval(s, uint64_t(i)));
                              std::swap_ranges(arr->data.begin() + i * row,
                                               arr->data.begin() + (i + 1) * row,
                                               arr->data.begin() + j * row);
                            }
                            return ndVal(arr);
                          }};
}

}  // namespace gl::lang::trace
