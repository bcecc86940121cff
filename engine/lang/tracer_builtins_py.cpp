// Python builtins, evaluated while tracing: print (into the trace log, once, even inside a
// tensor loop body), len, range, min, max, abs, int, float, bool, str, zip, enumerate, sum,
// list, tuple, and list methods.
#include <cmath>
#include <optional>

#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

std::vector<Val> pythonItems(Bound& a, const Val& v, const SourceLoc& loc) {
  Context& cx = a.cx;
  if (v.isSeq()) return v.items();
  if (auto d = v.as<DictObj>()) return d->keys;  // a dict iterates over its keys
  if (v.kind() == Kind::Str) {
    std::vector<Val> out;
    for (char c : v.text()) out.push_back(Val::str(std::string(1, c)));
    return out;
  }
  if (auto r = v.as<RangeObj>()) {
    if (r->size() > maxPythonItems())
      cx.fail(loc, "this range has more than " + std::to_string(maxPythonItems()) +
                       " items to make a list" + kRaiseItems);
    std::vector<Val> out;
    for (int64_t i = 0; i < r->size(); ++i) out.push_back(Val::integer(r->start + i * r->step));
    return out;
  }
  if (v.isTensor()) {
    const Shape& s = cx.b.type(v.tensorValue()).shape;
    if (s.empty() || s[0] < 0)
      cx.fail(loc, "cannot iterate over a tensor of shape " + shapeStr(s) +
                       " while tracing: it needs a known first dimension");
    if (s[0] > maxPythonItems())
      cx.fail(loc, "this tensor has more than " + std::to_string(maxPythonItems()) +
                       " rows to iterate over" + kRaiseItems);
    std::vector<Val> out;
    if (s[0] == 0) return out;
    cx.at(loc);
    for (Value x : ops::unstack(cx.b, v.tensorValue(), 0)) out.push_back(Val::tensor(x));
    return out;
  }
  if (v.range()) cx.fail(loc, "a tf.range with a tensor bound can only drive a for loop");
  if (v.kind() == Kind::Object)
    if (auto items = v.obj()->iterate(cx, loc)) return std::move(*items);
  cx.fail(loc, "'" + typeName(v) + "' object is not iterable");
}

namespace {

int64_t intArg(Bound& a, const Arg& arg, const char* fn) {
  if (arg.v.kind() == Kind::Int) return arg.v.asInt();
  if (arg.v.kind() == Kind::Bool) return arg.v.asBool();
  // An eager tensor is an int through __index__ (ops.py); a symbolic one is TF's TypeError.
  if (arg.v.isTensor()) {
    if (!a.cx.eager())
      a.cx.fail(arg.loc, std::string(fn) +
                             "() needs Python ints known while tracing; for a tensor bound use "
                             "tf.range(n), which makes one while_loop");
    return tensorToNumber(a.cx, arg.v, PyNumber::Index, std::string(fn) + "()", arg.loc).asInt();
  }
  a.cx.fail(arg.loc, std::string(fn) + "() needs ints, got " + typeName(arg.v));
}

// max()/min() with tensors, as AutoGraph converts them: one tensor reduces along its first
// axis; several are compared elementwise (numbers become tensors of their dtype).
Val tensorMinMax(Bound& a, bool isMax) {
  Emitter& b = a.cx.b;
  if (a.rest.size() == 1) {
    Value t = a.cx.toTensor(a.rest[0].v, a.rest[0].loc);
    if (b.type(t).shape.empty()) return Val::tensor(t);
    return Val::tensor(isMax ? ops::reduceMax(b, t, {0}) : ops::reduceMin(b, t, {0}));
  }
  std::optional<DType> dt;
  for (const Arg& x : a.rest)
    if (x.v.isTensor()) dt = b.type(x.v.tensorValue()).dtype;
  Value best = a.cx.toTensor(a.rest[0].v, a.rest[0].loc, dt);
  for (size_t i = 1; i < a.rest.size(); ++i) {
    Value x = a.cx.toTensor(a.rest[i].v, a.rest[i].loc, dt);
    best = isMax ? ops::maximum(b, best, x) : ops::minimum(b, best, x);
  }
  return Val::tensor(best);
}

// Python's max()/min() over values that compare with > / <: the first of the best, itself (a
// tensor keeps its gradient: backprop_test.py testPythonMax). Eager tensors compare to bool
// tensors whose truth is their value.
Val pythonMinMax(Bound& a, const std::vector<Val>& items, bool isMax) {
  Val best = items[0];
  for (size_t i = 1; i < items.size(); ++i) {
    const Val better = a.cx.compare(isMax ? CmpOp::Gt : CmpOp::Lt, items[i], best, a.callLoc);
    if (a.cx.truthy(better, a.callLoc)) best = items[i];
  }
  return best;
}

Val minMax(Bound& a, bool isMax) {
  const char* fn = isMax ? "max" : "min";
  bool tensors = false;
  for (const Arg& x : a.rest) tensors = tensors || x.v.isTensor();
  // In a tf.function AutoGraph's max/min take tensors (py_builtins.py); eagerly Python's own
  // compares them, as TF 2 eager runs it.
  if (tensors && !a.cx.eager()) return tensorMinMax(a, isMax);
  std::vector<Val> items;
  if (a.rest.size() == 1)
    items = pythonItems(a, a.rest[0].v, a.rest[0].loc);
  else
    for (const Arg& x : a.rest) items.push_back(x.v);
  if (items.empty()) a.cx.fail(a.callLoc, std::string(fn) + "() arg is an empty sequence");
  for (const Val& x : items)
    if (x.isTensor() || asNdArray(x)) return pythonMinMax(a, items, isMax);
  Val best = items[0];
  for (const Val& x : items) {
    if (x.isTensor() || !x.isNumber())
      a.cx.fail(a.callLoc, std::string(fn) + "() compares Python numbers; for tensors use tf." +
                               (isMax ? "maximum or tf.reduce_max" : "minimum or tf.reduce_min"));
    if (isMax ? x.number() > best.number() : x.number() < best.number()) best = x;
  }
  return best;
}

Val listMethodSelf(Bound& a) {
  if (a.self.kind() != Kind::List) a.cx.fail(a.callLoc, a.fn + "(): not a list");
  return a.self;
}

// print, len, range, min and max.
void addPrintLenRange(BuiltinTable& t) {
  // print(*values, sep=None, end=None): None means ' ' and '\n', as in Python.
  t["print"] = {Signature::parse("*values, sep=None, end=None, ~flush=False"), [](Bound& a) {
                  std::string line;
                  const std::string sep = a.none("sep") ? " " : a.string("sep");
                  for (size_t i = 0; i < a.rest.size(); ++i)
                    line += (i ? sep : "") + strOf(a.cx, a.rest[i].v, a.rest[i].loc);
                  a.cx.write(line + (a.none("end") ? "\n" : a.string("end")));
                  // A missing gradient prints as None, as in TF; the note says why.
                  for (const Arg& x : a.rest)
                    if (x.v.isNone() && x.v.why())
                      a.cx.log("note: the None that print shows at line " +
                               std::to_string(x.loc.line) + " is a gradient: " + x.v.why()->text);
                  return Val::none();
                }};
  t["len"] = {Signature::parse("obj"), [](Bound& a) {
                const Val& v = a["obj"];
                if (v.isSeq()) return Val::integer(int64_t(v.items().size()));
                if (auto d = v.as<DictObj>()) return Val::integer(int64_t(d->keys.size()));
                if (v.kind() == Kind::Str) return Val::integer(int64_t(v.text().size()));
                if (auto r = v.as<RangeObj>()) return Val::integer(r->size());
                if (v.isTensor()) {
                  if (auto n = eagerTensorLen(a.cx, v, a.loc("obj"))) return Val::integer(*n);
                  // A symbolic tensor: AutoGraph's len() reads the static shape.
                  const Shape& s = a.cx.b.type(v.tensorValue()).shape;
                  if (s.empty()) a.fail("obj", "is a scalar tensor, which has no len()");
                  if (s[0] < 0) a.fail("obj", "has an unknown first dimension");
                  return Val::integer(s[0]);
                }
                if (v.as<TensorArrayObj>()) {
                  Val n = a.cx.getAttr(v, "_static_size", a.loc("obj"));
                  if (n.asInt() < 0)
                    a.fail("obj", "is a dynamically sized TensorArray; use ta.size()");
                  return n;
                }
                if (v.kind() == Kind::Object)
                  if (auto n = v.obj()->length(a.cx, a.loc("obj"))) return Val::integer(*n);
                a.fail("obj", "of type '" + typeName(v) + "' has no len()");
              }};
  t["range"] = {Signature::parse("*args"), [](Bound& a) {
                  if (a.rest.empty() || a.rest.size() > 3)
                    a.cx.fail(a.callLoc, "range() takes 1 to 3 arguments (" +
                                             std::to_string(a.rest.size()) + " given)");
                  auto r = std::make_shared<RangeObj>();
                  if (a.rest.size() == 1) {
                    r->stop = intArg(a, a.rest[0], "range");
                  } else {
                    r->start = intArg(a, a.rest[0], "range");
                    r->stop = intArg(a, a.rest[1], "range");
                    if (a.rest.size() == 3) r->step = intArg(a, a.rest[2], "range");
                  }
                  if (r->step == 0) a.cx.fail(a.rest[2].loc, "range() arg 3 must not be zero");
                  return Val::object(r);
                }};
  t["min"] = {Signature::parse("*args"), [](Bound& a) { return minMax(a, false); }};
  t["max"] = {Signature::parse("*args"), [](Bound& a) { return minMax(a, true); }};
}

// abs and the conversions: int, float, bool, str.
void addConversions(BuiltinTable& t) {
  t["abs"] = {Signature::parse("x"), [](Bound& a) {
                const Val& v = a["x"];
                if (v.isTensor()) return Val::tensor(ops::abs(a.cx.b, v.tensorValue()));
                if (v.kind() == Kind::Float) return Val::real(std::fabs(v.asFloat()));
                if (v.isNumber()) {
                  const int64_t i = v.kind() == Kind::Bool ? v.asBool() : v.asInt();
                  if (i == INT64_MIN) a.fail("x", "overflows");
                  return Val::integer(i < 0 ? -i : i);
                }
                a.fail("x", "must be a number or a tensor, got " + typeName(v));
              }};
  t["int"] = {Signature::parse("x=0"), [](Bound& a) {
                const std::optional<Val> np = npPythonNumber(a["x"]);
                const Val& v = np ? *np : a["x"];
                if (v.kind() == Kind::Float) {
                  if (!std::isfinite(v.asFloat()) || std::fabs(v.asFloat()) > 9.2e18)
                    a.fail("x", "cannot be converted to int");
                  return Val::integer(int64_t(v.asFloat()));
                }
                if (v.isNumber())
                  return Val::integer(v.kind() == Kind::Bool ? v.asBool() : v.asInt());
                if (v.kind() == Kind::Str) {
                  char* end = nullptr;
                  long long x = std::strtoll(v.text().c_str(), &end, 10);
                  if (v.text().empty() || *end) a.fail("x", "'" + v.text() + "' is not an integer");
                  return Val::integer(x);
                }
                // AutoGraph's int_ (py_builtins.py) casts a symbolic tensor to int32.
                if (v.isTensor() && !isEagerTensor(a.cx, v)) {
                  const Value x = a.cx.toTensor(v, a.loc("x"));
                  a.cx.at(a.callLoc);
                  return Val::tensor(ops::cast(a.cx.b, x, DType::I32));
                }
                if (v.isTensor())
                  return tensorToNumber(a.cx, v, PyNumber::Int, "int()", a.loc("x"));
                a.fail("x", "cannot be converted to int: " + typeName(v));
              }};
  t["float"] = {Signature::parse("x=0.0"), [](Bound& a) {
                  const std::optional<Val> np = npPythonNumber(a["x"]);
                  const Val& v = np ? *np : a["x"];
                  if (v.isNumber()) return Val::real(v.number());
                  if (v.kind() == Kind::Str) {
                    char* end = nullptr;
                    double x = std::strtod(v.text().c_str(), &end);
                    if (v.text().empty() || *end) a.fail("x", "'" + v.text() + "' is not a number");
                    return Val::real(x);
                  }
                  // AutoGraph's float_ (py_builtins.py) casts a symbolic tensor to float32.
                  if (v.isTensor() && !isEagerTensor(a.cx, v)) {
                    const Value x = a.cx.toTensor(v, a.loc("x"));
                    a.cx.at(a.callLoc);
                    return Val::tensor(ops::cast(a.cx.b, x, DType::F32));
                  }
                  if (v.isTensor())
                    return tensorToNumber(a.cx, v, PyNumber::Float, "float()", a.loc("x"));
                  a.fail("x", "cannot be converted to float: " + typeName(v));
                }};
  t["bool"] = {Signature::parse("x=False"),
               [](Bound& a) { return Val::boolean(a.cx.truthy(a["x"], a.loc("x"))); }};
  t["str"] = {Signature::parse("x=''"),
              [](Bound& a) { return Val::str(strOf(a.cx, a["x"], a.loc("x"))); }};
}

// list, tuple, zip, enumerate, sum; variant outside a with.
void addIterables(BuiltinTable& t) {
  t["list"] = {Signature::parse("iterable=()"), [](Bound& a) {
                 return Val::listOf(pythonItems(a, a["iterable"], a.loc("iterable")));
               }};
  t["tuple"] = {Signature::parse("iterable=()"), [](Bound& a) {
                  return Val::listOf(pythonItems(a, a["iterable"], a.loc("iterable")), true);
                }};
  t["zip"] = {Signature::parse("*iterables"), [](Bound& a) {
                std::vector<std::vector<Val>> cols;
                size_t n = SIZE_MAX;
                for (const Arg& x : a.rest) {
                  cols.push_back(pythonItems(a, x.v, x.loc));
                  n = std::min(n, cols.back().size());
                }
                std::vector<Val> out;
                for (size_t i = 0; i < n && !cols.empty(); ++i) {
                  std::vector<Val> row;
                  for (auto& c : cols) row.push_back(c[i]);
                  out.push_back(Val::listOf(std::move(row), true));
                }
                return Val::listOf(std::move(out));
              }};
  t["enumerate"] = {Signature::parse("iterable, start=0"), [](Bound& a) {
                      std::vector<Val> out;
                      int64_t i = a.integer("start");
                      for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable")))
                        out.push_back(Val::listOf({Val::integer(i++), x}, true));
                      return Val::listOf(std::move(out));
                    }};
  t["sum"] = {Signature::parse("iterable, start=0"), [](Bound& a) {
                Val acc = a["start"];
                for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable")))
                  acc = a.cx.binary(BinaryOp::Add, acc, x, a.callLoc);
                return acc;
              }};
  t["variant"] = {Signature::parse("name"), [](Bound& a) -> Val {
                    a.cx.fail(a.callLoc,
                              "variant(...) is only used as `with variant(\"name\"):` at "
                              "the top level of the script");
                  }};
}

void addListMethods(BuiltinTable& t) {
  // list methods
  t["list.append"] = {Signature::parse("x"), [](Bound& a) {
                        listMethodSelf(a).list()->items.push_back(a["x"]);
                        if (int64_t(a.self.list()->items.size()) > maxPythonItems())
                          a.cx.fail(a.callLoc, "this list grew past " +
                                                   std::to_string(maxPythonItems()) + " items" +
                                                   kRaiseItems);
                        a.self.list()->noteChild(a["x"]);
                        return Val::none();
                      }};
  t["list.extend"] = {Signature::parse("iterable"), [](Bound& a) {
                        Val self = listMethodSelf(a);
                        for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable")))
                          self.list()->items.push_back(x), self.list()->noteChild(x);
                        return Val::none();
                      }};
  t["list.pop"] = {Signature::parse("index=-1"), [](Bound& a) {
                     auto& items = listMethodSelf(a).list()->items;
                     if (items.empty()) a.cx.fail(a.callLoc, "pop from an empty list");
                     int64_t i = a.integer("index");
                     if (i < 0) i += int64_t(items.size());
                     if (i < 0 || i >= int64_t(items.size())) a.fail("index", "is out of range");
                     Val v = items[size_t(i)];
                     items.erase(items.begin() + i);
                     return v;
                   }};
  t["list.insert"] = {Signature::parse("index, x"), [](Bound& a) {
                        auto& items = listMethodSelf(a).list()->items;
                        int64_t i = a.integer("index");
                        if (i < 0) i += int64_t(items.size());
                        i = std::clamp<int64_t>(i, 0, int64_t(items.size()));
                        items.insert(items.begin() + i, a["x"]);
                        a.self.list()->noteChild(a["x"]);
                        return Val::none();
                      }};
  for (const char* k : {"list.index", "tuple.index"})
    t[k] = {Signature::parse("x"), [](Bound& a) {
              const auto& items = a.self.items();
              for (size_t i = 0; i < items.size(); ++i)
                if (sameValue(items[i], a["x"])) return Val::integer(int64_t(i));
              a.fail("x", "is not in the list");
            }};
}

}  // namespace

void addPythonBuiltins(BuiltinTable& t) {
  addPrintLenRange(t);
  addConversions(t);
  addIterables(t);
  addListMethods(t);
  addPythonFunctionBuiltins(t);
}

}  // namespace gl::lang::trace
