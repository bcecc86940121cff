#pragma once
// The fusing executor's share of a run (RunOptions::fused), which executor.cpp wires into its
// frames: per region, the units to run in order (a node, or a fused group at the place of its
// last member) and what to free after each; the fused groups' programs; and per while loop,
// whether it runs element-major (loop interchange) or, with a note saying why, the normal way.
#include <map>
#include <mutex>
#include <vector>

#include "engine/control/kind.h"
#include "engine/exec/plan.h"
#include "engine/exec/run.h"
#include "engine/transform/fusion.h"
#include "engine/transform/fusion_loops.h"

namespace gl {

struct FusedUnit {
  int node = -1;   // a node run as usual, or
  int group = -1;  // a fused group (index into FusedExecution::group)
};

struct FusedSchedule {
  std::vector<FusedUnit> units;
  std::vector<std::vector<int>> freeAfter;  // per unit: local slots whose last use it is
};

class FusedExecution {
 public:
  FusedExecution(const Graph& g, const ExecutionPlan& plan, const std::vector<Value>& fetches,
                 const RunOptions& opt, int threads);
  const FusedSchedule& schedule(int region) const { return schedules_[size_t(region)]; }
  const FusedProgram& group(int i) const { return groups_[size_t(i)]; }
  int numGroups() const { return int(groups_.size()); }
  int numFusedNodes() const;

  // Runs group i on one tensor per program input; returns one tensor per program output.
  // nonFinite is set (with RunOptions::checkNumerics) when a NaN or Inf appeared inside.
  std::vector<Tensor> runGroup(int i, const std::vector<const Tensor*>& in, bool& nonFinite) const;

  // Runs while node n element-major when it can (outputs set through rt) and returns true;
  // otherwise returns false and the caller runs the loop the normal way. Either way the loop's
  // first visit is noted (RunResult::loopFusion).
  bool runLoop(ControlRuntime& rt, const Node& n);
  std::vector<LoopFusion> takeLoopNotes();

 private:
  void buildSchedule(int region, const std::vector<Value>& roots);
  const ElementMajorLoop& analysis(const Node& n);
  void note(const Node& n, bool elementMajor, const std::string& reason, int64_t iterations);

  const Graph& g_;
  const ExecutionPlan& plan_;
  const RunOptions& opt_;
  int threads_;
  std::vector<FusedProgram> groups_;
  std::vector<FusedSchedule> schedules_;
  std::mutex mu_;
  std::map<int, ElementMajorLoop> loops_;
  std::map<int, LoopFusion> notes_;
};

}  // namespace gl
