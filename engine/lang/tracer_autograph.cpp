// AutoGraph rules: `if`/`while` on Python values run while tracing; on tensors they become
// cond/while_loop nodes. `for i in range(n)` unrolls; `for i in tf.range(n)` becomes one
// while_loop; a for over a tensor unrolls over its first axis. As in TF's AutoGraph, the names
// a loop body assigns that exist before the loop are its loop variables, and the names a
// branch assigns are the cond's results.
#include <algorithm>
#include <optional>

#include "engine/control/control_flow.h"
#include "engine/lang/tracer.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

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
                   [](const Stmt::ExprStmt&) -> Found { return nullptr; },
                   [](const Stmt::Assign&) -> Found { return nullptr; },
                   [](const Stmt::AugAssign&) -> Found { return nullptr; },
                   [](const Stmt::Pass&) -> Found { return nullptr; },
                   [](const Stmt::ParamDecl&) -> Found { return nullptr; }},
        s.node);
    if (inner) return inner;
  }
  return nullptr;
}

const char* jumpWord(const Stmt& s) {
  return s.is<Stmt::Return>() ? "return" : s.is<Stmt::Break>() ? "break" : "continue";
}

bool flattenable(const Val& v, int depth = 0) {
  if (v.isTensor() || v.isNumber()) return true;
  if (v.kind == Kind::Object) return v.obj->typeName() == "TensorArray";
  if (v.isSeq() && depth < kMaxListNesting) {
    for (const Val& x : v.items())
      if (!flattenable(x, depth + 1)) return false;
    return !v.items().empty();
  }
  return false;
}

Value scalarPredicate(Tracer& t, const Val& test, const SourceLoc& loc, const char* what) {
  Value p = t.toTensor(test, loc);
  const TypeInfo& ty = t.b.type(p);
  if (ty.list || ty.dtype != DType::Bool || numel(ty.shape) != 1)
    t.fail(loc, std::string(what) + " on a tensor needs a scalar bool condition, got " + ty.str() +
                    (ty.dtype == DType::Bool ? "; reduce it with tf.reduce_all/tf.reduce_any"
                                             : "; compare it first (x > 0)"));
  if (!ty.shape.empty()) p = o::reshape(t.b, p, {});
  return p;
}

// Saves and restores the local bindings of some names around a traced branch or body.
struct Snapshot {
  std::vector<std::string> names;
  std::vector<std::optional<Binding>> before;
  Snapshot(Scope& s, std::vector<std::string> ns) : names(std::move(ns)) {
    for (const auto& n : names) {
      auto it = s.vars.find(n);
      before.push_back(it == s.vars.end() ? std::nullopt : std::optional<Binding>(it->second));
    }
  }
  void restore(Scope& s) const {
    for (size_t i = 0; i < names.size(); ++i) {
      if (before[i])
        s.vars[names[i]] = *before[i];
      else
        s.vars.erase(names[i]);
    }
  }
  std::optional<Val> current(Scope& s, size_t i) const {
    auto it = s.vars.find(names[i]);
    if (it == s.vars.end()) return std::nullopt;
    return it->second.v;
  }
};

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

// Names first assigned inside a tensor loop body exist only there.
void noteBodyLocals(Tracer& t, const Snapshot& snap, const std::vector<std::string>& loopVars,
                    const std::string& loop, int line) {
  for (size_t i = 0; i < snap.names.size(); ++i) {
    const std::string& n = snap.names[i];
    if (snap.before[i] || std::find(loopVars.begin(), loopVars.end(), n) != loopVars.end())
      continue;
    t.vanished[n] = "'" + n + "' is assigned only inside the body of the " + loop + " at line " +
                    std::to_string(line) +
                    ", which becomes one while_loop node: it does not exist after the loop. Assign "
                    "it before the loop to make it a loop variable (or collect values with a "
                    "TensorArray)";
  }
}

}  // namespace

void Tracer::materialize(const std::vector<std::string>& names) {
  if (!scope->variantBlock) return;
  for (const auto& n : names)
    if (!scope->vars.count(n))
      if (auto it = globals->vars.find(n); it != globals->vars.end()) scope->vars[n] = it->second;
}

// Flattening ---------------------------------------------------------------------------------

void Tracer::flatten(const Val& v, std::vector<Value>& out, const SourceLoc& loc,
                     const std::string& what, int depth) {
  if (depth > kMaxListNesting) fail(loc, what + " is nested too deeply");
  if (v.isTensor()) {
    checkRegion(v.t, loc);
    out.push_back(v.t);
  } else if (v.isNumber()) {
    out.push_back(toTensor(v, loc));
  } else if (v.kind == Kind::Object && v.obj->typeName() == "TensorArray") {
    std::vector<Value> inner;
    // The TensorArray's current list value is its only graph state.
    Val list = getAttr(v, "_list", loc);
    checkRegion(list.t, loc);
    out.push_back(list.t);
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
  if (like.kind == Kind::Object) return wrapList(cx_, flat.at(pos++), &like);
  std::vector<Val> items;
  for (const Val& x : like.items()) items.push_back(unflatten(x, flat, pos, depth + 1));
  return Val::listOf(std::move(items), like.kind == Kind::Tuple);
}

// if -----------------------------------------------------------------------------------------

Flow Tracer::execIf(const Stmt::If& s, const SourceLoc& loc) {
  Val test = eval(*s.test);
  if (!test.isTensor()) return execBlock(truthy(test, s.test->loc) ? s.body : s.orelse);
  if (const Stmt* j = findJump(s.body, true) ? findJump(s.body, true) : findJump(s.orelse, true))
    fail(j->loc, std::string("'") + jumpWord(*j) +
                     "' inside an if on a tensor is not supported: the if becomes a tf.cond, "
                     "whose branches must both run to the end; assign a variable instead");
  Value pred = scalarPredicate(*this, test, s.test->loc, "an if");
  std::vector<std::string> names;
  assignedNames(s.body, names);
  assignedNames(s.orelse, names);
  materialize(names);
  const Snapshot snap(*scope, names);
  std::vector<std::optional<Val>> afterTrue(names.size()), afterFalse(names.size());
  std::vector<size_t> carried;  // indices into names of the cond's results
  std::vector<Val> structure;   // their values after the true branch (for unflattening)
  std::vector<std::vector<TypeInfo>> types;  // their flattened types
  std::vector<bool> dropped;
  auto trueFn = [&](Builder&) {
    snap.restore(*scope);
    execBlock(s.body);
    std::vector<Value> out;
    for (size_t i = 0; i < names.size(); ++i) {
      afterTrue[i] = snap.current(*scope, i);
      if (afterTrue[i] && flattenable(*afterTrue[i])) {
        carried.push_back(i);
        structure.push_back(*afterTrue[i]);
        dropped.push_back(false);
        const size_t before = out.size();
        flatten(*afterTrue[i], out, loc, "'" + names[i] + "'");
        types.emplace_back();
        for (size_t j = before; j < out.size(); ++j) types.back().push_back(b.type(out[j]));
      }
    }
    return out;
  };
  auto falseFn = [&](Builder&) {
    snap.restore(*scope);
    execBlock(s.orelse);
    std::vector<Value> out;
    for (size_t i = 0; i < names.size(); ++i) afterFalse[i] = snap.current(*scope, i);
    for (size_t k = 0; k < carried.size(); ++k) {
      const size_t i = carried[k];
      const std::vector<TypeInfo>& want = types[k];
      // Missing in this branch: the name is undefined after the if; zeros keep the cond whole.
      if (!afterFalse[i]) {
        dropped[k] = true;
        for (const TypeInfo& ty : want) out.push_back(zerosOf(b, ty, loc));
        continue;
      }
      if (!flattenable(*afterFalse[i]))
        fail(loc, "'" + names[i] + "' is a tensor after the if branch but " +
                      article(typeName(*afterFalse[i])) + " after the else branch");
      std::vector<Value> got;
      for (const Val* part : {&*afterFalse[i]}) {
        if (part->isNumber() && want.size() == 1)
          got.push_back(toTensor(*part, loc, want[0].dtype));
        else
          flatten(*part, got, loc, "'" + names[i] + "'");
      }
      if (got.size() != want.size())
        fail(loc, "'" + names[i] + "' has a different structure after each branch of the if");
      for (size_t j = 0; j < got.size(); ++j) {
        const TypeInfo& a = want[j];
        const TypeInfo& c = b.type(got[j]);
        if (a.list != c.list || a.dtype != c.dtype || !compatible(a.shape, c.shape))
          fail(scope->vars.at(names[i]).loc,
               "the if branch makes '" + names[i] + "' " + a.str() +
                   " but the else branch makes it " + c.str() +
                   "; both branches of an if on a tensor must give the same dtype and shape");
        out.push_back(got[j]);
      }
    }
    return out;
  };
  at(loc);
  std::vector<Value> outs = cond(b, pred, trueFn, falseFn);
  snap.restore(*scope);
  size_t pos = 0;
  std::vector<bool> done(names.size(), false);
  for (size_t k = 0; k < carried.size(); ++k) {
    Val v = unflatten(structure[k], outs, pos);
    done[carried[k]] = true;
    if (!dropped[k]) {
      bind(names[carried[k]], v, loc);
    } else {
      scope->vars.erase(names[carried[k]]);
      vanished[names[carried[k]]] = oneBranch(names[carried[k]], loc);
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (done[i]) continue;
    const auto& t = afterTrue[i];
    const auto& f = afterFalse[i];
    const std::optional<Val> pre =
        snap.before[i] ? std::optional<Val>(snap.before[i]->v) : std::nullopt;
    auto same = [](const std::optional<Val>& x, const std::optional<Val>& y) {
      return (!x && !y) || (x && y && sameValue(*x, *y));
    };
    if (same(t, f)) {
      if (t) bind(names[i], *t, loc);
      continue;
    }
    if (!t || !f || (f && flattenable(*f) && !pre)) {
      scope->vars.erase(names[i]);  // set in one branch only: undefined after the if
      vanished[names[i]] = oneBranch(names[i], loc);
      continue;
    }
    fail(loc, "'" + names[i] + "' is " + article(typeName(t ? *t : *f)) +
                  " that the two branches of an if on a tensor set differently; only tensors can "
                  "differ between the branches of a tf.cond");
  }
  return Flow::Normal;
}

Val Tracer::ifExp(const Expr::IfExp& e, const SourceLoc& loc) {
  Val test = eval(*e.test);
  if (!test.isTensor()) return eval(truthy(test, e.test->loc) ? *e.body : *e.orelse);
  Value pred = scalarPredicate(*this, test, e.test->loc, "a conditional expression");
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
      out.push_back(toTensor(v, e.orelse->loc, b.type(structure.t).dtype));
    else
      flatten(v, out, e.orelse->loc, "the value");
    return out;
  };
  at(loc);
  std::vector<Value> outs = cond(b, pred, trueFn, falseFn);
  size_t pos = 0;
  return unflatten(structure, outs, pos);
}

// Tensor loops -------------------------------------------------------------------------------

namespace {

// The loop variables of a tensor loop: names the body assigns that are bound (locally) before
// the loop to something a loop can carry.
struct LoopVars {
  std::vector<std::string> names;
  std::vector<Val> init;
  std::vector<size_t> counts;  // flattened values per name
  std::vector<Value> flat;
};

LoopVars collectLoopVars(Tracer& t, const Block& body, const std::vector<std::string>& exclude,
                         const SourceLoc& loc) {
  std::vector<std::string> assigned;
  assignedNames(body, assigned);
  LoopVars lv;
  for (const auto& n : assigned) {
    if (std::find(exclude.begin(), exclude.end(), n) != exclude.end()) continue;
    auto it = t.scope->vars.find(n);
    if (it == t.scope->vars.end() || !flattenable(it->second.v)) continue;
    lv.names.push_back(n);
    lv.init.push_back(it->second.v);
    const size_t before = lv.flat.size();
    t.flatten(it->second.v, lv.flat, loc, "'" + n + "'");
    lv.counts.push_back(lv.flat.size() - before);
  }
  return lv;
}

void bindLoopVars(Tracer& t, const LoopVars& lv, const std::vector<Value>& vals, size_t pos,
                  const SourceLoc& loc) {
  for (size_t k = 0; k < lv.names.size(); ++k)
    t.bind(lv.names[k], t.unflatten(lv.init[k], vals, pos), loc);
}

// After one traced body: the loop variables' new values, checked against their types.
std::vector<Value> loopResults(Tracer& t, const LoopVars& lv, const std::vector<Value>& initFlat,
                               const SourceLoc& loc, const std::string& loopWord) {
  std::vector<Value> out;
  size_t pos = 0;
  for (size_t k = 0; k < lv.names.size(); ++k) {
    const std::string& n = lv.names[k];
    auto it = t.scope->vars.find(n);
    if (it == t.scope->vars.end()) t.fail(loc, loopWord + " body leaves '" + n + "' undefined");
    std::vector<Value> got;
    const Val& v = it->second.v;
    // Errors point at the body's (last) assignment of the name.
    const SourceLoc at = it->second.loc.known() ? it->second.loc : loc;
    if (v.isNumber() && lv.counts[k] == 1)
      got.push_back(t.toTensor(v, at, t.b.type(initFlat[pos]).dtype));
    else
      t.flatten(v, got, at, "'" + n + "'");
    if (got.size() != lv.counts[k])
      t.fail(at, loopWord + " body changes the structure of '" + n + "'");
    for (Value g : got) {
      const TypeInfo& a = t.b.type(initFlat[pos]);
      const TypeInfo& c = t.b.type(g);
      ++pos;
      if (a.list && c.list && a.dtype == c.dtype) {
        out.push_back(g);
        continue;
      }
      if (a.dtype != c.dtype)
        t.fail(at, loopWord + " body changes the dtype of '" + n + "' from " + dtypeName(a.dtype) +
                       " to " + dtypeName(c.dtype));
      if (a.list != c.list || !compatible(a.shape, c.shape))
        t.fail(at, loopWord + " body changes the shape of '" + n + "' from " + shapeStr(a.shape) +
                       " to " + shapeStr(c.shape) +
                       "; a loop variable must keep its shape in every iteration");
      out.push_back(g);
    }
  }
  return out;
}

}  // namespace

Flow Tracer::execWhile(const Stmt::While& s, const SourceLoc& loc) {
  Val test = eval(*s.test);
  if (!test.isTensor()) {
    int64_t n = 0;
    while (truthy(test, s.test->loc)) {
      countUnroll(loc);
      Flow f = execBlock(s.body);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
      test = eval(*s.test);
      ++n;
      if (test.isTensor())
        fail(s.test->loc, "this while condition became a tensor after " + std::to_string(n) +
                              " Python iterations; make it a tensor from the start (e.g. "
                              "i = tf.constant(0)) so the loop becomes one tf.while_loop");
    }
    return Flow::Normal;
  }
  if (const Stmt* j = findJump(s.body, true))
    fail(j->loc,
         std::string("'") + jumpWord(*j) +
             "' is not supported in a while loop on a tensor (it becomes one tf.while_loop); "
             "fold the condition into the loop test instead");
  std::vector<std::string> assigned;
  assignedNames(s.body, assigned);
  materialize(assigned);
  const Snapshot snap(*scope, assigned);
  LoopVars lv = collectLoopVars(*this, s.body, {}, loc);
  if (lv.names.empty())
    fail(loc,
         "this while loop on a tensor changes no variable defined before it, so it would "
         "never end");
  const std::string word = "the while loop";
  auto condFn = [&](Builder&, const std::vector<Value>& params) {
    bindLoopVars(*this, lv, params, 0, loc);
    return scalarPredicate(*this, eval(*s.test), s.test->loc, "a while loop");
  };
  auto bodyFn = [&](Builder&, const std::vector<Value>& params) {
    bindLoopVars(*this, lv, params, 0, loc);
    execBlock(s.body);
    return loopResults(*this, lv, lv.flat, loc, word);
  };
  at(loc);
  std::vector<Value> outs =
      whileLoop(b, condFn, bodyFn, lv.flat, WhileOptions{kDefaultParallelIterations, -1, "while"});
  snap.restore(*scope);
  noteBodyLocals(*this, snap, lv.names, "while loop", loc.line);
  bindLoopVars(*this, lv, outs, 0, loc);
  return Flow::Normal;
}

Flow Tracer::execFor(const Stmt::For& s, const SourceLoc& loc) {
  Val seq = eval(*s.iter);
  if (seq.range) {
    // for i in tf.range(...): one while_loop over a counter.
    if (const Stmt* j = findJump(s.body, true))
      fail(j->loc, std::string("'") + jumpWord(*j) +
                       "' is not supported in a tf.range loop (its body becomes one "
                       "tf.while_loop); use a Python range to unroll, or a condition instead");
    std::vector<std::string> targets;
    std::vector<std::string> assigned;
    targetNames(*s.target, targets);
    assignedNames(s.body, assigned);
    assigned.insert(assigned.end(), targets.begin(), targets.end());
    materialize(assigned);
    const Snapshot snap(*scope, assigned);
    LoopVars lv = collectLoopVars(*this, s.body, targets, loc);
    at(loc);
    const RangeInfo& r = *seq.range;
    Value start = toTensor(r.start, s.iter->loc, DType::I32);
    Value limit = toTensor(r.limit, s.iter->loc, DType::I32);
    Value delta = toTensor(r.delta, s.iter->loc, DType::I32);
    const bool down = r.delta.kind == Kind::Int && r.delta.i < 0;
    std::vector<Value> init{start};
    init.insert(init.end(), lv.flat.begin(), lv.flat.end());
    const std::string word = "the tf.range loop";
    auto condFn = [&](Builder& bb, const std::vector<Value>& p) {
      return down ? o::greater(bb, p[0], limit) : o::less(bb, p[0], limit);
    };
    auto bodyFn = [&](Builder& bb, const std::vector<Value>& p) {
      bindLoopVars(*this, lv, p, 1, loc);
      assign(*s.target, Val::tensor(p[0]));
      execBlock(s.body);
      std::vector<Value> out = loopResults(*this, lv, lv.flat, loc, word);
      at(loc);
      out.insert(out.begin(), o::add(bb, p[0], delta));
      return out;
    };
    std::string name = "for";
    if (auto n = s.target->as<Expr::Name>()) name = "for " + n->id;
    std::vector<Value> outs = whileLoop(b, condFn, bodyFn, init, WhileOptions{10, -1, name});
    snap.restore(*scope);
    noteBodyLocals(*this, snap, lv.names, "tf.range loop", loc.line);
    bindLoopVars(*this, lv, outs, 1, loc);
    return Flow::Normal;
  }
  std::vector<Val> items;
  if (seq.isTensor()) {
    // A Python for over a tensor unrolls over its first axis.
    const Shape& sh = b.type(seq.t).shape;
    if (sh.empty()) fail(s.iter->loc, "cannot iterate over a scalar tensor");
    if (sh[0] < 0)
      fail(s.iter->loc, "cannot unroll a for loop over a tensor whose first dimension is unknown");
    if (sh[0] > opt.maxUnroll)
      countUnroll(s.iter->loc), fail(s.iter->loc, "too many iterations to unroll");
    at(s.iter->loc);
    if (sh[0] > 0)
      for (Value v : o::unstack(b, seq.t, 0)) items.push_back(Val::tensor(v));
  } else if (auto iter = seq.as<Object>(); iter && iter->typeName() == "range") {
    // A lazy Python range: never materialised, so range(10**9) stops at maxUnroll.
    Val startV = getAttr(seq, "start", loc), stopV = getAttr(seq, "stop", loc),
        stepV = getAttr(seq, "step", loc);
    for (int64_t i = startV.i; stepV.i > 0 ? i < stopV.i : i > stopV.i;) {
      countUnroll(loc);
      assign(*s.target, Val::integer(i));
      Flow f = execBlock(s.body);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
      if (__builtin_add_overflow(i, stepV.i, &i)) break;
    }
    return Flow::Normal;
  } else {
    items = callSimple(*lookupBuiltin("list"), {seq}, s.iter->loc, "list").items();
  }
  for (const Val& item : items) {
    countUnroll(loc);
    assign(*s.target, item);
    Flow f = execBlock(s.body);
    if (f == Flow::Break) break;
    if (f == Flow::Return) return f;
  }
  return Flow::Normal;
}

}  // namespace gl::lang::trace
