#pragma once
// Repeated structure of a traced program, found so that the graph view can fold it: an
// unrolled Python loop or a list comprehension traces the same ops at the same script
// locations over and over (seed-c's 64 layers, seed-b's 1000 gradient passes). Qt-free.
//
// Two top-level nodes are repeats of each other when they have the same kind, primitive,
// phase and source location. A group is a connected set of such repeated "shapes" that all
// occur the same number of times N (N >= minRepeats): its N instances are shown as one node
// "×N". Shapes that occur a different number of times (the 63 adds accumulating 64 layer
// gradients) form groups of their own, so folding never hides a node that is not repeated.
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/graph/graph.h"

namespace gl::ui {

constexpr int kMinRepeats = 4;

struct RepeatGroup {
  int repeats = 0;           // N
  std::vector<int> members;  // top-level gl node ids, ascending
  int nodesPerInstance = 0;  // members / N
  int firstLine = 0;         // the lowest script line among the members
  std::string title;         // "einsum, add, gather" (the count is shown beside it)
  bool backward = false;     // every member is a backward node
};

struct RepeatGroups {
  std::vector<RepeatGroup> groups;
  std::unordered_map<int, int> groupOf;  // top-level member -> group index
  // The group a node belongs to through its outermost enclosing frame owner, -1 if none.
  int groupOfNode(const Graph& g, const Node& n) const;
  bool empty() const { return groups.empty(); }
};

// Only nodes in `only` (top-level ids, as GraphFilter::only) take part when it is set, so that
// the variants of one lesson, which share script lines, are never taken for repeats.
RepeatGroups findRepeatGroups(const Graph& g, const std::set<int>* only = nullptr,
                              int minRepeats = kMinRepeats);

}  // namespace gl::ui
