// Expressions: one function per Expr kind, dispatched by std::visit, so a new kind of
// expression does not compile until the tracer evaluates it.
#include <algorithm>
#include "engine/lang/name_suggest.h"

#include "engine/lang/tracer.h"
#include "engine/lang/tracer_format.h"
#include "engine/ops/api.h"
#include "engine/tensor/diagnostic.h"

namespace gl::lang::trace {

struct Tracer::EvalExpr {
  Tracer& t;
  const SourceLoc& loc;  // the expression's

  Val operator()(const Expr::Name& n) const;
  Val operator()(const Expr::IntLit& v) const { return Val::integer(v.value); }
  Val operator()(const Expr::FloatLit& v) const { return Val::real(v.value); }
  Val operator()(const Expr::StrLit& v) const { return Val::str(v.value); }
  Val operator()(const Expr::BoolLit& v) const { return Val::boolean(v.value); }
  Val operator()(const Expr::NoneLit&) const { return Val::none(); }
  Val operator()(const Expr::EllipsisLit&) const { return Val::ellipsis(); }
  Val operator()(const Expr::List& l) const { return sequence(l.elts, false); }
  Val operator()(const Expr::Tuple& l) const { return sequence(l.elts, true); }
  Val operator()(const Expr::Dict& d) const;
  Val operator()(const Expr::ListComp& c) const;
  Val operator()(const Expr::Attribute& a) const;
  Val operator()(const Expr::Call& c) const;
  Val operator()(const Expr::Subscript& s) const;
  Val operator()(const Expr::Slice& s) const;
  Val operator()(const Expr::Unary& u) const;
  Val operator()(const Expr::Binary& bin) const;
  Val operator()(const Expr::BoolOp& bo) const;
  Val operator()(const Expr::Compare& c) const;
  Val operator()(const Expr::IfExp& i) const { return t.ifExp(i, loc); }
  Val operator()(const Expr::Lambda& l) const;
  Val operator()(const Expr::JoinedStr& j) const;
  Val operator()(const Expr::FormattedValue& f) const;
  Val operator()(const Expr::Starred&) const {
    t.fail(loc, "a starred expression '*x' can only be used in a call's arguments here");
  }

  Val sequence(const std::vector<ExprPtr>& elts, bool tuple) const;
  // Generators k.. of a comprehension, appending each element to out.
  void generate(const Expr::ListComp& c, size_t k, std::vector<Val>& out) const;
};

Val Tracer::eval(const Expr& e) {
  DepthGuard guard(*this, e.loc);
  return std::visit(EvalExpr{*this, e.loc}, e.node);
}

Val Tracer::EvalExpr::operator()(const Expr::Name& n) const {
  if (auto bnd = t.lookup(n.id)) return bnd->v.var() ? t.readVariable(bnd->v) : bnd->v;
  if (auto v = lookupBuiltin(n.id)) return *v;
  if (auto it = t.vanished_.find(n.id); it != t.vanished_.end()) t.fail(loc, it->second);
  const std::string closest = closestName(n.id, t.namesInScope());
  t.fail(loc, diagnosed("unknown name '" + n.id + "'" +
                            (closest.empty() ? "" : " (did you mean '" + closest + "'?)"),
                        {DiagCode::UnknownName, {}, {n.id, closest}}));
}

Val Tracer::EvalExpr::operator()(const Expr::Dict& d) const {
  auto out = std::make_shared<DictObj>();
  for (size_t i = 0; i < d.keys.size(); ++i) {
    if (!d.keys[i]) {  // {**other}: other's items in its order
      const Val other = t.eval(*d.values[i]);
      const auto* src = other.as<DictObj>();
      if (!src)
        t.fail(d.values[i]->loc, "'" + typeName(other) +
                                     "' object is not a mapping: ** in a "
                                     "dict needs a dict");
      for (size_t j = 0; j < src->keys.size(); ++j) out->set(src->keys[j], src->values[j]);
      continue;
    }
    Val k = t.eval(*d.keys[i]);
    if (!isDictKey(k))
      t.fail(d.keys[i]->loc, "dict keys must be strings, ints or bools in GradLab script, got " +
                                 article(typeName(k)));
    out->set(k, t.eval(*d.values[i]));
  }
  return Val::object(out);
}

void DictObj::set(const Val& key, Val value) {
  if (const int at = find(key); at >= 0) {
    values[size_t(at)] = std::move(value);
  } else {
    keys.push_back(key);
    values.push_back(std::move(value));
  }
}
int DictObj::find(const Val& key) const {
  for (size_t i = 0; i < keys.size(); ++i)
    if (sameKey(keys[i], key)) return int(i);
  return -1;
}

namespace {

// d.items(), d.keys(), d.values(): lists (Python's views, materialised); d.get, d.pop,
// d.setdefault, d.update, d.copy, d.clear as Python's (docs.python.org/3/library/stdtypes.html).
struct DictMethod : Object {
  std::shared_ptr<DictObj> dict;
  std::string name;
  std::string typeName() const override { return "builtin_function"; }
  bool callable() const override { return true; }
  static const Val& key(Context& cx, const CallArgs& args, const std::string& name) {
    if (args.pos.empty() || !args.kw.empty())
      cx.fail(args.loc, "dict." + name + "() takes a key and an optional default, by position");
    if (!isDictKey(args.pos[0].v))
      cx.fail(args.pos[0].loc, "dict keys must be strings, ints or bools in GradLab script, got " +
                                   article(trace::typeName(args.pos[0].v)));
    return args.pos[0].v;
  }
  Val call(Context& cx, CallArgs& args) override {
    if (name == "get" || name == "pop" || name == "setdefault") {
      const Val& k = key(cx, args, name);
      if (args.pos.size() > 2) cx.fail(args.loc, "dict." + name + "() takes at most 2 arguments");
      const Val fallback = args.pos.size() == 2 ? args.pos[1].v : Val::none();
      const int at = dict->find(k);
      if (at < 0 && dict->environ) cx.fail(args.pos[0].loc, unsetEnvironMessage(k));
      if (at < 0) {
        if (name == "pop" && args.pos.size() < 2)
          cx.fail(args.pos[0].loc, "KeyError: " + pyRepr(cx.graph(), k));
        if (name == "setdefault") dict->set(k, fallback);
        return fallback;
      }
      const Val v = dict->values[size_t(at)];
      if (name == "pop") {
        dict->keys.erase(dict->keys.begin() + at);
        dict->values.erase(dict->values.begin() + at);
      }
      return v;
    }
    if (name == "update") {
      if (args.pos.size() > 1) cx.fail(args.loc, "dict.update() takes at most 1 argument");
      if (!args.pos.empty()) {
        auto other = args.pos[0].v.as<DictObj>();
        if (!other) cx.fail(args.pos[0].loc, "dict.update() needs a dict in GradLab script");
        for (size_t i = 0; i < other->keys.size(); ++i) dict->set(other->keys[i], other->values[i]);
      }
      for (const auto& [k, a] : args.kw) dict->set(Val::str(k), a.v);
      return Val::none();
    }
    if (!args.pos.empty() || !args.kw.empty())
      cx.fail(args.loc, "dict." + name + "() takes no arguments");
    if (name == "copy") {
      auto d = std::make_shared<DictObj>(*dict);
      return Val::object(d);
    }
    if (name == "clear") {
      dict->keys.clear();
      dict->values.clear();
      return Val::none();
    }
    std::vector<Val> out;
    for (size_t i = 0; i < dict->keys.size(); ++i)
      out.push_back(name == "keys"     ? dict->keys[i]
                    : name == "values" ? dict->values[i]
                                       : Val::listOf({dict->keys[i], dict->values[i]}, true));
    return Val::listOf(std::move(out));
  }
};

}  // namespace

std::optional<Val> DictObj::attr(Context&, const std::string& name) {
  static const char* const kMethods[] = {"items",      "keys",   "values", "get",  "pop",
                                         "setdefault", "update", "copy",   "clear"};
  if (std::find(std::begin(kMethods), std::end(kMethods), name) == std::end(kMethods))
    return std::nullopt;
  auto m = std::make_shared<DictMethod>();
  m->dict = std::static_pointer_cast<DictObj>(shared_from_this());
  m->name = name;
  return Val::object(m);
}

Val Tracer::EvalExpr::sequence(const std::vector<ExprPtr>& elts, bool tuple) const {
  std::vector<Val> items;
  for (const auto& x : elts) items.push_back(t.eval(*x));
  try {
    return Val::listOf(std::move(items), tuple);
  } catch (const EngineError& err) {
    throw err.located(loc, "");
  }
}

Val Tracer::EvalExpr::operator()(const Expr::ListComp& c) const {
  // The comprehension's own scope, as in Python 3: its targets do not leak.
  ScopePtr saved = t.scope_;
  t.scope_ = t.newScope(saved);
  std::vector<Val> out;
  try {
    generate(c, 0, out);
  } catch (...) {
    t.scope_ = saved;
    throw;
  }
  t.scope_ = saved;
  if (!c.key) return Val::listOf(std::move(out));
  auto d = std::make_shared<DictObj>();  // out holds key, value, key, value, ...
  for (size_t i = 0; i + 1 < out.size(); i += 2) d->set(out[i], out[i + 1]);
  return Val::object(d);
}

void Tracer::EvalExpr::generate(const Expr::ListComp& c, size_t k, std::vector<Val>& out) const {
  if (k == c.generators.size()) {
    if (c.key) {
      Val key = t.eval(*c.key);
      if (!isDictKey(key))
        t.fail(c.key->loc, "dict keys must be strings, ints or bools in GradLab script, got " +
                               article(typeName(key)));
      out.push_back(std::move(key));
    }
    out.push_back(t.eval(*c.elt));
    return;
  }
  const Comprehension& g = c.generators[k];
  Val seq = t.eval(*g.iter);
  if (seq.isTensor())
    t.fail(g.iter->loc, std::string(c.key ? "a dict" : "a list") +
                            " comprehension cannot iterate over a tensor here; use a Python "
                            "range or tf.unstack");
  Val items = t.callSimple(*lookupBuiltin("list"), {seq}, g.iter->loc, "list");
  for (const Val& item : items.items()) {
    t.countUnroll(g.iter->loc);
    t.assign(*g.target, item);
    bool keep = true;
    for (const auto& cond : g.ifs) keep = keep && t.truthy(t.eval(*cond), cond->loc);
    if (keep) generate(c, k + 1, out);
  }
}

Val Tracer::EvalExpr::operator()(const Expr::Attribute& a) const {
  Val v = t.eval(*a.value);
  return t.getAttr(v, a.attr, loc);
}

Val Tracer::EvalExpr::operator()(const Expr::Call& c) const {
  Val fn = t.eval(*c.func);
  CallArgs args;
  args.loc = loc;
  const std::string what = unparse(*c.func);
  for (const auto& x : c.args) {
    if (const auto* star = x->as<Expr::Starred>()) {  // f(*xs): each item is an argument
      const Val seq = t.eval(*star->value);
      if (seq.isTensor())
        t.fail(star->value->loc,
               "'*' cannot unpack a tensor into arguments while tracing; pass a list or tuple");
      const Val items = t.callSimple(*lookupBuiltin("list"), {seq}, star->value->loc, "list");
      for (const Val& v : items.items()) args.pos.push_back({v, star->value->loc, nullptr});
      continue;
    }
    args.pos.push_back({t.eval(*x), x->loc, x.get()});
  }
  for (const auto& k : c.keywords) {
    if (!k.name.empty()) {
      args.kw.push_back({k.name, {t.eval(*k.value), k.loc, k.value.get()}});
    } else {  // f(**d): each str key is a keyword argument
      const Val d = t.eval(*k.value);
      const auto* dict = d.as<DictObj>();
      if (!dict)
        t.fail(k.value->loc, what + "() argument after ** must be a mapping, not " + typeName(d));
      for (size_t i = 0; i < dict->keys.size(); ++i) {
        if (dict->keys[i].kind() != Kind::Str) t.fail(k.value->loc, "keywords must be strings");
        args.kw.push_back({dict->keys[i].text(), {dict->values[i], k.value->loc, nullptr}});
      }
    }
  }
  for (size_t i = 0; i < args.kw.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (args.kw[i].first == args.kw[j].first)
        t.fail(args.kw[i].second.loc,
               what + "() got multiple values for keyword argument '" + args.kw[i].first + "'");
  t.at(loc);
  return t.call(fn, args, what);
}

Val Tracer::EvalExpr::operator()(const Expr::Subscript& s) const {
  Val v = t.eval(*s.value);
  Val index = t.eval(*s.index);
  t.at(loc);
  return t.subscript(v, index, loc);
}

Val Tracer::EvalExpr::operator()(const Expr::Slice& s) const {
  Val lo = s.lower ? t.eval(*s.lower) : Val();
  Val hi = s.upper ? t.eval(*s.upper) : Val();
  Val st = s.step ? t.eval(*s.step) : Val();
  return makeSlice(lo, hi, st);
}

Val Tracer::EvalExpr::operator()(const Expr::Unary& u) const {
  Val v = t.eval(*u.operand);
  t.at(loc);
  return t.unary(u.op, v, loc);
}

Val Tracer::EvalExpr::operator()(const Expr::Binary& bin) const {
  Val l = t.eval(*bin.left);
  Val r = t.eval(*bin.right);
  t.at(loc);
  return t.binary(bin.op, l, r, loc);
}

Val Tracer::EvalExpr::operator()(const Expr::BoolOp& bo) const {
  Val v = t.eval(*bo.values[0]);
  const bool isAnd = bo.op == BoolOpKind::And;
  for (size_t k = 1; k < bo.values.size(); ++k) {
    // AutoGraph's and/or on a symbolic tensor: tf.logical_and/or. An eager tensor has a truth
    // value (EagerTensor.__bool__), and Python's own and/or read it.
    if (v.isTensor() && !t.eager()) {
      Val r = t.eval(*bo.values[k]);
      t.at(loc);
      Value rt = t.toTensor(r, bo.values[k]->loc);
      v = Val::tensor(isAnd ? ops::logicalAnd(t.b_, v.tensorValue(), rt)
                            : ops::logicalOr(t.b_, v.tensorValue(), rt));
      continue;
    }
    const bool truth = t.truthy(v, bo.values[k - 1]->loc);
    if (isAnd ? !truth : truth) return v;
    v = t.eval(*bo.values[k]);
  }
  return v;
}

Val Tracer::EvalExpr::operator()(const Expr::Compare& c) const {
  Val left = t.eval(*c.left);
  Val result;
  for (size_t k = 0; k < c.ops.size(); ++k) {
    Val right = t.eval(*c.comparators[k]);
    t.at(loc);
    Val r = t.compare(c.ops[k], left, right, loc);
    if (k == 0) {
      result = r;
    } else if ((result.isTensor() || r.isTensor()) && !t.eager()) {  // eager: Python's and
      result = Val::tensor(ops::logicalAnd(t.b_, t.toTensor(result, loc), t.toTensor(r, loc)));
    } else if (!t.truthy(result, loc)) {
      return result;
    } else {
      result = r;
    }
    left = right;
  }
  return result;
}

Val Tracer::EvalExpr::operator()(const Expr::Lambda& l) const {
  auto f = std::make_shared<FunctionObj>();
  f->name = "<lambda>";
  f->params = l.params;
  for (const auto& p : l.params)
    f->defaults.push_back(p.defaultValue ? std::optional<Val>(t.eval(*p.defaultValue))
                                         : std::nullopt);
  f->lambdaBody = l.body;
  f->closure = t.scope_;
  f->loc = loc;
  return Val::object(f);
}

// f"...": each field formatted as format(value, spec) after its conversion, as Python does.
Val Tracer::EvalExpr::operator()(const Expr::JoinedStr& j) const {
  std::string out;
  for (const ExprPtr& v : j.values) {
    const Val part = t.eval(*v);
    out += part.text();  // StrLit and FormattedValue both give a str
    if (int64_t(out.size()) > maxPythonItems())
      t.fail(loc, "this f-string makes more than " + std::to_string(maxPythonItems()) +
                      " characters" + kRaiseItems);
  }
  return Val::str(std::move(out));
}

Val Tracer::EvalExpr::operator()(const Expr::FormattedValue& f) const {
  Val v = t.eval(*f.value);
  if (v.isNone() && v.why())  // a missing gradient shows as None, and the log says why
    t.log("note: the None in the f-string at line " + std::to_string(f.value->loc.line) +
          " is a gradient: " + v.why()->text);
  const std::string spec = f.spec ? t.eval(*f.spec).text() : "";
  if (f.conversion) v = Val::str(convertValue(t.cx_, v, f.conversion, f.value->loc));
  return Val::str(formatValue(t.cx_, v, spec, f.value->loc));
}

}  // namespace gl::lang::trace
