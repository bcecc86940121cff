// Batching rules of the control-flow kinds (ControlKind::batch, kind.h), used by
// tf.vectorized_map (transform/batching.h). Each rebuilds the node once for the whole batch:
//   cond      both branches run batched, then where(pred, then, else) per lane;
//   while     one loop that runs while any lane runs; finished lanes keep their values
//             (where(lane still running, new, old)), so each lane ends at its own trip count;
//   map_fn    the loop stays, over the mapped axis, and its body is batched over the lanes;
//             a summed output sums over the mapped axis only (one sum per lane);
//   scan      the same, the carried values per lane where their start or the body makes them
//             differ (all lanes run the same number of steps: no lane stops early).
#include <map>

#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/registry.h"

namespace gl {

namespace {

int64_t batchSizeOf(Builder& b, const std::vector<BatchedValue>& vs) {
  for (const BatchedValue& v : vs)
    if (v.batched) return b.type(v.v).shape.at(0);
  return -1;
}

void requireTensors(Builder& b, const std::vector<BatchedValue>& vs, const char* what) {
  for (const BatchedValue& v : vs)
    if (b.type(v.v).list) throw EngineError(std::string(what) + " carry a TensorArray");
}

// where(pred, x, y) per lane, broadcasting as the where primitive's own batching rule does.
BatchedValue select(Builder& b, const BatchedValue& pred, const BatchedValue& x,
                    const BatchedValue& y) {
  if (!pred.batched && !x.batched && !y.batched) return {ops::where(b, pred.v, x.v, y.v), false};
  const Primitive& where = Registry::instance().get("where");
  std::vector<int> axes{pred.batched ? 0 : -1, x.batched ? 0 : -1, y.batched ? 0 : -1};
  return {where.batch(b, where, {pred.v, x.v, y.v}, axes, {}).at(0), true};
}

Value batched(Builder& b, const BatchedValue& v, int64_t n) {
  return v.batched ? v.v : batch::broadcastBatch(b, v.v, n);
}

// The same for a value that may be a TensorArray: a shared list becomes a batched one.
Value batchedVar(Builder& b, const BatchedValue& v, int64_t n, const RegionBatcher& rb) {
  if (v.batched) return v.v;
  return b.type(v.v).list ? rb.list(v.v) : batch::broadcastBatch(b, v.v, n);
}

std::vector<BatchedValue> batchCond(Builder& b, const Node& n,
                                    const std::vector<BatchedValue>& deps,
                                    const RegionBatcher& batchRegion) {
  // Both branches run for every lane (as TensorFlow's pfor does): a branch that fails on the
  // lanes that would not take it fails here too.
  const std::vector<BatchedValue> t = batchRegion(n.regions[0], {});
  const std::vector<BatchedValue> f = batchRegion(n.regions[1], {});
  requireTensors(b, t, "branches that");
  std::vector<BatchedValue> outs;
  for (size_t i = 0; i < t.size(); ++i) outs.push_back(select(b, deps[0], t[i], f[i]));
  return outs;
}

// Which results of region r differ per lane, given which params do and which values from
// outside (`outside`) do: a value differs when anything it reads does (the transform's own rule).
std::vector<bool> lanesDiffer(const Graph& g, int r, const std::vector<bool>& params,
                              const std::map<Value, bool>& outside) {
  std::map<Value, bool> differs = outside;
  const Region& region = g.region(r);
  for (size_t i = 0; i < region.params.size(); ++i) differs[region.params[i]] = params.at(i);
  auto of = [&](Value v) {
    auto it = differs.find(v);
    return it != differs.end() && it->second;
  };
  for (int id : region.nodes) {
    const Node& n = g.node(id);
    if (n.is(NodeKind::Param)) continue;
    bool any = false;
    for (Value v : n.inputs) any = any || of(v);
    for (Value v : n.captures) any = any || of(v);
    for (size_t k = 0; k < n.outputs.size(); ++k) differs[{id, int(k)}] = any;
  }
  std::vector<bool> out;
  for (Value v : region.results) out.push_back(of(v));
  return out;
}

// Which loop variables of while node n differ per lane: those whose start does, then what the
// body makes differ from them, to a fixed point. A predicate that differs per lane stops lanes
// at different steps, so then every variable does; the others (a shared counter) stay single.
// Returns whether the predicate differs per lane.
bool laneVariables(const Graph& g, const Node& n, const std::vector<BatchedValue>& deps,
                   std::vector<bool>& lane) {
  std::map<Value, bool> outside;
  for (size_t i = 0; i < n.captures.size(); ++i)
    outside[n.captures[i]] = deps[n.inputs.size() + i].batched;
  lane.clear();
  for (int i = 0; i < whileVarCount(n); ++i) lane.push_back(deps[size_t(i)].batched);
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<bool> next = lanesDiffer(g, n.regions[1], lane, outside);
    for (size_t i = 0; i < lane.size(); ++i)
      if (next[i] && !lane[i]) lane[i] = changed = true;
  }
  const bool perLane = lanesDiffer(g, n.regions[0], lane, outside).at(0);
  if (perLane) lane.assign(lane.size(), true);
  return perLane;
}

std::vector<BatchedValue> batchWhile(Builder& b, const Node& n,
                                     const std::vector<BatchedValue>& deps,
                                     const RegionBatcher& batchRegion) {
  const int numVars = whileVarCount(n);
  const std::vector<BatchedValue> vars(deps.begin(), deps.begin() + numVars);
  const int64_t lanes = batchSizeOf(b, deps);
  if (lanes < 0) throw EngineError("a while_loop over a batch of unknown size");
  const int condR = n.regions[0], bodyR = n.regions[1];
  std::vector<bool> lane;
  const bool perLanePredicate = laneVariables(b.graph(), n, deps, lane);
  // Lanes that stop early keep their values by a select, which a list cannot take; with one
  // predicate for all lanes a per-lane list is just a batched one (entries gain the lane axis).
  for (size_t i = 0; i < vars.size(); ++i)
    if (perLanePredicate && b.type(vars[i].v).list)
      throw EngineError(
          "a TensorArray loop variable of a loop whose lanes stop at different steps");
  std::vector<Value> init;
  for (size_t i = 0; i < vars.size(); ++i)
    init.push_back(lane[i] ? batchedVar(b, vars[i], lanes, batchRegion) : vars[i].v);
  auto asBatched = [&](const std::vector<Value>& vs) {
    std::vector<BatchedValue> out;
    for (size_t i = 0; i < vs.size(); ++i) out.push_back({vs[i], bool(lane[i])});
    return out;
  };
  auto running = [&](const std::vector<Value>& vs) {
    const BatchedValue p = batchRegion(condR, asBatched(vs)).at(0);
    return perLanePredicate ? BatchedValue{batched(b, p, lanes), true} : p;
  };
  WhileOptions opt;
  opt.parallelIterations = n.control.parallelIterations;
  opt.maximumIterations = n.control.maximumIterations;
  opt.name = n.name;
  auto anyRunning = [&](Builder& bb, const std::vector<Value>& vs) {
    const BatchedValue p = running(vs);
    if (!p.batched) return p.v;
    Value lanes = ops::cast(bb, p.v, DType::F32);
    return ops::greater(bb, ops::reduceMax(bb, lanes), bb.scalar(0.5));
  };
  auto body = [&](Builder&, const std::vector<Value>& vs) {
    // Finished lanes keep their values; with one predicate for all lanes none finishes early.
    const BatchedValue keepGoing = perLanePredicate ? running(vs) : BatchedValue{};
    const std::vector<BatchedValue> next = batchRegion(bodyR, asBatched(vs));
    std::vector<Value> out;
    for (size_t i = 0; i < vs.size(); ++i) {
      if (!perLanePredicate) {
        out.push_back(lane[i] ? batchedVar(b, next[i], lanes, batchRegion) : next[i].v);
        continue;
      }
      out.push_back(batched(b, select(b, keepGoing, next[i], {vs[i], true}), lanes));
    }
    return out;
  };
  const std::vector<Value> outs = whileLoop(b, anyRunning, body, init, opt);
  std::vector<BatchedValue> result = asBatched(outs);  // the loop's own outputs
  // The trip count is the longest lane's.
  result.push_back({Value{b.graph().node(outs.at(0)).id, numVars}, false});
  return result;
}

// The batched node's saved values: a reverse body batched in the same function (a tape inside
// it) reads them, so the batched node saves their batched stand-ins (entries with the lane axis
// first). Appends one output per saved value of n.
void saveBatched(Builder& b, const Node& n, int batchedId, const RegionBatcher& batchRegion,
                 std::vector<BatchedValue>& result) {
  for (Value s : n.saved) {
    const BatchedValue v = batchRegion.value(s);
    if (!b.graph().within(b.graph().node(v.v).region, b.graph().node(batchedId).regions.at(0)))
      throw EngineError("a " + std::string(displayName(n)) +
                        " value saved for its gradient has no batched version");
    Node& m = b.graph().node(batchedId);
    TypeInfo t = b.type(v.v);
    t.nested = t.list;
    t.list = true;
    m.saved.push_back(v.v);
    m.outputs.push_back(t);
    result.push_back({Value{batchedId, int(m.outputs.size()) - 1}, v.batched});
  }
}

// The leading two axes of v swapped: [a, b, ...] -> [b, a, ...].
Value swapLeadingAxes(Builder& b, Value v) {
  std::vector<int64_t> perm{1, 0};
  for (int k = 2; k < int(b.type(v).shape.size()); ++k) perm.push_back(k);
  return ops::transpose(b, v, perm);
}

std::vector<BatchedValue> batchMap(Builder& b, const Node& n, const std::vector<BatchedValue>& deps,
                                   const RegionBatcher& batchRegion) {
  const int64_t lanes = batchSizeOf(b, deps);
  if (lanes < 0) throw EngineError("a map_fn over a batch of unknown size");
  const Region& body = b.graph().region(n.regions[0]);
  const int bodyR = body.id;
  // The mapped axis comes first for the loop; the lanes follow it.
  std::vector<Value> elems;
  std::vector<bool> laneElem;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const BatchedValue& e = deps[i];
    if (!e.batched) {
      elems.push_back(e.v);
      laneElem.push_back(false);
      continue;
    }
    std::vector<int64_t> perm{1, 0};
    for (int k = 2; k < int(b.type(e.v).shape.size()); ++k) perm.push_back(k);
    elems.push_back(ops::transpose(b, e.v, perm));
    laneElem.push_back(true);
  }
  // A summed output stays summed over the mapped axis only: each lane gets its own sum, and
  // a result the same for every lane gives one sum for all.
  std::vector<bool> summed(n.control.summedOutputs);
  std::vector<bool> resultBatched;
  auto fn = [&](Builder& bb, const std::vector<Value>& slices) {
    std::vector<BatchedValue> params{{bb.graph().region(bb.currentRegion()).params.at(0), false}};
    for (size_t i = 0; i < slices.size(); ++i) params.push_back({slices[i], bool(laneElem[i])});
    std::vector<Value> out;
    for (const BatchedValue& r : batchRegion(bodyR, params)) {
      const bool sum = n.control.summedOutput(out.size());
      resultBatched.push_back(r.batched || !sum);
      out.push_back(sum ? r.v : batched(bb, r, lanes));
    }
    return out;
  };
  const std::vector<Value> looped = mapFn(b, fn, elems, n.control.parallelIterations, summed);
  const int mapId = b.graph().region(b.currentRegion()).nodes.back();
  std::vector<BatchedValue> result;
  for (size_t j = 0; j < looped.size(); ++j) {
    const Value v = looped[j];
    if (n.control.summedOutput(j)) {  // [lanes, ...] or shared: no mapped axis to move
      result.push_back({v, resultBatched.at(j)});
      continue;
    }
    std::vector<int64_t> perm{1, 0};
    for (int k = 2; k < int(b.type(v).shape.size()); ++k) perm.push_back(k);
    result.push_back({ops::transpose(b, v, perm), true});
  }
  // A reverse map batched in the same function (a tape inside it) reads the saved values.
  saveBatched(b, n, mapId, batchRegion, result);
  return result;
}

std::vector<BatchedValue> batchScan(Builder& b, const Node& n,
                                    const std::vector<BatchedValue>& deps,
                                    const RegionBatcher& batchRegion) {
  const int64_t lanes = batchSizeOf(b, deps);
  if (lanes < 0) throw EngineError("a scan over a batch of unknown size");
  const size_t nv = size_t(n.control.numVars), ny = size_t(n.control.savedBase) - nv;
  const size_t ne = n.inputs.size() - nv;
  const int bodyR = n.regions[0];
  requireTensors(b, std::vector<BatchedValue>(deps.begin(), deps.begin() + long(nv)),
                 "carried values that");
  // Which carried values differ per lane: those whose start does, then what the body makes
  // differ from them, to a fixed point.
  std::map<Value, bool> outside;
  for (size_t i = 0; i < n.captures.size(); ++i)
    outside[n.captures[i]] = deps[n.inputs.size() + i].batched;
  std::vector<bool> lane;
  for (size_t i = 0; i < nv; ++i) lane.push_back(deps[i].batched);
  auto paramFlags = [&] {
    std::vector<bool> flags(lane);
    flags.push_back(false);  // the element index
    for (size_t e = 0; e < ne; ++e) flags.push_back(deps[nv + e].batched);
    return flags;
  };
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<bool> next = lanesDiffer(b.graph(), bodyR, paramFlags(), outside);
    for (size_t i = 0; i < nv; ++i)
      if (next[i] && !lane[i]) lane[i] = changed = true;
  }
  std::vector<Value> init, elems;
  for (size_t i = 0; i < nv; ++i) init.push_back(lane[i] ? batched(b, deps[i], lanes) : deps[i].v);
  // The scanned axis comes first for the scan; the lanes follow it.
  for (size_t e = 0; e < ne; ++e)
    elems.push_back(deps[nv + e].batched ? swapLeadingAxes(b, deps[nv + e].v) : deps[nv + e].v);
  std::vector<bool> stackedLane(ny, false);
  auto fn = [&](Builder& bb, const std::vector<Value>& carry, const std::vector<Value>& slices) {
    std::vector<BatchedValue> params;
    for (size_t i = 0; i < nv; ++i) params.push_back({carry[i], bool(lane[i])});
    params.push_back({bb.graph().region(bb.currentRegion()).iterationIndex, false});
    for (size_t e = 0; e < ne; ++e) params.push_back({slices[e], deps[nv + e].batched});
    const std::vector<BatchedValue> rs = batchRegion(bodyR, params);
    ScanStep step;
    for (size_t i = 0; i < nv; ++i)
      step.carry.push_back(lane[i] ? batched(bb, rs[i], lanes) : rs[i].v);
    for (size_t k = 0; k < ny; ++k) {
      stackedLane[k] = rs[nv + k].batched;
      step.stacked.push_back(rs[nv + k].v);
    }
    return step;
  };
  ScanOptions opt;
  opt.reverse = n.control.reverse;
  opt.parallelIterations = n.control.parallelIterations;
  opt.name = n.name;
  const std::vector<Value> outs = scan(b, fn, init, elems, opt);
  const int scanId = outs.at(0).node;
  std::vector<BatchedValue> result;
  for (size_t i = 0; i < nv; ++i) result.push_back({outs[i], bool(lane[i])});
  for (size_t k = 0; k < ny; ++k) {
    const Value v = outs[nv + k];
    result.push_back(stackedLane[k] ? BatchedValue{swapLeadingAxes(b, v), true}
                                    : BatchedValue{v, false});
  }
  saveBatched(b, n, scanId, batchRegion, result);
  return result;
}

}  // namespace

ControlBatchRule condBatchRule() { return batchCond; }
ControlBatchRule whileBatchRule() { return batchWhile; }
ControlBatchRule mapBatchRule() { return batchMap; }
ControlBatchRule scanBatchRule() { return batchScan; }

}  // namespace gl
