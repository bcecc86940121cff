// AutoGraph rules for loops: `while` on a Python value and `for` over a Python range, list or
// tensor unroll while tracing; `while` on a tensor and `for i in tf.range(n)` become one
// while_loop node. As in TF's AutoGraph, the names a loop body assigns that exist before the
// loop are its loop variables.
#include <algorithm>

#include "engine/control/control_flow.h"
#include "engine/lang/tracer_autograph.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

// A tensor loop being traced: its loop variables are the names the body assigns that are bound
// (locally) before the loop to something a loop can carry.
struct Tracer::TensorLoop {
  Tracer& t;
  const SourceLoc& loc;
  const std::string word;  // "the while loop", as errors name it
  std::vector<std::string> names;
  std::vector<Val> init;
  std::vector<size_t> counts;  // flattened values per name
  std::vector<Value> flat;

  // The loop variables of body, but for the names in exclude (a for's targets).
  void collect(const Block& body, const std::vector<std::string>& exclude);
  // Binds the loop variables to vals[pos...].
  void bind(const std::vector<Value>& vals, size_t pos) const;
  // After one traced body: the loop variables' new values, checked against their types.
  std::vector<Value> results() const;
  void resultOf(size_t k, size_t& pos, std::vector<Value>& out) const;
  // Names first assigned inside the body exist only there: the unknown-name error says why.
  void noteBodyLocals(const Snapshot& snap, const std::string& loop) const;
};

void Tracer::TensorLoop::collect(const Block& body, const std::vector<std::string>& exclude) {
  std::vector<std::string> assigned;
  assignedNames(body, assigned);
  for (const auto& n : assigned) {
    if (std::find(exclude.begin(), exclude.end(), n) != exclude.end()) continue;
    auto it = t.scope_->vars.find(n);
    if (it == t.scope_->vars.end() || !flattenable(it->second.v)) continue;
    names.push_back(n);
    init.push_back(it->second.v);
    const size_t before = flat.size();
    t.flatten(it->second.v, flat, loc, "'" + n + "'");
    counts.push_back(flat.size() - before);
  }
}

void Tracer::TensorLoop::bind(const std::vector<Value>& vals, size_t pos) const {
  for (size_t k = 0; k < names.size(); ++k) t.bind(names[k], t.unflatten(init[k], vals, pos), loc);
}

std::vector<Value> Tracer::TensorLoop::results() const {
  std::vector<Value> out;
  size_t pos = 0;
  for (size_t k = 0; k < names.size(); ++k) resultOf(k, pos, out);
  return out;
}

void Tracer::TensorLoop::resultOf(size_t k, size_t& pos, std::vector<Value>& out) const {
  const std::string& n = names[k];
  auto it = t.scope_->vars.find(n);
  if (it == t.scope_->vars.end()) t.fail(loc, word + " body leaves '" + n + "' undefined");
  std::vector<Value> got;
  const Val& v = it->second.v;
  // Errors point at the body's (last) assignment of the name.
  const SourceLoc at = it->second.loc.known() ? it->second.loc : loc;
  if (v.isNumber() && counts[k] == 1)
    got.push_back(t.toTensor(v, at, t.b_.type(flat[pos]).dtype));
  else
    t.flatten(v, got, at, "'" + n + "'");
  if (got.size() != counts[k]) t.fail(at, word + " body changes the structure of '" + n + "'");
  for (Value g : got) {
    const TypeInfo& a = t.b_.type(flat[pos]);
    const TypeInfo& c = t.b_.type(g);
    ++pos;
    if (a.list && c.list && a.dtype == c.dtype) {
      out.push_back(g);
      continue;
    }
    if (a.dtype != c.dtype)
      t.fail(at, word + " body changes the dtype of '" + n + "' from " + dtypeName(a.dtype) +
                     " to " + dtypeName(c.dtype));
    if (a.list != c.list || !compatible(a.shape, c.shape))
      t.fail(at, word + " body changes the shape of '" + n + "' from " + shapeStr(a.shape) +
                     " to " + shapeStr(c.shape) +
                     "; a loop variable must keep its shape in every iteration");
    out.push_back(g);
  }
}

void Tracer::TensorLoop::noteBodyLocals(const Snapshot& snap, const std::string& loop) const {
  for (size_t i = 0; i < snap.names.size(); ++i) {
    const std::string& n = snap.names[i];
    if (snap.before[i] || std::find(names.begin(), names.end(), n) != names.end()) continue;
    t.vanished_[n] = "'" + n + "' is assigned only inside the body of the " + loop + " at line " +
                     std::to_string(loc.line) +
                     ", which becomes one while_loop node: it does not exist after the loop. "
                     "Assign it before the loop to make it a loop variable (or collect values "
                     "with a TensorArray)";
  }
}

// while --------------------------------------------------------------------------------------

Flow Tracer::execWhile(const Stmt::While& s, const SourceLoc& loc) {
  Val test = eval(*s.test);
  if (!test.isTensor() || eager()) return pythonWhile(s, test, loc);
  if (const Stmt* j = findJump(s.body, false))
    fail(j->loc,
         "'return' is not supported in a while loop on a tensor (it becomes one "
         "tf.while_loop); fold the condition into the loop test instead");
  std::string breakFlag;
  const Block& body = rewriteJumps(s.body, breakFlag);
  std::vector<std::string> assigned;
  assignedNames(body, assigned);
  materialize(assigned);
  const Snapshot snap(*scope_, assigned);
  TensorLoop lv{*this, loc, "the while loop"};
  lv.collect(body, {});
  const CarriedVariables vars(cx_, variablesAssignedIn(body));
  if (lv.names.empty() && vars.vars.empty())
    fail(loc,
         "this while loop on a tensor changes no variable defined before it, so it would "
         "never end");
  std::vector<Value> init = lv.flat;
  init.insert(init.end(), vars.before.begin(), vars.before.end());
  auto condFn = [&](Builder& bb, const std::vector<Value>& params) {
    lv.bind(params, 0);
    vars.enter(params, lv.flat.size(), bb.currentRegion());
    Value p = scalarPredicate(cx_, eval(*s.test), s.test->loc, "a while loop");
    if (breakFlag.empty()) return p;
    at(loc);
    return o::logicalAnd(bb, p, o::logicalNot(bb, toTensor(lookup(breakFlag)->v, loc)));
  };
  auto bodyFn = [&](Builder& bb, const std::vector<Value>& params) {
    lv.bind(params, 0);
    vars.enter(params, lv.flat.size(), bb.currentRegion());
    execBlock(body);
    std::vector<Value> out = lv.results();
    const std::vector<Value> now = vars.currents();
    out.insert(out.end(), now.begin(), now.end());
    return out;
  };
  at(loc);
  std::vector<Value> outs =
      whileLoop(b_, condFn, bodyFn, init, WhileOptions{kDefaultParallelIterations, -1, "while"});
  snap.restore(*scope_);
  lv.noteBodyLocals(snap, "while loop");
  lv.bind(outs, 0);
  vars.exit(outs, lv.flat.size());
  return Flow::Normal;
}

Flow Tracer::pythonWhile(const Stmt::While& s, Val test, const SourceLoc& loc) {
  int64_t n = 0;
  while (truthy(test, s.test->loc)) {
    countUnroll(loc);
    Flow f = execBlock(s.body);
    if (f == Flow::Break) break;
    if (f == Flow::Return) return f;
    test = eval(*s.test);
    ++n;
    if (test.isTensor() && !eager())
      fail(s.test->loc, "this while condition became a tensor after " + std::to_string(n) +
                            " Python iterations; make it a tensor from the start (e.g. "
                            "i = tf.constant(0)) so the loop becomes one tf.while_loop");
  }
  return Flow::Normal;
}

// for ----------------------------------------------------------------------------------------

Flow Tracer::execFor(const Stmt::For& s, const SourceLoc& loc) {
  Val seq = eval(*s.iter);
  if (seq.range())
    return eager() ? forEagerRange(s, *seq.range(), loc) : forTfRange(s, *seq.range(), loc);
  if (seq.isTensor()) return forItems(s, tensorRows(seq.tensorValue(), s.iter->loc), loc);
  if (seq.as<RangeObj>()) return forPythonRange(s, seq, loc);
  return forItems(s, callSimple(*lookupBuiltin("list"), {seq}, s.iter->loc, "list").items(), loc);
}

// for i in tf.range(...): one while_loop over a counter.
Flow Tracer::forTfRange(const Stmt::For& s, const RangeInfo& r, const SourceLoc& loc) {
  if (const Stmt* j = findJump(s.body, false))
    fail(j->loc,
         "'return' is not supported in a tf.range loop (its body becomes one "
         "tf.while_loop); use a Python range to unroll, or break out of the loop instead");
  std::string breakFlag;
  const Block& body = rewriteJumps(s.body, breakFlag);
  std::vector<std::string> targets;
  std::vector<std::string> assigned;
  targetNames(*s.target, targets);
  assignedNames(body, assigned);
  assigned.insert(assigned.end(), targets.begin(), targets.end());
  materialize(assigned);
  const Snapshot snap(*scope_, assigned);
  TensorLoop lv{*this, loc, "the tf.range loop"};
  lv.collect(body, targets);
  const CarriedVariables vars(cx_, variablesAssignedIn(body));
  at(loc);
  Value start = toTensor(r.start, s.iter->loc, DType::I32);
  Value limit = toTensor(r.limit, s.iter->loc, DType::I32);
  Value delta = toTensor(r.delta, s.iter->loc, DType::I32);
  const bool down = r.delta.kind() == Kind::Int && r.delta.asInt() < 0;
  std::vector<Value> init{start};
  init.insert(init.end(), lv.flat.begin(), lv.flat.end());
  init.insert(init.end(), vars.before.begin(), vars.before.end());
  // The break flag's place among the loop variables (AutoGraph ands it into the test).
  size_t breakAt = 0;
  for (size_t k = 0, pos = 1; k < lv.names.size(); pos += lv.counts[k], ++k)
    if (lv.names[k] == breakFlag) breakAt = pos;
  auto condFn = [&](Builder& bb, const std::vector<Value>& p) {
    Value more = down ? o::greater(bb, p[0], limit) : o::less(bb, p[0], limit);
    return breakAt ? o::logicalAnd(bb, more, o::logicalNot(bb, p[breakAt])) : more;
  };
  auto bodyFn = [&](Builder& bb, const std::vector<Value>& p) {
    lv.bind(p, 1);
    vars.enter(p, 1 + lv.flat.size(), bb.currentRegion());
    assign(*s.target, Val::tensor(p[0]));
    execBlock(body);
    std::vector<Value> out = lv.results();
    const std::vector<Value> now = vars.currents();
    out.insert(out.end(), now.begin(), now.end());
    at(loc);
    out.insert(out.begin(), o::add(bb, p[0], delta));
    return out;
  };
  std::string name = "for";
  if (auto n = s.target->as<Expr::Name>()) name = "for " + n->id;
  std::vector<Value> outs = whileLoop(b_, condFn, bodyFn, init, WhileOptions{10, -1, name});
  snap.restore(*scope_);
  lv.noteBodyLocals(snap, "tf.range loop");
  lv.bind(outs, 1);
  vars.exit(outs, 1 + lv.flat.size());
  return Flow::Normal;
}

// for i in tf.range(...) in eager code: a Python loop over the range's values, each a scalar
// tensor (iterating an EagerTensor yields its rows).
Flow Tracer::forEagerRange(const Stmt::For& s, const RangeInfo& r, const SourceLoc& loc) {
  auto number = [&](const Val& v) -> int64_t {
    if (!v.isTensor()) return v.asInt();
    return int64_t(eagerValue(toTensor(v, s.iter->loc), s.iter->loc).item());
  };
  const int64_t start = number(r.start), limit = number(r.limit), delta = number(r.delta);
  if (delta == 0) fail(s.iter->loc, "InvalidArgumentError: Requires delta != 0: 0 [Op:Range]");
  for (int64_t i = start; delta > 0 ? i < limit : i > limit;) {
    countUnroll(loc);
    at(s.iter->loc);
    assign(*s.target, Val::tensor(b_.constant(Tensor::scalar(double(i), DType::I32))));
    Flow f = execBlock(s.body);
    if (f == Flow::Break) break;
    if (f == Flow::Return) return f;
    if (__builtin_add_overflow(i, delta, &i)) break;
  }
  return Flow::Normal;
}

// A lazy Python range: never materialised, so range(10**9) stops at maxUnroll.
Flow Tracer::forPythonRange(const Stmt::For& s, const Val& range, const SourceLoc& loc) {
  Val startV = getAttr(range, "start", loc), stopV = getAttr(range, "stop", loc),
      stepV = getAttr(range, "step", loc);
  for (int64_t i = startV.asInt(); stepV.asInt() > 0 ? i < stopV.asInt() : i > stopV.asInt();) {
    countUnroll(loc);
    assign(*s.target, Val::integer(i));
    Flow f = execBlock(s.body);
    if (f == Flow::Break) break;
    if (f == Flow::Return) return f;
    if (__builtin_add_overflow(i, stepV.asInt(), &i)) break;
  }
  return Flow::Normal;
}

// A Python for over a tensor unrolls over its first axis.
std::vector<Val> Tracer::tensorRows(Value x, const SourceLoc& iterLoc) {
  std::vector<Val> items;
  const Shape& sh = b_.type(x).shape;
  if (sh.empty()) fail(iterLoc, "cannot iterate over a scalar tensor");
  if (sh[0] < 0)
    fail(iterLoc, "cannot unroll a for loop over a tensor whose first dimension is unknown");
  if (sh[0] > opt_.maxUnroll) countUnroll(iterLoc), fail(iterLoc, "too many iterations to unroll");
  at(iterLoc);
  if (sh[0] > 0)
    for (Value v : o::unstack(b_, x, 0)) items.push_back(Val::tensor(v));
  return items;
}

Flow Tracer::forItems(const Stmt::For& s, const std::vector<Val>& items, const SourceLoc& loc) {
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
