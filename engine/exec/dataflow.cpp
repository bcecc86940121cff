#include "engine/exec/dataflow.h"

#include <omp.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <queue>

#include "engine/ops/registry.h"

namespace gl {

namespace {

double workOfNode(const Graph& g, const Node& n) {
  if (!n.is(NodeKind::Primitive)) return 0;
  Types in;
  in.reserve(n.inputs.size());
  for (Value v : n.inputs) in.push_back(g.type(v));
  return workOf(*n.prim, in, n.outputs, n.attrs);
}

NodeWeight weightOf(double work) {
  if (work >= kWholeTeamWork) return NodeWeight::WholeTeam;
  return work >= kOneThreadWork ? NodeWeight::OneThread : NodeWeight::Light;
}

NodeWeight weightOf(const Graph& g, const Node& n, double& work) {
  if (isControlFlow(n.kind)) return NodeWeight::WholeTeam;
  work = workOfNode(g, n);
  return weightOf(work);
}

// The ready positions and the countdowns of one run of a region.
class Runner {
 public:
  Runner(const DataflowRegion& d, const std::function<void(int)>& run,
         const std::function<void(int)>& free)
      : d_(d), run_(run), free_(free), waits_(d.waitsFor), left_(d.readers) {
    for (size_t p = 0; p < waits_.size(); ++p)
      if (waits_[p] == 0) push(int(p));
  }

  // Outside phases the plan's order, except that a node worth a thread lets the light nodes
  // go first: one of them may make a second such node ready, and the two then run side by side.
  void runAll(int threads, DataflowStats& stats) {
    const size_t total = waits_.size();
    while (done_ < total) {
      // The executor may shrink the team while the region runs (exec/core_share.h).
      const int team = std::min(threads, omp_get_max_threads());
      if (team > 1 && worth_.size() >= 2) {
        sideBySide(team, stats);
        continue;
      }
      MinHeap* next = nullptr;
      for (MinHeap* h : {&light_, &worth_, &team_})
        if (!h->empty() && (!next || h->top() < next->top())) next = h;
      if (!next) throw EngineError("internal: a region's nodes wait for each other in a cycle");
      if (next == &worth_ && !light_.empty()) next = &light_;
      const int p = pop(*next);
      run_(p);
      finish(p);
    }
  }

 private:
  using MinHeap = std::priority_queue<int, std::vector<int>, std::greater<int>>;

  void push(int p) {
    switch (d_.weight[size_t(p)]) {
      case NodeWeight::Light:
        return light_.push(p);
      case NodeWeight::OneThread:
        return worth_.push(p);
      case NodeWeight::WholeTeam:
        return team_.push(p);
    }
  }

  static int pop(MinHeap& h) {
    const int p = h.top();
    h.pop();
    return p;
  }

  void finish(int p) {
    ++done_;
    for (int li : d_.reads[size_t(p)])
      if (--left_[size_t(li)] == 0) free_(li);
    for (int li : d_.freeOwn[size_t(p)]) free_(li);
    for (int q : d_.next[size_t(p)])
      if (--waits_[size_t(q)] == 0) push(q);
  }

  // The node a thread of a phase takes next, or -1: light nodes first (they may make more nodes
  // ready); a lone node worth a thread, with nothing else running, is better off outside the
  // phase, where its kernel may use the whole team. Nodes that need the team wait for the phase
  // to end.
  int takeNext() {
    if (!light_.empty()) return pop(light_);
    if (!worth_.empty() && (running_ > 0 || worth_.size() >= 2)) return pop(worth_);
    return -1;
  }

  void sideBySide(int threads, DataflowStats& stats) {
    ++stats.phases;
    const int teamSize = omp_get_max_threads();
    std::exception_ptr error;
#pragma omp parallel num_threads(threads)
    {
      // A node's kernel stays on its thread: the other threads run other nodes.
      omp_set_num_threads(1);
      std::unique_lock<std::mutex> lock(mu_);
      for (;;) {
        if (error) break;
        if (const int p = takeNext(); p >= 0) {
          ++running_;
          ++stats.nodes;
          lock.unlock();
          try {
            run_(p);
            lock.lock();
            finish(p);
          } catch (...) {
            if (!lock.owns_lock()) lock.lock();
            if (!error) error = std::current_exception();
          }
          --running_;
          wake_.notify_all();
          continue;
        }
        if (running_ == 0) break;
        wake_.wait(lock);
      }
      wake_.notify_all();
    }
    omp_set_num_threads(teamSize);  // the whole team again for the nodes that run alone
    if (error) std::rethrow_exception(error);
  }

  const DataflowRegion& d_;
  const std::function<void(int)>& run_;
  const std::function<void(int)>& free_;
  std::vector<int> waits_, left_;
  MinHeap light_, worth_, team_;  // ready positions by weight, each in plan order
  size_t done_ = 0;
  // Phases only: who runs, and waiting for a node to finish.
  std::mutex mu_;
  std::condition_variable wake_;
  int running_ = 0;
};

// Whether two positions of the given weight are independent: no path from one to the other.
// Plan order is topological, so they are all ordered exactly when each one is reached from the
// one before it; each such search stays between the two, so the whole check is linear in the
// region. (The ODE's vectorized steps are chains of such nodes: running them through the
// dataflow's bookkeeping only made the parallel executor slower than the serial one.)
bool twoIndependent(const DataflowRegion& d, NodeWeight weight) {
  std::vector<int> seen(d.weight.size(), -1), stack;
  int previous = -1;
  for (int p = 0; p < int(d.weight.size()); ++p) {
    if (d.weight[size_t(p)] != weight) continue;
    if (previous >= 0) {
      bool reached = false;
      stack.assign(1, previous);
      while (!stack.empty() && !reached) {
        const int q = stack.back();
        stack.pop_back();
        for (int s : d.next[size_t(q)]) {
          if (s == p) reached = true;
          if (s < p && seen[size_t(s)] != p) {
            seen[size_t(s)] = p;
            stack.push_back(s);
          }
        }
      }
      if (!reached) return true;
    }
    previous = p;
  }
  return false;
}

}  // namespace

std::unique_ptr<DataflowRegion> planDataflow(const Graph& g, const ExecutionPlan& plan, int r,
                                             const std::vector<std::vector<int>>& units,
                                             const std::vector<std::vector<int>>& freeAfter) {
  const size_t n = units.size(), slots = g.region(r).nodes.size();
  auto d = std::make_unique<DataflowRegion>();
  d->waitsFor.assign(n, 0);
  d->next.resize(n);
  d->reads.resize(n);
  d->freeOwn.resize(n);
  d->weight.resize(n);
  d->readers.assign(slots, 0);
  std::vector<int> position(slots, -1);  // the unit computing each local slot
  for (size_t p = 0; p < n; ++p)
    for (int id : units[p]) position[size_t(plan.local(id))] = int(p);
  std::vector<char> freeable(slots, 0);
  for (const auto& after : freeAfter)
    for (int li : after) freeable[size_t(li)] = 1;

  int lastEffect = -1, worth = 0;
  std::vector<int> from;
  for (size_t p = 0; p < n; ++p) {
    from.clear();
    bool sideEffect = false;
    double work = 0;
    NodeWeight weight = NodeWeight::Light;
    for (int id : units[p]) {
      const Node& node = plan.node(id);
      for (const auto* values : {&node.inputs, &node.captures})
        for (Value v : *values)
          if (v.valid() && g.node(v).region == r) from.push_back(plan.local(v.node));
      sideEffect = sideEffect || node.sideEffect;
      if (units[p].size() == 1)
        weight = weightOf(g, node, work);
      else
        work += workOfNode(g, node);  // a fused group: its members' work together
    }
    if (units[p].size() > 1) weight = weightOf(work);
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    for (int li : from) {
      const int q = position[size_t(li)];
      if (q < 0 || q == int(p)) continue;
      d->next[size_t(q)].push_back(int(p));
      ++d->waitsFor[p];
      if (freeable[size_t(li)]) {
        d->reads[p].push_back(li);
        ++d->readers[size_t(li)];
      }
    }
    // Prints keep the script's order in the log.
    if (sideEffect) {
      if (lastEffect >= 0) {
        d->next[size_t(lastEffect)].push_back(int(p));
        ++d->waitsFor[p];
      }
      lastEffect = int(p);
    }
    d->weight[p] = weight;
    if (weight == NodeWeight::OneThread) ++worth;
  }
  for (size_t li = 0; li < slots; ++li)
    if (freeable[li] && d->readers[li] == 0 && position[li] >= 0)
      d->freeOwn[size_t(position[li])].push_back(int(li));
  d->worthIt = worth >= 2 && twoIndependent(*d, NodeWeight::OneThread);
  return d;
}

void runDataflow(const DataflowRegion& d, int threads, const std::function<void(int)>& run,
                 const std::function<void(int)>& free, DataflowStats& stats) {
  Runner(d, run, free).runAll(threads, stats);
}

}  // namespace gl
