// The numpy module ("py.numpy." in the builtin table, so `np` exists only after an import) and
// the ndarray's methods and properties ("numpy.ndarray."): creation, dtypes, reductions, shape
// functions and the elementwise functions snippets call. Each works on host values; an argument
// that is a tensor is computed on its value (tracer_numpy.h).
#include <cmath>
#include <numeric>

#include "engine/lang/tracer_numpy.h"

namespace gl::lang::trace {

namespace {

const char* const kNpMod = "py.numpy.";
const char* const kNpArr = "numpy.ndarray.";

Val npDTypeVal(NpType t) {
  static const std::vector<ObjPtr> kTypes = [] {
    std::vector<ObjPtr> v;
    for (int i = 0; i <= int(NpType::Float64); ++i) {
      auto d = std::make_shared<NpDTypeObj>();
      d->type = NpType(i);
      v.push_back(d);
    }
    return v;
  }();
  return Val::object(kTypes[size_t(t)]);
}

NdPtr npArg(Bound& a, const std::string& name) { return toNdArray(a.cx, a[name], a.loc(name)); }

// The array a method is called on (a bound method's receiver).
NdPtr npSelf(Bound& a) { return toNdArray(a.cx, a.self, a.callLoc); }

std::optional<NpType> npDTypeArg(Bound& a, const std::string& name) {
  if (a.none(name)) return std::nullopt;
  const Val& v = a[name];
  if (v.kind() == Kind::Object) {
    // Python's float, int and bool as dtypes.
    if (auto b = v.as<BuiltinObj>()) {
      if (b->name == "float") return NpType::Float64;
      if (b->name == "int") return NpType::Int64;
      if (b->name == "bool") return NpType::Bool;
    }
  }
  if (auto t = npTypeOf(v)) return t;
  a.fail(name,
         "is not a numpy dtype GradLab provides (bool, int8, int16, int32, int64, uint8, "
         "float32, float64), got " +
             (v.kind() == Kind::Str ? "'" + v.text() + "'" : typeName(v)));
}

int64_t npCount(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// A shape argument: an int or a tuple/list of ints.
std::vector<int64_t> npShapeOf(Context& cx, const Val& v, const SourceLoc& loc,
                               const std::string& what) {
  std::vector<int64_t> s;
  auto one = [&](const Val& x) {
    if (x.kind() == Kind::Int) return x.asInt();
    if (const NdArrayObj* n = asNdArray(x); n && n->shape.empty() && npIsInt(n->dtype))
      return int64_t(n->data[0]);
    cx.fail(loc, what + " must be an int or a tuple of ints, got " + typeName(x));
  };
  if (v.isSeq()) {
    for (const Val& x : v.items()) s.push_back(one(x));
  } else {
    s.push_back(one(v));
  }
  int64_t total = 1;
  for (int64_t d : s) {
    if (d < 0) cx.fail(loc, "ValueError: negative dimensions are not allowed");
    if (d > 0 && total > maxPythonItems() / d)
      cx.fail(loc, what + " asks for more than " + std::to_string(maxPythonItems()) +
                       " elements, more than GradLab holds while tracing");
    total *= d;
  }
  return s;
}

// Axes from None, an int or a tuple of ints; empty = all.
std::vector<int64_t> npAxes(Bound& a, const std::string& name, size_t rank) {
  std::vector<int64_t> axes;
  if (a.none(name)) return axes;
  const Val& v = a[name];
  std::vector<Val> items = v.isSeq() ? v.items() : std::vector<Val>{v};
  for (const Val& x : items) {
    if (x.kind() != Kind::Int) a.fail(name, "must be an int or a tuple of ints");
    int64_t ax = x.asInt();
    if (ax < -int64_t(rank) || ax >= int64_t(rank))
      a.cx.fail(a.loc(name), "numpy.exceptions.AxisError: axis " + std::to_string(ax) +
                                 " is out of bounds for array of dimension " +
                                 std::to_string(rank));
    if (ax < 0) ax += int64_t(rank);
    axes.push_back(ax);
  }
  if (axes.empty()) a.fail(name, "is an empty tuple: GradLab asks for at least one axis");
  return axes;
}

enum class NpReduce { Sum, Prod, Mean, Max, Min, Std, Var, ArgMax, ArgMin, Any, All };

NpType npReduceType(NpReduce k, NpType t) {
  switch (k) {
    case NpReduce::Sum:
    case NpReduce::Prod:
      // numpy sums bool and small integers as int64 (unsigned as uint64: int64 here).
      return npIsFloat(t) ? t : NpType::Int64;
    case NpReduce::Mean:
    case NpReduce::Std:
    case NpReduce::Var:
      return npIsFloat(t) ? t : NpType::Float64;
    case NpReduce::ArgMax:
    case NpReduce::ArgMin:
      return NpType::Int64;
    case NpReduce::Any:
    case NpReduce::All:
      return NpType::Bool;
    default:
      return t;
  }
}

Val npReduce(Bound& a, NpReduce k, const NdArrayObj& x, const std::string& axisName,
             bool keepdims) {
  const size_t rank = x.shape.size();
  std::vector<int64_t> axes = npAxes(a, axisName, rank);
  const bool all = axes.empty();
  if ((k == NpReduce::ArgMax || k == NpReduce::ArgMin) && axes.size() > 1)
    a.fail(axisName, "must be one int for argmax/argmin");
  std::vector<bool> reduced(rank, all);
  for (int64_t ax : axes) reduced[size_t(ax)] = true;
  std::vector<int64_t> outShape, keptShape;
  for (size_t d = 0; d < rank; ++d) {
    if (!reduced[d]) outShape.push_back(x.shape[d]);
    keptShape.push_back(reduced[d] ? 1 : x.shape[d]);
  }
  std::vector<std::vector<double>> groups(static_cast<size_t>(npCount(outShape)));
  std::vector<int64_t> pos(rank, 0);
  for (int64_t f = 0; f < x.size(); ++f) {
    int64_t o = 0;
    for (size_t d = 0; d < rank; ++d)
      if (!reduced[d]) o = o * x.shape[d] + pos[d];
    groups[size_t(o)].push_back(x.data[size_t(f)]);
    for (size_t d = rank; d-- > 0;) {
      if (++pos[d] < x.shape[d]) break;
      pos[d] = 0;
    }
  }
  const NpType t = npReduceType(k, x.dtype);
  std::vector<double> out;
  for (const auto& g : groups) {
    if (g.empty() && (k == NpReduce::Max || k == NpReduce::Min || k == NpReduce::ArgMax ||
                      k == NpReduce::ArgMin))
      a.cx.fail(a.callLoc,
                "ValueError: zero-size array to reduction operation which has no identity");
    double r = 0;
    switch (k) {
      case NpReduce::Sum:
        for (double v : g) r += v;
        break;
      case NpReduce::Prod:
        r = 1;
        for (double v : g) r *= v;
        break;
      case NpReduce::Mean:
        for (double v : g) r += v;
        r = g.empty() ? NAN : r / double(g.size());
        break;
      case NpReduce::Std:
      case NpReduce::Var: {
        double m = 0;
        for (double v : g) m += v;
        m /= double(g.size());
        for (double v : g) r += (v - m) * (v - m);
        r /= double(g.size());
        if (k == NpReduce::Std) r = std::sqrt(r);
        break;
      }
      case NpReduce::Max:
      case NpReduce::Min: {
        r = g[0];
        for (double v : g) {
          if (std::isnan(v) || std::isnan(r))
            r = NAN;
          else
            r = k == NpReduce::Max ? std::max(r, v) : std::min(r, v);
        }
        break;
      }
      case NpReduce::ArgMax:
      case NpReduce::ArgMin: {
        size_t best = 0;
        for (size_t i = 1; i < g.size(); ++i)
          if (k == NpReduce::ArgMax ? g[i] > g[best] : g[i] < g[best]) best = i;
        r = double(best);
        break;
      }
      case NpReduce::Any:
        for (double v : g) r = r || v != 0;
        break;
      case NpReduce::All:
        r = 1;
        for (double v : g) r = r && v != 0;
        break;
    }
    out.push_back(r);
  }
  NdPtr res = makeNdArray(t, keepdims ? keptShape : outShape, std::move(out));
  res->scalar = res->shape.empty();
  return ndVal(res);
}

NdPtr npReshape(Context& cx, const NdArrayObj& x, std::vector<int64_t> shape,
                const SourceLoc& loc) {
  int64_t known = 1;
  int unknown = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown >= 0) cx.fail(loc, "ValueError: can only specify one unknown dimension");
      unknown = int(i);
    } else if (shape[i] < 0) {
      cx.fail(loc, "ValueError: negative dimensions not allowed");
    } else {
      known *= shape[i];
    }
  }
  if (unknown >= 0 && known > 0 && x.size() % known == 0) shape[size_t(unknown)] = x.size() / known;
  if ((unknown >= 0 && shape[size_t(unknown)] < 0) || npCount(shape) != x.size()) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    s += shape.size() == 1 ? ",)" : ")";
    cx.fail(loc, "ValueError: cannot reshape array of size " + std::to_string(x.size()) +
                     " into shape " + s);
  }
  return makeNdArray(x.dtype, shape, x.data);
}

// reshape(2, 3), reshape((2, 3)), reshape([-1, 4]).
std::vector<int64_t> npShapeArgs(Context& cx, const std::vector<Arg>& args, const SourceLoc& loc) {
  if (args.size() == 1 && (args[0].v.isSeq())) {
    std::vector<int64_t> s;
    for (const Val& v : args[0].v.items()) {
      if (v.kind() != Kind::Int)
        cx.fail(args[0].loc, "TypeError: 'shape' must hold ints, got " + typeName(v));
      s.push_back(v.asInt());
    }
    return s;
  }
  std::vector<int64_t> s;
  for (const Arg& x : args) {
    if (x.v.kind() != Kind::Int)
      cx.fail(x.loc, "TypeError: 'shape' must hold ints, got " + typeName(x.v));
    s.push_back(x.v.asInt());
  }
  if (s.empty()) cx.fail(loc, "reshape() needs a shape");
  return s;
}

NdPtr npTranspose(Context& cx, const NdArrayObj& x, std::vector<int64_t> perm,
                  const SourceLoc& loc) {
  const size_t r = x.shape.size();
  if (perm.empty())
    for (size_t i = 0; i < r; ++i) perm.push_back(int64_t(r - 1 - i));
  if (perm.size() != r) cx.fail(loc, "ValueError: axes don't match array");
  std::vector<bool> seen(r, false);
  for (int64_t& p : perm) {
    if (p < 0) p += int64_t(r);
    if (p < 0 || p >= int64_t(r) || seen[size_t(p)])
      cx.fail(loc, "ValueError: axes don't match array");
    seen[size_t(p)] = true;
  }
  std::vector<int64_t> shape(r), strides(r, 1);
  for (size_t k = r; k-- > 1;) strides[k - 1] = strides[k] * x.shape[k];
  for (size_t i = 0; i < r; ++i) shape[i] = x.shape[size_t(perm[i])];
  std::vector<double> out(x.data.size());
  std::vector<int64_t> pos(r, 0);
  for (size_t f = 0; f < out.size(); ++f) {
    int64_t at = 0;
    for (size_t i = 0; i < r; ++i) at += pos[i] * strides[size_t(perm[i])];
    out[f] = x.data[size_t(at)];
    for (size_t i = r; i-- > 0;) {
      if (++pos[i] < shape[i]) break;
      pos[i] = 0;
    }
  }
  return makeNdArray(x.dtype, shape, std::move(out));
}

Val npToList(const NdArrayObj& x, size_t axis, int64_t& at) {
  if (axis == x.shape.size()) {
    const double v = x.data[size_t(at++)];
    if (x.dtype == NpType::Bool) return Val::boolean(v != 0);
    if (npIsInt(x.dtype)) return Val::integer(int64_t(v));
    return Val::real(v);
  }
  std::vector<Val> items;
  for (int64_t i = 0; i < x.shape[axis]; ++i) items.push_back(npToList(x, axis + 1, at));
  return Val::listOf(std::move(items));
}

NdPtr npConcat(Bound& a, const std::vector<NdPtr>& parts, int64_t axis, bool stack) {
  if (parts.empty()) a.cx.fail(a.callLoc, "ValueError: need at least one array to concatenate");
  std::vector<NdPtr> ps = parts;
  if (stack) {
    for (NdPtr& p : ps) {
      if (p->shape != parts[0]->shape)
        a.cx.fail(a.callLoc, "ValueError: all input arrays must have the same shape");
      std::vector<int64_t> s = p->shape;
      int64_t ax = axis < 0 ? axis + int64_t(s.size()) + 1 : axis;
      if (ax < 0 || ax > int64_t(s.size()))
        a.cx.fail(a.callLoc,
                  "numpy.exceptions.AxisError: axis " + std::to_string(axis) + " is out of bounds");
      s.insert(s.begin() + ax, 1);
      p = makeNdArray(p->dtype, s, p->data);
    }
    if (axis < 0) axis += int64_t(ps[0]->shape.size());
  }
  const size_t r = ps[0]->shape.size();
  if (r == 0) a.cx.fail(a.callLoc, "ValueError: zero-dimensional arrays cannot be concatenated");
  if (axis < 0) axis += int64_t(r);
  if (axis < 0 || axis >= int64_t(r))
    a.cx.fail(a.callLoc, "numpy.exceptions.AxisError: axis " + std::to_string(axis) +
                             " is out of bounds for array of dimension " + std::to_string(r));
  NpType t = ps[0]->dtype;
  std::vector<int64_t> shape = ps[0]->shape;
  shape[size_t(axis)] = 0;
  for (const NdPtr& p : ps) {
    if (p->shape.size() != r)
      a.cx.fail(a.callLoc, "ValueError: all the input arrays must have same number of dimensions");
    for (size_t d = 0; d < r; ++d)
      if (d != size_t(axis) && p->shape[d] != ps[0]->shape[d])
        a.cx.fail(a.callLoc,
                  "ValueError: all the input array dimensions except for the concatenation axis "
                  "must match exactly");
    shape[size_t(axis)] += p->shape[size_t(axis)];
    t = npIsFloat(t) || npIsFloat(p->dtype)
            ? (t == NpType::Float64 || p->dtype == NpType::Float64 ? NpType::Float64
                                                                   : NpType::Float32)
            : (t == p->dtype ? t : NpType::Int64);
  }
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (const NdPtr& p : ps) {
      int64_t chunk = 1;
      for (size_t d = size_t(axis); d < r; ++d) chunk *= p->shape[d];
      out.insert(out.end(), p->data.begin() + o * chunk, p->data.begin() + (o + 1) * chunk);
    }
  return makeNdArray(t, shape, std::move(out));
}

std::vector<NdPtr> npSeqArg(Bound& a, const std::string& name) {
  const Val& v = a[name];
  if (!v.isSeq()) a.fail(name, "must be a list or tuple of arrays");
  std::vector<NdPtr> out;
  for (const Val& x : v.items()) out.push_back(toNdArray(a.cx, x, a.loc(name)));
  return out;
}

// The float type numpy's float functions give an integer array (float16 for 8-bit types in numpy;
// GradLab has no float16, so float32).
NpType npFloatFor(NpType t) {
  return t == NpType::Int32 || t == NpType::Int64 ? NpType::Float64 : NpType::Float32;
}

NdPtr npMap(const NdArrayObj& x, NpType t, double (*f)(double)) {
  std::vector<double> d = x.data;
  for (double& v : d) v = f(v);
  NdPtr r = makeNdArray(t, x.shape, std::move(d));
  r->scalar = x.scalar;
  return r;
}

void npAddCreation(BuiltinTable& t) {
  const std::string m = kNpMod;
  for (int i = 0; i <= int(NpType::Float64); ++i) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = npDTypeVal(NpType(i));
    t[m + (NpType(i) == NpType::Bool ? "bool_" : npTypeName(NpType(i)))] = d;
  }
  auto constant = [&](const char* name, Val v) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = std::move(v);
    t[m + name] = d;
  };
  constant("float_", npDTypeVal(NpType::Float64));
  constant("double", npDTypeVal(NpType::Float64));
  constant("single", npDTypeVal(NpType::Float32));
  constant("int_", npDTypeVal(NpType::Int64));
  constant("pi", Val::real(M_PI));
  constant("e", Val::real(M_E));
  constant("inf", Val::real(INFINITY));
  constant("nan", Val::real(NAN));
  constant("newaxis", Val::none());
  constant("__version__", Val::str("1.26.4"));

  for (const char* name : {"array", "asarray"})
    t[m + name] = {Signature::parse("object, dtype=None"), [](Bound& a) {
                     NdPtr x =
                         toNdArray(a.cx, a["object"], a.loc("object"), npDTypeArg(a, "dtype"));
                     if (x.get() == asNdArray(a["object"]) || x->scalar) {
                       NdPtr c = makeNdArray(x->dtype, x->shape, x->data);
                       return ndVal(c);
                     }
                     return ndVal(x);
                   }};
  for (const char* name : {"zeros", "ones", "empty"})
    t[m + name] = {
        Signature::parse("shape, dtype=None"), [name](Bound& a) {
          const auto shape = npShapeOf(a.cx, a["shape"], a.loc("shape"), "shape");
          const NpType dt = npDTypeArg(a, "dtype").value_or(NpType::Float64);
          return ndVal(makeNdArray(
              dt, shape, std::vector<double>(size_t(npCount(shape)), name[0] == 'o' ? 1.0 : 0.0)));
        }};
  t[m + "full"] = {Signature::parse("shape, fill_value, dtype=None"), [](Bound& a) {
                     const auto shape = npShapeOf(a.cx, a["shape"], a.loc("shape"), "shape");
                     NdPtr fill = npArg(a, "fill_value");
                     if (!fill->shape.empty()) a.fail("fill_value", "must be a scalar in GradLab");
                     const NpType dt = npDTypeArg(a, "dtype").value_or(fill->dtype);
                     return ndVal(makeNdArray(
                         dt, shape, std::vector<double>(size_t(npCount(shape)), fill->data[0])));
                   }};
  for (const char* name : {"zeros_like", "ones_like"})
    t[m + name] = {
        Signature::parse("a, dtype=None"), [name](Bound& a) {
          NdPtr x = npArg(a, "a");
          const NpType dt = npDTypeArg(a, "dtype").value_or(x->dtype);
          return ndVal(makeNdArray(
              dt, x->shape, std::vector<double>(x->data.size(), name[0] == 'o' ? 1.0 : 0.0)));
        }};
  t[m + "arange"] = {
      Signature::parse("start, stop=None, step=None, dtype=None"), [](Bound& a) {
        double start = 0, stop, step = 1;
        bool anyFloat = false;
        auto num = [&](const char* n) {
          const Val& v = a[n];
          if (!v.isNumber()) a.fail(n, "must be a number, got " + typeName(v));
          anyFloat = anyFloat || v.kind() == Kind::Float;
          return v.number();
        };
        if (a.none("stop")) {
          stop = num("start");
        } else {
          start = num("start");
          stop = num("stop");
        }
        if (!a.none("step")) step = num("step");
        if (step == 0) a.fail("step", "ZeroDivisionError: step must not be zero");
        const double count = std::ceil((stop - start) / step);
        if (count > double(maxPythonItems()))
          a.cx.fail(a.callLoc, "np.arange makes too many items");
        std::vector<double> d;
        for (int64_t i = 0; i < int64_t(count); ++i) d.push_back(start + double(i) * step);
        const NpType dt =
            npDTypeArg(a, "dtype").value_or(anyFloat ? NpType::Float64 : NpType::Int64);
        const int64_t n = int64_t(d.size());
        return ndVal(makeNdArray(dt, {n}, std::move(d)));
      }};
  t[m + "linspace"] = {
      Signature::parse("start, stop, num=50, endpoint=True, dtype=None"), [](Bound& a) {
        const double s = a.number("start"), e = a.number("stop");
        const int64_t n = a.integer("num");
        if (n < 0)
          a.fail("num",
                 "ValueError: Number of samples, " + std::to_string(n) + ", must be non-negative.");
        if (n > maxPythonItems()) a.fail("num", "is too large");
        const bool endpoint = a.boolean("endpoint");
        const double div = endpoint ? double(n - 1) : double(n);
        const double step = div > 0 ? (e - s) / div : 0;
        std::vector<double> d;
        for (int64_t i = 0; i < n; ++i) d.push_back(s + double(i) * step);
        if (endpoint && n > 1) d.back() = e;
        const NpType dt = npDTypeArg(a, "dtype").value_or(NpType::Float64);
        return ndVal(makeNdArray(dt, {n}, std::move(d)));
      }};
  t[m + "eye"] = {
      Signature::parse("N, M=None, k=0, dtype=None"), [](Bound& a) {
        const int64_t n = a.integer("N"), mm = a.none("M") ? n : a.integer("M"), k = a.integer("k");
        npShapeOf(a.cx, Val::listOf({Val::integer(n), Val::integer(mm)}), a.callLoc, "eye");
        std::vector<double> d(size_t(n * mm), 0.0);
        for (int64_t i = 0; i < n; ++i)
          if (i + k >= 0 && i + k < mm) d[size_t(i * mm + i + k)] = 1;
        const NpType dt = npDTypeArg(a, "dtype").value_or(NpType::Float64);
        return ndVal(makeNdArray(dt, {n, mm}, std::move(d)));
      }};
  t[m + "identity"] = {
      Signature::parse("n, dtype=None"), [](Bound& a) {
        const int64_t n = a.integer("n");
        npShapeOf(a.cx, Val::listOf({Val::integer(n), Val::integer(n)}), a.callLoc, "identity");
        std::vector<double> d(size_t(n * n), 0.0);
        for (int64_t i = 0; i < n; ++i) d[size_t(i * n + i)] = 1;
        return ndVal(
            makeNdArray(npDTypeArg(a, "dtype").value_or(NpType::Float64), {n, n}, std::move(d)));
      }};
}

void npAddReductions(BuiltinTable& t) {
  struct R {
    const char* name;
    NpReduce k;
  };
  static constexpr R kReductions[] = {
      {"sum", NpReduce::Sum},       {"prod", NpReduce::Prod},     {"mean", NpReduce::Mean},
      {"max", NpReduce::Max},       {"min", NpReduce::Min},       {"amax", NpReduce::Max},
      {"amin", NpReduce::Min},      {"std", NpReduce::Std},       {"var", NpReduce::Var},
      {"argmax", NpReduce::ArgMax}, {"argmin", NpReduce::ArgMin}, {"any", NpReduce::Any},
      {"all", NpReduce::All}};
  for (const R& r : kReductions) {
    const bool arg = r.k == NpReduce::ArgMax || r.k == NpReduce::ArgMin;
    t[std::string(kNpMod) + r.name] = {
        Signature::parse(arg ? "a, axis=None" : "a, axis=None, keepdims=False"),
        [r, arg](Bound& a) {
          NdPtr x = npArg(a, "a");
          return npReduce(a, r.k, *x, "axis", arg ? false : a.boolean("keepdims"));
        }};
    if (std::string(r.name).rfind("am", 0) == 0) continue;
    t[std::string(kNpArr) + r.name] = {
        Signature::parse(arg ? "axis=None" : "axis=None, keepdims=False"), [r, arg](Bound& a) {
          NdPtr x = npSelf(a);
          return npReduce(a, r.k, *x, "axis", arg ? false : a.boolean("keepdims"));
        }};
  }
  t[std::string(kNpMod) + "allclose"] = {
      Signature::parse("a, b, rtol=1e-05, atol=1e-08, equal_nan=False"), [](Bound& a) {
        NdPtr x = npArg(a, "a"), y = npArg(a, "b");
        const double rtol = a.number("rtol"), atol = a.number("atol");
        const bool eqNan = a.boolean("equal_nan");
        bool ok = true;
        // Broadcast by computing |x - y| <= atol + rtol * |y| elementwise.
        const Val lhs = *ndarrayBinary(
            a.cx, BinaryOp::Sub, ndVal(makeNdArray(NpType::Float64, x->shape, x->data)),
            ndVal(makeNdArray(NpType::Float64, y->shape, y->data)), a.callLoc);
        const NdArrayObj& diff = *asNdArray(lhs);
        const Val yb =
            *ndarrayBinary(a.cx, BinaryOp::Add,
                           ndVal(makeNdArray(NpType::Float64, diff.shape,
                                             std::vector<double>(diff.data.size(), 0.0))),
                           ndVal(makeNdArray(NpType::Float64, y->shape, y->data)), a.callLoc);
        const Val xb =
            *ndarrayBinary(a.cx, BinaryOp::Add,
                           ndVal(makeNdArray(NpType::Float64, diff.shape,
                                             std::vector<double>(diff.data.size(), 0.0))),
                           ndVal(makeNdArray(NpType::Float64, x->shape, x->data)), a.callLoc);
        for (size_t i = 0; i < diff.data.size(); ++i) {
          const double xv = asNdArray(xb)->data[i], yv = asNdArray(yb)->data[i];
          if (std::isnan(xv) || std::isnan(yv)) {
            ok = ok && eqNan && std::isnan(xv) && std::isnan(yv);
          } else if (std::isinf(xv) || std::isinf(yv)) {
            ok = ok && xv == yv;
          } else {
            ok = ok && std::fabs(xv - yv) <= atol + rtol * std::fabs(yv);
          }
        }
        return Val::boolean(ok);
      }};
  t[std::string(kNpMod) + "array_equal"] = {
      Signature::parse("a1, a2"), [](Bound& a) {
        NdPtr x = npArg(a, "a1"), y = npArg(a, "a2");
        return Val::boolean(x->shape == y->shape && x->data == y->data);
      }};
}

void npAddShapeFunctions(BuiltinTable& t) {
  const std::string m = kNpMod, s = kNpArr;
  t[m + "reshape"] = {
      Signature::parse("a, newshape"), [](Bound& a) {
        NdPtr x = npArg(a, "a");
        std::vector<Arg> args{{a["newshape"], a.loc("newshape"), nullptr}};
        return ndVal(npReshape(a.cx, *x, npShapeArgs(a.cx, args, a.callLoc), a.callLoc));
      }};
  t[s + "reshape"] = {
      Signature::parse("*shape"), [](Bound& a) {
        NdPtr x = npSelf(a);
        return ndVal(npReshape(a.cx, *x, npShapeArgs(a.cx, a.rest, a.callLoc), a.callLoc));
      }};
  t[m + "transpose"] = {Signature::parse("a, axes=None"), [](Bound& a) {
                          NdPtr x = npArg(a, "a");
                          std::vector<int64_t> perm;
                          if (!a.none("axes")) perm = a.ints("axes");
                          return ndVal(npTranspose(a.cx, *x, perm, a.callLoc));
                        }};
  t[s + "transpose"] = {Signature::parse("*axes"), [](Bound& a) {
                          NdPtr x = npSelf(a);
                          std::vector<int64_t> perm;
                          if (!a.rest.empty()) perm = npShapeArgs(a.cx, a.rest, a.callLoc);
                          return ndVal(npTranspose(a.cx, *x, perm, a.callLoc));
                        }};
  BuiltinDef tp{Signature::parse(""),
                [](Bound& a) { return ndVal(npTranspose(a.cx, *npSelf(a), {}, a.callLoc)); }};
  tp.isProperty = true;
  t[s + "T"] = tp;
  BuiltinDef shape{Signature::parse(""), [](Bound& a) {
                     std::vector<Val> d;
                     for (int64_t x : npSelf(a)->shape) d.push_back(Val::integer(x));
                     return Val::listOf(std::move(d), true);
                   }};
  shape.isProperty = true;
  t[s + "shape"] = shape;
  BuiltinDef dtype{Signature::parse(""), [](Bound& a) { return npDTypeVal(npSelf(a)->dtype); }};
  dtype.isProperty = true;
  t[s + "dtype"] = dtype;
  BuiltinDef ndim{Signature::parse(""),
                  [](Bound& a) { return Val::integer(int64_t(npSelf(a)->shape.size())); }};
  ndim.isProperty = true;
  t[s + "ndim"] = ndim;
  BuiltinDef size{Signature::parse(""), [](Bound& a) { return Val::integer(npSelf(a)->size()); }};
  size.isProperty = true;
  t[s + "size"] = size;
  t[s + "astype"] = {Signature::parse("dtype"), [](Bound& a) {
                       NdPtr x = npSelf(a);
                       NdPtr r = makeNdArray(*npDTypeArg(a, "dtype"), x->shape, x->data);
                       r->scalar = x->scalar;
                       return ndVal(r);
                     }};
  for (const char* name : {"flatten", "ravel"}) {
    t[s + name] = {Signature::parse(""), [](Bound& a) {
                     NdPtr x = npSelf(a);
                     return ndVal(makeNdArray(x->dtype, {x->size()}, x->data));
                   }};
  }
  t[m + "ravel"] = {Signature::parse("a"), [](Bound& a) {
                      NdPtr x = npArg(a, "a");
                      return ndVal(makeNdArray(x->dtype, {x->size()}, x->data));
                    }};
  t[s + "copy"] = {Signature::parse(""), [](Bound& a) {
                     NdPtr x = npSelf(a);
                     NdPtr r = makeNdArray(x->dtype, x->shape, x->data);
                     r->scalar = x->scalar;
                     return ndVal(r);
                   }};
  t[s + "tolist"] = {Signature::parse(""), [](Bound& a) {
                       NdPtr x = npSelf(a);
                       int64_t at = 0;
                       return npToList(*x, 0, at);
                     }};
  t[s + "item"] = {Signature::parse(""), [](Bound& a) {
                     NdPtr x = npSelf(a);
                     if (x->size() != 1)
                       a.cx.fail(
                           a.callLoc,
                           "ValueError: can only convert an array of size 1 to a Python scalar");
                     int64_t at = 0;
                     NdPtr one = makeNdArray(x->dtype, {}, x->data);
                     return npToList(*one, 0, at);
                   }};
  for (const char* name : {"squeeze", "expand_dims"}) {
    const bool sq = name[0] == 's';
    t[m + name] = {Signature::parse(sq ? "a, axis=None" : "a, axis"), [sq](Bound& a) {
                     NdPtr x = npArg(a, "a");
                     std::vector<int64_t> shape = x->shape;
                     if (sq) {
                       std::vector<int64_t> axes = npAxes(a, "axis", shape.size());
                       std::vector<int64_t> out;
                       for (size_t d = 0; d < shape.size(); ++d) {
                         const bool named = axes.empty() || std::find(axes.begin(), axes.end(),
                                                                      int64_t(d)) != axes.end();
                         if (named && shape[d] != 1 && !axes.empty())
                           a.fail("axis",
                                  "ValueError: cannot select an axis to squeeze out which has size "
                                  "not equal to one");
                         if (!(named && shape[d] == 1)) out.push_back(shape[d]);
                       }
                       shape = out;
                     } else {
                       int64_t ax = a.integer("axis");
                       if (ax < 0) ax += int64_t(shape.size()) + 1;
                       if (ax < 0 || ax > int64_t(shape.size())) a.fail("axis", "is out of bounds");
                       shape.insert(shape.begin() + ax, 1);
                     }
                     return ndVal(makeNdArray(x->dtype, shape, x->data));
                   }};
  }
  t[m + "concatenate"] = {
      Signature::parse("arrays, axis=0"),
      [](Bound& a) { return ndVal(npConcat(a, npSeqArg(a, "arrays"), a.integer("axis"), false)); }};
  t[m + "stack"] = {Signature::parse("arrays, axis=0"), [](Bound& a) {
                      return ndVal(npConcat(a, npSeqArg(a, "arrays"), a.integer("axis"), true));
                    }};
  BuiltinDef shapeFn{Signature::parse("a"), [](Bound& a) {
                       std::vector<Val> d;
                       for (int64_t x : npArg(a, "a")->shape) d.push_back(Val::integer(x));
                       return Val::listOf(std::move(d), true);
                     }};
  t[m + "shape"] = shapeFn;
}

void npAddElementwise(BuiltinTable& t) {
  const std::string m = kNpMod;
  struct U {
    const char* name;
    double (*f)(double);
  };
  static constexpr U kUnary[] = {
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
      {"expm1", [](double x) { return std::expm1(x); }},
  };
  for (const U& u : kUnary)
    t[m + u.name] = {Signature::parse("x"), [u](Bound& a) {
                       NdPtr x = npArg(a, "x");
                       const NpType out = npIsFloat(x->dtype) ? x->dtype : npFloatFor(x->dtype);
                       NdPtr r = npMap(*x, out, u.f);
                       r->scalar = x->shape.empty();
                       return ndVal(r);
                     }};
  for (const char* name : {"abs", "absolute", "square", "negative", "sign"})
    t[m + name] = {Signature::parse("x"), [name](Bound& a) {
                     NdPtr x = npArg(a, "x");
                     const std::string n = name;
                     double (*f)(double) = n[0] == 'a'     ? [](double v) { return std::fabs(v); }
                                           : n == "square" ? [](double v) { return v * v; }
                                           : n == "negative"
                                               ? [](double v) { return -v; }
                                               : [](double v) { return double((v > 0) - (v < 0)); };
                     NdPtr r = npMap(*x, x->dtype, f);
                     r->scalar = x->shape.empty();
                     return ndVal(r);
                   }};
  struct B {
    const char* name;
    BinaryOp op;
  };
  static constexpr B kBinary[] = {
      {"add", BinaryOp::Add},         {"subtract", BinaryOp::Sub},
      {"multiply", BinaryOp::Mul},    {"divide", BinaryOp::Div},
      {"power", BinaryOp::Pow},       {"matmul", BinaryOp::MatMul},
      {"dot", BinaryOp::MatMul},      {"floor_divide", BinaryOp::FloorDiv},
      {"true_divide", BinaryOp::Div}, {"mod", BinaryOp::Mod}};
  for (const B& b : kBinary)
    t[m + b.name] = {Signature::parse(b.op == BinaryOp::MatMul ? "a, b" : "x1, x2"), [b](Bound& a) {
                       const bool mm = b.op == BinaryOp::MatMul;
                       const char* p = mm ? "a" : "x1";
                       const char* q = mm ? "b" : "x2";
                       NdPtr x = npArg(a, p), y = npArg(a, q);
                       if (std::string(b.name) == "dot" && (x->shape.empty() || y->shape.empty()))
                         return *ndarrayBinary(a.cx, BinaryOp::Mul, ndVal(x), ndVal(y), a.callLoc);
                       return *ndarrayBinary(a.cx, b.op, ndVal(x), ndVal(y), a.callLoc);
                     }};
  for (const char* name : {"maximum", "minimum"})
    t[m + name] = {
        Signature::parse("x1, x2"), [name](Bound& a) {
          NdPtr x = npArg(a, "x1"), y = npArg(a, "x2");
          // The promoted type of x1 + x2; then pick elementwise.
          const Val sum = *ndarrayBinary(a.cx, BinaryOp::Add, ndVal(x), ndVal(y), a.callLoc);
          const Val gt = *ndarrayCompare(a.cx, name[1] == 'a' ? CmpOp::Ge : CmpOp::Le, ndVal(x),
                                         ndVal(y), a.callLoc);
          const NdArrayObj& s = *asNdArray(sum);
          const NdArrayObj& g = *asNdArray(gt);
          const Val xb = *ndarrayBinary(
              a.cx, BinaryOp::Mul, ndVal(x),
              ndVal(makeNdArray(NpType::Bool, s.shape, std::vector<double>(s.data.size(), 1.0))),
              a.callLoc);
          const Val yb = *ndarrayBinary(
              a.cx, BinaryOp::Mul, ndVal(y),
              ndVal(makeNdArray(NpType::Bool, s.shape, std::vector<double>(s.data.size(), 1.0))),
              a.callLoc);
          std::vector<double> d(s.data.size());
          for (size_t i = 0; i < d.size(); ++i)
            d[i] = g.data[i] != 0 ? asNdArray(xb)->data[i] : asNdArray(yb)->data[i];
          NdPtr r = makeNdArray(s.dtype, s.shape, std::move(d));
          r->scalar = s.scalar;
          return ndVal(r);
        }};
  t[m + "clip"] = {Signature::parse("a, a_min, a_max"), [](Bound& a) {
                     NdPtr x = npArg(a, "a");
                     const double lo = a.none("a_min") ? -INFINITY : a.number("a_min");
                     const double hi = a.none("a_max") ? INFINITY : a.number("a_max");
                     std::vector<double> d = x->data;
                     for (double& v : d) v = std::min(std::max(v, lo), hi);
                     return ndVal(makeNdArray(x->dtype, x->shape, std::move(d)));
                   }};
}

}  // namespace

std::optional<Val> NdArrayObj::attr(Context& cx, const std::string& name) {
  (void)cx;
  const auto& t = builtins();
  auto it = t.find(std::string(kNpArr) + name);
  if (it == t.end()) return std::nullopt;
  auto o = std::make_shared<BuiltinObj>();
  o->name = std::string(kNpArr) + name;
  o->def = &it->second;
  o->self = Val::object(shared_from_this());
  if (it->second.isProperty) {
    CallArgs none;
    return o->call(cx, none);
  }
  return Val::object(o);
}

std::vector<std::string> NdArrayObj::attrNames() const {
  std::vector<std::string> out;
  const std::string p = kNpArr;
  for (const auto& [k, v] : builtins())
    if (k.compare(0, p.size(), p) == 0) out.push_back(k.substr(p.size()));
  return out;
}

void addNumpyBuiltins(BuiltinTable& t) {
  npAddCreation(t);
  npAddReductions(t);
  npAddShapeFunctions(t);
  npAddElementwise(t);
  addNumpyRandomBuiltins(t);
}

}  // namespace gl::lang::trace
