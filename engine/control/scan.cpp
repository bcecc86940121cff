// tf.scan, tf.foldl and tf.foldr: a node owning region {body}, run once per slice of its elements
// along axis 0, in order or reversed, carrying values from one element to the next.
//   body params   [carry..., index, slice per element tensor...]  (index: the element, t)
//   body results  [new carry..., per-element results...]
//   inputs        [initial carry..., element tensors...]
//   outputs       [final carry..., per-element results stacked (row t: element t)...], then
//                 (once reverse mode asks) one list per saved body value, entry t at element t.
// tf.scan stacks the carried values themselves (its body returns them twice); tf.foldl and
// tf.foldr stack nothing. The reverse is the same kind of node the other way round.
#include <algorithm>
#include <cstring>

#include "engine/control/control_flow.h"
#include "engine/control/kind.h"
#include "engine/ops/api.h"

namespace gl {

// ---- build ------------------------------------------------------------------------------------

namespace {

// The body's new carried values keep the types of the carried ones (a list accumulator, a
// reverse scan's adjoint of a captured TensorArray, learns its entry shape from its first write,
// as a while loop's does: `types` takes it).
void checkCarried(const Builder& b, const std::vector<Value>& next, std::vector<TypeInfo>& types,
                  const SourceLoc& loc) {
  if (next.size() != types.size())
    throw EngineError("the scan body returns " + std::to_string(next.size()) +
                          " carried values for " + std::to_string(types.size()),
                      loc, "scan");
  for (size_t i = 0; i < types.size(); ++i) {
    if (!next[i].valid()) throw EngineError("the scan body returned no value", loc, "scan");
    const TypeInfo after = b.type(next[i]);
    if (types[i].list && after.list && types[i].dtype == after.dtype && types[i].shape.empty()) {
      types[i] = after;
      continue;
    }
    if (types[i].list != after.list || types[i].dtype != after.dtype ||
        !compatible(types[i].shape, after.shape))
      throw EngineError("the scan body changes carried value " + std::to_string(i) + " from " +
                            types[i].str() + " to " + after.str(),
                        loc, "scan");
  }
}

}  // namespace

std::vector<Value> scan(Builder& b, const ScanFn& fn, const std::vector<Value>& initIn,
                        const std::vector<Value>& elemsIn, const ScanOptions& opt) {
  const SourceLoc loc = b.loc();
  if (elemsIn.empty())
    throw EngineError("scan needs at least one tensor to scan over", loc, "scan");
  std::vector<Value> init;
  std::vector<TypeInfo> types;
  for (Value v : initIn) {
    init.push_back(b.resolve(v));
    types.push_back(b.type(init.back()));
  }
  std::vector<Value> elems;
  int64_t n = -1;
  for (Value v : elemsIn) {
    elems.push_back(b.resolve(v));
    const TypeInfo& t = b.type(elems.back());
    if (t.list || t.shape.empty())
      throw EngineError("scan runs over the first axis of tensors; got " + t.str(), loc, "scan");
    if (n >= 0 && t.shape[0] >= 0 && t.shape[0] != n)
      throw EngineError("scan elements have different first dimensions: " + std::to_string(n) +
                            " and " + std::to_string(t.shape[0]),
                        loc, "scan");
    if (n < 0) n = t.shape[0];
  }
  const int body = b.openRegion(RegionKind::ScanBody);
  std::vector<Value> carry;
  for (const TypeInfo& t : types) carry.push_back(b.addParam(t));
  const Value index = b.addParam({DType::I32, {}, false}, "index");
  b.graph().region(body).iterationIndex = index;
  std::vector<Value> slices;
  for (Value v : elems) {
    TypeInfo t = b.type(v);
    t.shape.erase(t.shape.begin());
    slices.push_back(b.addParam(t));
  }
  const ScanStep step = fn(b, carry, slices);
  b.setLoc(loc);
  checkCarried(b, step.carry, types, loc);
  std::vector<Value> results = step.carry;
  Node s;
  s.kind = NodeKind::Scan;
  s.name = opt.name;
  s.loc = loc;
  s.outputs = types;
  for (Value v : step.stacked) {
    if (!v.valid()) throw EngineError("the scan body returned no value", loc, "scan");
    TypeInfo t = b.type(v);
    if (t.list) throw EngineError("scan stacks tensors, not TensorArrays", loc, "scan");
    t.shape.insert(t.shape.begin(), n);
    s.outputs.push_back(t);
    results.push_back(v);
  }
  b.closeRegion(body, results);
  size_t bytes = 0;
  for (size_t j = types.size(); j < s.outputs.size(); ++j)
    if (fullyKnown(s.outputs[j].shape))
      bytes += size_t(numel(s.outputs[j].shape)) * dtypeSize(s.outputs[j].dtype);
  b.checkBudget(bytes, "scan");
  s.inputs = init;
  s.inputs.insert(s.inputs.end(), elems.begin(), elems.end());
  s.regions = {body};
  s.control.numVars = int(types.size());
  s.control.savedBase = int(s.outputs.size());
  s.control.parallelIterations = opt.parallelIterations;
  s.control.reverse = opt.reverse;
  Node& added = addControlNode(b, std::move(s));
  std::vector<Value> outs;
  for (int i = 0; i < added.control.savedBase; ++i) outs.push_back({added.id, i});
  return outs;
}

namespace {

size_t carryCount(const Node& n) { return size_t(n.control.numVars); }
size_t stackedCount(const Node& n) { return size_t(n.control.savedBase - n.control.numVars); }

// ---- records ------------------------------------------------------------------------------------
// Rows follow the order the elements ran in: carried[s] holds the carried values before step s
// (element s, or element count - 1 - s when reversed), carried[count] the final ones. A reverse
// scan (Node::forwardNode) fills adjoints[s] of its forward scan's record: the adjoints of the
// carried values before forward step s. Its carried values start with those adjoints, for the
// forward values control.adjointOf names.

class ScanRecorder {
 public:
  ScanRecorder(ControlRuntime& rt, const Node& n, int64_t count)
      : rt_(rt), n_(n), count_(count), rec_(rt.beginRecord(n)) {}

  // Before forward step s, or (reverse scan) once forward step s has been reversed.
  void atStep(const std::vector<Datum>& carry, int64_t s) {
    if (!rec_ || rec_->truncated) return;
    if (n_.forwardNode < 0) {
      std::vector<TensorRecord> row;
      if (rt_.recordRow(*rec_, carry, row)) rec_->carried.push_back(std::move(row));
      return;
    }
    if (s < 0 || size_t(s) >= rec_->adjoints.size()) return;
    const auto& adjOf = n_.control.adjointOf;
    std::vector<TensorRecord> adj;
    const std::vector<Datum> adjoints(carry.begin(), carry.begin() + long(adjOf.size()));
    if (!rt_.recordRow(*rec_, adjoints, adj)) return;
    std::vector<TensorRecord> row(rec_->width);
    for (size_t k = 0; k < adjOf.size() && size_t(adjOf[k]) < row.size(); ++k)
      row[size_t(adjOf[k])] = std::move(adj[k]);
    rec_->adjoints[size_t(s)] = std::move(row);
  }

  void finish(const std::vector<Datum>& carry) {
    if (!rec_ || n_.forwardNode >= 0) return;
    atStep(carry, count_);
    if (!rec_->truncated) rec_->iterations = count_;
  }

 private:
  ControlRuntime& rt_;
  const Node& n_;
  int64_t count_;
  LoopRecord* rec_;
};

// At forward step s the forward body's carry params hold the adjoint at s, its new carried
// values the adjoint at s + 1; the scan's final values the last adjoint, its initial ones the
// first. A reverse scan reversing step s holds the adjoint at s + 1 in its params and the one
// at s in its results, and ends with the adjoint at 0. A new carried value that is stacked too
// (tf.scan's) also takes its row's adjoint, which the record does not hold: its edge is left
// out rather than shown short.
void scanEdgeAdjoints(const Graph& g, const Node& n, const LoopRecord& rec, size_t s,
                      std::map<Value, double>& norms) {
  if (n.regions.empty() || rec.adjoints.empty()) return;
  const size_t last = rec.adjoints.size() - 1, next = std::min(s + 1, last);
  const Region& body = g.region(n.regions[0]);
  auto stacked = [&](Value v) {
    const auto from = body.results.begin() + long(std::min(carryCount(n), body.results.size()));
    return std::find(from, body.results.end(), v) != body.results.end();
  };
  auto edges = [&](size_t slot, size_t var, size_t paramStep, size_t resultStep) {
    if (slot < body.params.size())
      putAdjointNorm(norms, body.params[slot], recordedAdjointNorm(rec, paramStep, var));
    if (slot < body.results.size() && !stacked(body.results[slot]))
      putAdjointNorm(norms, body.results[slot], recordedAdjointNorm(rec, resultStep, var));
  };
  if (n.forwardNode < 0) {
    for (size_t i = 0; i < carryCount(n); ++i) {
      edges(i, i, s, next);
      putAdjointNorm(norms, Value{n.id, int(i)}, recordedAdjointNorm(rec, last, i));
      if (i < n.inputs.size())
        putAdjointNorm(norms, n.inputs[i], recordedAdjointNorm(rec, 0, i), false);
    }
    return;
  }
  const std::vector<int>& adjOf = n.control.adjointOf;
  for (size_t k = 0; k < adjOf.size(); ++k) {
    edges(k, size_t(adjOf[k]), next, s);
    putAdjointNorm(norms, Value{n.id, int(k)}, recordedAdjointNorm(rec, 0, size_t(adjOf[k])));
  }
}

// ---- execute ----------------------------------------------------------------------------------

void executeScan(ControlRuntime& rt, const Node& n) {
  const size_t nv = carryCount(n), ny = stackedCount(n);
  std::vector<Datum> carry;
  for (size_t i = 0; i < nv; ++i) carry.push_back(rt.value(n.inputs[i]));
  std::vector<Tensor> elems;
  for (size_t i = nv; i < n.inputs.size(); ++i) elems.push_back(rt.value(n.inputs[i]).t);
  const int64_t count = elems.at(0).shape().at(0);
  for (const Tensor& e : elems)
    if (e.shape().empty() || e.shape()[0] != count)
      throw EngineError(
          "scan elements have different first dimensions: " + std::to_string(count) + " and " +
          (e.shape().empty() ? std::string("a scalar") : std::to_string(e.shape()[0])));
  const int body = n.regions[0];
  SavedAccumulators saved(rt, n, count);
  std::vector<std::vector<Tensor>> rows(ny, std::vector<Tensor>(size_t(count)));
  ScanRecorder record(rt, n, count);
  const bool reversing = n.forwardNode >= 0;
  if (reversing) record.atStep(carry, count);  // the adjoints of the forward scan's final values
  std::vector<Datum> params;
  RegionRun run;  // reused every step
  for (int64_t s = 0; s < count; ++s) {
    rt.checkCancelled();
    const int64_t t = n.control.reverse ? count - 1 - s : s;
    if (!reversing) record.atStep(carry, s);
    params.clear();
    for (Datum& c : carry) params.push_back(std::move(c));
    params.push_back(Datum(Tensor::scalar(double(t), DType::I32)));
    for (const Tensor& e : elems) params.push_back(Datum(sliceRow(e, t)));
    rt.runRegionTaking(body, params, t, run);
    saved.put(size_t(t), run.saved);
    for (size_t i = 0; i < nv; ++i) carry[i] = std::move(run.results[i]);
    for (size_t j = 0; j < ny; ++j) rows[j][size_t(t)] = std::move(run.results[nv + j].t);
    // A reverse scan has just reversed forward step count - 1 - s.
    if (reversing) record.atStep(carry, count - 1 - s);
    rt.progress(s + 1, count);
  }
  record.finish(carry);
  std::vector<Datum> outs(carry.begin(), carry.end());
  for (size_t j = 0; j < ny; ++j)
    outs.push_back(Datum(stackRows(
        n.type(int(nv + j)), int64_t(rows[j].size()),
        [&](int64_t t) -> const Tensor& { return rows[j][size_t(t)]; }, "the scan body",
        "element")));
  saved.appendOutputs(n, outs);
  rt.setOutputs(std::move(outs));
}

// ---- reverse mode -------------------------------------------------------------------------------

// What the reverse of forward scan f carries and stacks: the adjoints of f's float carried
// values (adjOf), then accumulators of the captures' adjoints (caps); it runs over the
// adjoints of f's seeded stacked results and stacks those of its float elements (elemOf).
struct ReverseScan {
  int bodyR = -1;  // f's body
  size_t nv = 0;   // f's carried values
  std::vector<int> adjOf;
  std::vector<size_t> seeded;  // f's stacked results with an adjoint
  std::vector<size_t> elemOf;
  std::vector<Value> caps;
  std::vector<std::pair<Value, Value>> savedAdj;  // body value, its adjoints per element
  bool lengthOnly = false;  // no seeded results: it runs over f's first element, for its length
};

ReverseScan planReverse(const ControlVjpContext& c, const Node& f) {
  const Graph& g = c.b.graph();
  ReverseScan r;
  r.bodyR = f.regions[0];
  r.nv = carryCount(f);
  r.caps = neededCaptures(f, c.needs);
  for (size_t j = 0; j < r.nv; ++j)
    if (isFloat(f.type(int(j)).dtype)) r.adjOf.push_back(int(j));
  for (size_t k = 0; k < stackedCount(f); ++k)
    if (c.gout[r.nv + k].valid() && isFloat(f.type(int(r.nv + k)).dtype)) r.seeded.push_back(k);
  for (size_t e = r.nv; e < f.inputs.size(); ++e)
    if (c.needs[e] && isFloat(g.type(f.inputs[e]).dtype)) r.elemOf.push_back(e - r.nv);
  r.lengthOnly = r.seeded.empty();
  // The saved values (read by a first reverse pass) are targets in a gradient of a gradient.
  for (size_t i = 0; i < f.saved.size() && size_t(f.control.savedBase) + i < c.gout.size(); ++i) {
    const Value gs = c.gout[size_t(f.control.savedBase) + i];
    const TypeInfo& t = g.type(f.saved[i]);
    if (gs.valid() && !t.list && isFloat(t.dtype)) r.savedAdj.push_back({f.saved[i], gs});
  }
  return r;
}

// One step of the reverse scan at element t (its index): the forward body's VJP, seeded with
// the carried adjoints p and the stacked results' adjoints at t (slices).
ScanStep reverseStep(Builder& b, const BodyBackprop& backprop, const ReverseScan& r,
                     const std::vector<Value>& p, const std::vector<Value>& slices) {
  Region& rev = b.graph().region(b.currentRegion());
  rev.forwardOf = r.bodyR;
  const Value index = rev.iterationIndex;
  const Region& fwd = b.graph().region(r.bodyR);
  const size_t numAdj = r.adjOf.size();
  BodyGradRequest req;
  req.region = r.bodyR;
  for (size_t k = 0; k < numAdj; ++k) {
    req.targets.push_back(fwd.results[size_t(r.adjOf[k])]);
    req.seeds.push_back(p[k]);
  }
  for (size_t i = 0; i < r.seeded.size() && !r.lengthOnly; ++i) {
    req.targets.push_back(fwd.results[r.nv + r.seeded[i]]);
    req.seeds.push_back(slices[i]);
  }
  for (const auto& [value, perElement] : r.savedAdj) {
    req.targets.push_back(value);
    req.seeds.push_back(b.op1("list_read", {perElement, index}));
  }
  for (int j : r.adjOf) req.sources.push_back(fwd.params[size_t(j)]);
  for (size_t e : r.elemOf) req.sources.push_back(fwd.params[r.nv + 1 + e]);
  for (Value cap : r.caps) req.sources.push_back(cap);
  // Results that are params or captures are sources: backprop seeds them itself.
  const std::map<Value, Value> adj = backprop(b, req);
  auto adjointOf = [&](Value v) {
    auto it = adj.find(v);
    return it != adj.end() ? it->second : Value{};
  };
  ScanStep out;
  for (size_t k = 0; k < numAdj; ++k) {
    const Value a = adjointOf(fwd.params[size_t(r.adjOf[k])]);
    out.carry.push_back(a.valid() ? a : b.zerosLike(p[k]));
  }
  for (size_t i = 0; i < r.caps.size(); ++i) {
    const Value a = adjointOf(r.caps[i]), acc = p[numAdj + i];
    out.carry.push_back(a.valid() ? sumAll(b, {acc, a}) : acc);
  }
  for (size_t e : r.elemOf) {
    const Value param = fwd.params[r.nv + 1 + e];
    const Value a = adjointOf(param);
    out.stacked.push_back(a.valid() ? a : b.zerosLike(param));
  }
  return out;
}

// c', y_t = f(c, x_t) for each element t; the final c and the stacked y are the outputs
// dc, dx_t = vjp(f)(dc', dy_t): a scan the other way; the captures' adjoints are carried and summed
std::vector<Value> scanVjp(ControlVjpContext& c) {
  Builder& b = c.b;
  Graph& g = b.graph();
  const int fid = c.node.id;
  const Node& f = g.node(fid);
  const ReverseScan r = planReverse(c, f);
  const size_t nv = r.nv, numAdj = r.adjOf.size();
  const size_t numInputs = f.inputs.size(), numCaptures = f.captures.size();
  std::vector<Value> init;
  for (int j : r.adjOf)
    init.push_back(c.gout[size_t(j)].valid() ? c.gout[size_t(j)] : b.zerosLike({fid, j}));
  for (Value cap : r.caps) init.push_back(b.zerosLike(cap));
  std::vector<Value> elems;
  for (size_t k : r.seeded) elems.push_back(c.gout[nv + k]);
  if (r.lengthOnly) elems.push_back(f.inputs[nv]);
  ScanOptions opt;
  opt.reverse = !f.control.reverse;
  opt.parallelIterations = f.control.parallelIterations;
  opt.name = f.name.empty() ? "" : f.name + "_grad";
  b.setLoc(f.loc);
  auto step = [&](Builder& bb, const std::vector<Value>& p, const std::vector<Value>& slices) {
    return reverseStep(bb, c.backprop, r, p, slices);
  };
  const std::vector<Value> outs = scan(b, step, init, elems, opt);
  std::vector<Value> grads(numInputs + numCaptures);
  if (outs.empty()) return grads;  // nothing carries a gradient
  Node& rev = g.node(outs[0].node);
  rev.forwardNode = fid;
  rev.control.adjointOf = r.adjOf;
  for (size_t k = 0; k < numAdj; ++k)
    if (c.needs[size_t(r.adjOf[k])]) grads[size_t(r.adjOf[k])] = outs[k];
  const size_t stackedBase = numAdj + r.caps.size();
  for (size_t i = 0; i < r.elemOf.size(); ++i) grads[nv + r.elemOf[i]] = outs[stackedBase + i];
  size_t ci = 0;
  for (size_t i = 0; i < numCaptures; ++i)
    if (c.needs[numInputs + i]) grads[numInputs + i] = outs[numAdj + ci++];
  return grads;
}

std::string_view scanName(const Node& n) {
  if (stackedCount(n) > 0) return "scan";
  return n.control.reverse ? "foldr" : "foldl";
}

}  // namespace

ControlKind scanKind() {
  return {.kind = NodeKind::Scan,
          .userName = "scan",
          .badge = "scan",
          .math =
              "c', y_t = f(c, x_t) for each element t; the final c and the stacked y are the "
              "outputs\n"
              "dc, dx_t = vjp(f)(dc', dy_t): a scan the other way; the captures' adjoints are "
              "carried and summed",
          .execute = executeScan,
          .vjp = scanVjp,
          .batch = scanBatchRule(),
          .edgeAdjoints = scanEdgeAdjoints,
          .nameOf = scanName};
}

}  // namespace gl
