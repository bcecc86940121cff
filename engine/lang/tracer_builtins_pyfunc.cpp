// Python builtins on trace-time values (docs.python.org/3/library/functions.html): sorted,
// reversed, any, all, map, filter, dict, type, callable, round. map and filter return lists
// (Python returns iterators; what scripts do with them, list() or a for loop, is the same).
#include <algorithm>
#include <cmath>

#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_classes.h"
#include "engine/lang/tracer_eager_values.h"

namespace gl::lang::trace {

namespace {

// Python's ordering for sorted(): numbers with numbers, strings with strings, tuples and lists
// item by item; anything else is Python's TypeError.
int pyOrder(Bound& a, const Val& l, const Val& r, int depth = 0) {
  if (l.isNumber() && r.isNumber())
    return l.number() < r.number() ? -1 : l.number() > r.number() ? 1 : 0;
  if (l.kind() == Kind::Str && r.kind() == Kind::Str) return l.text().compare(r.text());
  if (l.isSeq() && r.isSeq() && l.kind() == r.kind() && depth < kMaxListNesting) {
    const auto &x = l.items(), &y = r.items();
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i)
      if (int c = pyOrder(a, x[i], y[i], depth + 1)) return c;
    return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
  }
  // Eager tensors order by their values: Python's sort asks `<`, a bool tensor whose truth is
  // its value (ops.py _EagerTensorBase.__bool__); a symbolic one has no truth value.
  if ((l.isTensor() || r.isTensor()) && a.cx.eager()) {
    if (a.cx.truthy(a.cx.compare(CmpOp::Lt, l, r, a.callLoc), a.callLoc)) return -1;
    return a.cx.truthy(a.cx.compare(CmpOp::Lt, r, l, a.callLoc), a.callLoc) ? 1 : 0;
  }
  const std::string why =
      l.isTensor() || r.isTensor() ? " (a tensor's value exists only when the graph runs)" : "";
  a.cx.fail(a.callLoc, "'<' not supported between instances of '" + typeName(l) + "' and '" +
                           typeName(r) + "'" + why);
}

bool truthOf(Bound& a, const Val& v, const SourceLoc& loc) { return a.cx.truthy(v, loc); }

// type(x): script classes for their instances, the builtin type for Python values (so that
// `type(x) == int` and `type(x).__name__` work), else a type object named as TF's classes are.
struct TypeObj : Object {
  std::string name;
  std::string module;  // TF's module of the class, for print(type(x))
  std::string typeName() const override { return "type"; }
  std::optional<Val> attr(Context&, const std::string& n) override {
    if (n == "__name__") return Val::str(name);
    return std::nullopt;
  }
  std::string reprText() const override {
    return module.empty() ? "<class '" + name + "'>" : "<class '" + module + "." + name + "'>";
  }
};

Val typeOf(Context& cx, const Val& v) {
  if (auto inst = v.as<InstanceObj>()) return Val::object(inst->cls);
  const char* builtin = nullptr;
  switch (v.kind()) {
    case Kind::Bool:
      builtin = "bool";
      break;
    case Kind::Int:
      builtin = "int";
      break;
    case Kind::Float:
      builtin = "float";
      break;
    case Kind::Str:
      builtin = "str";
      break;
    case Kind::List:
      builtin = "list";
      break;
    case Kind::Tuple:
      builtin = "tuple";
      break;
    default:
      break;
  }
  if (v.as<DictObj>()) builtin = "dict";
  if (builtin) return *lookupBuiltin(builtin);
  auto t = std::make_shared<TypeObj>();
  t->name = v.var() ? "ResourceVariable" : v.isNone() ? "NoneType" : typeName(v);
  if (v.var()) {
    t->module = "tensorflow.python.ops.resource_variable_ops";
  } else if (v.isTensor()) {
    // TF 2.16's classes: an eager tensor is ops.EagerTensor, a graph one ops.SymbolicTensor.
    const bool eager = isEagerTensor(cx, v);
    t->name = eager ? "EagerTensor" : "SymbolicTensor";
    t->module = "tensorflow.python.framework.ops";
  }
  return Val::object(t);
}

// iter(x): x's items made now (GradLab makes an iterable's items while tracing), handed out one
// at a time by next() and by a for loop, which takes the rest.
struct IteratorObj : Object {
  std::vector<Val> items;
  size_t next = 0;
  std::string typeName() const override { return "iterator"; }
  std::optional<std::vector<Val>> iterate(Context&, const SourceLoc&) override {
    std::vector<Val> rest(items.begin() + std::ptrdiff_t(next), items.end());
    next = items.size();
    return rest;
  }
};

}  // namespace

void addPythonFunctionBuiltins(BuiltinTable& t) {
  t["iter"] = {Signature::parse("object"), [](Bound& a) {
                 if (a["object"].as<IteratorObj>()) return a["object"];  // iter(it) is it
                 auto it = std::make_shared<IteratorObj>();
                 it->items = pythonItems(a, a["object"], a.loc("object"));
                 return Val::object(it);
               }};
  t["next"] = {Signature::parse("iterator, *default"), [](Bound& a) {
                 auto it = a["iterator"].as<IteratorObj>();
                 if (!it)
                   a.fail("iterator", "'" + typeName(a["iterator"]) +
                                          "' object is not an iterator (call iter() on it first)");
                 if (it->next < it->items.size()) return it->items[it->next++];
                 if (!a.rest.empty()) return a.rest[0].v;
                 a.cx.fail(a.callLoc, "StopIteration: the iterator has no more items");
               }};
  t["sorted"] = {Signature::parse("iterable, key=None, reverse=False"), [](Bound& a) {
                   std::vector<Val> items = pythonItems(a, a["iterable"], a.loc("iterable"));
                   std::vector<Val> keys = items;
                   if (!a.none("key"))
                     for (Val& k : keys) k = a.cx.callSimple(a["key"], {k}, a.loc("key"), "key");
                   std::vector<size_t> order(items.size());
                   for (size_t i = 0; i < order.size(); ++i) order[i] = i;
                   const bool reverse = a.boolean("reverse");
                   // Stable, and stable under reverse too, as Python's sort is.
                   std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
                     const int c = pyOrder(a, keys[x], keys[y]);
                     return reverse ? c > 0 : c < 0;
                   });
                   std::vector<Val> out;
                   for (size_t i : order) out.push_back(items[i]);
                   return Val::listOf(std::move(out));
                 }};
  t["reversed"] = {Signature::parse("sequence"), [](Bound& a) {
                     std::vector<Val> items = pythonItems(a, a["sequence"], a.loc("sequence"));
                     std::reverse(items.begin(), items.end());
                     return Val::listOf(std::move(items));
                   }};
  t["any"] = {Signature::parse("iterable"), [](Bound& a) {
                for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable")))
                  if (truthOf(a, x, a.loc("iterable"))) return Val::boolean(true);
                return Val::boolean(false);
              }};
  t["all"] = {Signature::parse("iterable"), [](Bound& a) {
                for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable")))
                  if (!truthOf(a, x, a.loc("iterable"))) return Val::boolean(false);
                return Val::boolean(true);
              }};
  // map(f, a, b) calls f on zip(a, b)'s rows: it stops at the shortest iterable.
  t["map"] = {Signature::parse("function, *iterables"), [](Bound& a) {
                if (a.rest.empty()) a.cx.fail(a.callLoc, "map() must have at least two arguments");
                std::vector<Val> iterables;
                for (const Arg& x : a.rest) iterables.push_back(x.v);
                const Val rows =
                    a.cx.callSimple(*lookupBuiltin("zip"), std::move(iterables), a.callLoc, "zip");
                std::vector<Val> out;
                for (const Val& row : rows.items())
                  out.push_back(a.cx.callSimple(a["function"], row.items(), a.callLoc, "map"));
                return Val::listOf(std::move(out));
              }};
  t["filter"] = {
      Signature::parse("function, iterable"), [](Bound& a) {
        std::vector<Val> out;
        for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable"))) {
          const Val keep =
              a.none("function") ? x : a.cx.callSimple(a["function"], {x}, a.callLoc, "filter");
          if (truthOf(a, keep, a.callLoc)) out.push_back(x);
        }
        return Val::listOf(std::move(out));
      }};
  // dict(), dict(mapping), dict(pairs), dict(**kwargs), and both.
  t["dict"] = {
      Signature::parse("*args, **kwargs"), [](Bound& a) {
        if (a.rest.size() > 1)
          a.cx.fail(a.rest[1].loc,
                    "dict expected at most 1 argument, got " + std::to_string(a.rest.size()));
        auto d = std::make_shared<DictObj>();
        auto put = [&](const Val& k, const Val& v, const SourceLoc& loc) {
          if (!isDictKey(k))
            a.cx.fail(loc,
                      "dict keys must be strings, ints or bools in GradLab "
                      "script, got " +
                          article(typeName(k)));
          d->set(k, v);
        };
        if (!a.rest.empty()) {
          const Arg& src = a.rest[0];
          if (auto m = src.v.as<DictObj>()) {
            for (size_t i = 0; i < m->keys.size(); ++i) put(m->keys[i], m->values[i], src.loc);
          } else {
            for (const Val& pair : pythonItems(a, src.v, src.loc)) {
              if (!pair.isSeq() || pair.items().size() != 2)
                a.cx.fail(
                    src.loc,
                    "dictionary update sequence element has length " +
                        std::string(pair.isSeq() ? std::to_string(pair.items().size()) : "?") +
                        "; 2 is required");
              put(pair.items()[0], pair.items()[1], src.loc);
            }
          }
        }
        for (const auto& [k, arg] : a.extra) put(Val::str(k), arg.v, arg.loc);
        return Val::object(d);
      }};
  t["type"] = {Signature::parse("object"), [](Bound& a) { return typeOf(a.cx, a["object"]); }};
  t["callable"] = {Signature::parse("object"), [](Bound& a) {
                     const Val& v = a["object"];
                     return Val::boolean(v.kind() == Kind::Object && v.obj()->callable());
                   }};
  // round(x) rounds half to even, as Python's does; round(x, n) keeps a float.
  t["round"] = {Signature::parse("number, ndigits=None"), [](Bound& a) {
                  const Val& v = a["number"];
                  if (!v.isNumber()) {
                    if (v.isTensor())
                      a.fail("number",
                             "is a tensor, whose value exists only when the graph "
                             "runs; use tf.round");
                    a.fail("number", "must be a number, got " + typeName(v));
                  }
                  const double x = v.number();
                  if (a.none("ndigits")) return Val::integer(int64_t(std::nearbyint(x)));
                  const double scale = std::pow(10.0, double(a.integer("ndigits")));
                  const double r = std::nearbyint(x * scale) / scale;
                  return v.kind() == Kind::Float ? Val::real(r) : Val::integer(int64_t(r));
                }};
}

}  // namespace gl::lang::trace
