#include "engine/control/row_slices.h"

#include <map>

#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl {

bool asRowSlices(Builder& b, Value v, RowSlices& out) {
  const Graph& g = b.graph();
  const Node& n = g.node(v);
  if (runs(n, prims::scatterAdd())) {
    if (n.attrs.i("axis") != 0) return false;
    const Shape& u = g.type(n.inputs[0]).shape;
    const Shape& idx = g.type(n.inputs[1]).shape;
    if (!fullyKnown(u) || !fullyKnown(idx)) return false;
    const int64_t k = numel(idx);
    Shape rows{k};
    rows.insert(rows.end(), u.begin() + long(idx.size()), u.end());
    out.rows = ops::reshape(b, n.inputs[0], rows);
    out.indices = ops::reshape(b, n.inputs[1], {k});
    return true;
  }
  if (runs(n, prims::pad())) {
    const std::vector<int64_t> p = n.attrs.ints("paddings");
    const Shape& x = g.type(n.inputs[0]).shape;
    if (x.empty() || !fullyKnown(x) || p.size() != 2 * x.size()) return false;
    for (size_t i = 2; i < p.size(); ++i)
      if (p[i] != 0) return false;
    std::vector<double> idx;
    for (int64_t r = 0; r < x[0]; ++r) idx.push_back(double(p[0] + r));
    out.rows = n.inputs[0];
    out.indices = b.constant(Tensor::fromVector(idx, {x[0]}, DType::I32), "rows");
    return true;
  }
  return false;
}

std::vector<Value> mergeRowSlices(Builder& b, const std::vector<Value>& parts) {
  if (parts.size() < 2) return parts;
  const Graph& g = b.graph();
  // Candidates grouped by the dense shape and dtype they stand for.
  std::map<std::pair<Shape, DType>, std::vector<size_t>> groups;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Node& n = g.node(parts[i]);
    if ((runs(n, prims::scatterAdd()) || runs(n, prims::pad())) &&
        fullyKnown(g.type(parts[i]).shape))
      groups[{g.type(parts[i]).shape, g.type(parts[i]).dtype}].push_back(i);
  }
  std::vector<bool> merged(parts.size(), false);
  std::vector<Value> out;
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    std::vector<Value> rows, indices;
    std::vector<size_t> taken;
    for (size_t i : members) {
      RowSlices s;
      if (!asRowSlices(b, parts[i], s)) continue;
      rows.push_back(s.rows);
      indices.push_back(s.indices);
      taken.push_back(i);
    }
    if (taken.size() < 2) continue;
    for (size_t i : taken) merged[i] = true;
    out.push_back(
        ops::scatterAdd(b, ops::concat(b, rows, 0), ops::concat(b, indices, 0), 0, key.first));
  }
  for (size_t i = 0; i < parts.size(); ++i)
    if (!merged[i]) out.push_back(parts[i]);
  return out;
}

}  // namespace gl
