#include "engine/control/control_flow.h"

namespace gl {

namespace {

// Loop variables and branch results must keep their dtype and (known) shape.
void checkSameType(const TypeInfo& before, const TypeInfo& after, const std::string& what,
                   const Builder& b, const std::string& op) {
  if (before.list != after.list || before.dtype != after.dtype ||
      !compatible(before.shape, after.shape))
    throw EngineError(what + " from " + before.str() + " to " + after.str(), b.loc(), op);
}

Node& finishNode(Builder& b, Node n) {
  std::vector<int> regions = n.regions;
  Node& added = b.addNode(std::move(n));
  for (int r : regions) b.graph().region(r).owner = added.id;
  return added;
}

}  // namespace

int whileVarCount(const Node& n) { return n.control.numVars; }
int savedBase(const Node& n) { return n.control.savedBase; }

std::vector<Value> whileLoop(Builder& b, const LoopCondFn& condFn, const LoopBodyFn& bodyFn,
                             const std::vector<Value>& initIn, const WhileOptions& opt) {
  const SourceLoc loc = b.loc();
  std::vector<Value> init;
  std::vector<TypeInfo> types;
  for (Value v : initIn) {
    init.push_back(b.resolve(v));
    types.push_back(b.type(init.back()));
  }
  // cond region
  const int condRegion = b.openRegion(RegionKind::WhileCond);
  std::vector<Value> condParams;
  for (size_t i = 0; i < types.size(); ++i) condParams.push_back(b.addParam(types[i]));
  Value pred = condFn(b, condParams);
  {
    const TypeInfo& pt = b.type(pred);
    if (pt.list || pt.dtype != DType::Bool || numel(pt.shape) != 1)
      throw EngineError("the loop condition must be a scalar bool tensor, got " + pt.str(), loc,
                        "while_loop");
  }
  b.closeRegion(condRegion, {pred});
  // body region
  const int bodyRegion = b.openRegion(RegionKind::WhileBody);
  std::vector<Value> params;
  for (size_t i = 0; i < types.size(); ++i) params.push_back(b.addParam(types[i]));
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
    checkSameType(types[i], after, "the loop body changes loop variable " + std::to_string(i), b,
                  "while_loop");
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
  Node& w = finishNode(b, std::move(n));
  std::vector<Value> outs;
  for (size_t i = 0; i < types.size(); ++i) outs.push_back({w.id, static_cast<int>(i)});
  return outs;
}

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
    if (a.list != c.list || a.dtype != c.dtype || !compatible(a.shape, c.shape))
      throw EngineError("the branches return different types for result " + std::to_string(i) +
                            ": " + a.str() + " and " + c.str(),
                        loc, "cond");
    n.outputs.push_back(a);
  }
  n.control.savedBase = static_cast<int>(tr.size());
  Node& c = finishNode(b, std::move(n));
  std::vector<Value> outs;
  for (size_t i = 0; i < tr.size(); ++i) outs.push_back({c.id, static_cast<int>(i)});
  return outs;
}

std::vector<Value> mapFn(Builder& b, const MapFn& fn, const std::vector<Value>& elemsIn,
                         int parallelIterations) {
  const SourceLoc loc = b.loc();
  if (elemsIn.empty()) throw EngineError("map_fn needs at least one tensor", loc, "map_fn");
  std::vector<Value> elems;
  int64_t n = -2;
  for (Value v : elemsIn) {
    elems.push_back(b.resolve(v));
    const TypeInfo& t = b.type(elems.back());
    if (t.list || t.shape.empty())
      throw EngineError("map_fn maps over the first axis of tensors; got " + t.str(), loc,
                        "map_fn");
    if (n != -2 && t.shape[0] >= 0 && n >= 0 && t.shape[0] != n)
      throw EngineError("map_fn elements have different first dimensions: " + std::to_string(n) +
                            " and " + std::to_string(t.shape[0]),
                        loc, "map_fn");
    if (n < 0) n = t.shape[0];
  }
  const int body = b.openRegion(RegionKind::MapBody);
  Value index = b.addParam({DType::I32, {}, false}, "index");
  b.graph().region(body).iterationIndex = index;
  std::vector<Value> slices;
  for (Value v : elems) {
    TypeInfo t = b.type(v);
    t.shape.erase(t.shape.begin());
    slices.push_back(b.addParam(t));
  }
  std::vector<Value> results = fn(b, slices);
  b.setLoc(loc);
  b.closeRegion(body, results);
  Node m;
  m.kind = NodeKind::Map;
  m.loc = loc;
  m.inputs = elems;
  m.regions = {body};
  for (Value r : b.graph().region(body).results) {
    TypeInfo t = b.type(r);
    if (t.list) throw EngineError("map_fn bodies must return tensors", loc, "map_fn");
    t.shape.insert(t.shape.begin(), n);
    m.outputs.push_back(t);
  }
  size_t bytes = 0;
  for (const auto& t : m.outputs)
    if (fullyKnown(t.shape)) bytes += size_t(numel(t.shape)) * dtypeSize(t.dtype);
  b.checkBudget(bytes, "map_fn");
  m.control.savedBase = static_cast<int>(m.outputs.size());
  m.control.parallelIterations = parallelIterations;
  Node& added = finishNode(b, std::move(m));
  std::vector<Value> outs;
  for (size_t i = 0; i < added.outputs.size(); ++i) outs.push_back({added.id, static_cast<int>(i)});
  return outs;
}

}  // namespace gl
