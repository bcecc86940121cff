#include "ui/graph/repeat_groups.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

#include "engine/control/kind.h"

namespace gl::ui {

namespace {

// What makes two nodes repeats of each other. The primitive is compared by identity (the
// registry's entry), never by name.
using RepeatKey = std::tuple<int, const void*, int, int, int, std::string>;

RepeatKey repeatKeyOf(const Node& n) {
  return {static_cast<int>(n.kind),
          static_cast<const void*>(n.prim),
          static_cast<int>(n.phase),
          n.loc.line,
          n.loc.col,
          n.loc.file};
}

bool isTopLevel(const Node& n) { return n.region <= 0; }

// Leaves are the program's own state (a Variable, a fed placeholder): never part of a repeat.
bool mayRepeat(const Node& n) {
  return n.loc.known() && !n.is(NodeKind::Variable) && !n.is(NodeKind::Placeholder);
}

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(static_cast<size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int find(int x) {
    while (parent[size_t(x)] != x) x = parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
    return x;
  }
  void unite(int a, int b) { parent[size_t(find(a))] = find(b); }
};

// "einsum, add, gather": the distinct op names of the members in first-seen order, the
// leaves (constants) left out unless nothing else is there.
std::string groupTitle(const Graph& g, const RepeatGroup& group) {
  std::vector<std::string> names, leaves;
  for (int id : group.members) {
    const Node& n = g.node(id);
    std::vector<std::string>& into = n.is(NodeKind::Const) ? leaves : names;
    const std::string name(displayName(n));
    if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
  }
  if (names.empty()) names = leaves;
  std::string title;
  const size_t shown = std::min<size_t>(names.size(), 3);
  for (size_t i = 0; i < shown; ++i) title += (i ? ", " : "") + names[i];
  if (names.size() > shown) title += ", …";
  return title;
}

// "tf.function train_step", "tf.function train_step (trace 2)" for its second signature.
std::string callGroupTitle(const FunctionCall& call) {
  std::string title = "tf.function " + call.function;
  if (call.concrete > 0) title += " (trace " + std::to_string(call.concrete + 1) + ")";
  return title;
}

// Step 0: one group per concrete tf.function, its calls the instances. Marks the members.
void addCallGroups(const Graph& g, const std::set<int>* only, RepeatGroups& out,
                   std::vector<char>& inCall) {
  std::map<std::pair<std::string, int>, int> groupOfFunction;
  for (const FunctionCall& call : g.functionCalls) {
    std::vector<int> members;
    for (int id = call.first; id < call.end && id < g.numNodes(); ++id)
      if (isTopLevel(g.node(id)) && !inCall[size_t(id)] && (!only || only->count(id)))
        members.push_back(id);
    if (members.empty()) continue;
    auto [it, added] = groupOfFunction.try_emplace({call.function, call.concrete},
                                                   static_cast<int>(out.groups.size()));
    if (added) {
      RepeatGroup group;
      group.kind = GroupKind::FunctionCalls;
      group.function = call.function;
      group.title = callGroupTitle(call);
      group.firstLine = std::numeric_limits<int>::max();
      group.backward = true;
      out.groups.push_back(std::move(group));
    }
    RepeatGroup& group = out.groups[size_t(it->second)];
    // The first call is the trace; later ones copy it without its parameter nodes.
    if (group.repeats++ == 0) group.nodesPerInstance = static_cast<int>(members.size());
    for (int id : members) {
      const Node& n = g.node(id);
      group.members.push_back(id);
      if (n.loc.known()) group.firstLine = std::min(group.firstLine, n.loc.line);
      group.backward = group.backward && n.phase == Phase::Backward;
      out.groupOf[id] = it->second;
      inCall[size_t(id)] = 1;
    }
  }
  for (RepeatGroup& group : out.groups) {
    std::sort(group.members.begin(), group.members.end());
    if (group.firstLine == std::numeric_limits<int>::max()) group.firstLine = 0;
  }
}

}  // namespace

int RepeatGroups::groupOfNode(const Graph& g, const Node& n) const {
  if (groups.empty()) return -1;
  int top = n.id;
  for (int r = n.region; r > 0;) {
    const int owner = g.region(r).owner;
    if (owner < 0) break;
    top = owner;
    r = g.node(owner).region;
  }
  auto it = groupOf.find(top);
  return it == groupOf.end() ? -1 : it->second;
}

RepeatGroups findRepeatGroups(const Graph& g, const std::set<int>* only, int minRepeats,
                              bool structural) {
  RepeatGroups out;
  std::vector<char> inCall(static_cast<size_t>(g.numNodes()), 0);
  addCallGroups(g, only, out, inCall);
  if (!structural) return out;
  // 1. Shapes of the candidate nodes and how often each occurs (a tf.function call's nodes
  //    belong to its call group).
  std::map<RepeatKey, int> keyIndex;
  std::vector<int> shapeCount;
  std::vector<int> shapeOfNode(static_cast<size_t>(g.numNodes()), -1);
  for (const Node& n : g.nodes()) {
    if (!isTopLevel(n) || !mayRepeat(n) || inCall[size_t(n.id)] || (only && !only->count(n.id)))
      continue;
    auto [it, added] = keyIndex.try_emplace(repeatKeyOf(n), static_cast<int>(shapeCount.size()));
    if (added) shapeCount.push_back(0);
    ++shapeCount[size_t(it->second)];
    shapeOfNode[size_t(n.id)] = it->second;
  }
  auto repeated = [&](int id) {
    const int s = shapeOfNode[size_t(id)];
    return s >= 0 && shapeCount[size_t(s)] >= minRepeats;
  };
  // 2. Shapes that occur equally often and feed each other belong to one group.
  UnionFind shapes(static_cast<int>(shapeCount.size()));
  for (const Node& n : g.nodes()) {
    if (shapeOfNode[size_t(n.id)] < 0 || !repeated(n.id)) continue;
    const int s = shapeOfNode[size_t(n.id)];
    auto join = [&](Value v) {
      if (!v.valid() || !repeated(v.node)) return;
      const int t = shapeOfNode[size_t(v.node)];
      if (shapeCount[size_t(t)] == shapeCount[size_t(s)]) shapes.unite(s, t);
    };
    for (Value v : n.inputs) join(v);
    for (Value v : n.captures) join(v);
  }
  // 3. One group per set of shapes, members in id order.
  const size_t callGroups = out.groups.size();
  std::map<int, int> groupOfRoot;
  for (const Node& n : g.nodes()) {
    if (shapeOfNode[size_t(n.id)] < 0 || !repeated(n.id)) continue;
    const int s = shapeOfNode[size_t(n.id)];
    auto [it, added] = groupOfRoot.try_emplace(shapes.find(s), static_cast<int>(out.groups.size()));
    if (added) {
      out.groups.emplace_back();
      out.groups.back().repeats = shapeCount[size_t(s)];
      out.groups.back().firstLine = n.loc.line;
      out.groups.back().backward = true;
    }
    RepeatGroup& group = out.groups[size_t(it->second)];
    group.members.push_back(n.id);
    group.firstLine = std::min(group.firstLine, n.loc.line);
    group.backward = group.backward && n.phase == Phase::Backward;
    out.groupOf[n.id] = it->second;
  }
  for (size_t i = callGroups; i < out.groups.size(); ++i) {
    RepeatGroup& group = out.groups[i];
    group.nodesPerInstance = static_cast<int>(group.members.size()) / group.repeats;
    group.title = groupTitle(g, group);
  }
  return out;
}

}  // namespace gl::ui
