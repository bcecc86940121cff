#include "engine/build/builder.h"

#include <algorithm>
#include <set>

#include "engine/ops/registry.h"
#include "engine/tensor/diagnostic.h"
#include "engine/tensor/limits.h"

namespace gl {

Builder::Builder(Graph& g, size_t memoryBudget) : g_(g), budget_(memoryBudget) {}

void Builder::popTape(TapeHook* t) {
  auto it = std::find(tapes_.begin(), tapes_.end(), t);
  if (it != tapes_.end()) tapes_.erase(it);
}

void Builder::checkBudget(size_t bytes, const std::string& op) const {
  if (bytes > budget_)
    throw EngineError(
        diagnosed("this needs " + humanBytes(double(bytes)) + ", over the memory budget of " +
                      humanBytes(double(budget_)) + kRaiseBudget,
                  {DiagCode::OverMemoryBudget,
                   {},
                   {humanBytes(double(bytes)), humanBytes(double(budget_))}}),
        loc_, op);
}

static size_t typeBytes(const TypeInfo& t) {
  if (t.list) return 0;
  double n = 1;
  for (auto d : t.shape) n *= d < 0 ? 1 : double(d);
  double b = n * double(dtypeSize(t.dtype));
  return b > 1e19 ? size_t(-1) : size_t(b);
}

void Builder::checkBudget(const TypeInfo& t, const std::string& op) const {
  checkBudget(typeBytes(t), op);
}

Value Builder::resolve(Value v) {
  if (!v.valid()) return v;
  const int vr = g_.node(v).region;
  for (int r = current_; r > 0; r = g_.region(r).parent) {
    if (g_.within(vr, r)) break;  // defined here or inside: already visible
    if (g_.region(r).forwardOf == vr) return readSaved(r, v);
  }
  return v;
}

std::vector<Value> Builder::op(const std::string& name, const std::vector<Value>& inputsIn,
                               const Attrs& attrs) {
  const Primitive* p = Registry::instance().find(name);
  if (!p) throw EngineError("unknown operation '" + name + "'", loc_);
  if (p->arity >= 0 && static_cast<int>(inputsIn.size()) != p->arity)
    throw EngineError(
        "expects " + std::to_string(p->arity) + " inputs, got " + std::to_string(inputsIn.size()),
        loc_, name);
  Node n;
  n.prim = p;
  n.primName = p->name;
  n.attrs = attrs;
  Types in;
  for (Value v : inputsIn) {
    if (!v.valid() || v.node >= g_.numNodes())
      throw EngineError("an input is not a value of this graph", loc_, name);
    v = resolve(v);
    n.inputs.push_back(v);
    in.push_back(g_.type(v));
  }
  try {
    n.outputs = p->shape(in, attrs);
  } catch (const ShapeError& e) {
    throw EngineError(e.what(), loc_, name);
  } catch (const EngineError& e) {
    throw e.located(loc_, name);
  }
  size_t bytes = 0;
  for (const auto& t : n.outputs) bytes += typeBytes(t);
  checkBudget(bytes, name);
  Node& added = addNode(std::move(n));
  std::vector<Value> outs;
  for (int i = 0; i < static_cast<int>(added.outputs.size()); ++i) outs.push_back({added.id, i});
  return outs;
}

Node& Builder::addNode(Node n) {
  n.region = current_;
  if (!n.loc.known()) n.loc = loc_;
  n.phase = phase_;
  for (auto& v : n.inputs) v = resolve(v);
  for (auto* t : tapes_)
    if (t->recordingStopped()) n.recordingStopped = true;
  if (!n.regions.empty()) n.captures = captureScan(n);
  Node& added = g_.addNode(std::move(n));
  for (auto* t : tapes_) t->onNode(added);
  return added;
}

// Values defined outside the node's regions but used inside them (transitively).
std::vector<Value> Builder::captureScan(const Node& n) const {
  std::set<Value> seen;
  std::vector<Value> caps;
  auto inside = [&](int region) {
    for (int r : n.regions)
      if (g_.within(region, r)) return true;
    return false;
  };
  std::vector<int> stack(n.regions.begin(), n.regions.end());
  auto consider = [&](Value v) {
    if (v.valid() && !inside(g_.node(v).region) && seen.insert(v).second) caps.push_back(v);
  };
  while (!stack.empty()) {
    const Region& r = g_.region(stack.back());
    stack.pop_back();
    for (int id : r.nodes) {
      const Node& m = g_.node(id);
      for (Value v : m.inputs) consider(v);
      for (Value v : m.captures) consider(v);
      for (int sub : m.regions) (void)sub;  // their captures are already in m.captures
    }
    for (Value v : r.results) consider(v);
  }
  return caps;
}

Value Builder::constant(const Tensor& t, const std::string& name) {
  Node n;
  n.kind = NodeKind::Const;
  n.value = t;
  n.name = name;
  n.outputs = {{t.dtype(), t.shape(), false}};
  return {addNode(std::move(n)).id, 0};
}

Value Builder::variable(const Tensor& init, const std::string& name) {
  // int32 variables exist in TF too (counters, steps); they carry no gradient.
  if (!isFloat(init.dtype()) && init.dtype() != DType::I32)
    throw EngineError(
        "a Variable must be float32, float64 or int32, got " + std::string(dtypeName(init.dtype())),
        loc_, "Variable");
  Node n;
  n.kind = NodeKind::Variable;
  n.value = init;
  n.name = name;
  n.outputs = {{init.dtype(), init.shape(), false}};
  return {addNode(std::move(n)).id, 0};
}

Value Builder::placeholder(DType dt, const Shape& shape, const std::string& name) {
  checkBudget(typeBytes({dt, shape, false}), "placeholder");
  Node n;
  n.kind = NodeKind::Placeholder;
  n.name = name;
  n.outputs = {{dt, shape, false}};
  return {addNode(std::move(n)).id, 0};
}

void Builder::print(const std::vector<Value>& values, const std::string& prefix,
                    const Attrs& attrs) {
  Node n;
  n.kind = NodeKind::Print;
  n.inputs = values;
  n.printPrefix = prefix;
  n.attrs = attrs;
  n.sideEffect = true;
  addNode(std::move(n));
}

int Builder::openRegion(RegionKind kind) {
  int r = g_.addRegion(current_, kind);
  current_ = r;
  return r;
}

Value Builder::addParam(const TypeInfo& t, const std::string& name) {
  Node n;
  n.kind = NodeKind::Param;
  n.name = name;
  n.outputs = {t};
  n.paramIndex = static_cast<int>(g_.region(current_).params.size());
  Value v{addNode(std::move(n)).id, 0};
  g_.region(current_).params.push_back(v);
  return v;
}

void Builder::closeRegion(int region, const std::vector<Value>& results) {
  std::vector<Value> rs;
  int saved = current_;
  current_ = region;
  for (Value v : results) rs.push_back(resolve(v));
  current_ = saved;
  g_.region(region).results = rs;
  current_ = g_.region(region).parent;
}

// A copy of a constant, the exposed output of a cond, or this iteration's entry of what the
// loop/map saved. The owner grows one saved output per distinct forward value.
Value Builder::readSaved(int r, Value v) {
  Graph& g = g_;
  if (auto it = g.region(r).savedReads.find(v); it != g.region(r).savedReads.end())
    return it->second;
  const int fwdR = g.region(r).forwardOf;
  const int ownerId = g.region(fwdR).owner;
  if (ownerId < 0) throw EngineError("internal: reverse body of an unowned region");
  RegionScope scope(*this, r);
  Value out;
  const Node& vn = g.node(v);
  if (vn.is(NodeKind::Const)) {
    out = constant(vn.value, vn.name);
  } else {
    Node& owner = g.node(ownerId);
    const bool perIteration = savesPerIteration(owner.kind);
    size_t i = 0;
    while (i < owner.saved.size() && owner.saved[i] != v) ++i;
    if (i == owner.saved.size()) {
      owner.saved.push_back(v);
      TypeInfo t = g.type(v);
      if (perIteration) {
        t.nested = t.list;
        t.list = true;
      }
      owner.outputs.push_back(t);
    }
    Value exposed{ownerId, g.node(ownerId).control.savedBase + int(i)};
    if (perIteration)
      out = op1("list_read", {exposed, g.region(r).iterationIndex});
    else
      out = resolve(exposed);
  }
  g.region(r).savedReads[v] = out;
  return out;
}

}  // namespace gl
