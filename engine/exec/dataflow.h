#pragma once
// Independent nodes side by side, for the parallel and fusing executors. A region's plan is one
// order; this is the partial order under it: which positions wait for which (their inputs and
// captures, and prints in script order), and which values can go after their last reader. When two
// or more ready nodes are each worth a thread (seed-c's Python-list layers, seed-d's heads), the
// team runs ready nodes side by side, one node per thread, their kernels on that thread. Nodes
// whose own kernels split well across the team (big GEMMs and convolutions), and control-flow nodes
// (their maps and loops split themselves), run alone on the whole team, as in plan order.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/exec/plan.h"
#include "engine/graph/graph.h"

namespace gl {

// What a position is worth to the scheduler.
enum class NodeWeight : uint8_t {
  Light,      // cheaper than handing it to another thread: runs wherever it becomes ready
  OneThread,  // worth a thread of its own: two of these ready at once start side-by-side running
  WholeTeam,  // splits itself across the team: runs alone
};

struct DataflowRegion {
  std::vector<int> waitsFor;              // per position: positions that must finish first
  std::vector<std::vector<int>> next;     // per position: positions waiting for it
  std::vector<std::vector<int>> reads;    // per position: the freeable local slots it reads
  std::vector<int> readers;               // per local slot: positions reading it, if freeable
  std::vector<std::vector<int>> freeOwn;  // per position: its own slot, freeable and unread
  std::vector<NodeWeight> weight;         // per position
  bool worthIt = false;  // two positions worth a thread each, neither after the other
};

// Estimated multiply-adds above which a node is worth a thread of its own (tens of
// microseconds: waking a passive thread costs about that), and from which its kernel splits
// across the team as well as two nodes side by side would.
inline constexpr double kOneThreadWork = double(1 << 16);
inline constexpr double kWholeTeamWork = double(1 << 24);

// The partial order of region r's units, each a node or a fused group (its node ids), in plan
// order; freeAfter: per unit, the local slots the plan frees after it (freed here after their
// last reader instead).
std::unique_ptr<DataflowRegion> planDataflow(const Graph& g, const ExecutionPlan& plan, int r,
                                             const std::vector<std::vector<int>>& units,
                                             const std::vector<std::vector<int>>& freeAfter);

struct DataflowStats {
  int64_t phases = 0;  // times the team started running nodes side by side
  int64_t nodes = 0;   // nodes run during those phases
};

// Runs every position of d, each after the positions it waits for: run(p) executes position p
// on the calling thread, free(slot) drops a local value after its last reader. Side by side
// only while two or more ready nodes can use a thread each; otherwise on the calling thread in
// plan order, kernels free to use the whole team. The first exception is rethrown once the
// nodes already running have finished.
void runDataflow(const DataflowRegion& d, int threads, const std::function<void(int)>& run,
                 const std::function<void(int)>& free, DataflowStats& stats);

}  // namespace gl
