// tf.cond: a node owning regions {then, else}; only the taken branch runs. Its outputs are the
// branch results, then (once reverse mode asks) the taken branch's saved values.
#include "engine/control/control_flow.h"
#include "engine/control/kind.h"

namespace gl {

// ---- build ------------------------------------------------------------------------------------

std::vector<Value> cond(Builder& b, Value predIn, const BranchFn& trueFn, const BranchFn& falseFn) {
  const SourceLoc loc = b.loc();
  Value pred = b.resolve(predIn);
  const TypeInfo pt = b.type(pred);
  if (pt.list || pt.dtype != DType::Bool || numel(pt.shape) != 1)
    throw EngineError("the predicate must be a scalar bool tensor, got " + pt.str(), loc, "cond");
  const int thenRegion = b.openRegion(RegionKind::Then);
  std::vector<Value> t = trueFn(b);
  b.closeRegion(thenRegion, t);
  b.setLoc(loc);
  const int elseRegion = b.openRegion(RegionKind::Else);
  std::vector<Value> f = falseFn(b);
  b.closeRegion(elseRegion, f);
  b.setLoc(loc);
  const auto& tr = b.graph().region(thenRegion).results;
  const auto& fr = b.graph().region(elseRegion).results;
  if (tr.size() != fr.size())
    throw EngineError("the branches return different numbers of values: " +
                          std::to_string(tr.size()) + " and " + std::to_string(fr.size()),
                      loc, "cond");
  Node n;
  n.kind = NodeKind::Cond;
  n.loc = loc;
  n.inputs = {pred};
  n.regions = {thenRegion, elseRegion};
  for (size_t i = 0; i < tr.size(); ++i) {
    const TypeInfo a = b.type(tr[i]), c = b.type(fr[i]);
    if (a.list != c.list || a.dtype != c.dtype || a.shape.size() != c.shape.size())
      throw EngineError("the branches return different types for result " + std::to_string(i) +
                            ": " + a.str() + " and " + c.str(),
                        loc, "cond");
    // Compatible shapes, as TF's cond_v2 allows: a dimension the branches disagree on is
    // unknown in the result.
    TypeInfo merged = a;
    for (size_t d = 0; d < a.shape.size(); ++d)
      if (a.shape[d] != c.shape[d]) merged.shape[d] = -1;
    n.outputs.push_back(merged);
  }
  n.control.savedBase = static_cast<int>(tr.size());
  Node& c = addControlNode(b, std::move(n));
  std::vector<Value> outs;
  for (size_t i = 0; i < tr.size(); ++i) outs.push_back({c.id, static_cast<int>(i)});
  return outs;
}

namespace {

// ---- execute ----------------------------------------------------------------------------------

// The taken branch's saved values are outputs themselves (a cond runs once, so nothing is
// accumulated); the other branch's stay undefined.
void executeCond(ControlRuntime& rt, const Node& n) {
  const bool taken = rt.value(n.inputs[0]).t.at(0) != 0.0;
  RegionRun run = rt.runRegion(n.regions[taken ? 0 : 1], {}, rt.iteration());
  std::vector<Datum> outs = std::move(run.results);
  outs.resize(size_t(n.control.savedBase) + n.saved.size());
  const std::vector<int>& used = rt.usedSaved();
  for (size_t k = 0; k < used.size(); ++k)
    outs[size_t(n.control.savedBase + used[k])] = run.saved[k];
  rt.setOutputs(std::move(outs));
}

// ---- reverse mode -------------------------------------------------------------------------------

// y = cond(p, f, g)
// dcaptures = cond(p, vjp(f), vjp(g)); no gradient into p
std::vector<Value> condVjp(ControlVjpContext& c) {
  Builder& b = c.b;
  Graph& g = b.graph();
  const int cid = c.node.id;
  const Node& n = g.node(cid);
  const size_t nOut = size_t(n.control.savedBase);
  const size_t numCaptures = n.captures.size();
  const std::vector<Value> caps = neededCaptures(n, c.needs);
  const Value pred = n.inputs[0];
  const int thenR = n.regions[0], elseR = n.regions[1];
  std::vector<Value> seeds;
  for (size_t j = 0; j < nOut; ++j)
    seeds.push_back(c.gout[j].valid() ? c.gout[j] : b.zerosLike({cid, int(j)}));
  auto branch = [&](int fwdR) {
    return [&, fwdR](Builder& bb) {
      bb.graph().region(bb.currentRegion()).forwardOf = fwdR;
      BodyGradRequest req;
      req.region = fwdR;
      req.targets = bb.graph().region(fwdR).results;
      req.seeds = seeds;
      // The branch's saved values (read by a first reverse pass) carry their own adjoints in
      // a gradient of a gradient.
      const Node& fwdNode = bb.graph().node(cid);
      for (size_t i = 0; i < fwdNode.saved.size() && nOut + i < c.gout.size(); ++i) {
        const Value v = fwdNode.saved[i];
        if (c.gout[nOut + i].valid() && bb.graph().node(v).region == fwdR) {
          req.targets.push_back(v);
          req.seeds.push_back(c.gout[nOut + i]);
        }
      }
      req.sources = caps;
      // A branch returning a captured value as is: backprop seeds it (it is a source).
      std::map<Value, Value> adj = c.backprop(bb, req);
      std::vector<Value> out;
      for (Value cap : caps) {
        auto it = adj.find(cap);
        out.push_back(it != adj.end() ? it->second : bb.zerosLike(cap));
      }
      return out;
    };
  };
  const std::vector<Value> outs = cond(b, pred, branch(thenR), branch(elseR));
  std::vector<Value> grads(1 + numCaptures);
  size_t ci = 0;
  for (size_t i = 0; i < numCaptures; ++i)
    if (c.needs[1 + i]) grads[1 + i] = outs[ci++];
  return grads;
}

}  // namespace

ControlKind condKind() {
  return {.kind = NodeKind::Cond,
          .userName = "cond",
          .badge = "if/else",
          .math =
              "y = cond(p, f, g)\n"
              "dcaptures = cond(p, vjp(f), vjp(g)); no gradient into p",
          .execute = executeCond,
          .vjp = condVjp,
          .batch = condBatchRule()};
}

}  // namespace gl
