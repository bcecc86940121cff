#include "engine/graph/graph.h"

namespace gl {

std::string TypeInfo::str() const {
  std::string s = std::string(dtypeName(dtype)) + shapeStr(shape);
  return list ? "list<" + s + ">" : s;
}

std::string Node::label() const {
  std::string s = std::string(opName()) + "#" + std::to_string(id);
  if (!name.empty()) s += " '" + name + "'";
  return s;
}

Graph::Graph() {
  Region top;
  top.id = 0;
  top.kind = RegionKind::Top;
  regions_.push_back(top);
}

Node& Graph::addNode(Node n) {
  n.id = static_cast<int>(nodes_.size());
  regions_.at(static_cast<size_t>(n.region)).nodes.push_back(n.id);
  nodes_.push_back(std::move(n));
  return nodes_.back();
}

int Graph::addRegion(int parent, RegionKind kind) {
  Region r;
  r.id = static_cast<int>(regions_.size());
  r.parent = parent;
  r.kind = kind;
  regions_.push_back(r);
  return r.id;
}

bool Graph::within(int inner, int outer) const {
  for (int r = inner; r >= 0; r = region(r).parent)
    if (r == outer) return true;
  return false;
}

int Graph::depth(int r) const {
  int d = 0;
  for (; r > 0; r = region(r).parent) ++d;
  return d;
}

}  // namespace gl
