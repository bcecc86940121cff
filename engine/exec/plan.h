#pragma once
// What a run executes, decided before it starts: per region, the nodes the fetches need in
// order, and after which of them each local value can be freed; per control-flow node, which
// of its saved values some reverse body reads (the others are never kept). With `simplify`, the
// plan runs transform/simplify.h's rewrites: node() is the rewritten node, and the nodes it
// absorbed drop out of the order.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "engine/graph/graph.h"
#include "engine/tensor/tensor_list.h"

namespace gl {

struct RegionPlan {
  std::vector<int> order;                   // node ids to run, in order
  std::vector<std::vector<int>> freeAfter;  // per position: local slots whose last use it is
};

class ExecutionPlan {
 public:
  // sideEffects = false: only what the fetches need runs, prints and asserts included (an
  // evaluation while tracing must not print the script's output or check its assertions).
  // known: top-level nodes whose values the run is given (RunOptions::known); what only they
  // need is not run.
  ExecutionPlan(const Graph& g, const std::vector<Value>& fetches, bool simplify = false,
                bool sideEffects = true, const std::map<int, std::vector<Datum>>* known = nullptr,
                std::pair<int, int> sideEffectNodes = {0, INT32_MAX},
                std::pair<int, int> alsoRun = {0, 0});
  // node() points into the plan's own rewrites.
  ExecutionPlan(const ExecutionPlan&) = delete;
  ExecutionPlan& operator=(const ExecutionPlan&) = delete;
  // The node the run executes: the graph's, or its rewrite.
  const Node& node(int id) const { return *nodes_[size_t(id)]; }
  const Node& node(Value v) const { return node(v.node); }
  // The node a rewrite of `id` absorbed (no longer run: its work is id's), or -1.
  int absorbed(int id) const { return absorbed_[size_t(id)]; }
  int numRewritten() const { return int(rewritten_.size()); }
  // A node's index in its region (its slot in a frame).
  int local(int node) const { return local_[size_t(node)]; }
  const RegionPlan& region(int r) const { return *regions_[size_t(r)]; }
  // A top-level node's values given to the run (RunOptions::known), or null.
  const std::vector<Datum>* knownValues(int node) const;
  // Indices into Node::saved that are read.
  const std::vector<int>& usedSaved(int node) const { return usedSaved_[size_t(node)]; }

 private:
  void findConsumed();
  std::unique_ptr<RegionPlan> planRegion(int r, const std::vector<Value>& roots) const;

  const Graph& g_;
  bool sideEffects_ = true;
  const std::map<int, std::vector<Datum>>* known_ = nullptr;
  std::pair<int, int> sideEffectNodes_, alsoRun_;
  std::deque<Node> rewritten_;
  std::vector<const Node*> nodes_;
  std::vector<int> absorbed_;
  std::vector<int> local_;
  std::set<Value> consumed_;
  std::vector<std::vector<int>> usedSaved_;
  std::vector<std::unique_ptr<RegionPlan>> regions_;
};

}  // namespace gl
