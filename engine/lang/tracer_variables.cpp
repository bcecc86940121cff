// Variables as state. TF's variables are resources that assign ops mutate; GradLab's graph is
// SSA, so a tf.Variable is a tracer-level binding from its handle to its current tensor:
//   - a read sees the current tensor, and recording tapes watch it (watch_accessed_variables);
//   - v.assign(x) makes stop_gradient(x) current: "state stops gradients" (TF's autodiff guide,
//     "Took gradients through a stateful object"), as Assign has no gradient in TF;
//   - a tape's gradient by v sums its gradients by every value of v the tape saw read, as TF's
//     does over the reads of one handle;
//   - tensor loops and branches whose body may assign v carry it as an extra loop variable
//     (AutoGraph adds it to the loop vars) — see variablesAssignedIn and CarriedVariables.
// Also the statement scan behind that, and tf.keras.optimizers.SGD.
#include <algorithm>

#include "engine/lang/tracer_autograph.h"
#include "engine/lang/tracer_classes.h"
#include "engine/lang/tracer_optimizer.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

Val Tracer::fresh(const Val& v) const {
  if (!v.var()) return v;
  return Val::variable(v.var());  // its value now
}

Val Tracer::readVariable(const Val& v) {
  Val r = fresh(v);
  VarState& var = *v.var();
  for (const auto& tape : tapes_) {
    if (!tape->recording()) continue;
    if (!(var.trainable && tape->watchesVariables()) && !var.watchedBy.count(tape.get())) continue;
    tape->watch(var.current);
    const std::pair<const GradientTape*, Value> read{tape.get(), var.current};
    if (std::find(var.reads.begin(), var.reads.end(), read) == var.reads.end())
      var.reads.push_back(read);
  }
  return r;
}

void Tracer::registerVariable(const std::shared_ptr<VarState>& var) {
  var->region = b_.currentRegion();
  variables_.push_back(var);
}

std::vector<std::shared_ptr<VarState>> Tracer::liveVariables() const {
  std::vector<std::shared_ptr<VarState>> out;
  for (const auto& w : variables_)
    if (auto v = w.lock())
      if (g_.within(b_.currentRegion(), g_.node(v->current).region)) out.push_back(v);
  return out;
}

namespace {

std::string variableName(const Graph& g, const VarState& var) {
  const Node& n = g.node(var.handle);
  return n.name.empty() ? "the variable" : "'" + n.name + "'";
}

}  // namespace

void Tracer::assignVariable(const Val& v, Value value, const SourceLoc& loc,
                            const std::string& what) {
  if (!v.var())
    fail(loc, what + " needs a tf.Variable, got " + article(typeName(v)) +
                  " (a plain tensor cannot be assigned: compute a new one instead)");
  VarState& var = *v.var();
  const std::string name = variableName(g_, var);
  if (b_.currentRegion() != var.region)
    fail(loc, what + " assigns " + name +
                  " inside a loop body or branch that does not carry it (a tf.cond/map_fn "
                  "function, or a function GradLab could not see into); assign it in the "
                  "body of a `for ... in tf.range`, a while loop, an if on a tensor, or a "
                  "tf.while_loop body, which carry the variables they assign");
  const TypeInfo& have = b_.type(var.current);
  const TypeInfo& got = b_.type(value);
  if (have.dtype != got.dtype)
    fail(loc, what + " gives " + name + " a " + dtypeName(got.dtype) + " value, but it is " +
                  dtypeName(have.dtype));
  if (!compatible(have.shape, got.shape))
    fail(loc, what + " gives " + name + " a value of shape " + shapeStr(got.shape) +
                  ", but its shape is " + shapeStr(have.shape));
  at(loc);
  // State stops gradients: a later read is a new leaf, not the assigned expression.
  Value next = o::stopGradient(b_, value);
  g_.node(next).name = g_.node(var.handle).name;
  var.current = next;
}

std::vector<Value> Tracer::variableSources(const VarState& var, const GradientTape& tape) const {
  std::vector<Value> out;
  for (const auto& [t, v] : var.reads)
    if (t == &tape && g_.within(b_.currentRegion(), g_.node(v).region)) out.push_back(v);
  if (out.empty()) out.push_back(var.current);
  return out;
}

// Scanning a body for assignments ------------------------------------------------------------

namespace {

bool isAssignMethod(const std::string& m) {
  return m == "assign" || m == "assign_add" || m == "assign_sub";
}

// What a body may assign: the names before `.assign*(...)`, and whether it assigns through
// something else (an optimizer, a list item), when every live variable must be carried.
struct AssignScan {
  std::vector<std::string> names;
  bool opaque = false;
  std::vector<const Expr::Call*> updates;  // x.apply_gradients(...) and x.minimize(...)
  std::vector<const FunctionObj*> seen;    // script functions already scanned
  std::function<const FunctionObj*(const std::string&)> functionNamed;
  std::function<const Binding*(const std::string&)> bindingNamed;

  // A call of a script instance, class or method (`m(x)`, `a.add(x)`, `self.step()`) may assign
  // any variable the object holds: carry every live one, as through an optimizer.
  bool callsScriptObject(const Expr::Call& c) const {
    const Expr* callee = c.func.get();
    if (auto a = callee->as<Expr::Attribute>()) callee = a->value.get();
    const auto* n = callee->as<Expr::Name>();
    if (!n) return false;
    if (n->id == "self" || n->id == "cls") return true;
    const Binding* b = bindingNamed ? bindingNamed(n->id) : nullptr;
    return b && (b->v.as<InstanceObj>() || b->v.as<ClassObj>());
  }

  void expr(const Expr& e) {
    if (auto c = e.as<Expr::Call>()) {
      if (auto a = c->func->as<Expr::Attribute>()) {
        if (isAssignMethod(a->attr)) {
          if (auto n = a->value->as<Expr::Name>())
            names.push_back(n->id);
          else
            opaque = true;
        }
        if (a->attr == "apply_gradients" || a->attr == "minimize") {
          opaque = true;
          updates.push_back(c);
        }
      }
      if (auto n = c->func->as<Expr::Name>())
        if (const FunctionObj* f = functionNamed(n->id)) function(*f);
      if (callsScriptObject(*c)) opaque = true;
      // layer(x, training=True) may update a layer's state (BatchNormalization's moving
      // statistics): carry every live variable, as through an optimizer.
      for (const Keyword& k : c->keywords)
        if (k.name == "training") opaque = true;
    }
    forEachChild(e, [this](const Expr& x) { expr(x); });
  }
  void function(const FunctionObj& f) {
    if (std::find(seen.begin(), seen.end(), &f) != seen.end()) return;
    seen.push_back(&f);
    if (f.body) block(*f.body);
    if (f.lambdaBody) expr(*f.lambdaBody);
  }
  void block(const Block& b) {
    for (const auto& s : b) stmt(*s);
  }
  void stmt(const Stmt& s) {
    auto e = [this](const ExprPtr& x) {
      if (x) expr(*x);
    };
    std::visit(Overloaded{[&](const Stmt::ExprStmt& x) { e(x.value); },
                          [&](const Stmt::Assign& x) {
                            for (const auto& t : x.targets) e(t);
                            e(x.value);
                          },
                          [&](const Stmt::AugAssign& x) { e(x.target), e(x.value); },
                          [&](const Stmt::If& x) { e(x.test), block(x.body), block(x.orelse); },
                          [&](const Stmt::While& x) { e(x.test), block(x.body); },
                          [&](const Stmt::For& x) { e(x.iter), block(x.body); },
                          [&](const Stmt::Def& x) { block(x.body); },
                          [&](const Stmt::ClassDef& x) { block(x.body); },
                          [&](const Stmt::Return& x) { e(x.value); },
                          [&](const Stmt::With& x) {
                            for (const auto& i : x.items) e(i.context);
                            block(x.body);
                          },
                          [](const Stmt::Pass&) {},
                          [](const Stmt::Break&) {},
                          [](const Stmt::Continue&) {},
                          [](const Stmt::ParamDecl&) {},
                          [](const Stmt::Import&) {},
                          [](const Stmt::ImportFrom&) {},
                          [&](const Stmt::Delete& x) {
                            for (const auto& t : x.targets) e(t);
                          },
                          [&](const Stmt::Assert& x) { e(x.test), e(x.msg); },
                          [](const Stmt::Global&) {},
                          [&](const Stmt::Raise& x) { e(x.exc), e(x.cause); },
                          [&](const Stmt::Try& x) {
                            block(x.body);
                            for (const auto& h : x.handlers) e(h.type), block(h.body);
                            block(x.orelse), block(x.finalbody);
                          }},
               s.node);
  }
};

}  // namespace

namespace {

// The argument of an optimizer call that names its variables: apply_gradients's
// zip(grads, VARS) (or list(zip(...))), minimize's var_list.
const Expr* updatedVariables(const Expr::Call& c) {
  const std::string& m = c.func->as<Expr::Attribute>()->attr;
  const bool apply = m == "apply_gradients";
  const Expr* e = c.args.size() > (apply ? 0u : 1u) ? c.args[apply ? 0 : 1].get() : nullptr;
  for (const Keyword& k : c.keywords)
    if (k.name == (apply ? "grads_and_vars" : "var_list")) e = k.value.get();
  if (!e || !apply) return e;
  auto call = e->as<Expr::Call>();
  auto fn = call ? call->func->as<Expr::Name>() : nullptr;
  if (fn && fn->id == "list" && call->args.size() == 1) {
    call = call->args[0]->as<Expr::Call>();
    fn = call ? call->func->as<Expr::Name>() : nullptr;
  }
  return fn && fn->id == "zip" && call->args.size() == 2 ? call->args[1].get() : nullptr;
}

// Builds the optimizers a loop body applies, before the loop, so that their slot variables
// exist for it to carry (tracer_optimizer.h). Only a name, a list of names or an object's
// attribute (model.trainable_variables) is read here: nothing with effects runs twice.
void prepareOptimizers(Context& cx, const AssignScan& scan,
                       const std::function<const Binding*(const std::string&)>& lookup) {
  for (const Expr::Call* c : scan.updates) {
    auto recv = c->func->as<Expr::Attribute>()->value->as<Expr::Name>();
    const Binding* ob = recv ? lookup(recv->id) : nullptr;
    OptimizerObj* opt = ob ? ob->v.as<OptimizerObj>() : nullptr;
    const Expr* e = opt ? updatedVariables(*c) : nullptr;
    if (!e) continue;
    Val list;
    if (auto n = e->as<Expr::Name>()) {
      const Binding* b = lookup(n->id);
      if (!b) continue;
      list = b->v;
    } else if (auto at = e->as<Expr::Attribute>()) {
      // model.trainable_variables: an attribute of a layer object reads its weights.
      auto n = at->value->as<Expr::Name>();
      const Binding* b = n ? lookup(n->id) : nullptr;
      if (!b || b->v.kind() != Kind::Object) continue;
      if (!b->v.obj()->attr(cx, at->attr)) continue;
      list = *b->v.obj()->attr(cx, at->attr);
    } else {
      const auto* l = e->as<Expr::List>();
      const auto* t = e->as<Expr::Tuple>();
      if (!l && !t) continue;
      std::vector<Val> items;
      for (const auto& x : l ? l->elts : t->elts) {
        auto n = x->as<Expr::Name>();
        const Binding* b = n ? lookup(n->id) : nullptr;
        if (!b) break;
        items.push_back(b->v);
      }
      if (items.size() != (l ? l->elts.size() : t->elts.size())) continue;
      list = Val::listOf(std::move(items));
    }
    prepareLoopUpdates(cx, *opt, list, e->loc);
  }
}

std::vector<std::shared_ptr<VarState>> scanned(
    AssignScan& scan, const std::function<const Binding*(const std::string&)>& lookup,
    const std::vector<std::shared_ptr<VarState>>& live) {
  if (scan.opaque) return live;
  std::vector<std::shared_ptr<VarState>> out;
  for (const auto& n : scan.names)
    if (const Binding* b = lookup(n); b && b->v.var())
      if (std::find(out.begin(), out.end(), b->v.var()) == out.end() &&
          std::find(live.begin(), live.end(), b->v.var()) != live.end())
        out.push_back(b->v.var());
  return out;
}

}  // namespace

std::vector<std::shared_ptr<VarState>> Tracer::variablesAssignedIn(const Block& body) {
  if (variables_.empty()) return {};
  AssignScan scan;
  scan.functionNamed = [this](const std::string& n) -> const FunctionObj* {
    const Binding* b = lookup(n);
    return b ? b->v.as<FunctionObj>() : nullptr;
  };
  scan.bindingNamed = [this](const std::string& n) { return lookup(n); };
  scan.block(body);
  prepareOptimizers(cx_, scan, [this](const std::string& n) { return lookup(n); });
  return scanned(
      scan, [this](const std::string& n) { return lookup(n); }, liveVariables());
}

std::vector<std::shared_ptr<VarState>> Tracer::variablesAssignedBy(const Val& fn) {
  const FunctionObj* f = fn.as<FunctionObj>();
  // A bound method (or an instance's __call__) assigns what its function assigns.
  if (auto m = fn.as<BoundMethodObj>()) f = m->function.as<FunctionObj>();
  if (auto i = fn.as<InstanceObj>())
    if (const Val* c = i->cls->lookup("__call__")) f = c->as<FunctionObj>();
  if (!f || variables_.empty()) return {};
  // Names inside f resolve in its closure (its parameters may shadow them: carrying one
  // variable too many is harmless).
  auto inClosure = [f](const std::string& n) -> const Binding* {
    for (const Scope* s = f->closure.get(); s; s = s->parent.get())
      if (auto it = s->vars.find(n); it != s->vars.end()) return &it->second;
    return nullptr;
  };
  AssignScan scan;
  scan.functionNamed = [&](const std::string& n) -> const FunctionObj* {
    const Binding* b = inClosure(n);
    return b ? b->v.as<FunctionObj>() : nullptr;
  };
  scan.bindingNamed = inClosure;
  scan.function(*f);
  prepareOptimizers(cx_, scan, inClosure);
  return scanned(scan, inClosure, liveVariables());
}

// CarriedVariables -----------------------------------------------------------------------------

CarriedVariables::CarriedVariables(Context& cx, std::vector<std::shared_ptr<VarState>> vs)
    : vars(std::move(vs)) {
  for (const auto& v : vars) {
    before.push_back(cx.readVariable(Val::variable(v))
                         .tensorValue());  // the loop reads it, on every recording tape
    regions.push_back(v->region);
  }
}

void CarriedVariables::enter(const std::vector<Value>& vals, size_t pos, int region) const {
  for (size_t k = 0; k < vars.size(); ++k) {
    vars[k]->current = vals.at(pos + k);
    vars[k]->region = region;
  }
}

void CarriedVariables::exit(const std::vector<Value>& vals, size_t pos) const {
  for (size_t k = 0; k < vars.size(); ++k) {
    vars[k]->current = vals.at(pos + k);
    vars[k]->region = regions[k];
  }
}

std::vector<Value> CarriedVariables::currents() const {
  std::vector<Value> out;
  for (const auto& v : vars) out.push_back(v->current);
  return out;
}

}  // namespace gl::lang::trace
