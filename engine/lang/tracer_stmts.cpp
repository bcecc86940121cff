// Statements: assignment and unpacking, def/return, with, and the dispatch of if/while/for to
// the AutoGraph rules.
#include <algorithm>

#include "engine/lang/tracer.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

void targetNames(const Expr& t, std::vector<std::string>& out) {
  if (auto n = t.as<Expr::Name>()) {
    if (std::find(out.begin(), out.end(), n->id) == out.end()) out.push_back(n->id);
  } else if (auto l = t.as<Expr::Tuple>()) {
    for (const auto& e : l->elts) targetNames(*e, out);
  } else if (auto l2 = t.as<Expr::List>()) {
    for (const auto& e : l2->elts) targetNames(*e, out);
  }
}

namespace {

void addName(const std::string& n, std::vector<std::string>& out) {
  if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
}

// `ta.write(i, v)` as a statement: the new TensorArray is thrown away.
bool discardsTensorArray(const Expr& e, const Val& v) {
  auto c = e.as<Expr::Call>();
  if (!c || !v.as<TensorArrayObj>()) return false;
  auto a = c->func->as<Expr::Attribute>();
  return a && (a->attr == "write" || a->attr == "unstack" || a->attr == "scatter");
}

}  // namespace

void assignedNames(const Block& block, std::vector<std::string>& out) {
  for (const auto& sp : block)
    std::visit(
        Overloaded{
            [&](const Stmt::Assign& a) {
              for (const auto& t : a.targets) targetNames(*t, out);
            },
            [&](const Stmt::AugAssign& a) { targetNames(*a.target, out); },
            [&](const Stmt::If& i) {
              assignedNames(i.body, out);
              assignedNames(i.orelse, out);
            },
            [&](const Stmt::While& w) { assignedNames(w.body, out); },
            [&](const Stmt::For& f) {
              targetNames(*f.target, out);
              assignedNames(f.body, out);
            },
            [&](const Stmt::With& w) {
              for (const auto& it : w.items)
                if (!it.asName.empty()) addName(it.asName, out);
              assignedNames(w.body, out);
            },
            [&](const Stmt::Def& d) { addName(d.name, out); },  // not its body's names
            [&](const Stmt::ClassDef& c) { addName(c.name, out); },
            // No names: params are bound at the top level only, never in a body.
            [](const Stmt::ExprStmt&) {}, [](const Stmt::Return&) {}, [](const Stmt::Pass&) {},
            [](const Stmt::Break&) {}, [](const Stmt::Continue&) {}, [](const Stmt::ParamDecl&) {},
            [](const Stmt::Delete&) {}, [](const Stmt::Assert&) {}, [](const Stmt::Global&) {},
            [](const Stmt::Raise&) {},
            [&](const Stmt::Try& x) {
              assignedNames(x.body, out);
              for (const auto& h : x.handlers) {
                if (!h.name.empty()) addName(h.name, out);
                assignedNames(h.body, out);
              }
              assignedNames(x.orelse, out);
              assignedNames(x.finalbody, out);
            },
            // An import binds names, like an assignment.
            [&](const Stmt::Import& i) {
              for (const auto& a : i.names)
                addName(!a.asName.empty() ? a.asName : a.name.substr(0, a.name.find('.')), out);
            },
            [&](const Stmt::ImportFrom& i) {
              for (const auto& a : i.names) addName(a.asName.empty() ? a.name : a.asName, out);
            }},
        sp->node);
}

void Tracer::bind(const std::string& name, const Val& v, const SourceLoc& loc) {
  vanished_.erase(name);
  auto home = scope_->declared.find(name);  // global / nonlocal
  Scope& scope = home == scope_->declared.end() ? *scope_ : *home->second;
  auto it = scope.vars.find(name);
  if (it == scope.vars.end()) {
    scope.vars[name] = {v, loc, ++bindOrder_};
  } else {
    it->second.v = v;
    it->second.loc = loc;
  }
  // Unnamed nodes take the script's name, so the graph view and the tape's explanations can
  // say 'loss' instead of 'mul#41'.
  // Throwaway names (`_`) and control-flow nodes (several outputs) keep their own names.
  if (v.isTensor() && name[0] != '_') {
    Node& n = g_.node(v.tensorValue());
    if (n.name.empty() && !n.is(NodeKind::Const) && n.regions.empty()) n.name = name;
  }
}

void Tracer::assign(const Expr& target, const Val& v) {
  if (auto n = target.as<Expr::Name>()) return bind(n->id, v, target.loc);
  const std::vector<ExprPtr>* elts = nullptr;
  if (auto t = target.as<Expr::Tuple>()) elts = &t->elts;
  if (auto l = target.as<Expr::List>()) elts = &l->elts;
  if (elts) {
    std::vector<Val> items;
    if (v.isSeq()) {
      items = v.items();
    } else if (v.isTensor()) {
      const Shape& s = b_.type(v.tensorValue()).shape;
      if (s.empty() || s[0] < 0)
        fail(target.loc, "cannot unpack a tensor of shape " + shapeStr(s) +
                             ": it needs a known first dimension");
      if (s[0] != int64_t(elts->size()))
        fail(target.loc, "cannot unpack a tensor of shape " + shapeStr(s) + " into " +
                             std::to_string(elts->size()) + " names");
      at(target.loc);
      for (Value x : ops::unstack(b_, v.tensorValue(), 0)) items.push_back(Val::tensor(x));
    } else {
      fail(target.loc, "cannot unpack " + article(typeName(v)) + " into " +
                           std::to_string(elts->size()) + " names");
    }
    if (items.size() != elts->size())
      fail(target.loc, std::string(items.size() > elts->size() ? "too many" : "not enough") +
                           " values to unpack (expected " + std::to_string(elts->size()) +
                           ", got " + std::to_string(items.size()) + ")");
    for (size_t i = 0; i < items.size(); ++i) assign(*(*elts)[i], items[i]);
    return;
  }
  if (auto s = target.as<Expr::Subscript>()) {
    Val container = eval(*s->value);
    Val index = eval(*s->index);
    if (container.kind() == Kind::List && index.kind() == Kind::Int) {
      auto& items = container.list()->items;
      int64_t i = index.asInt() < 0 ? index.asInt() + int64_t(items.size()) : index.asInt();
      if (i < 0 || i >= int64_t(items.size()))
        fail(s->index->loc, "list assignment index " + std::to_string(index.asInt()) +
                                " is out of range (length " + std::to_string(items.size()) + ")");
      items[size_t(i)] = v;
      container.list()->noteChild(v);
      return;
    }
    if (auto d = container.as<DictObj>()) {
      if (!isDictKey(index))
        fail(s->index->loc, "dict keys must be strings, ints or bools in GradLab script, got " +
                                article(typeName(index)));
      // os.environ takes strings only (os.py _Environ.encodevalue: "str expected, not int").
      for (const Val* x : {static_cast<const Val*>(&index), &v})
        if (d->environ && x->kind() != Kind::Str)
          fail(x == &index ? s->index->loc : target.loc,
               "TypeError: str expected, not " + typeName(*x));
      d->set(index, v);
      return;
    }
    if (container.isTensor())
      fail(target.loc,
           "tensors are immutable: assigning to an element or slice of a tensor is not "
           "supported; build a new tensor (tf.where, tf.concat) or use a TensorArray");
    fail(target.loc, "cannot assign to an item of " + article(typeName(container)));
  }
  if (auto a = target.as<Expr::Attribute>()) {
    Val owner = eval(*a->value);
    if (setScriptAttr(owner, a->attr, v, target.loc)) return;
    fail(target.loc, "cannot set attribute '" + a->attr + "' of " + article(typeName(owner)));
  }
  fail(target.loc, "cannot assign to this expression");
}

Flow Tracer::execBlock(const Block& block) {
  for (const auto& s : block) {
    Flow f = execStmt(*s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Flow Tracer::execStmt(const Stmt& s) {
  try {
    return execStmtAt(s);
  } catch (const EngineError& e) {
    if (e.loc().known()) throw;
    throw e.located(s.loc, "");  // e.g. a list nested too deeply: the statement is the place
  }
}

// One function per statement kind, dispatched by std::visit, so a new kind of statement does
// not compile until the tracer runs it.
struct Tracer::ExecStmt {
  Tracer& t;
  const SourceLoc& loc;  // the statement's

  Flow operator()(const Stmt::ExprStmt& e) const;
  Flow operator()(const Stmt::Assign& a) const;
  Flow operator()(const Stmt::AugAssign& a) const;
  Flow operator()(const Stmt::If& i) const { return t.execIf(i, loc); }
  Flow operator()(const Stmt::While& w) const { return t.execWhile(w, loc); }
  Flow operator()(const Stmt::For& f) const { return t.execFor(f, loc); }
  Flow operator()(const Stmt::Def& d) const;
  Flow operator()(const Stmt::ClassDef& c) const {
    t.execClass(c, loc);
    return Flow::Normal;
  }
  Flow operator()(const Stmt::Return& r) const;
  Flow operator()(const Stmt::With& w) const;
  Flow operator()(const Stmt::Pass&) const { return Flow::Normal; }
  Flow operator()(const Stmt::Break&) const { return Flow::Break; }
  Flow operator()(const Stmt::Continue&) const { return Flow::Continue; }
  Flow operator()(const Stmt::ParamDecl& p) const;
  Flow operator()(const Stmt::Import& i) const;
  Flow operator()(const Stmt::ImportFrom& i) const;
  Flow operator()(const Stmt::Try& x) const { return t.execTry(x, loc); }
  Flow operator()(const Stmt::Raise& r) const { return t.execRaise(r, loc); }
  Flow operator()(const Stmt::Delete& d) const;
  Flow operator()(const Stmt::Assert& a) const;
  Flow operator()(const Stmt::Global& g) const;
};

Flow Tracer::execStmtAt(const Stmt& s) {
  DepthGuard guard(*this, s.loc);
  checkLimits(s.loc);
  return std::visit(ExecStmt{*this, s.loc}, s.node);
}

Flow Tracer::ExecStmt::operator()(const Stmt::ExprStmt& e) const {
  Val v = t.eval(*e.value);
  if (discardsTensorArray(*e.value, v))
    t.fail(loc,
           "the TensorArray this call returns is thrown away: TensorArrays are values in "
           "TF2, so write 'ta = ta.write(i, value)'");
  return Flow::Normal;
}

Flow Tracer::ExecStmt::operator()(const Stmt::Assign& a) const {
  Val v = t.eval(*a.value);
  for (const auto& target : a.targets) t.assign(*target, v);
  return Flow::Normal;
}

Flow Tracer::ExecStmt::operator()(const Stmt::AugAssign& a) const {
  Val cur = t.eval(*a.target);
  Val rhs = t.eval(*a.value);
  t.at(loc);
  Val v;
  if (a.op == BinaryOp::Add && cur.kind() == Kind::List && rhs.isSeq()) {
    // list += iterable extends the same list, as in Python.
    const std::vector<Val> extra = rhs.items();  // a copy: `x += x` extends x by itself
    for (const Val& x : extra) cur.list()->items.push_back(x), cur.list()->noteChild(x);
    v = cur;
  } else {
    v = t.binary(a.op, cur, rhs, loc);
  }
  t.assign(*a.target, v);
  return Flow::Normal;
}

Flow Tracer::ExecStmt::operator()(const Stmt::Def& d) const {
  auto f = std::make_shared<FunctionObj>();
  f->name = d.name;
  f->params = d.params;
  for (const auto& p : d.params)
    f->defaults.push_back(p.defaultValue ? std::optional<Val>(t.eval(*p.defaultValue))
                                         : std::nullopt);
  f->body = &d.body;
  f->closure = t.scope_;
  f->loc = loc;
  // Decorators apply from the innermost (the last line) out, as in Python.
  Val fn = Val::object(f);
  for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it) {
    const Val deco = t.eval(**it);
    CallArgs args;
    args.pos.push_back({fn, (*it)->loc, it->get()});
    args.loc = (*it)->loc;
    fn = t.call(deco, args, "the decorator");
  }
  t.bind(d.name, fn, loc);
  return Flow::Normal;
}

Flow Tracer::ExecStmt::operator()(const Stmt::Return& r) const {
  t.returnValue_ = r.value ? t.eval(*r.value) : Val::none();
  return Flow::Return;
}

Flow Tracer::ExecStmt::operator()(const Stmt::With& w) const {
  if (t.isVariantBlock(w)) return t.execVariant(w, loc);
  std::vector<Val> entered;
  for (const auto& item : w.items) {
    Val ctx = t.eval(*item.context);
    if (ctx.kind() != Kind::Object || !ctx.obj()->isContext())
      t.fail(item.context->loc, article(typeName(ctx)) +
                                    " cannot be used in a with statement (GradLab knows "
                                    "tf.GradientTape(), tape.stop_recording() and variant(...))");
    Val bound = ctx.obj()->enter(t.cx_, item.context->loc);
    entered.push_back(ctx);
    if (!item.asName.empty()) t.bind(item.asName, bound, item.asLoc);
  }
  // The contexts exit on every way out, an exception too (a tape stops recording), as
  // Python's with statement calls __exit__.
  Flow f = Flow::Normal;
  try {
    f = t.execBlock(w.body);
  } catch (const EngineError&) {
    for (auto it = entered.rbegin(); it != entered.rend(); ++it) it->obj()->exit(t.cx_);
    throw;
  }
  for (auto it = entered.rbegin(); it != entered.rend(); ++it) it->obj()->exit(t.cx_);
  return f;
}

Flow Tracer::ExecStmt::operator()(const Stmt::ParamDecl& p) const {
  for (const Param& q : t.prog_.params)
    if (q.name == p.name) {
      t.bind(p.name, q.isInt ? Val::integer(int64_t(q.value)) : Val::real(q.value), loc);
      return Flow::Normal;
    }
  t.fail(loc, "param '" + p.name + "' was not collected");  // cannot happen: collected first
}

// import a.b binds a; import a.b as c binds c to a.b.
Flow Tracer::ExecStmt::operator()(const Stmt::Import& i) const {
  for (const Stmt::Alias& a : i.names) {
    if (!a.asName.empty()) {
      t.bind(a.asName, t.importModule(a.name, a.loc), a.loc);
    } else {
      t.importModule(a.name, a.loc);  // the whole name must exist
      const std::string top = a.name.substr(0, a.name.find('.'));
      t.bind(top, t.importModule(top, a.loc), a.loc);
    }
  }
  return Flow::Normal;
}

Flow Tracer::ExecStmt::operator()(const Stmt::ImportFrom& i) const {
  if (i.module == "__future__") return Flow::Normal;  // Python 3 has every feature already
  if (i.star)
    t.fail(loc, "'from " + i.module +
                    " import *' is not supported in GradLab script; import the names you use");
  for (const Stmt::Alias& a : i.names)
    t.bind(a.asName.empty() ? a.name : a.asName, t.importFrom(i, a), a.loc);
  return Flow::Normal;
}

// del x removes the name from the current scope; del xs[i] / del d[k] removes an item.
Flow Tracer::ExecStmt::operator()(const Stmt::Delete& d) const {
  for (const ExprPtr& target : d.targets) t.unbind(*target);
  return Flow::Normal;
}

// global / nonlocal: later assignments in this call bind the names where they live.
Flow Tracer::ExecStmt::operator()(const Stmt::Global& g) const {
  for (const auto& name : g.names) {
    ScopePtr home = t.globals_;
    if (g.nonlocal) {
      home = nullptr;
      for (auto s = t.scope_->parent; s && s != t.globals_; s = s->parent)
        if (s->vars.count(name)) {
          home = s;
          break;
        }
      if (!home) t.fail(loc, "no binding for nonlocal '" + name + "' found");
    }
    t.scope_->declared[name] = home;
  }
  return Flow::Normal;
}

// assert test, msg: checked while tracing. A tensor condition has no value yet: TF 2 eager
// would check it, a traced graph cannot, so GradLab points to the graph-side assertions.
Flow Tracer::ExecStmt::operator()(const Stmt::Assert& a) const {
  const Val test = t.eval(*a.test);
  if (t.tensorish(test))
    t.fail(a.test->loc,
           "assert on a tensor: its value exists only when the graph runs, so a Python assert "
           "cannot check it while GradLab traces; use tf.debugging.assert_equal (or "
           "assert_less, assert_near, ...) or tf.debugging.Assert(condition, [values])");
  if (t.truthy(test, a.test->loc)) return Flow::Normal;
  if (!a.msg) t.fail(loc, "AssertionError");
  const Val msg = t.eval(*a.msg);
  t.fail(loc, "AssertionError: " + repr(t.g_, msg));
}

}  // namespace gl::lang::trace
