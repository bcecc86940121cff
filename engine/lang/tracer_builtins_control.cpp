// tf.while_loop, tf.cond, tf.switch_case, tf.map_fn, tf.vectorized_map, tf.scan, tf.foldl and
// tf.foldr: script functions traced once into the bodies of control-flow nodes. Loop variables may
// be tensors, TensorArrays, numbers and lists/tuples of them (nested structures are flattened and
// rebuilt).
#include <algorithm>
#include <functional>

#include "engine/control/control_flow.h"
#include "engine/lang/tracer_builtins.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

// Names for loop variables written as a list of names: tf.while_loop(c, b, [i, x]).
std::vector<std::string> loopVarNames(const Expr* e, size_t n) {
  std::vector<std::string> names(n);
  const std::vector<ExprPtr>* elts = nullptr;
  if (e) {
    if (auto l = e->as<Expr::List>()) elts = &l->elts;
    if (auto t = e->as<Expr::Tuple>()) elts = &t->elts;
  }
  for (size_t i = 0; i < n; ++i) {
    names[i] = "loop variable " + std::to_string(i);
    if (elts && i < elts->size())
      if (auto nm = (*elts)[i]->as<Expr::Name>()) names[i] += " ('" + nm->id + "')";
  }
  return names;
}

std::vector<Val> asArgs(const Val& structure, bool single) {
  return single ? std::vector<Val>{structure} : structure.items();
}

Value predicateOf(Context& cx, const Val& v, const SourceLoc& loc, const char* what) {
  Value p = cx.toTensor(v, loc);
  const TypeInfo& ty = cx.b.type(p);
  if (ty.list || ty.dtype != DType::Bool || numel(ty.shape) != 1)
    cx.fail(loc, std::string(what) + " must return a scalar bool tensor, got " + ty.str());
  if (!ty.shape.empty()) p = o::reshape(cx.b, p, {});
  return p;
}

// The loop variables of tf.while_loop as written: one value or a list, flattened into init.
struct LoopVarsArg {
  Val structure;
  bool single = false;  // loop_vars is one value, not a list
  std::vector<Val> vars;
  std::vector<std::string> names;  // for errors: "loop variable 1 ('x')"
  std::vector<Value> init;
  std::vector<size_t> counts;  // flattened values per variable
};

LoopVarsArg loopVarsOf(Bound& a) {
  LoopVarsArg lv;
  lv.structure = a["loop_vars"];
  lv.single = !lv.structure.isSeq();
  if (!lv.single && lv.structure.items().empty()) a.fail("loop_vars", "must not be empty");
  lv.vars = asArgs(lv.structure, lv.single);
  lv.names = loopVarNames(a.expr("loop_vars"), lv.vars.size());
  for (size_t i = 0; i < lv.vars.size(); ++i) {
    const size_t before = lv.init.size();
    a.cx.flatten(lv.vars[i], lv.init, a.loc("loop_vars"), lv.names[i]);
    lv.counts.push_back(lv.init.size() - before);
  }
  return lv;
}

// The loop variables rebuilt from flat graph values (params of a body, or the loop's outputs).
std::vector<Val> rebuild(Context& cx, const LoopVarsArg& lv, const std::vector<Value>& flat) {
  size_t pos = 0;
  std::vector<Val> out;
  for (const Val& v : lv.vars) out.push_back(cx.unflatten(v, flat, pos));
  return out;
}

// What the body returned, one value per loop variable.
std::vector<Val> bodyResults(Context& cx, const LoopVarsArg& lv, const Val& r,
                             const SourceLoc& loc) {
  std::vector<Val> results;
  if (lv.single)
    results = r.isSeq() && r.items().size() == 1 ? r.items() : std::vector<Val>{r};
  else if (r.isSeq())
    results = r.items();
  else if (lv.vars.size() == 1)
    results = {r};  // a body may return the one variable bare
  else
    cx.fail(loc, "the while_loop body must return a list of " + std::to_string(lv.vars.size()) +
                     " loop variables, got " + article(typeName(r)));
  if (results.size() != lv.vars.size())
    cx.fail(loc, "the while_loop body returns " + std::to_string(results.size()) + " values for " +
                     std::to_string(lv.vars.size()) + " loop variables");
  return results;
}

// Result i of the body, flattened and checked against loop variable i (whose first flat value
// is init[pos]).
void flattenResult(Context& cx, const LoopVarsArg& lv, const Val& result, size_t i, size_t& pos,
                   const SourceLoc& loc, std::vector<Value>& out) {
  std::vector<Value> got;
  if (result.isNumber() && lv.counts[i] == 1)
    got.push_back(cx.toTensor(result, loc, cx.b.type(lv.init[pos]).dtype));
  else
    cx.flatten(result, got, loc, lv.names[i]);
  if (got.size() != lv.counts[i])
    cx.fail(loc, "the while_loop body changes the structure of " + lv.names[i]);
  for (Value g : got) {
    const TypeInfo& x = cx.b.type(lv.init[pos++]);
    const TypeInfo& y = cx.b.type(g);
    if (x.dtype != y.dtype)
      cx.fail(loc, "the while_loop body changes the dtype of " + lv.names[i] + " from " +
                       dtypeName(x.dtype) + " to " + dtypeName(y.dtype));
    if (x.list != y.list || (!x.list && !compatible(x.shape, y.shape)))
      cx.fail(loc, "the while_loop body changes the shape of " + lv.names[i] + " from " +
                       shapeStr(x.shape) + " to " + shapeStr(y.shape));
    out.push_back(g);
  }
}

WhileOptions whileOptionsOf(Bound& a) {
  WhileOptions opt;
  opt.parallelIterations = int(a.integer("parallel_iterations"));
  if (opt.parallelIterations < 1) a.fail("parallel_iterations", "must be at least 1");
  if (!a.none("maximum_iterations")) opt.maximumIterations = a.integer("maximum_iterations");
  if (!a.none("name")) opt.name = a.string("name");
  return opt;
}

// shape_invariants: one shape (a tuple or list of ints and None) per loop variable; each
// tensor variable enters the loop through relax_shape, so its unknown dims may change.
void applyShapeInvariants(Bound& a, LoopVarsArg& lv) {
  const Val& inv = a["shape_invariants"];
  if (inv.isNone()) return;
  if (!inv.isSeq()) a.fail("shape_invariants", "must give one shape per loop variable");
  const std::vector<Val> shapes = lv.single ? std::vector<Val>{inv} : inv.items();
  if (shapes.size() != lv.vars.size())
    a.fail("shape_invariants", "must give one shape per loop variable");
  size_t pos = 0;
  for (size_t i = 0; i < lv.vars.size(); ++i) {
    const Val& s = shapes[i];
    if (lv.counts[i] != 1 || s.isNone() || a.cx.b.type(lv.init[pos]).list) {
      pos += lv.counts[i];
      continue;
    }
    if (!s.isSeq()) a.fail("shape_invariants", "holds a shape that is not a list of dims");
    Shape dims;
    for (const Val& d : s.items()) {
      if (!d.isNone() && d.kind() != Kind::Int)
        a.fail("shape_invariants", "dims must be ints or None");
      dims.push_back(d.isNone() ? -1 : d.asInt());
    }
    a.cx.at(a.loc("shape_invariants"));
    lv.init[pos] = a.cx.b.op1("relax_shape", {lv.init[pos]}, Attrs{{"shape", dims}});
    ++pos;
  }
}

Val whileLoopBuiltin(Bound& a) {
  Context& cx = a.cx;
  LoopVarsArg lv = loopVarsOf(a);
  applyShapeInvariants(a, lv);
  const Val condFn = a["cond"], bodyFn = a["body"];
  const SourceLoc loc = a.callLoc;
  // tf.Variables the body assigns are carried as extra loop variables, after the script's.
  const CarriedVariables vars(cx, cx.variablesAssignedBy(bodyFn));
  std::vector<Value> init = lv.init;
  init.insert(init.end(), vars.before.begin(), vars.before.end());
  auto cond = [&](Builder& bb, const std::vector<Value>& p) {
    vars.enter(p, lv.init.size(), bb.currentRegion());
    Val r = cx.callSimple(condFn, rebuild(cx, lv, p), loc, "cond");
    return predicateOf(cx, r, loc, "the while_loop cond");
  };
  auto body = [&](Builder& bb, const std::vector<Value>& p) {
    vars.enter(p, lv.init.size(), bb.currentRegion());
    Val r = cx.callSimple(bodyFn, rebuild(cx, lv, p), loc, "body");
    const std::vector<Val> results = bodyResults(cx, lv, r, loc);
    std::vector<Value> out;
    size_t pos = 0;
    for (size_t i = 0; i < results.size(); ++i) flattenResult(cx, lv, results[i], i, pos, loc, out);
    const std::vector<Value> now = vars.currents();
    out.insert(out.end(), now.begin(), now.end());
    return out;
  };
  const WhileOptions opt = whileOptionsOf(a);
  cx.at(loc);
  std::vector<Value> outs = whileLoop(cx.b, cond, body, init, opt);
  vars.exit(outs, lv.init.size());
  outs.resize(lv.init.size());
  // back_prop=False: as in TF's graph mode, no gradient flows back through the loop.
  if (!a.boolean("back_prop"))
    for (Value& v : outs)
      if (!cx.b.type(v).list && isFloat(cx.b.type(v).dtype)) {
        v = ops::stopGradient(cx.b, v);
        cx.b.graph().node(v).name = "while_loop(back_prop=False)";
      }
  std::vector<Val> result = rebuild(cx, lv, outs);
  return lv.single ? result[0] : Val::listOf(std::move(result), lv.structure.kind() == Kind::Tuple);
}

Val condBuiltin(Bound& a) {
  Context& cx = a.cx;
  const Val pred = a["pred"];
  const Val tf = a["true_fn"], ff = a["false_fn"];
  if (tf.isNone() || ff.isNone()) a.fail("true_fn", "and false_fn are both required");
  if (!pred.isTensor())  // a Python bool picks the branch while tracing, as in TF
    return cx.callSimple(cx.truthy(pred, a.loc("pred")) ? tf : ff, {}, a.callLoc,
                         cx.truthy(pred, a.loc("pred")) ? "true_fn" : "false_fn");
  Value p = predicateOf(cx, pred, a.loc("pred"), "tf.cond's pred");
  Val structure;
  auto trueFn = [&](Builder&) {
    structure = cx.callSimple(tf, {}, a.callLoc, "true_fn");
    std::vector<Value> out;
    if (!structure.isNone()) cx.flatten(structure, out, a.loc("true_fn"), "true_fn's result");
    return out;
  };
  auto falseFn = [&](Builder&) {
    Val r = cx.callSimple(ff, {}, a.callLoc, "false_fn");
    std::vector<Value> out;
    if (r.isNumber() && structure.isTensor())
      out.push_back(cx.toTensor(r, a.loc("false_fn"), cx.b.type(structure.tensorValue()).dtype));
    else if (!r.isNone())
      cx.flatten(r, out, a.loc("false_fn"), "false_fn's result");
    return out;
  };
  cx.at(a.callLoc);
  std::vector<Value> outs = cond(cx.b, p, trueFn, falseFn);
  if (structure.isNone()) return Val::none();
  size_t pos = 0;
  return cx.unflatten(structure, outs, pos);
}

// tf.map_fn, or tf.vectorized_map when `vectorize`: the same tracing of fn per slice.
// tf.switch_case: branch_fns[i] where branch_index == i, else `default` (the last branch when
// it is None), as TF lowers it: nested conds, so gradients flow through the branch taken. A
// Python int picks the branch while tracing.
Val switchCaseBuiltin(Bound& a) {
  Context& cx = a.cx;
  const Val& fns = a["branch_fns"];
  std::vector<Val> branches;
  for (const Val& f : fns.isSeq() ? fns.items() : std::vector<Val>{}) {
    // A callable, or an (index, callable) pair with the indices 0, 1, ... in order.
    if (f.isSeq() && f.items().size() == 2 && f.items()[0].kind() == Kind::Int) {
      if (f.items()[0].asInt() != int64_t(branches.size()))
        a.fail("branch_fns", "pairs must be numbered 0, 1, ... in order in GradLab");
      branches.push_back(f.items()[1]);
    } else {
      branches.push_back(f);
    }
  }
  if (branches.empty()) a.fail("branch_fns", "must be a non-empty list of functions");
  const Val fallback = a.none("default") ? branches.back() : a["default"];
  const Val& index = a["branch_index"];
  if (!index.isTensor()) {
    const int64_t i = a.integer("branch_index");
    const bool in = i >= 0 && i < int64_t(branches.size());
    return cx.callSimple(in ? branches[size_t(i)] : fallback, {}, a.callLoc, "the branch");
  }
  const Value k = cx.toTensor(index, a.loc("branch_index"), DType::I32);
  Val structure;
  auto run = [&](const Val& fn) {
    const Val r = cx.callSimple(fn, {}, a.callLoc, "the branch");
    if (structure.isNone() && !r.isNone()) structure = r;
    std::vector<Value> out;
    if (!r.isNone()) cx.flatten(r, out, a.loc("branch_fns"), "a branch's result");
    return out;
  };
  std::function<std::vector<Value>(size_t)> from = [&](size_t i) -> std::vector<Value> {
    if (i == branches.size()) return run(fallback);
    const Value hit = ops::equal(cx.b, k, cx.b.scalar(double(i), DType::I32));
    return cond(
        cx.b, hit, [&](Builder&) { return run(branches[i]); },
        [&](Builder&) { return from(i + 1); });
  };
  cx.at(a.callLoc);
  std::vector<Value> outs = from(0);
  if (structure.isNone()) return Val::none();
  size_t pos = 0;
  return cx.unflatten(structure, outs, pos);
}

// map_fn's dtype / fn_output_signature declare what fn returns: a dtype, or a structure of
// dtypes matching fn's results. GradLab reads the types from fn's trace and checks them
// against the declaration, failing where TF would.
void checkDeclared(Bound& a, const char* param, const std::vector<Value>& outs) {
  const Val& d = a[param];
  if (d.isNone()) return;
  std::vector<DType> want;
  if (d.kind() == Kind::DType) want.assign(outs.size(), d.asDType());
  for (const Val& x : d.isSeq() ? d.items() : std::vector<Val>{}) {
    if (x.kind() != Kind::DType) a.fail(param, "must be a dtype or a list of dtypes in GradLab");
    want.push_back(x.asDType());
  }
  if (want.empty() && d.kind() != Kind::DType)
    a.fail(param, "must be a dtype or a list of dtypes in GradLab");
  if (want.size() != outs.size())
    a.fail(param, "declares " + std::to_string(want.size()) + " results, fn returns " +
                      std::to_string(outs.size()));
  for (size_t i = 0; i < outs.size(); ++i)
    if (a.cx.b.type(outs[i]).dtype != want[i])
      a.fail(param, std::string("declares ") + dtypeName(want[i]) + " for result " +
                        std::to_string(i) + ", fn returns " +
                        dtypeName(a.cx.b.type(outs[i]).dtype));
}

// vectorized_map's elements with a leading dimension of 1 are broadcast: every iteration sees
// their one row (TF's _broadcasting_gather), and the batch is the largest leading dimension.
void broadcastUnitElements(Bound& a, std::vector<Value>& flat) {
  Emitter& b = a.cx.b;
  int64_t batch = -1;
  bool unknown = false;
  for (Value v : flat) {
    const Shape& s = b.type(v).shape;
    if (s.empty()) a.fail("elems", "must have a leading dimension to map over, got a scalar");
    if (s[0] < 0) unknown = true;
    batch = std::max(batch, s[0]);
  }
  if (batch <= 1) return;
  for (Value& v : flat) {
    Shape s = b.type(v).shape;
    if (s[0] != 1) continue;
    if (unknown)
      a.fail("elems",
             "has an element of leading dimension 1 beside one whose leading dimension "
             "is unknown while tracing; GradLab broadcasts only known sizes");
    s[0] = batch;
    v = o::broadcastTo(b, v, s);
  }
}

Val mapOrVectorize(Bound& a, bool vectorize) {
  Context& cx = a.cx;
  const Val elems = a["elems"];
  const bool single = !elems.isSeq();
  std::vector<Value> flat;
  cx.flatten(elems, flat, a.loc("elems"), "elems");
  for (Value v : flat)
    if (cx.b.type(v).list) a.fail("elems", "must be tensors, not TensorArrays");
  const Val fn = a["fn"];
  Val structure;
  int par = 10;
  if (a.given("parallel_iterations") && !a.none("parallel_iterations"))
    par = int(a.integer("parallel_iterations"));
  if (par < 1) a.fail("parallel_iterations", "must be at least 1");
  const bool fallback = !vectorize || !a.given("fallback_to_while_loop") ||
                        cx.truthy(a["fallback_to_while_loop"], a.loc("fallback_to_while_loop"));
  auto body = [&](Builder&, const std::vector<Value>& slices) {
    size_t pos = 0;
    Val arg = cx.unflatten(elems, slices, pos);
    structure = cx.callSimple(fn, {single ? Val::tensor(slices[0]) : arg}, a.callLoc, "fn");
    std::vector<Value> out;
    if (structure.isNumber()) {
      structure = Val::tensor(cx.toTensor(structure, a.callLoc));
    }
    cx.flatten(structure, out, a.loc("fn"), "the mapped function's result");
    return out;
  };
  cx.at(a.callLoc);
  if (vectorize) broadcastUnitElements(a, flat);
  std::vector<Value> outs = vectorize ? vectorizedMap(cx.b, body, flat, fallback, par).outputs
                                      : mapFn(cx.b, body, flat, par);
  if (!vectorize) {
    for (const char* declared : {"dtype", "fn_output_signature"}) checkDeclared(a, declared, outs);
    if (!a.boolean("back_prop"))  // TF: no gradient flows back through the map
      for (Value& v : outs)
        if (isFloat(cx.b.type(v).dtype)) {
          v = o::stopGradient(cx.b, v);
          cx.b.graph().node(v).name = "map_fn(back_prop=False)";
        }
  }
  size_t pos = 0;
  return cx.unflatten(structure, outs, pos);
}

Val mapBuiltin(Bound& a) { return mapOrVectorize(a, false); }
Val vectorizedMapBuiltin(Bound& a) { return mapOrVectorize(a, true); }

// ---- tf.scan, tf.foldl, tf.foldr ----------------------------------------------------------------

enum class ScanApi { Scan, Foldl, Foldr };

std::string describeStructure(const Val& v) {
  if (v.kind() == Kind::Tuple) return "a tuple of " + std::to_string(v.items().size());
  if (v.kind() == Kind::List) return "a list of " + std::to_string(v.items().size());
  if (v.isTensor() || v.isNumber()) return "a tensor";
  return article(typeName(v));
}

// What fn returned, flattened against the accumulator's structure `like` (TF's
// nest.assert_same_structure: the same nesting of tuples and lists, tuple for tuple), a number
// taking its accumulator's dtype; each value keeps its accumulator's dtype and shape.
void flattenAccumulator(Context& cx, const Val& like, const Val& got, const std::string& path,
                        const std::vector<Value>& carry, std::vector<Value>& out,
                        const std::string& api, const SourceLoc& loc) {
  auto mismatch = [&] {
    cx.fail(loc, api + "'s fn returns " + describeStructure(got) + " as " + path + ", which is " +
                     describeStructure(like) +
                     ": fn must return the structure of the initializer (of elems when there is "
                     "no initializer)");
  };
  if (like.isSeq()) {
    if (!got.isSeq() || got.kind() != like.kind() || got.items().size() != like.items().size())
      mismatch();
    for (size_t i = 0; i < like.items().size(); ++i)
      flattenAccumulator(cx, like.items()[i], got.items()[i], path + "[" + std::to_string(i) + "]",
                         carry, out, api, loc);
    return;
  }
  if (!got.isTensor() && !got.isNumber()) mismatch();
  const TypeInfo& want = cx.b.type(carry.at(out.size()));
  const Value v = got.isNumber() ? cx.toTensor(got, loc, want.dtype) : cx.toTensor(got, loc);
  const TypeInfo& has = cx.b.type(v);
  if (has.dtype != want.dtype)
    cx.fail(loc, api + "'s fn changes the dtype of " + path + " from " + dtypeName(want.dtype) +
                     " to " + dtypeName(has.dtype));
  if (has.list || !compatible(want.shape, has.shape))
    cx.fail(loc, api + "'s fn changes the shape of " + path + " from " + shapeStr(want.shape) +
                     " to " + shapeStr(has.shape));
  out.push_back(v);
}

// The tensors of elems, flattened: each with a first axis, all of one length n (-1: unknown
// while tracing).
std::vector<Value> scannedTensors(Bound& a, int64_t& n) {
  std::vector<Value> flat;
  a.cx.flatten(a["elems"], flat, a.loc("elems"), "elems");
  if (flat.empty()) a.fail("elems", "must hold at least one tensor");
  n = -1;
  for (Value v : flat) {
    const TypeInfo& t = a.cx.b.type(v);
    if (t.list) a.fail("elems", "must be tensors, not TensorArrays");
    if (t.shape.empty())
      a.fail("elems",
             "holds a scalar, which has no first axis to scan over (TF's nest flattens "
             "a Python list of numbers into scalars too: write tf.constant([...]))");
    if (n >= 0 && t.shape[0] >= 0 && t.shape[0] != n)
      a.fail("elems", "holds tensors of different first dimensions: " + std::to_string(n) +
                          " and " + std::to_string(t.shape[0]));
    if (n < 0) n = t.shape[0];
  }
  return flat;
}

// The accumulator's structure and initial values, and the tensors the scan runs over: the
// initializer and all of elems, or (no initializer) elems' first element (the last, reversed)
// and the others.
struct ScanStart {
  Val structure;
  std::vector<Value> init, scanned;
  bool fromElems = false;  // the initial accumulator is an element: init holds it
};

ScanStart scanStart(Bound& a, const std::vector<Value>& flat, int64_t n, bool reverse,
                    const std::string& name) {
  Context& cx = a.cx;
  ScanStart s;
  if (!a.none("initializer")) {
    s.structure = a["initializer"];
    cx.flatten(s.structure, s.init, a.loc("initializer"), "the initializer");
    for (Value v : s.init)
      if (cx.b.type(v).list) a.fail("initializer", "must hold tensors, not TensorArrays");
    s.scanned = flat;
    return s;
  }
  s.structure = a["elems"];
  s.fromElems = true;
  if (n == 0)
    a.fail("elems", "is empty: without an initializer, " + name +
                        " takes its first element as the initial accumulator");
  if (reverse && n < 0)
    a.fail("elems", "has a first dimension unknown while tracing: " + name +
                        " without an initializer needs it to take the last element first; "
                        "give an initializer");
  cx.at(a.loc("elems"));
  for (Value e : flat) {
    const Shape& shape = cx.b.type(e).shape;
    std::vector<int64_t> begin(shape.size(), 0), size(shape.size(), -1);
    begin[0] = reverse ? 0 : 1;
    size[0] = reverse ? n - 1 : -1;
    s.init.push_back(o::gather(cx.b, e, cx.b.scalar(double(reverse ? n - 1 : 0), DType::I32)));
    s.scanned.push_back(o::slice(cx.b, e, begin, size));
  }
  return s;
}

// tf.scan stacks the accumulator after each element; tf.foldl and tf.foldr return the last one.
// Without an initializer the first element (the last, reversed) is the initial accumulator,
// and tf.scan's output holds it as its first row (last, reversed).
Val scanBuiltin(Bound& a, ScanApi api) {
  Context& cx = a.cx;
  const std::string name = api == ScanApi::Scan    ? "tf.scan"
                           : api == ScanApi::Foldl ? "tf.foldl"
                                                   : "tf.foldr";
  const SourceLoc loc = a.callLoc;
  const Val fn = a["fn"];
  if (fn.kind() != Kind::Object || !fn.obj()->callable()) a.fail("fn", "must be callable");
  int64_t n = -1;
  const std::vector<Value> flat = scannedTensors(a, n);
  const bool reverse = api == ScanApi::Foldr || (api == ScanApi::Scan && a.boolean("reverse"));
  ScanOptions opt;
  opt.reverse = reverse;
  opt.parallelIterations = int(a.integer("parallel_iterations"));
  if (opt.parallelIterations < 1) a.fail("parallel_iterations", "must be at least 1");
  if (!a.none("name")) opt.name = a.string("name");
  cx.at(loc);
  const ScanStart start = scanStart(a, flat, n, reverse, name);
  // tf.Variables fn assigns are carried after the accumulator, as a while_loop carries them.
  const CarriedVariables vars(cx, cx.variablesAssignedBy(fn));
  const size_t numAcc = start.init.size();
  std::vector<Value> carried = start.init;
  carried.insert(carried.end(), vars.before.begin(), vars.before.end());
  auto body = [&](Builder& bb, const std::vector<Value>& carry, const std::vector<Value>& slices) {
    vars.enter(carry, numAcc, bb.currentRegion());
    size_t pc = 0, pe = 0;
    const Val acc = cx.unflatten(start.structure, carry, pc);
    const Val x = cx.unflatten(a["elems"], slices, pe);
    const Val r = cx.callSimple(fn, {acc, x}, loc, "fn");
    ScanStep step;
    flattenAccumulator(cx, start.structure, r, "the accumulator", carry, step.carry, name, loc);
    if (api == ScanApi::Scan) step.stacked = step.carry;
    const std::vector<Value> now = vars.currents();
    step.carry.insert(step.carry.end(), now.begin(), now.end());
    return step;
  };
  cx.at(loc);
  const std::vector<Value> outs = gl::scan(cx.b, body, carried, start.scanned, opt);
  vars.exit(outs, numAcc);
  std::vector<Value> result(outs.begin(), outs.begin() + long(numAcc));
  if (api == ScanApi::Scan) {
    cx.at(loc);
    for (size_t i = 0; i < numAcc; ++i) {
      result[i] = outs[carried.size() + i];
      if (!start.fromElems) continue;
      // The initial accumulator is the output's first row (last, reversed).
      const Value row = o::expandDims(cx.b, start.init[i], 0);
      result[i] = o::concat(
          cx.b, reverse ? std::vector<Value>{result[i], row} : std::vector<Value>{row, result[i]},
          0);
    }
  }
  // back_prop=False: as in TF, no gradient flows back through the scan.
  if (!a.boolean("back_prop"))
    for (Value& v : result)
      if (isFloat(cx.b.type(v).dtype)) {
        v = o::stopGradient(cx.b, v);
        cx.b.graph().node(v).name = name.substr(3) + "(back_prop=False)";
      }
  size_t pos = 0;
  return cx.unflatten(start.structure, result, pos);
}

}  // namespace

void addControlFlowBuiltins(BuiltinTable& t) {
  t["tf.while_loop"] = {
      Signature::parse("cond, body, loop_vars, shape_invariants=None, ~parallel_iterations=10, "
                       "back_prop=True, ~swap_memory=False, maximum_iterations=None, name=None"),
      whileLoopBuiltin};
  t["tf.cond"] = {Signature::parse("pred, true_fn=None, false_fn=None, name=None"), condBuiltin};
  t["tf.switch_case"] = {Signature::parse("branch_index, branch_fns, default=None, name=None"),
                         switchCaseBuiltin};
  t["tf.map_fn"] = {
      Signature::parse("fn, elems, dtype=None, parallel_iterations=None, back_prop=True, "
                       "~swap_memory=False, ~infer_shape=True, name=None, "
                       "fn_output_signature=None"),
      mapBuiltin};
  // tf.TensorShape(dims): GradLab's shapes are tuples of ints and None.
  t["tf.TensorShape"] = {Signature::parse("dims"), [](Bound& a) {
                           const Val& d = a["dims"];
                           if (d.isNone())
                             a.fail("dims", "must be a list (unknown rank is not supported)");
                           if (!d.isSeq()) a.fail("dims", "must be a list of ints and None");
                           return Val::listOf(d.items(), true);
                         }};
  // infer_shape only chooses which error TF gives for an accumulator whose shape changes: the
  // carried shapes are fixed here, as in a tf.function, whatever it says.
  t["tf.scan"] = {
      Signature::parse("fn, elems, initializer=None, ~parallel_iterations=10, back_prop=True, "
                       "~swap_memory=False, ~infer_shape=True, reverse=False, name=None"),
      [](Bound& a) { return scanBuiltin(a, ScanApi::Scan); }};
  t["tf.foldl"] = {
      Signature::parse("fn, elems, initializer=None, ~parallel_iterations=10, back_prop=True, "
                       "~swap_memory=False, name=None"),
      [](Bound& a) { return scanBuiltin(a, ScanApi::Foldl); }};
  t["tf.foldr"] = {
      Signature::parse("fn, elems, initializer=None, ~parallel_iterations=10, back_prop=True, "
                       "~swap_memory=False, name=None"),
      [](Bound& a) { return scanBuiltin(a, ScanApi::Foldr); }};
  // One batched graph (control/vectorize.cpp); parts that cannot be batched run in a loop.
  t["tf.vectorized_map"] = {
      Signature::parse("fn, elems, fallback_to_while_loop=True, parallel_iterations=None"),
      vectorizedMapBuiltin};
}

}  // namespace gl::lang::trace
