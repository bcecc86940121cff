#include "engine/control/kind.h"

#include <array>
#include <cstring>

#include "engine/control/row_slices.h"

namespace gl {

const std::vector<const ControlKind*>& controlKinds() {
  // Adding a kind: its file defines a factory, listed here.
  static const std::array<ControlKind, 4> kinds{whileKind(), mapKind(), condKind(), scanKind()};
  static const std::vector<const ControlKind*> all{&kinds[0], &kinds[1], &kinds[2], &kinds[3]};
  return all;
}

const ControlKind* findControlKind(NodeKind k) {
  for (const ControlKind* c : controlKinds())
    if (c->kind == k) return c;
  return nullptr;
}

const ControlKind& controlKind(NodeKind k) {
  const ControlKind* c = findControlKind(k);
  if (!c) throw EngineError("internal: '" + std::string(kindName(k)) + "' is not control flow");
  return *c;
}

Value sumAll(Builder& b, const std::vector<Value>& given) {
  const std::vector<Value> parts = b.type(given.at(0)).list ? given : mergeRowSlices(b, given);
  Value acc = parts.at(0);
  for (size_t i = 1; i < parts.size(); ++i)
    acc = b.op1(b.type(acc).list ? "list_add" : "add", {acc, parts[i]});
  return acc;
}

std::string_view displayName(const Node& n) {
  const ControlKind* k = findControlKind(n.kind);
  if (!k) return n.opName();
  return k->nameOf ? k->nameOf(n) : k->userName;
}

Node& addControlNode(Builder& b, Node n) {
  std::vector<int> regions = n.regions;
  // A body that prints runs even when nothing reads the node's results (the function guide's
  // fizzbuzz): TF never prunes stateful ops inside control flow.
  for (int r : regions)
    for (int id : b.graph().region(r).nodes)
      n.sideEffect = n.sideEffect || b.graph().node(id).sideEffect;
  Node& added = b.addNode(std::move(n));
  for (int r : regions) b.graph().region(r).owner = added.id;
  return added;
}

std::vector<Value> neededCaptures(const Node& n, const std::vector<bool>& needs) {
  std::vector<Value> caps;
  for (size_t i = 0; i < n.captures.size(); ++i)
    if (needs[n.inputs.size() + i]) caps.push_back(n.captures[i]);
  return caps;
}

SavedAccumulators::SavedAccumulators(ControlRuntime& rt, const Node& n, int64_t count)
    : rt_(rt), used_(rt.usedSaved()) {
  for (int i : used_) {
    auto list = std::make_shared<TensorList>();
    const TypeInfo& t = rt.graph().type(n.saved[size_t(i)]);
    list->dtype = t.dtype;
    list->elemShape = t.shape;
    list->savedPerIteration = true;
    if (count >= 0) {
      list->resize(count);
      if (t.list) list->lists.resize(size_t(count));
    }
    lists_.push_back(std::move(list));
  }
}

// An entry is a tensor, or (the accumulators of an inner loop) a list.
void SavedAccumulators::put(size_t iteration, const std::vector<Datum>& saved) {
  for (size_t k = 0; k < lists_.size(); ++k) {
    TensorList& acc = *lists_[k];
    const Datum& d = saved[k];
    if (acc.size() <= int64_t(iteration)) acc.resize(int64_t(iteration) + 1);
    if (d.isList()) {
      rt_.accountSaved(d.list->bytes());
      if (acc.lists.size() <= iteration) acc.lists.resize(iteration + 1);
      acc.lists[iteration] = d.list;
    } else {
      if (d.t.defined()) rt_.accountSaved(d.t.bytes());
      acc.set(int64_t(iteration), d.t);
    }
  }
}

void SavedAccumulators::appendOutputs(const Node& n, std::vector<Datum>& outputs) const {
  outputs.resize(size_t(n.control.savedBase) + n.saved.size());
  for (size_t k = 0; k < used_.size(); ++k)
    outputs[size_t(n.control.savedBase + used_[k])] = Datum(ListPtr(lists_[k]));
}

double recordedAdjointNorm(const LoopRecord& rec, size_t step, size_t var) {
  if (step >= rec.adjoints.size() || var >= rec.adjoints[step].size()) return -1;
  return rec.adjoints[step][var].l2;
}

void putAdjointNorm(std::map<Value, double>& norms, Value v, double norm, bool overwrite) {
  if (norm < 0 || !v.valid()) return;
  if (overwrite || !norms.count(v)) norms[v] = norm;
}

Tensor sliceRow(const Tensor& e, int64_t i) {
  Tensor slice = Tensor::empty(e.dtype(), Shape(e.shape().begin() + 1, e.shape().end()));
  const size_t row = slice.bytes();
  std::memcpy(slice.raw(), static_cast<const char*>(e.raw()) + size_t(i) * row, row);
  return slice;
}

Tensor stackRows(const TypeInfo& type, int64_t count,
                 const std::function<const Tensor&(int64_t)>& row, const std::string& body,
                 const std::string& unit) {
  Shape elem = count ? row(0).shape() : Shape(type.shape.begin() + 1, type.shape.end());
  for (auto& d : elem)
    if (d < 0) d = 0;
  Shape s{count};
  s.insert(s.end(), elem.begin(), elem.end());
  Tensor out = Tensor::empty(type.dtype, s);
  const size_t bytes = size_t(numel(elem)) * dtypeSize(out.dtype());
  for (int64_t i = 0; i < count; ++i) {
    const Tensor& r = row(i);
    if (r.shape() != elem)
      throw EngineError(body + " returns shape " + shapeStr(r.shape()) + " at " + unit + " " +
                        std::to_string(i) + " but " + shapeStr(elem) + " at " + unit + " 0");
    std::memcpy(static_cast<char*>(out.raw()) + size_t(i) * bytes, r.raw(), bytes);
  }
  return out;
}

}  // namespace gl
