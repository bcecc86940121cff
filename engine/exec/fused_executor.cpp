#include "engine/exec/fused_executor.h"

#include <algorithm>
#include <set>

#include "engine/exec/fused_program.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"

namespace gl {

FusedExecution::FusedExecution(const Graph& g, const ExecutionPlan& plan,
                               const std::vector<Value>& fetches, const RunOptions& opt,
                               int threads)
    : g_(g), plan_(plan), opt_(opt), threads_(threads) {
  schedules_.resize(size_t(g.numRegions()));
  for (int r = 0; r < g.numRegions(); ++r) {
    const Region& reg = g.region(r);
    // What must exist after the region: its results, the saved values a reverse pass reads,
    // the fetches at the top level.
    std::vector<Value> roots = reg.results;
    if (r == 0) roots.insert(roots.end(), fetches.begin(), fetches.end());
    if (reg.owner >= 0) {
      const Node& owner = g.node(reg.owner);
      for (int i : plan.usedSaved(owner.id))
        if (g.node(owner.saved[size_t(i)]).region == r) roots.push_back(owner.saved[size_t(i)]);
    }
    buildSchedule(r, roots);
  }
}

int FusedExecution::numFusedNodes() const {
  int n = 0;
  for (const FusedProgram& p : groups_) n += int(p.members.size());
  return n;
}

// Units in the plan's order, a group at its last member; then each local slot is freed after
// the last unit that reads it, as the plan does for single nodes.
void FusedExecution::buildSchedule(int r, const std::vector<Value>& roots) {
  const RegionPlan& rp = plan_.region(r);
  std::vector<FusedProgram> found = fuseRegion(g_, rp.order, roots);
  std::map<int, int> lastOf;  // last member -> group
  std::set<int> members;
  for (FusedProgram& p : found) {
    lastOf[p.lastMember()] = int(groups_.size());
    members.insert(p.members.begin(), p.members.end());
    groups_.push_back(std::move(p));
  }
  FusedSchedule& s = schedules_[size_t(r)];
  for (int id : rp.order) {
    if (auto it = lastOf.find(id); it != lastOf.end())
      s.units.push_back({-1, it->second});
    else if (!members.count(id))
      s.units.push_back({id, -1});
  }
  const Region& reg = g_.region(r);
  std::vector<int> lastUse(reg.nodes.size(), -1);
  std::vector<char> keep(reg.nodes.size(), 0);
  auto inRegion = [&](Value v) { return v.valid() && g_.node(v).region == r; };
  for (Value v : roots)
    if (inRegion(v)) keep[size_t(plan_.local(v.node))] = 1;
  for (Value v : reg.params) keep[size_t(plan_.local(v.node))] = 1;
  for (size_t u = 0; u < s.units.size(); ++u) {
    auto use = [&](Value v) {
      if (inRegion(v)) lastUse[size_t(plan_.local(v.node))] = int(u);
    };
    const FusedUnit& unit = s.units[u];
    if (unit.group >= 0) {
      const FusedProgram& p = groups_[size_t(unit.group)];
      for (const FusedInput& in : p.inputs) use(in.value);
      for (const FusedOutput& out : p.outputs) use(out.value);
    } else {
      const Node& n = g_.node(unit.node);
      lastUse[size_t(plan_.local(n.id))] = std::max(lastUse[size_t(plan_.local(n.id))], int(u));
      for (Value v : n.inputs) use(v);
      for (Value v : n.captures) use(v);
    }
  }
  s.freeAfter.resize(s.units.size());
  for (size_t i = 0; i < reg.nodes.size(); ++i)
    if (!keep[i] && lastUse[i] >= 0) s.freeAfter[size_t(lastUse[i])].push_back(int(i));
}

std::vector<Tensor> FusedExecution::runGroup(int i, const std::vector<const Tensor*>& in,
                                             bool& nonFinite) const {
  const FusedProgram& p = groups_[size_t(i)];
  std::vector<Tensor> out;
  out.reserve(p.outputs.size());
  for (const FusedOutput& o : p.outputs)
    out.push_back(Tensor::empty(o.isBool ? DType::Bool : p.dtype, g_.type(o.value).shape));
  runFusedGroup(p, in, out, opt_.checkNumerics, nonFinite);
  return out;
}

const ElementMajorLoop& FusedExecution::analysis(const Node& n) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = loops_.find(n.id);
  if (it == loops_.end()) it = loops_.emplace(n.id, analyseElementMajor(g_, n)).first;
  return it->second;
}

void FusedExecution::note(const Node& n, bool elementMajor, const std::string& reason,
                          int64_t iterations) {
  std::lock_guard<std::mutex> lock(mu_);
  notes_.emplace(n.id, LoopFusion{n.id, elementMajor, reason, iterations});
}

std::vector<LoopFusion> FusedExecution::takeLoopNotes() {
  std::vector<LoopFusion> out;
  for (auto& [id, n] : notes_) out.push_back(std::move(n));
  notes_.clear();
  return out;
}

namespace {

// Values of one region while the control slice of an element-major loop runs: a slot per
// node, params from the loop variables, anything else from the frame around the loop.
class SliceValues {
 public:
  SliceValues(const Graph& g, const ExecutionPlan& plan, ControlRuntime& rt, int region)
      : g_(g), plan_(plan), rt_(rt), region_(region), slots_(g.region(region).nodes.size()) {}

  const Datum& get(Value v, const std::vector<Datum>& vars) const {
    const Node& n = g_.node(v);
    if (n.region != region_) return rt_.value(v);
    if (n.is(NodeKind::Param)) return vars.at(size_t(n.paramIndex));
    const std::vector<Datum>& s = slots_[size_t(plan_.local(v.node))];
    if (size_t(v.index) >= s.size()) throw EngineError("internal: " + n.label() + " not computed");
    return s[size_t(v.index)];
  }

  void run(const std::vector<int>& nodes, const std::vector<Datum>& vars) {
    for (int id : nodes) {
      const Node& n = g_.node(id);
      std::vector<Datum>& out = slots_[size_t(plan_.local(id))];
      if (n.is(NodeKind::Const) || n.is(NodeKind::Variable)) {
        if (out.empty()) out = {n.value};
        continue;
      }
      if (!n.is(NodeKind::Primitive)) throw EngineError("internal: " + n.label() + " in a slice");
      in_.clear();
      for (Value v : n.inputs) in_.push_back(get(v, vars));
      KernelContext ctx;
      try {
        out.clear();
        n.prim->forward(in_, n.attrs, ctx, out);
      } catch (const EngineError& e) {
        throw e.located(n.loc, std::string(n.opName()));
      } catch (const ShapeError& e) {
        throw EngineError(e.what(), n.loc, std::string(n.opName()));
      }
      in_.clear();
    }
  }

 private:
  const Graph& g_;
  const ExecutionPlan& plan_;
  ControlRuntime& rt_;
  int region_;
  std::vector<std::vector<Datum>> slots_;
  Data in_;
};

}  // namespace

bool FusedExecution::runLoop(ControlRuntime& rt, const Node& n) {
  if (!n.is(NodeKind::While)) return false;
  const ElementMajorLoop& e = analysis(n);
  std::string why = e.why;
  if (why.empty() && opt_.records) why = "per-iteration records are on (the step-through)";
  if (why.empty() && !rt.usedSaved().empty())
    why = "its reverse pass reads values saved per iteration";
  if (!why.empty()) {
    note(n, false, why, 0);
    return false;
  }
  const Region& cond = g_.region(n.regions[0]);
  const Region& body = g_.region(n.regions[1]);
  std::vector<Datum> vars;
  for (Value v : n.inputs) vars.push_back(rt.value(v));
  for (int j : e.elementVars)
    if (!vars[size_t(j)].t.defined() || vars[size_t(j)].t.numel() != e.program.numel) {
      note(n, false, "a carried value has another size at run time", 0);
      return false;
    }

  // Body values that read no loop variable, once; then the control slice alone gives the
  // trip count.
  SliceValues bodyValues(g_, plan_, rt, body.id), condValues(g_, plan_, rt, cond.id);
  bodyValues.run(e.hoisted, vars);
  const int64_t maxIter = n.control.maximumIterations;
  int64_t trips = 0;
  std::vector<Datum> next;  // the control variables' next values (one may be another's)
  next.reserve(e.controlVars.size());
  while (true) {
    if ((trips & 1023) == 0) rt.checkCancelled();
    if (maxIter >= 0 && trips >= maxIter) break;
    condValues.run(e.condNodes, vars);
    const Datum& pred = condValues.get(cond.results.at(0), vars);
    if (!pred.t.defined() || pred.t.at(0) == 0.0) break;
    bodyValues.run(e.controlNodes, vars);
    next.clear();
    for (int j : e.controlVars) next.push_back(bodyValues.get(body.results[size_t(j)], vars));
    for (size_t k = 0; k < next.size(); ++k) vars[size_t(e.controlVars[k])] = std::move(next[k]);
    ++trips;
  }

  // The element variables: every block runs all the iterations.
  const FusedProgram& p = e.program;
  std::vector<int> paramInput(e.elementVars.size(), -1);
  std::vector<const Tensor*> in(p.inputs.size(), nullptr);
  for (size_t k = 0; k < p.inputs.size(); ++k) {
    const Value v = p.inputs[k].value;
    const Node& vn = g_.node(v);
    if (vn.region == body.id && vn.is(NodeKind::Param)) {
      const auto at = std::find(e.elementVars.begin(), e.elementVars.end(), vn.paramIndex);
      paramInput[size_t(at - e.elementVars.begin())] = int(k);
    } else {
      in[k] = &bodyValues.get(v, vars).t;
    }
  }
  std::vector<const Tensor*> carried;
  std::vector<Tensor> out;
  for (int j : e.elementVars) {
    carried.push_back(&vars[size_t(j)].t);
    out.push_back(Tensor::empty(p.dtype, vars[size_t(j)].t.shape()));
  }
  const bool parallel =
      threads_ > 1 && p.numel * std::max<int64_t>(trips, 1) >= kern::kParallelWork;
  bool nonFinite = false;
  runElementMajor(p, paramInput, carried, in, trips, parallel, out, opt_.checkNumerics, nonFinite);
  if (nonFinite) {
    note(n, false, "a NaN or Inf appeared: run the normal way to find the op that made it", 0);
    return false;
  }
  std::vector<Datum> outs(vars.begin(), vars.end());
  for (size_t k = 0; k < e.elementVars.size(); ++k)
    outs[size_t(e.elementVars[k])] = Datum(std::move(out[k]));
  outs.push_back(Datum(Tensor::scalar(double(trips), DType::I32)));
  SavedAccumulators saved(rt, n);
  saved.appendOutputs(n, outs);
  rt.setOutputs(std::move(outs));
  rt.progress(trips, trips);
  note(n, true, "", trips);
  return true;
}

}  // namespace gl
