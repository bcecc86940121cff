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
//
// The calls of one concrete tf.function from eager code (Graph::functionCalls) are a group of
// their own kind, whatever their number: each call is an instance, and the group folds to one
// node "tf.function f ×calls" that unfolds to the traced graph of every call (issue #27).
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/graph/graph.h"

namespace gl::ui {

constexpr int kMinRepeats = 4;

enum class GroupKind { Repeat, FunctionCalls };

struct RepeatGroup {
  GroupKind kind = GroupKind::Repeat;
  int repeats = 0;           // N (the number of calls for FunctionCalls)
  std::vector<int> members;  // top-level gl node ids, ascending
  int nodesPerInstance = 0;  // members / N; FunctionCalls: the first call's (the trace's)
  int firstLine = 0;         // the lowest script line among the members
  std::string title;         // "einsum, add, gather" (the count is shown beside it)
  bool backward = false;     // every member is a backward node
  std::string function;      // FunctionCalls: the Python function's name
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
// `structural` false: the tf.function call groups only (a small graph shows every node).
RepeatGroups findRepeatGroups(const Graph& g, const std::set<int>* only = nullptr,
                              int minRepeats = kMinRepeats, bool structural = true);

}  // namespace gl::ui
