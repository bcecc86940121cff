// AutoGraph rules for `if`: on a Python value it runs one branch while tracing; on a tensor
// both branches are traced into a cond node, whose results are the names the branches assign
// (as in TF's AutoGraph). Also the flattening of values into graph values that conds and loops
// (tracer_loops.cpp) share.
#include <algorithm>
#include <optional>

#include "engine/control/control_flow.h"
#include "engine/lang/tracer_autograph.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

// The first return (or break/continue at this loop level) in a block, not in nested defs.
const Stmt* findJump(const Block& block, bool loopLevel) {
  using Found = const Stmt*;
  for (const auto& sp : block) {
    const Stmt& s = *sp;
    const Found inner = std::visit(
        Overloaded{[&](const Stmt::Return&) -> Found { return &s; },
                   [&](const Stmt::Break&) -> Found { return loopLevel ? &s : nullptr; },
                   [&](const Stmt::Continue&) -> Found { return loopLevel ? &s : nullptr; },
                   [&](const Stmt::If& i) -> Found {
                     const Stmt* j = findJump(i.body, loopLevel);
                     return j ? j : findJump(i.orelse, loopLevel);
                   },
                   [&](const Stmt::While& w) -> Found { return findJump(w.body, false); },
                   [&](const Stmt::For& f) -> Found { return findJump(f.body, false); },
                   [&](const Stmt::With& w) -> Found { return findJump(w.body, loopLevel); },
                   // A def's returns are its own; the rest hold no statements.
                   [](const Stmt::Def&) -> Found { return nullptr; },
                   [](const Stmt::ClassDef&) -> Found { return nullptr; },
                   [](const Stmt::ExprStmt&) -> Found { return nullptr; },
                   [](const Stmt::Assign&) -> Found { return nullptr; },
                   [](const Stmt::AugAssign&) -> Found { return nullptr; },
                   [](const Stmt::Pass&) -> Found { return nullptr; },
                   [](const Stmt::ParamDecl&) -> Found { return nullptr; },
                   [](const Stmt::Import&) -> Found { return nullptr; },
                   [](const Stmt::ImportFrom&) -> Found { return nullptr; },
                   [](const Stmt::Delete&) -> Found { return nullptr; },
                   [](const Stmt::Assert&) -> Found { return nullptr; },
                   [](const Stmt::Global&) -> Found { return nullptr; },
                   [](const Stmt::Raise&) -> Found { return nullptr; },
                   [&](const Stmt::Try& x) -> Found {
                     const Stmt* j = findJump(x.body, loopLevel);
                     for (const auto& h : x.handlers) j = j ? j : findJump(h.body, loopLevel);
                     j = j ? j : findJump(x.orelse, loopLevel);
                     return j ? j : findJump(x.finalbody, loopLevel);
                   }},
        s.node);
    if (inner) return inner;
  }
  return nullptr;
}

const char* jumpWord(const Stmt& s) {
  return s.is<Stmt::Return>() ? "return" : s.is<Stmt::Break>() ? "break" : "continue";
}

bool flattenable(const Val& v, int depth) {
  if (v.isTensor() || v.isNumber()) return true;
  if (v.kind() == Kind::Object) return v.as<TensorArrayObj>() != nullptr;
  if (v.isSeq() && depth < kMaxListNesting) {
    for (const Val& x : v.items())
      if (!flattenable(x, depth + 1)) return false;
    return !v.items().empty();
  }
  return false;
}

Value scalarPredicate(Context& cx, const Val& test, const SourceLoc& loc, const char* what) {
  Value p = cx.toTensor(test, loc);
  const TypeInfo& ty = cx.b.type(p);
  if (ty.list || ty.dtype != DType::Bool || numel(ty.shape) != 1)
    cx.fail(loc, std::string(what) + " on a tensor needs a scalar bool condition, got " + ty.str() +
                     (ty.dtype == DType::Bool ? "; reduce it with tf.reduce_all/tf.reduce_any"
                                              : "; compare it first (x > 0)"));
  if (!ty.shape.empty()) p = o::reshape(cx.b, p, {});
  return p;
}

namespace {

std::string oneBranch(const std::string& n, const SourceLoc& loc) {
  return "'" + n + "' is assigned in only one branch of the if on a tensor at line " +
         std::to_string(loc.line) +
         " (a tf.cond): it does not exist after the if. Assign it in both branches, or before the "
         "if";
}

// Zeros of a static type, referencing no value of the other branch.
Value zerosOf(Builder& b, const TypeInfo& t, const SourceLoc& loc) {
  Attrs a{{"dtype", std::string(dtypeName(t.dtype))}};
  if (t.list) return b.op1("list_zeros", {}, a.set("elem_shape", t.shape));
  if (!fullyKnown(t.shape))
    throw EngineError("a value set in only one branch of an if on a tensor has an unknown shape",
                      loc);
  return b.op1("fill", {}, a.set("shape", t.shape).set("value", 0.0));
}

}  // namespace

void Tracer::materialize(const std::vector<std::string>& names) {
  if (!scope_->variantBlock) return;
  for (const auto& n : names)
    if (!scope_->vars.count(n))
      if (auto it = globals_->vars.find(n); it != globals_->vars.end())
        scope_->vars[n] = it->second;
}

// Flattening ---------------------------------------------------------------------------------

void Tracer::flatten(const Val& v, std::vector<Value>& out, const SourceLoc& loc,
                     const std::string& what, int depth) {
  if (depth > kMaxListNesting) fail(loc, what + " is nested too deeply");
  if (v.isTensor()) {
    const Value t = fresh(v).tensorValue();
    checkRegion(t, loc);
    out.push_back(t);
  } else if (v.isNumber() || asNdArray(v)) {
    out.push_back(toTensor(v, loc));  // a NumPy array is carried as a tensor, as AutoGraph does
  } else if (v.as<TensorArrayObj>()) {
    // The TensorArray's current list value is its only graph state.
    Val list = getAttr(v, "_list", loc);
    checkRegion(list.tensorValue(), loc);
    out.push_back(list.tensorValue());
  } else if (v.isSeq()) {
    for (const Val& x : v.items()) flatten(x, out, loc, what, depth + 1);
  } else {
    fail(loc, what + " is " + article(typeName(v)) +
                  "; only tensors, TensorArrays, numbers and lists of them can be carried by a "
                  "tensor loop or returned by a tensor branch");
  }
}

Val Tracer::unflatten(const Val& like, const std::vector<Value>& flat, size_t& pos, int depth) {
  if (depth > kMaxListNesting) throw EngineError("a structure is nested too deeply");
  if (like.isTensor() || like.isNumber()) return Val::tensor(flat.at(pos++));
  if (asNdArray(like)) return Val::tensor(flat.at(pos++));
  if (like.kind() == Kind::Object) return wrapList(cx_, flat.at(pos++), &like);
  std::vector<Val> items;
  for (const Val& x : like.items()) items.push_back(unflatten(x, flat, pos, depth + 1));
  return Val::listOf(std::move(items), like.kind() == Kind::Tuple);
}

// if -----------------------------------------------------------------------------------------

// An if on a tensor traced into a cond: the names either branch assigns, their values after
// each branch, and which of them the cond returns.
struct Tracer::TensorIf {
  Tracer& t;
  const Stmt::If& s;
  const SourceLoc& loc;
  const std::vector<std::string>& names;
  const Snapshot snap;
  std::vector<std::optional<Val>> afterTrue, afterFalse;
  std::vector<size_t> carried;  // indices into names of the cond's results
  std::vector<Val> structure;   // their values after the true branch (for unflattening)
  std::vector<std::vector<TypeInfo>> types;  // their flattened types
  std::vector<bool> dropped;                 // not set by the false branch
  const CarriedVariables vars;               // tf.Variables a branch may assign

  TensorIf(Tracer& tr, const Stmt::If& st, const SourceLoc& l, const std::vector<std::string>& ns)
      : t(tr),
        s(st),
        loc(l),
        names(ns),
        snap(*tr.scope_, ns),
        afterTrue(ns.size()),
        afterFalse(ns.size()),
        vars(tr.cx_, assignedVariables(tr, st)) {}
  static std::vector<std::shared_ptr<VarState>> assignedVariables(Tracer& tr, const Stmt::If& st) {
    std::vector<std::shared_ptr<VarState>> vs = tr.variablesAssignedIn(st.body);
    for (const auto& v : tr.variablesAssignedIn(st.orelse))
      if (std::find(vs.begin(), vs.end(), v) == vs.end()) vs.push_back(v);
    return vs;
  }
  std::vector<Value> trueBranch();
  std::vector<Value> falseBranch();
  // Carried name k after the false branch, checked against the true branch's types.
  void falseResult(size_t k, std::vector<Value>& out);
  void bindResults(const std::vector<Value>& outs);
  void bindUncarried(size_t i);  // a name the cond does not return
  void vanish(size_t i);         // set in one branch only: undefined after the if
};

Flow Tracer::execIf(const Stmt::If& s, const SourceLoc& loc) {
  Val test = eval(*s.test);
  if (!test.isTensor() || eager()) return execBlock(truthy(test, s.test->loc) ? s.body : s.orelse);
  if (const Stmt* j = findJump(s.body, true) ? findJump(s.body, true) : findJump(s.orelse, true))
    fail(j->loc, std::string("'") + jumpWord(*j) +
                     "' inside an if on a tensor is not supported: the if becomes a tf.cond, "
                     "whose branches must both run to the end; assign a variable instead");
  Value pred = scalarPredicate(cx_, test, s.test->loc, "an if");
  std::vector<std::string> names;
  assignedNames(s.body, names);
  assignedNames(s.orelse, names);
  materialize(names);
  TensorIf tensorIf(*this, s, loc, names);
  auto trueFn = [&](Builder&) { return tensorIf.trueBranch(); };
  auto falseFn = [&](Builder&) { return tensorIf.falseBranch(); };
  at(loc);
  std::vector<Value> outs = cond(b_, pred, trueFn, falseFn);
  tensorIf.snap.restore(*scope_);
  tensorIf.bindResults(outs);
  return Flow::Normal;
}

std::vector<Value> Tracer::TensorIf::trueBranch() {
  snap.restore(*t.scope_);
  vars.enter(vars.before, 0, t.b_.currentRegion());
  t.execBlock(s.body);
  std::vector<Value> out;
  for (size_t i = 0; i < names.size(); ++i) {
    afterTrue[i] = snap.current(*t.scope_, i);
    if (!afterTrue[i] || !flattenable(*afterTrue[i])) continue;
    carried.push_back(i);
    structure.push_back(*afterTrue[i]);
    dropped.push_back(false);
    const size_t before = out.size();
    t.flatten(*afterTrue[i], out, loc, "'" + names[i] + "'");
    types.emplace_back();
    for (size_t j = before; j < out.size(); ++j) types.back().push_back(t.b_.type(out[j]));
  }
  const std::vector<Value> now = vars.currents();
  out.insert(out.end(), now.begin(), now.end());
  return out;
}

std::vector<Value> Tracer::TensorIf::falseBranch() {
  snap.restore(*t.scope_);
  vars.enter(vars.before, 0, t.b_.currentRegion());
  t.execBlock(s.orelse);
  std::vector<Value> out;
  for (size_t i = 0; i < names.size(); ++i) afterFalse[i] = snap.current(*t.scope_, i);
  for (size_t k = 0; k < carried.size(); ++k) falseResult(k, out);
  const std::vector<Value> now = vars.currents();
  out.insert(out.end(), now.begin(), now.end());
  return out;
}

void Tracer::TensorIf::falseResult(size_t k, std::vector<Value>& out) {
  const size_t i = carried[k];
  const std::vector<TypeInfo>& want = types[k];
  // Missing in this branch: the name is undefined after the if; zeros keep the cond whole.
  if (!afterFalse[i]) {
    dropped[k] = true;
    for (const TypeInfo& ty : want) out.push_back(zerosOf(t.b_, ty, loc));
    return;
  }
  const Val& v = *afterFalse[i];
  if (!flattenable(v))
    t.fail(loc, "'" + names[i] + "' is a tensor after the if branch but " + article(typeName(v)) +
                    " after the else branch");
  std::vector<Value> got;
  if (v.isNumber() && want.size() == 1)
    got.push_back(t.toTensor(v, loc, want[0].dtype));
  else
    t.flatten(v, got, loc, "'" + names[i] + "'");
  if (got.size() != want.size())
    t.fail(loc, "'" + names[i] + "' has a different structure after each branch of the if");
  for (size_t j = 0; j < got.size(); ++j) {
    const TypeInfo& a = want[j];
    const TypeInfo& c = t.b_.type(got[j]);
    if (a.list != c.list || a.dtype != c.dtype || !compatible(a.shape, c.shape))
      t.fail(t.scope_->vars.at(names[i]).loc,
             "the if branch makes '" + names[i] + "' " + a.str() +
                 " but the else branch makes it " + c.str() +
                 "; both branches of an if on a tensor must give the same dtype and shape");
    out.push_back(got[j]);
  }
}

void Tracer::TensorIf::bindResults(const std::vector<Value>& outs) {
  size_t pos = 0;
  std::vector<bool> done(names.size(), false);
  for (size_t k = 0; k < carried.size(); ++k) {
    Val v = t.unflatten(structure[k], outs, pos);
    done[carried[k]] = true;
    if (!dropped[k])
      t.bind(names[carried[k]], v, loc);
    else
      vanish(carried[k]);
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (!done[i]) bindUncarried(i);
  vars.exit(outs, pos);
}

void Tracer::TensorIf::bindUncarried(size_t i) {
  const auto& tv = afterTrue[i];
  const auto& fv = afterFalse[i];
  const std::optional<Val> pre =
      snap.before[i] ? std::optional<Val>(snap.before[i]->v) : std::nullopt;
  auto same = [](const std::optional<Val>& x, const std::optional<Val>& y) {
    return (!x && !y) || (x && y && sameValue(*x, *y));
  };
  if (same(tv, fv)) {
    if (tv) t.bind(names[i], *tv, loc);
    return;
  }
  if (!tv || !fv || (fv && flattenable(*fv) && !pre)) return vanish(i);
  t.fail(loc, "'" + names[i] + "' is " + article(typeName(tv ? *tv : *fv)) +
                  " that the two branches of an if on a tensor set differently; only tensors can "
                  "differ between the branches of a tf.cond");
}

void Tracer::TensorIf::vanish(size_t i) {
  t.scope_->vars.erase(names[i]);
  t.vanished_[names[i]] = oneBranch(names[i], loc);
}

Val Tracer::ifExp(const Expr::IfExp& e, const SourceLoc& loc) {
  Val test = eval(*e.test);
  if (!test.isTensor() || eager()) return eval(truthy(test, e.test->loc) ? *e.body : *e.orelse);
  Value pred = scalarPredicate(cx_, test, e.test->loc, "a conditional expression");
  Val structure;
  auto trueFn = [&](Builder&) {
    structure = eval(*e.body);
    std::vector<Value> out;
    flatten(structure, out, e.body->loc, "the value");
    return out;
  };
  auto falseFn = [&](Builder&) {
    Val v = eval(*e.orelse);
    std::vector<Value> out;
    if (v.isNumber() && structure.isTensor())
      out.push_back(toTensor(v, e.orelse->loc, b_.type(structure.tensorValue()).dtype));
    else
      flatten(v, out, e.orelse->loc, "the value");
    return out;
  };
  at(loc);
  std::vector<Value> outs = cond(b_, pred, trueFn, falseFn);
  size_t pos = 0;
  return unflatten(structure, outs, pos);
}

}  // namespace gl::lang::trace
