// tf.while_loop: a node owning regions {cond, body}. Its outputs are the final loop variables,
// the trip count, then (once reverse mode asks) one list per saved body value.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>

#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/control/row_slices.h"
#include "engine/ops/api.h"

namespace gl {

// ---- build ------------------------------------------------------------------------------------

namespace {

// Loop variables must keep their dtype and (known) shape.
void checkSameType(const TypeInfo& before, const TypeInfo& after, const std::string& what,
                   const Builder& b) {
  if (before.list != after.list || before.dtype != after.dtype ||
      !compatible(before.shape, after.shape))
    throw EngineError(what + " from " + before.str() + " to " + after.str(), b.loc(), "while_loop");
}

}  // namespace

std::vector<Value> whileLoop(Builder& b, const LoopCondFn& condFn, const LoopBodyFn& bodyFn,
                             const std::vector<Value>& initIn, const WhileOptions& opt) {
  const SourceLoc loc = b.loc();
  std::vector<Value> init;
  std::vector<TypeInfo> types;
  for (Value v : initIn) {
    init.push_back(b.resolve(v));
    types.push_back(b.type(init.back()));
  }
  const int condRegion = b.openRegion(RegionKind::WhileCond);
  std::vector<Value> condParams;
  for (const TypeInfo& t : types) condParams.push_back(b.addParam(t));
  Value pred = condFn(b, condParams);
  const TypeInfo& pt = b.type(pred);
  if (pt.list || pt.dtype != DType::Bool || numel(pt.shape) != 1)
    throw EngineError("the loop condition must be a scalar bool tensor, got " + pt.str(), loc,
                      "while_loop");
  b.closeRegion(condRegion, {pred});

  const int bodyRegion = b.openRegion(RegionKind::WhileBody);
  std::vector<Value> params;
  for (const TypeInfo& t : types) params.push_back(b.addParam(t));
  std::vector<Value> results = bodyFn(b, params);
  b.setLoc(loc);
  if (results.size() != types.size())
    throw EngineError("the loop body returns " + std::to_string(results.size()) + " values for " +
                          std::to_string(types.size()) + " loop variables",
                      loc, "while_loop");
  for (size_t i = 0; i < types.size(); ++i) {
    if (!results[i].valid())
      throw EngineError("the loop body returned no value", loc, "while_loop");
    const TypeInfo after = b.type(results[i]);
    // A TensorArray created without element_shape learns it from its first write (TF's
    // TensorArray infers element_shape the same way); the loop's output carries it on.
    if (types[i].list && after.list && types[i].dtype == after.dtype && types[i].shape.empty()) {
      types[i] = after;
      continue;
    }
    checkSameType(types[i], after, "the loop body changes loop variable " + std::to_string(i), b);
  }
  b.closeRegion(bodyRegion, results);

  Node n;
  n.kind = NodeKind::While;
  n.name = opt.name;
  n.loc = loc;
  n.inputs = init;
  n.regions = {condRegion, bodyRegion};
  n.outputs = types;
  n.outputs.push_back({DType::I32, {}, false});
  n.control.numVars = static_cast<int>(types.size());
  n.control.savedBase = static_cast<int>(types.size() + 1);
  n.control.parallelIterations = opt.parallelIterations;
  n.control.maximumIterations = opt.maximumIterations;
  Node& w = addControlNode(b, std::move(n));
  std::vector<Value> outs;
  for (size_t i = 0; i < types.size(); ++i) outs.push_back({w.id, static_cast<int>(i)});
  return outs;
}

int whileVarCount(const Node& n) { return n.control.numVars; }

namespace {

// ---- records ------------------------------------------------------------------------------------
// A reverse loop carries [k, adjoint of forward var adjointOf[j] for each j, capture
// accumulators...], where k is the forward iteration still to be reversed. This layout is
// written by whileVjp and read only here.

// The forward iteration whose adjoints `vars` hold at a reverse loop's step boundary, and those
// adjoints by forward variable.
int64_t reverseStep(const std::vector<Datum>& vars) { return int64_t(vars[0].t.at(0)) + 1; }

std::vector<Datum> reverseAdjoints(const Node& rev, const std::vector<Datum>& vars) {
  const auto& adjOf = rev.control.adjointOf;
  return std::vector<Datum>(vars.begin() + 1, vars.begin() + 1 + long(adjOf.size()));
}

class WhileRecorder {
 public:
  WhileRecorder(ControlRuntime& rt, const Node& n) : rt_(rt), n_(n), rec_(rt.beginRecord(n)) {}

  void atStep(const std::vector<Datum>& vars) {
    if (!rec_ || rec_->truncated) return;
    if (n_.forwardNode < 0) {
      std::vector<TensorRecord> row;
      const std::vector<Datum> carried(vars.begin(), vars.begin() + n_.control.numVars);
      if (rt_.recordRow(*rec_, carried, row)) rec_->carried.push_back(std::move(row));
      return;
    }
    const int64_t k = reverseStep(vars);
    if (k < 0 || size_t(k) >= rec_->adjoints.size()) return;
    std::vector<TensorRecord> adj;
    if (!rt_.recordRow(*rec_, reverseAdjoints(n_, vars), adj)) return;
    const auto& adjOf = n_.control.adjointOf;
    std::vector<TensorRecord> row(rec_->width);
    for (size_t j = 0; j < adjOf.size() && size_t(adjOf[j]) < row.size(); ++j)
      row[size_t(adjOf[j])] = std::move(adj[j]);
    rec_->adjoints[size_t(k)] = std::move(row);
  }

  void finish(const std::vector<Datum>& vars, int64_t iterations) {
    if (!rec_ || n_.forwardNode >= 0) return;
    atStep(vars);
    if (!rec_->truncated) rec_->iterations = iterations;
  }

 private:
  ControlRuntime& rt_;
  const Node& n_;
  LoopRecord* rec_;
};

// The forward loop's own edges: param i and result i of its body, its inputs and outputs; the
// reverse loop's: while it processes forward iteration t its params hold the adjoint at t + 1,
// its results the adjoint at t, and it ends with the adjoint at 0.
void whileEdgeAdjoints(const Graph& g, const Node& n, const LoopRecord& rec, size_t t,
                       std::map<Value, double>& norms) {
  if (n.regions.size() < 2 || rec.adjoints.empty()) return;
  const size_t last = rec.adjoints.size() - 1, next = std::min(t + 1, last);
  const Region& cond = g.region(n.regions[0]);
  const Region& body = g.region(n.regions[1]);
  auto edges = [&](size_t slot, size_t var, size_t paramStep, size_t resultStep) {
    if (slot < cond.params.size())
      putAdjointNorm(norms, cond.params[slot], recordedAdjointNorm(rec, paramStep, var));
    if (slot < body.params.size())
      putAdjointNorm(norms, body.params[slot], recordedAdjointNorm(rec, paramStep, var));
    if (slot < body.results.size())
      putAdjointNorm(norms, body.results[slot], recordedAdjointNorm(rec, resultStep, var));
  };
  if (n.forwardNode < 0) {
    for (size_t i = 0; i < size_t(n.control.numVars); ++i) {
      edges(i, i, t, next);
      putAdjointNorm(norms, Value{n.id, int(i)}, recordedAdjointNorm(rec, last, i));
      // The initial value may feed other consumers too; the loop's own adjoint only fills gaps.
      if (i < n.inputs.size())
        putAdjointNorm(norms, n.inputs[i], recordedAdjointNorm(rec, 0, i), false);
    }
    return;
  }
  const std::vector<int>& adjOf = n.control.adjointOf;
  for (size_t k = 0; k < adjOf.size(); ++k) {
    const size_t var = size_t(adjOf[k]), slot = k + 1;
    edges(slot, var, next, t);
    putAdjointNorm(norms, Value{n.id, int(slot)}, recordedAdjointNorm(rec, 0, var));
  }
}

// ---- execute ----------------------------------------------------------------------------------

// Independent iterations (ControlAttrs::independent) run concurrently: each writes its own
// entry of the TensorArrays; the counter ends at its bound.
bool runIndependent(ControlRuntime& rt, const Node& n, std::vector<Datum>& vars,
                    int64_t& iterations) {
  const IndependentIterations& ind = n.control.independent;
  const int nv = n.control.numVars;
  const int body = n.regions[1];
  const double limit = ind.limit.valid() ? rt.value(ind.limit).t.at(0) : ind.constantLimit;
  const int64_t start = int64_t(vars[size_t(ind.counter)].t.at(0));
  int64_t count = std::max<int64_t>(0, int64_t(std::ceil(limit)) - start);
  if (n.control.maximumIterations >= 0) count = std::min(count, n.control.maximumIterations);
  std::vector<std::shared_ptr<TensorList>> lists(static_cast<size_t>(nv));
  for (int j = 0; j < nv; ++j) {
    if (ind.writes[size_t(j)] < 0) continue;
    if (!vars[size_t(j)].isList()) return false;
    auto& list = lists[size_t(j)] = vars[size_t(j)].list->copy();
    if (list->size() < start + count) {
      if (!list->dynamicSize)
        throw EngineError("TensorArray write at index " + std::to_string(start + count - 1) +
                          " is out of range for size " + std::to_string(list->size()));
      list->resize(start + count);
    }
  }
  std::atomic<int64_t> done{0};
  const int threads = int(std::min<int64_t>(n.control.parallelIterations, rt.threads()));
  rt.parallelFor(count, std::max(threads, 1), [&](int64_t i) {
    rt.checkCancelled();
    std::vector<Datum> params = vars;
    params[size_t(ind.counter)] = Datum(Tensor::scalar(double(start + i), DType::I32));
    const RegionRun run = rt.runRegion(body, params, i);
    for (int j = 0; j < nv; ++j)
      if (ind.writes[size_t(j)] >= 0)
        lists[size_t(j)]->set(start + i, run.results[size_t(j)].list->entry(start + i));
    rt.progress(++done, count);
  });
  for (int j = 0; j < nv; ++j)
    if (ind.writes[size_t(j)] >= 0) vars[size_t(j)] = Datum(ListPtr(lists[size_t(j)]));
  vars[size_t(ind.counter)] = Datum(Tensor::scalar(double(start + count), DType::I32));
  iterations = count;
  return true;
}

void executeWhile(ControlRuntime& rt, const Node& n) {
  std::vector<Datum> vars;
  for (Value v : n.inputs) vars.push_back(rt.value(v));
  const int condR = n.regions[0], bodyR = n.regions[1];
  SavedAccumulators saved(rt, n);
  const int64_t maxIter = n.control.maximumIterations;
  int64_t it = 0;
  const bool independent = rt.parallel() && n.control.independent.marked() &&
                           n.control.parallelIterations > 1 && rt.usedSaved().empty();
  if (!independent || !runIndependent(rt, n, vars, it)) {
    const bool reverse = n.forwardNode >= 0;
    WhileRecorder record(rt, n);
    const int64_t total = reverse && !vars.empty() && vars[0].t.defined() ? reverseStep(vars)
                          : maxIter >= 0                                  ? maxIter
                                                                          : -1;
    if (reverse) record.atStep(vars);  // adjoints of the final values
    RegionRun c, b;                    // reused every iteration
    while (true) {
      rt.checkCancelled();
      if (maxIter >= 0 && it >= maxIter) break;
      rt.runRegionInto(condR, vars, it, c);
      const Datum& pred = c.results.at(0);
      if (!pred.t.defined() || pred.t.at(0) == 0.0) break;
      if (!reverse) record.atStep(vars);
      rt.runRegionTaking(bodyR, vars, it, b);
      saved.put(size_t(it), b.saved);
      // The old values died in the body; both vectors keep their capacity.
      vars.swap(b.results);
      b.results.clear();
      ++it;
      if (reverse) record.atStep(vars);
      rt.progress(it, total);
    }
    record.finish(vars, it);
  }
  std::vector<Datum> outs(vars.begin(), vars.end());
  outs.push_back(Datum(Tensor::scalar(double(it), DType::I32)));
  saved.appendOutputs(n, outs);
  rt.setOutputs(std::move(outs));
}

// ---- reverse mode -------------------------------------------------------------------------------

// Adjoints of a loop's saved outputs (a gradient of a gradient reads them): body value
// `value` gets entry k of `perIteration` at forward iteration k.
struct SavedAdjoint {
  Value value;
  Value perIteration;
};

// One step of the reverse loop, carrying [k, adjoints of the float vars adjOf, accumulators of
// the captures caps]: the body's VJP at forward iteration k.
// A capture read by rows (weights[t] in the body): its adjoint per iteration is row-sparse, and
// adding it to a dense accumulator would cost the whole capture every iteration. The reverse
// loop writes the rows and their indices into two lists instead (O(rows) per iteration), and
// one scatter_add after the loop makes them dense. `sparse` says, once the body is built,
// whether its adjoint was row-sparse (the lists are used), `dense` whether a dense part was
// added to the accumulator.
struct SparseAccumulator {
  bool sparse = false;
  bool dense = false;
};

std::vector<Value> reverseStepBody(Builder& b, const BodyBackprop& backprop, int bodyR,
                                   const std::vector<int>& adjOf, const std::vector<Value>& caps,
                                   const std::vector<SavedAdjoint>& savedAdj,
                                   std::vector<SparseAccumulator>& accs,
                                   const std::vector<Value>& p) {
  Region& rev = b.graph().region(b.currentRegion());
  rev.forwardOf = bodyR;
  rev.iterationIndex = p[0];
  const Region& fwd = b.graph().region(bodyR);
  BodyGradRequest req;
  req.region = bodyR;
  for (size_t k = 0; k < adjOf.size(); ++k) {
    req.targets.push_back(fwd.results[size_t(adjOf[k])]);
    req.seeds.push_back(p[1 + k]);
    req.sources.push_back(fwd.params[size_t(adjOf[k])]);
  }
  // The saved values are targets too: their paths into the body's inputs are part of the
  // loop's function once a reverse pass has read them.
  for (const SavedAdjoint& s : savedAdj) {
    req.targets.push_back(s.value);
    req.seeds.push_back(b.op1("list_read", {s.perIteration, p[0]}));
  }
  for (Value cap : caps) req.sources.push_back(cap);
  // A result that is directly a source (a param, or a capture we differentiate) is seeded by
  // backprop itself; one that is an outer value we do not differentiate has no path.
  const std::map<Value, Value> adj = backprop(b, req);
  std::map<Value, std::vector<Value>> direct;
  const std::set<Value> sources(req.sources.begin(), req.sources.end());
  for (size_t k = 0; k < adjOf.size(); ++k) {
    const Value t = req.targets[k];
    const Node& tn = b.graph().node(t);
    if ((tn.region != bodyR || tn.is(NodeKind::Param)) && !sources.count(t) && !adj.count(t))
      direct[t].push_back(req.seeds[k]);
  }
  auto total = [&](Value src) -> Value {
    std::vector<Value> parts;
    if (auto it = adj.find(src); it != adj.end()) parts.push_back(it->second);
    if (auto it = direct.find(src); it != direct.end())
      parts.insert(parts.end(), it->second.begin(), it->second.end());
    return parts.empty() ? Value{} : sumAll(b, parts);
  };
  std::vector<Value> out{b.op1("sub", {p[0], b.scalar(1, DType::I32)})};
  for (size_t k = 0; k < adjOf.size(); ++k) {
    const Value a = total(fwd.params[size_t(adjOf[k])]);
    out.push_back(a.valid() ? a : b.zerosLike(p[1 + k]));
  }
  std::vector<Value> lists;  // rows and indices per capture, after the accumulators
  const size_t listBase = 1 + adjOf.size() + caps.size();
  for (size_t i = 0; i < caps.size(); ++i) {
    const Value a = total(caps[i]);
    const Value acc = p[1 + adjOf.size() + i];
    Value rows = p[listBase + 2 * i], indices = p[listBase + 2 * i + 1];
    RowSlices s;
    if (a.valid() && asRowSlices(b, a, s)) {
      accs[i].sparse = true;
      rows = b.op1("list_write", {rows, p[0], s.rows});
      indices = b.op1("list_write", {indices, p[0], s.indices});
      out.push_back(acc);
    } else {
      accs[i].dense = accs[i].dense || a.valid();
      out.push_back(a.valid() ? sumAll(b, {acc, a}) : acc);
    }
    lists.push_back(rows);
    lists.push_back(indices);
  }
  out.insert(out.end(), lists.begin(), lists.end());
  return out;
}

// The adjoint of capture cap from its reverse loop outputs: the dense accumulator, plus the
// rows the loop listed, scattered once.
Value captureAdjoint(Builder& b, Value cap, const SparseAccumulator& acc, Value dense,
                     Value rowsList, Value indicesList) {
  if (!acc.sparse) return dense;
  const Shape& capShape = b.type(cap).shape;
  Shape rowShape{-1};
  rowShape.insert(rowShape.end(), capShape.begin() + 1, capShape.end());
  const Value rows = ops::reshape(b, b.op1("list_stack", {rowsList}), rowShape);
  const Value indices = ops::reshape(b, b.op1("list_stack", {indicesList}), {-1});
  const Value scattered = ops::scatterAdd(b, rows, indices, 0, capShape);
  return acc.dense ? ops::add(b, dense, scattered) : scattered;
}

// y = while_loop(cond, body, x)
// dx: a reverse loop runs the body's VJP from the last iteration to the first
std::vector<Value> whileVjp(ControlVjpContext& c) {
  Builder& b = c.b;
  const int wid = c.node.id;
  Graph& g = b.graph();
  const Node& w = g.node(wid);
  const int nv = w.control.numVars;
  const int bodyR = w.regions[1];
  const size_t numInputs = w.inputs.size(), numCaptures = w.captures.size();
  const std::vector<Value> caps = neededCaptures(w, c.needs);
  std::vector<int> adjOf;
  for (int j = 0; j < nv; ++j)
    if (isFloat(w.type(j).dtype)) adjOf.push_back(j);

  std::vector<Value> init{b.op1("sub", {Value{wid, nv}, b.scalar(1, DType::I32)})};
  for (int j : adjOf)
    init.push_back(c.gout[size_t(j)].valid() ? c.gout[size_t(j)] : b.zerosLike({wid, j}));
  for (Value cap : caps) init.push_back(b.zerosLike(cap));
  // Empty lists for row-sparse adjoints (see SparseAccumulator); their entry shapes are learned
  // from the first write. A capture that cannot have row-sparse adjoints passes them through.
  for (Value cap : caps) {
    const TypeInfo& t = b.type(cap);
    const bool rowsPossible = !t.list && !t.shape.empty() && fullyKnown(t.shape);
    const std::string dtype(dtypeName(t.dtype));
    Attrs rows{{"dtype", dtype}, {"elem_shape", Shape{}}, {"size", int64_t(0)}};
    Attrs indices{{"dtype", std::string("int32")}, {"elem_shape", Shape{}}, {"size", int64_t(0)}};
    rows.set("dynamic_size", rowsPossible);
    indices.set("dynamic_size", rowsPossible);
    init.push_back(b.op1("list_new", {}, rows));
    init.push_back(b.op1("list_new", {}, indices));
  }
  std::vector<SparseAccumulator> accs(caps.size());
  std::vector<SavedAdjoint> savedAdj;
  for (size_t i = 0; i < w.saved.size() && size_t(w.control.savedBase) + i < c.gout.size(); ++i) {
    const Value gs = c.gout[size_t(w.control.savedBase) + i];
    const TypeInfo& t = g.type(w.saved[i]);
    if (gs.valid() && !t.list && isFloat(t.dtype)) savedAdj.push_back({w.saved[i], gs});
  }
  auto condFn = [](Builder& bb, const std::vector<Value>& p) {
    return bb.op1("greater_equal", {p[0], bb.scalar(0, DType::I32)});
  };
  auto bodyFn = [&](Builder& bb, const std::vector<Value>& p) {
    return reverseStepBody(bb, c.backprop, bodyR, adjOf, caps, savedAdj, accs, p);
  };
  WhileOptions opt;
  opt.parallelIterations = 1;
  opt.name = w.name.empty() ? "" : w.name + "_grad";
  const std::vector<Value> outs = whileLoop(b, condFn, bodyFn, init, opt);
  Node& rev = g.node(outs[0].node);
  rev.forwardNode = wid;
  rev.control.adjointOf = adjOf;

  std::vector<Value> grads(numInputs + numCaptures);
  for (size_t k = 0; k < adjOf.size(); ++k) grads[size_t(adjOf[k])] = outs[1 + k];
  size_t ci = 0;
  const size_t listBase = 1 + adjOf.size() + caps.size();
  b.setLoc(w.loc);
  for (size_t i = 0; i < numCaptures; ++i) {
    if (!c.needs[numInputs + i]) continue;
    grads[numInputs + i] = captureAdjoint(b, caps[ci], accs[ci], outs[1 + adjOf.size() + ci],
                                          outs[listBase + 2 * ci], outs[listBase + 2 * ci + 1]);
    ++ci;
  }
  return grads;
}

}  // namespace

ControlKind whileKind() {
  return {.kind = NodeKind::While,
          .userName = "while_loop",
          .math =
              "y = while_loop(cond, body, x)\n"
              "dx: a reverse loop runs body's VJP from the last iteration to the first",
          .execute = executeWhile,
          .vjp = whileVjp,
          .batch = whileBatchRule(),
          .edgeAdjoints = whileEdgeAdjoints};
}

}  // namespace gl
