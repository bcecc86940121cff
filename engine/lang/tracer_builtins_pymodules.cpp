// The Python modules a script may import besides tensorflow and keras: math (on Python numbers),
// time (the wall clock while tracing) and functools.partial; and tf.version. Their table keys
// start with "py." ("py.math.sqrt"), so `math` without an import stays tf.math as before.
#include <chrono>
#include <cmath>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

namespace {

// A Python number argument; a tensor is refused with the tf function that takes it.
double pyNumber(Bound& a, const std::string& name, const char* fn) {
  const Val& v = a[name];
  if (v.isTensor())
    a.fail(name, std::string("is a tensor; math.") + fn +
                     "() works on Python numbers while tracing: use tf.math." + fn);
  if (!v.isNumber()) a.fail(name, std::string("must be a real number, not ") + typeName(v));
  return a.number(name);
}

Val checked(Bound& a, double r) {
  if (std::isnan(r)) a.cx.fail(a.callLoc, "ValueError: math domain error");
  if (std::isinf(r)) a.cx.fail(a.callLoc, "OverflowError: math range error");
  return Val::real(r);
}

void addMath(BuiltinTable& t) {
  auto constant = [&](const char* name, double v) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = Val::real(v);
    t[std::string("py.math.") + name] = d;
  };
  constant("pi", M_PI);
  constant("e", M_E);
  constant("tau", 2 * M_PI);
  constant("inf", INFINITY);
  constant("nan", NAN);
  struct Unary {
    const char* name;
    double (*f)(double);
  };
  static constexpr Unary kUnary[] = {
      {"sqrt", [](double x) { return x < 0 ? NAN : std::sqrt(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"log2", [](double x) { return x <= 0 ? NAN : std::log2(x); }},
      {"log10", [](double x) { return x <= 0 ? NAN : std::log10(x); }},
      {"log1p", [](double x) { return x <= -1 ? NAN : std::log1p(x); }},
      {"fabs", [](double x) { return std::fabs(x); }},
      {"degrees", [](double x) { return x * 180.0 / M_PI; }},
      {"radians", [](double x) { return x * M_PI / 180.0; }},
  };
  for (const Unary& u : kUnary)
    t[std::string("py.math.") + u.name] = {Signature::parse("x"), [u](Bound& a) {
                                             const double x = pyNumber(a, "x", u.name);
                                             if (!std::isfinite(x)) return Val::real(u.f(x));
                                             return checked(a, u.f(x));
                                           }};
  t["py.math.log"] = {Signature::parse("x, base=None"), [](Bound& a) {
                        const double x = pyNumber(a, "x", "log");
                        if (x <= 0) a.cx.fail(a.callLoc, "ValueError: math domain error");
                        if (a.none("base")) return Val::real(std::log(x));
                        const double b = pyNumber(a, "base", "log");
                        if (b <= 0 || b == 1) a.cx.fail(a.callLoc, "ValueError: math domain error");
                        return Val::real(std::log(x) / std::log(b));
                      }};
  for (const char* name : {"floor", "ceil"})
    t[std::string("py.math.") + name] = {
        Signature::parse("x"), [name](Bound& a) {
          const double x = pyNumber(a, "x", name);
          if (!std::isfinite(x) || std::fabs(x) > 9.2e18)
            a.fail("x", "cannot be converted to an int");
          return Val::integer(int64_t(name[0] == 'f' ? std::floor(x) : std::ceil(x)));
        }};
  t["py.math.pow"] = {Signature::parse("x, y"), [](Bound& a) {
                        return checked(a,
                                       std::pow(pyNumber(a, "x", "pow"), pyNumber(a, "y", "pow")));
                      }};
  t["py.math.atan2"] = {
      Signature::parse("y, x"), [](Bound& a) {
        return Val::real(std::atan2(pyNumber(a, "y", "atan2"), pyNumber(a, "x", "atan2")));
      }};
  t["py.math.isclose"] = {
      Signature::parse("a, b, rel_tol=1e-09, abs_tol=0.0"), [](Bound& a) {
        const double x = pyNumber(a, "a", "isclose"), y = pyNumber(a, "b", "isclose");
        const double rel = a.number("rel_tol"), abs = a.number("abs_tol");
        if (x == y) return Val::boolean(true);
        if (std::isinf(x) || std::isinf(y)) return Val::boolean(false);
        const double d = std::fabs(x - y);
        return Val::boolean(d <= std::fabs(rel * y) || d <= std::fabs(rel * x) || d <= abs);
      }};
  for (const char* name : {"isnan", "isinf", "isfinite"})
    t[std::string("py.math.") + name] = {Signature::parse("x"), [name](Bound& a) {
                                           const double x = pyNumber(a, "x", name);
                                           const std::string n = name;
                                           return Val::boolean(n == "isnan"   ? std::isnan(x)
                                                               : n == "isinf" ? std::isinf(x)
                                                                              : std::isfinite(x));
                                         }};
}

// time.time() and time.perf_counter() read the clock while GradLab traces the script: around
// a training loop they time the trace (building the graph), not a run of it. The log says so.
void addTime(BuiltinTable& t) {
  for (const char* name : {"time", "perf_counter", "monotonic"})
    t[std::string("py.time.") + name] = {
        Signature::parse(""), [name](Bound& a) {
          if (a.cx.noteOnce("time"))
            a.cx.log("note: time." + std::string(name) + "() at line " +
                     std::to_string(a.callLoc.line) +
                     " reads the clock while GradLab traces the "
                     "script, so it times the trace, not a run of "
                     "the graph");
          using namespace std::chrono;
          const auto now = std::string(name) == "time"
                               ? duration<double>(system_clock::now().time_since_epoch())
                               : duration<double>(steady_clock::now().time_since_epoch());
          return Val::real(now.count());
        }};
}

// functools.partial(f, *args, **kwargs): a callable that calls f with those arguments first.
struct PartialObj : Object {
  Val fn;
  std::vector<Arg> args;
  std::vector<std::pair<std::string, Arg>> kw;
  std::string typeName() const override { return "functools.partial"; }
  bool callable() const override { return true; }
  std::optional<Val> attr(Context&, const std::string& name) override {
    if (name == "func") return fn;
    if (name == "args") {
      std::vector<Val> vs;
      for (const Arg& x : args) vs.push_back(x.v);
      return Val::listOf(std::move(vs), true);
    }
    return std::nullopt;
  }
  Val call(Context& cx, CallArgs& given) override {
    CallArgs all;
    all.loc = given.loc;
    all.pos = args;
    for (Arg& x : given.pos) all.pos.push_back(x);
    all.kw = kw;
    for (auto& [k, x] : given.kw) {
      bool replaced = false;
      for (auto& [k2, y] : all.kw)
        if (k2 == k) y = x, replaced = true;  // a later keyword overrides the partial's
      if (!replaced) all.kw.emplace_back(k, x);
    }
    return cx.call(fn, all, "partial");
  }
};

void addFunctools(BuiltinTable& t) {
  t["py.functools.partial"] = {Signature::parse("func, *args, **keywords"), [](Bound& a) {
                                 const Val& f = a["func"];
                                 if (f.kind() != Kind::Object || !f.obj()->callable())
                                   a.fail("func", "must be callable, got " + typeName(f));
                                 auto p = std::make_shared<PartialObj>();
                                 p->fn = f;
                                 p->args = a.rest;
                                 p->kw = a.extra;
                                 return Val::object(p);
                               }};
}

// The TF version GradLab answers as: the TF 2 API it implements. The string is fixed (the
// release whose behaviour the conformance suite records), and GIT_VERSION says it is GradLab.
void addVersion(BuiltinTable& t) {
  auto constant = [&](const std::string& key, const std::string& v) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = Val::str(v);
    t[key] = d;
  };
  constant("tf.version.VERSION", kTfVersion);
  constant("tf.__version__", kTfVersion);
  constant("tf.version.GIT_VERSION", std::string("gradlab-") + kTfVersion);
}

}  // namespace

void addPythonModuleBuiltins(BuiltinTable& t) {
  addMath(t);
  addTime(t);
  addFunctools(t);
  addItertoolsBuiltins(t);
  addVersion(t);
}

}  // namespace gl::lang::trace
