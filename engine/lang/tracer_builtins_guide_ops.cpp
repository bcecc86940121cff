// Ops TensorFlow's guides use that are composites of GradLab's primitives: softplus, elu,
// reduce_prod, linspace, clip_by_norm, clip_by_global_norm, tensordot, linalg.diag. Each is
// written so that its gradient (from the primitives' VJPs) is TF's, including at the kinks.
#include <algorithm>
#include <cctype>
#include <map>

#include "engine/lang/tracer_builtins.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

Value scalarLike(Bound& a, Value like, double v) {
  return a.cx.b.scalar(v, a.cx.b.type(like).dtype);
}

// softplus(x) = log(1 + e^x). Large x: x itself; very negative x: e^x. Each branch sees its
// input clamped into its own range, so no inf (and no 0 * inf in the gradient) appears in the
// branch where() discards. At 0 the middle branch gives TF's slope sigmoid(0) = 0.5.
Value softplus(Bound& a, Value x) {
  Emitter& b = a.cx.b;
  const double hi = 20, lo = -15;
  Value mid = o::minimum(b, o::maximum(b, x, scalarLike(a, x, lo)), scalarLike(a, x, hi));
  Value midBranch = o::log(b, o::addScalar(b, o::exp(b, mid), 1.0));
  Value lowBranch = o::exp(b, o::minimum(b, x, scalarLike(a, x, lo)));
  Value out = o::where(b, o::less(b, x, scalarLike(a, x, lo)), lowBranch, midBranch);
  return o::where(b, o::greater(b, x, scalarLike(a, x, hi)), x, out);
}

// elu(x) = x for x > 0, e^x - 1 otherwise (the exponential sees min(x, 0) only).
Value elu(Bound& a, Value x) {
  Emitter& b = a.cx.b;
  Value zero = scalarLike(a, x, 0.0);
  Value negative = o::addScalar(b, o::exp(b, o::minimum(b, x, zero)), -1.0);
  return o::where(b, o::greater(b, x, zero), x, negative);
}

// The product along one axis as a chain of multiplies of its slices: the gradient of each
// factor is the product of the others, right even where a factor is 0 (a quotient is not).
Value prodAlong(Bound& a, Value x, int64_t axis, bool keepdims) {
  Emitter& b = a.cx.b;
  const Shape& s = b.type(x).shape;
  if (axis < 0) axis += int64_t(s.size());
  if (axis < 0 || axis >= int64_t(s.size())) a.fail("axis", "is out of range");
  if (s[size_t(axis)] < 0) a.fail("input_tensor", "needs a length known while tracing");
  std::vector<Value> parts = o::unstack(b, x, axis);
  Value p;
  if (parts.empty()) {
    Shape rest = s;
    rest.erase(rest.begin() + axis);
    p = b.op1(
        "fill", {},
        Attrs{{"dtype", std::string(dtypeName(b.type(x).dtype))}, {"shape", rest}, {"value", 1.0}});
  } else {
    p = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) p = o::mul(b, p, parts[i]);
  }
  return keepdims ? o::expandDims(b, p, axis) : p;
}

Val reduceProd(Bound& a) {
  Value x = a.tensor("input_tensor");
  const bool keep = a.boolean("keepdims");
  const int64_t rank = int64_t(a.cx.b.type(x).shape.size());
  std::vector<int64_t> axes = a.axes("axis");
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  for (auto& ax : axes) ax = ax < 0 ? ax + rank : ax;
  // From the last axis down, so the earlier axes keep their numbers.
  std::sort(axes.rbegin(), axes.rend());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  for (int64_t ax : axes) x = prodAlong(a, x, ax, keep);
  return T(x);
}

// linspace(start, stop, num): start + (stop - start) * k / (num - 1), k = 0..num-1.
// linspace: start + (stop - start) * k / (num - 1) for k < num, along a new axis `axis` of the
// start and stop broadcast together (TF's linspace docstring: batched bounds [0, 5] and
// [10, 40] with axis=-1 give rows [0 2.5 5 7.5 10] and [5 13.75 22.5 31.25 40]).
Val linspace(Bound& a) {
  const int64_t num = a.integer("num");
  if (num < 1) a.fail("num", "must be at least 1");
  Value start = a.tensor("start");
  Value stop = a.tensorLike("stop", start);
  Emitter& b = a.cx.b;
  // math_ops.linspace_nd divides (stop - start) by the steps with `/`, which makes integer
  // bounds float64 (TF's truediv); the guide's tf.linspace(-2, 2, 201) is float64.
  if (b.type(start).dtype == DType::I32) {
    a.cx.at(a.callLoc);
    start = o::cast(b, start, DType::F64);
    stop = o::cast(b, stop, DType::F64);
  }
  const DType dt = b.type(start).dtype;
  if (!isFloat(dt)) a.fail("start", "must be a number tensor");
  const Shape s = broadcastShapes(b.type(start).shape, b.type(stop).shape);
  const int64_t rank = int64_t(s.size());
  int64_t axis = a.integer("axis");
  if (axis < -(rank + 1) || axis > rank)
    a.fail("axis", "must be in [" + std::to_string(-(rank + 1)) + ", " + std::to_string(rank) +
                       "] for bounds of shape " + shapeStr(s));
  if (axis < 0) axis += rank + 1;
  Tensor k = Tensor::zeros(dt, {num});
  for (int64_t i = 0; i < num; ++i) k.set(i, num == 1 ? 0.0 : double(i) / double(num - 1));
  Shape fracShape(size_t(rank + 1), 1);
  fracShape[size_t(axis)] = num;
  a.cx.at(a.callLoc);
  Value frac = o::reshape(b, b.constant(k, "linspace_fraction"), fracShape);
  // The new axis in each bound's own (right-aligned) axes; in front of them when the bound has
  // fewer axes, where broadcasting supplies the rest.
  auto withAxis = [&](Value v) {
    const int64_t missing = rank - int64_t(b.type(v).shape.size());
    return o::expandDims(b, v, std::max<int64_t>(0, axis - missing));
  };
  start = withAxis(start);
  stop = withAxis(stop);
  return T(o::add(b, start, o::mul(b, o::sub(b, stop, start), frac)));
}

// The L2 norm over `axes` (all when empty), with a gradient of 0 (not NaN) at zero: TF's
// clip_by_norm guards the square root the same way.
Value safeNorm(Emitter& b, Value sumSquares) {
  Value zero = b.scalar(0.0, b.type(sumSquares).dtype);
  Value positive = o::greater(b, sumSquares, zero);
  Value safe = o::where(b, positive, sumSquares, b.onesLike(sumSquares));
  return o::where(b, positive, o::sqrt(b, safe), sumSquares);
}

// clip_by_norm(t, c) = t * c / max(||t||, c).
Val clipByNorm(Bound& a) {
  Emitter& b = a.cx.b;
  Value t = a.tensor("t");
  Value c = a.tensorLike("clip_norm", t);
  Value norm = safeNorm(b, o::reduceSum(b, o::square(b, t), a.axes("axes"), true));
  return T(o::div(b, o::mul(b, t, c), o::maximum(b, norm, c)));
}

// clip_by_global_norm(ts, c) -> ([t * c / max(g, c)], g) with g the norm of all ts together.
Val clipByGlobalNorm(Bound& a) {
  Emitter& b = a.cx.b;
  const Val& list = a["t_list"];
  if (!list.isSeq() || list.items().empty())
    a.fail("t_list", "must be a non-empty list of tensors");
  std::vector<Value> ts;
  for (const Val& v : list.items()) {
    if (v.isNone()) continue;  // TF passes None entries (missing gradients) through
    ts.push_back(a.cx.toTensor(v, a.loc("t_list")));
  }
  if (ts.empty()) a.fail("t_list", "holds no tensors");
  Value total = o::reduceSum(b, o::square(b, ts[0]));
  for (size_t i = 1; i < ts.size(); ++i)
    total = o::add(b, total, o::reduceSum(b, o::square(b, ts[i])));
  Value global = a.none("use_norm") ? safeNorm(b, total) : a.tensorLike("use_norm", total);
  Value c = a.tensorLike("clip_norm", global);
  Value factor = o::div(b, c, o::maximum(b, global, c));
  std::vector<Val> clipped;
  size_t k = 0;
  for (const Val& v : list.items()) {
    if (v.isNone()) {
      clipped.push_back(Val::none());
      continue;
    }
    const Value t = ts[k++];
    clipped.push_back(T(o::mul(b, t, o::cast(b, factor, b.type(t).dtype))));
  }
  return Val::listOf({Val::listOf(std::move(clipped), list.kind() == Kind::Tuple), T(global)},
                     true);
}

// tensordot(a, b, axes) as an einsum: axes = N contracts the last N axes of a with the first N
// of b; axes = [[i...], [j...]] names them.
Val tensordot(Bound& a) {
  Emitter& b = a.cx.b;
  Value x = a.tensor("a"), y = a.tensorLike("b", x);
  const int64_t rx = int64_t(b.type(x).shape.size()), ry = int64_t(b.type(y).shape.size());
  std::vector<int64_t> ax, ay;
  const Val& axes = a["axes"];
  if (axes.kind() == Kind::Int) {
    const int64_t n = axes.asInt();
    if (n < 0 || n > rx || n > ry) a.fail("axes", "must be between 0 and both ranks");
    for (int64_t i = 0; i < n; ++i) {
      ax.push_back(rx - n + i);
      ay.push_back(i);
    }
  } else if (axes.isSeq() && axes.items().size() == 2) {
    auto ints = [&](const Val& v) {
      std::vector<int64_t> out;
      if (v.kind() == Kind::Int) return std::vector<int64_t>{v.asInt()};
      if (!v.isSeq()) a.fail("axes", "must be an int or two lists of axes");
      for (const Val& d : v.items()) {
        if (d.kind() != Kind::Int) a.fail("axes", "must hold ints");
        out.push_back(d.asInt());
      }
      return out;
    };
    ax = ints(axes.items()[0]);
    ay = ints(axes.items()[1]);
    if (ax.size() != ay.size()) a.fail("axes", "must name as many axes of a as of b");
    for (auto& d : ax) d = d < 0 ? d + rx : d;
    for (auto& d : ay) d = d < 0 ? d + ry : d;
  } else {
    a.fail("axes", "must be an int or two lists of axes");
  }
  if (rx + ry > 26) a.fail("a", "has too many axes for tensordot");
  std::string lx(size_t(rx), ' '), ly(size_t(ry), ' '), out;
  char next = 'a';
  for (int64_t i = 0; i < rx; ++i) lx[size_t(i)] = next++;
  for (size_t k = 0; k < ay.size(); ++k) {
    if (ax[k] < 0 || ax[k] >= rx || ay[k] < 0 || ay[k] >= ry) a.fail("axes", "is out of range");
    ly[size_t(ay[k])] = lx[size_t(ax[k])];
  }
  for (int64_t i = 0; i < ry; ++i)
    if (ly[size_t(i)] == ' ') ly[size_t(i)] = next++;
  for (int64_t i = 0; i < rx; ++i)
    if (std::find(ax.begin(), ax.end(), i) == ax.end()) out += lx[size_t(i)];
  for (int64_t i = 0; i < ry; ++i)
    if (std::find(ay.begin(), ay.end(), i) == ay.end()) out += ly[size_t(i)];
  a.cx.at(a.callLoc);
  return T(o::einsum(b, lx + "," + ly + "->" + out, {x, y}));
}

// linalg.diag(v, k): [..., n] -> [..., m, m], m = n + |k|, with v on diagonal k (above the main
// one for k > 0) and padding_value elsewhere (tf.linalg.diag's docstring; a band of diagonals,
// k = (lo, hi) with lo < hi, is refused). As a product with constant 0/1 selectors, so the
// gradient lands on the diagonal only.
Val diag(Bound& a) {
  Emitter& b = a.cx.b;
  Value v = a.tensor("diagonal");
  const Shape s = b.type(v).shape;
  if (s.empty() || s.back() < 0) a.fail("diagonal", "needs a last axis of known length");
  std::vector<int64_t> ks = a.ints("k");
  if (ks.size() == 2 && ks[0] == ks[1]) ks.pop_back();
  if (ks.size() != 1) a.fail("k", "must be one diagonal offset; a band (lo, hi) is not supported");
  const int64_t n = s.back(), k = ks[0], m = n + std::abs(k);
  for (const char* dim : {"num_rows", "num_cols"})
    if (const int64_t d = a.integer(dim); d != -1 && d != m)
      a.fail(dim,
             "must be -1 or " + std::to_string(m) + " (n + |k|): other sizes are not supported");
  const DType dt = b.type(v).dtype;
  if (k == 0 && n == m && a.number("padding_value") == 0) {
    Tensor eye = Tensor::zeros(dt, {n, n});
    for (int64_t i = 0; i < n; ++i) eye.set(i * n + i, 1.0);
    return T(o::mul(b, o::expandDims(b, v, -1), b.constant(eye, "identity")));
  }
  // select[i, r*m + c] = 1 where v[i] goes: (i, i + k) for k >= 0, (i - k, i) below.
  Tensor select = Tensor::zeros(dt, {n, m * m});
  Tensor pad = Tensor::full(dt, {m * m}, a.number("padding_value"));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = k >= 0 ? i : i - k, c = k >= 0 ? i + k : i;
    select.set(i * m * m + r * m + c, 1.0);
    pad.set(r * m + c, 0.0);
  }
  Value flat = o::reduceSum(b, o::mul(b, o::expandDims(b, v, -1), b.constant(select)), {-2});
  if (a.number("padding_value") != 0) flat = o::add(b, flat, b.constant(pad));
  Shape out(s.begin(), s.end() - 1);
  if (std::count(out.begin(), out.end(), int64_t(-1)) > 1)
    a.fail("diagonal", "needs at most one unknown batch dim, got " + shapeStr(s));
  out.insert(out.end(), {m, m});
  return T(o::reshape(b, flat, out));
}

// einsum with a label repeated inside one operand ('ii->', 'bxby->bxy'): that operand's
// diagonal over the two axes is taken first (times an identity, summed over the second axis,
// so the gradient lands on the diagonal only); the engine's einsum then sees distinct labels.
Val einsum(Bound& a) {
  Emitter& b = a.cx.b;
  std::vector<Value> xs;
  for (const Arg& x : a.rest) xs.push_back(a.cx.toTensor(x.v, x.loc));
  std::string eq;
  for (char c : a.string("equation"))
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  bool repeats = false;
  for (const auto& term : terms)
    for (size_t i = 0; i < term.size(); ++i)
      repeats = repeats || (std::isalpha(static_cast<unsigned char>(term[i])) &&
                            term.find(term[i], i + 1) != std::string::npos);
  a.cx.at(a.callLoc);
  if (!repeats || terms.size() != xs.size() || eq.find("...") != std::string::npos)
    return T(o::einsum(b, eq, xs));
  // NumPy's implicit output counts every occurrence: 'ii' has none left (a trace).
  std::string out;
  if (arrow == std::string::npos) {
    std::map<char, int> count;
    for (const auto& term : terms)
      for (char c : term) ++count[c];
    for (auto [c, n] : count)
      if (n == 1) out += c;
  } else {
    out = eq.substr(arrow + 2);
  }
  for (size_t k = 0; k < terms.size(); ++k) {
    std::string& term = terms[k];
    if (int64_t(term.size()) != int64_t(b.type(xs[k]).shape.size())) break;  // einsum says why
    for (size_t p = 0; p < term.size(); ++p) {
      const size_t q = term.find(term[p], p + 1);
      if (q == std::string::npos) continue;
      const Shape& s = b.type(xs[k]).shape;
      const int64_t n = s[p];
      if (n < 0 || s[q] != n)
        a.fail("equation", std::string("label '") + term[p] +
                               "' repeats over axes of different or unknown lengths");
      Tensor eye = Tensor::zeros(b.type(xs[k]).dtype, {n, n});
      for (int64_t i = 0; i < n; ++i) eye.set(i * n + i, 1.0);
      Shape maskShape(s.size(), 1);
      maskShape[p] = maskShape[q] = n;
      Value mask = o::reshape(b, b.constant(eye, "identity"), maskShape);
      xs[k] = o::reduceSum(b, o::mul(b, xs[k], mask), {int64_t(q)});
      term.erase(q, 1);
      --p;  // the label may repeat a third time
    }
  }
  std::string rewritten;
  for (size_t k = 0; k < terms.size(); ++k) rewritten += (k ? "," : "") + terms[k];
  return T(o::einsum(b, rewritten + "->" + out, xs));
}

}  // namespace

void addGuideOpBuiltins(BuiltinTable& t) {
  t["tf.einsum"] = {Signature::parse("equation, *inputs, name=None"), einsum};
  // tf.math.softplus and tf.nn.softplus reach these through the namespace aliases.
  t["tf.softplus"] = {Signature::parse("features, name=None"),
                      [](Bound& a) { return T(softplus(a, a.tensor("features"))); }};
  t["tf.elu"] = {Signature::parse("features, name=None"),
                 [](Bound& a) { return T(elu(a, a.tensor("features"))); }};
  t["tf.reduce_prod"] = {Signature::parse("input_tensor, axis=None, keepdims=False, name=None"),
                         reduceProd};
  t["tf.linspace"] = {Signature::parse("start, stop, num, name=None, axis=0"), linspace};
  t["tf.clip_by_norm"] = {Signature::parse("t, clip_norm, axes=None, name=None"), clipByNorm};
  t["tf.clip_by_global_norm"] = {Signature::parse("t_list, clip_norm, use_norm=None, name=None"),
                                 clipByGlobalNorm};
  t["tf.tensordot"] = {Signature::parse("a, b, axes, name=None"), tensordot};
  // align places the diagonals of a band only: with one diagonal it changes nothing.
  t["tf.linalg.diag"] = {Signature::parse("diagonal, name=None, k=0, num_rows=-1, num_cols=-1, "
                                          "padding_value=0, ~align='RIGHT_LEFT'"),
                         diag};
}

}  // namespace gl::lang::trace
