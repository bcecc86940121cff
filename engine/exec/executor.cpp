#include "engine/exec/executor.h"

#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <optional>

#include "engine/control/kind.h"
#include "engine/exec/core_share.h"
#include "engine/exec/dataflow.h"
#include "engine/exec/float_env.h"
#include "engine/exec/fused_executor.h"
#include "engine/exec/numerics_check.h"
#include "engine/exec/parallel_for.h"
#include "engine/exec/plan.h"
#include "engine/exec/planned_memory.h"
#include "engine/exec/print_format.h"
#include "engine/exec/recorder.h"
#include "engine/exec/timeline.h"
#include "engine/ops/registry.h"
#include "engine/tensor/diagnostic.h"

namespace gl {

namespace {

// A random primitive's stream: its node, then the iteration of each frame around it (-1 at the
// top level), innermost first.
uint64_t drawSeed(int node) { return uint64_t(node) * 0x9E3779B97F4A7C15ull; }
uint64_t drawSeedStep(uint64_t h, int64_t iteration) {
  return h * 1000003ull + uint64_t(iteration + 1);
}

}  // namespace

std::vector<Datum> runTopLevelPrimitive(const Node& n, std::vector<Datum> inputs) {
  KernelContext ctx;
  if (n.prim->stateful) ctx.seed = drawSeedStep(drawSeed(n.id), -1);
  std::vector<Datum> out;
  n.prim->forward(inputs, n.attrs, ctx, out);
  return out;
}

namespace {

using Slots = std::vector<std::vector<Datum>>;

// The slot arrays of finished frames, per thread. A loop runs the same regions every
// iteration: an array taken back here keeps its vectors' capacity, so a region run and its
// params' and constants' slots allocate nothing. Arrays come back empty: values die with their
// frame, as before.
class SlotArrays {
 public:
  static Slots take(size_t n) {
    Slots s;
    std::vector<Slots>& free = pool();
    if (!free.empty()) {
      s = std::move(free.back());
      free.pop_back();
    }
    s.resize(n);
    return s;
  }
  static void give(Slots& s) {
    for (auto& v : s) v.clear();
    std::vector<Slots>& free = pool();
    if (free.size() < kMaxArrays && s.size() <= kMaxSlots) free.push_back(std::move(s));
  }

 private:
  // Enough for nested loop bodies; a top level of many thousand nodes is not worth keeping.
  static constexpr size_t kMaxArrays = 32;
  static constexpr size_t kMaxSlots = 4096;
  static std::vector<Slots>& pool() {
    thread_local std::vector<Slots> free;
    return free;
  }
};

// A slot holding one value. `slot = {d}` would build an initializer list first: one more
// reference count taken and dropped per loop parameter and constant.
void setOnly(std::vector<Datum>& slot, const Datum& d) {
  slot.resize(1);
  slot[0] = d;
}
void setOnly(std::vector<Datum>& slot, const Tensor& t) {
  slot.resize(1);
  slot[0].t = t;
  slot[0].list.reset();
}

// The values of one run of a region: a slot per node of the region, and the frame around it.
struct Frame {
  Frame(const Frame* p, int r, int64_t it, size_t nodes)
      : parent(p), region(r), iteration(it), slots(SlotArrays::take(nodes)) {}
  ~Frame() { SlotArrays::give(slots); }
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  const Frame* parent = nullptr;
  int region = 0;
  int64_t iteration = -1;
  Slots slots;
  // Primitives executed here and in the region runs it started (loop bodies add theirs when
  // they end), not yet added to the run's total. Atomic because independent nodes or parallel
  // iterations may add to it at once (`shared`); otherwise a plain load and store.
  mutable std::atomic<int64_t> primitives{0};
  bool shared = false;
  // The local slots whose last use is the node running now, while the frame runs in plan
  // order (null while its nodes run side by side): their buffers may become its output's.
  const std::vector<int>* lastUseHere = nullptr;
  // Returns the count after adding k.
  int64_t countPrimitives(int64_t k) const {
    if (shared) return primitives.fetch_add(k, std::memory_order_relaxed) + k;
    const int64_t now = primitives.load(std::memory_order_relaxed) + k;
    primitives.store(now, std::memory_order_relaxed);
    return now;
  }
  int64_t primitivesSoFar() const { return primitives.load(std::memory_order_relaxed); }
  int64_t takePrimitives() const {
    if (shared) return primitives.exchange(0, std::memory_order_relaxed);
    const int64_t all = primitives.load(std::memory_order_relaxed);
    primitives.store(0, std::memory_order_relaxed);
    return all;
  }
};

// Ops a frame gathers from its finished region runs before adding them to the run's total.
// One atomic add per loop-body run had two threads running per-sample loops fight over the
// total's cache line (seed-a's parallel variant: 1.15x faster on two threads, not 1.6x).
constexpr int64_t kOpsBatch = 4096;

// Restores OpenMP's thread count however the run ends.
class OmpThreads {
 public:
  explicit OmpThreads(int n) : old_(omp_get_max_threads()) {
    omp_set_num_threads(n);
    Eigen::setNbThreads(n);
  }
  ~OmpThreads() { omp_set_num_threads(old_); }

 private:
  int old_;
};

}  // namespace

struct Executor::Impl {
  const Graph& g;
  RunOptions opt;
  int threads = 1;                 // the team: what RunOptions::threads asks for
  std::optional<CoreShare> share;  // the team's threads worth using now (exec/core_share.h)
  int teamNow = 1;                 // the threads OpenMP and Eigen use now
  uint64_t runSerial = 0;          // this run's number in the process (thread-local copies)
  std::unique_ptr<ExecutionPlan> plan;
  std::unique_ptr<FusedExecution> fused;  // the fusing executor's schedule (RunOptions::fused)
  Recorder recorder;
  Timeline timeline;
  NumericsCheck numerics;
  std::mutex mu;
  std::vector<std::string> log;
  bool printLineOpen = false;  // the last tf.print's end was not a newline
  std::atomic<size_t> savedBytes{0};
  std::atomic<int64_t> primitiveOps{0};
  size_t peakSaved = 0;
  std::vector<double> outputBytes;  // per node: staticOutputBytes, for checkBudgetBefore
  // Per region, for the parallel executor: which nodes may run side by side (null: plan order).
  std::vector<std::unique_ptr<DataflowRegion>> dataflow;
  DataflowStats sideBySide;  // updated by the top thread only (phases do not nest)

  Impl(const Graph& graph, RunOptions o)
      : g(graph),
        opt(std::move(o)),
        recorder(opt.records, opt.recordBudget, opt.smallTensor),
        timeline(opt.timeline, opt.timelineLimit) {}

  // The node as the run executes it (the plan's rewrite, if any). Graph::node checks its index
  // against a deque; this is a table the plan built (5 % of a scalar loop's time).
  const Node& node(int id) const { return plan->node(id); }
  const Node& node(Value v) const { return node(v.node); }

  // ---- frames ----------------------------------------------------------------------------
  std::vector<Datum>& slot(Frame& f, int node) const { return f.slots[size_t(plan->local(node))]; }

  const Datum& get(const Frame& f, Value v) const {
    const Node& n = node(v);
    if (n.kind == NodeKind::Const) return constant(n);
    const int r = n.region;
    const Frame* fr = &f;
    while (fr && fr->region != r) fr = fr->parent;
    if (!fr) throw EngineError("internal: value " + g.node(v).label() + " is not in scope");
    const auto& s = fr->slots[size_t(plan->local(v.node))];
    static const Datum kNone;
    return size_t(v.index) < s.size() ? s[size_t(v.index)] : kNone;
  }

  void execRegion(Frame& f) {
    if (fused) return execFusedRegion(f);
    const RegionPlan& rp = plan->region(f.region);
    runUnits(f, rp.freeAfter, [&](size_t p) { execNode(f, node(rp.order[p])); });
    countRegionRun(f);
  }

  // A region run's ops go to the frame that started it, and from there to the run's total in
  // batches. The ops limit is checked at every region run's end, so a loop stops within an
  // iteration of passing it.
  void countRegionRun(const Frame& f) {
    const int64_t mine = f.takePrimitives();
    if (!f.parent) return addToRunOps(mine);
    const int64_t gathered = f.parent->countPrimitives(mine);
    if (gathered >= kOpsBatch ||
        primitiveOps.load(std::memory_order_relaxed) + gathered > opt.maxOps)
      addToRunOps(f.parent->takePrimitives());
  }

  void addToRunOps(int64_t k) {
    const int64_t total = primitiveOps.fetch_add(k, std::memory_order_relaxed) + k;
    if (total > opt.maxOps) throw EngineError(overOpsLimit());
  }

  std::string overOpsLimit() const {
    return "the run executed more than " + std::to_string(opt.maxOps) + " ops" + kRaiseOps;
  }

  // The fusing executor's order: single nodes as above, fused groups as one unit each.
  void execFusedRegion(Frame& f) {
    const FusedSchedule& fs = fused->schedule(f.region);
    auto execUnit = [&](const FusedUnit& unit) {
      if (unit.group >= 0) {
        // A group's last uses are its members' together: none of them may take a buffer. (Set
        // only in plan order; side by side it is null already and other threads read it.)
        if (f.lastUseHere) f.lastUseHere = nullptr;
        execGroup(f, unit.group);
      } else {
        execNode(f, node(unit.node));
      }
    };
    runUnits(f, fs.freeAfter, [&](size_t u) { execUnit(fs.units[u]); });
    countRegionRun(f);
  }

  // Runs a region's units (nodes, or the fusing executor's nodes and groups) in plan order,
  // freeing after each what the plan says, or side by side where the region has a dataflow
  // plan. Side by side only from the top thread: inside a phase or a parallel map, one thread
  // each.
  template <class RunUnit>
  void runUnits(Frame& f, const std::vector<std::vector<int>>& freeAfter, RunUnit run) {
    const bool outsideTeams = omp_get_active_level() == 0;
    if (outsideTeams) followCoreShare();
    const DataflowRegion* df = dataflow.empty() ? nullptr : dataflow[size_t(f.region)].get();
    // With the team shrunk to one thread when the region starts (another program holds the
    // other cores), plan order: what the serial executor does, without the dataflow's
    // bookkeeping (seed-c's Python-list layers beside `yes`: 1.02-1.03x the serial time with it).
    if (df && outsideTeams && teamNow > 1) {
      f.shared = true;
      runDataflow(
          *df, threads,
          [&](int u) {
            if (omp_get_active_level() == 0) followCoreShare();
            run(size_t(u));
          },
          [&](int li) { f.slots[size_t(li)].clear(); }, sideBySide);
      f.shared = false;
      return;
    }
    for (size_t u = 0; u < freeAfter.size(); ++u) {
      if (outsideTeams) followCoreShare();
      f.lastUseHere = &freeAfter[u];
      run(u);
      for (int li : freeAfter[u]) f.slots[size_t(li)].clear();
    }
    f.lastUseHere = nullptr;
  }

  // Sizes the OpenMP team and Eigen's GEMMs to the cores free now. Outside OpenMP teams only:
  // the ICV set here is the top thread's.
  void followCoreShare() {
    const int k = share->threads();
    if (k == teamNow) return;
    teamNow = k;
    omp_set_num_threads(k);
    Eigen::setNbThreads(k);
  }

  // Constants take no slot in loop bodies: every read of one (get) is of this table, so a body
  // run spends no node dispatch and no reference count on its scalars (a third of the ODE
  // step's nodes). With two or more threads a small constant is read as this thread's own
  // copy: every copy of one tensor writes its reference count, and two threads running the same
  // body each step (seed-a's per-sample loops) otherwise fight over that cache line. Copies
  // live until the thread's next run.
  std::vector<int> constantIndex;  // per node id: its entry in constantValues, or -1
  std::vector<Datum> constantValues;

  void tableConstants() {
    constantIndex.assign(size_t(g.numNodes()), -1);
    constantValues.clear();
    for (const Node& n : g.nodes())
      if (n.is(NodeKind::Const)) {
        constantIndex[size_t(n.id)] = int(constantValues.size());
        constantValues.emplace_back(n.value);
      }
  }

  const Datum& constant(const Node& n) const {
    static constexpr size_t kCopyBytes = 4096;
    const size_t k = size_t(constantIndex[size_t(n.id)]);
    const Datum& shared = constantValues[k];
    if (threads < 2 || !shared.t.defined() || shared.t.bytes() > kCopyBytes) return shared;
    struct Copies {
      uint64_t run = 0;
      std::vector<Datum> byIndex;
    };
    thread_local Copies copies;
    if (copies.run != runSerial) {
      copies.byIndex.clear();
      copies.run = runSerial;
    }
    if (copies.byIndex.size() <= k) copies.byIndex.resize(constantValues.size());
    Datum& mine = copies.byIndex[k];
    if (!mine.t.defined()) mine = Datum(shared.t.clone());
    return mine;
  }

  void execGroup(Frame& f, int gi) {
    const FusedProgram& p = fused->group(gi);
    const Node& last = g.node(p.lastMember());
    if (opt.monitor && f.parent == nullptr && opt.monitor->cancelled()) throw CancelledError();
    const bool timed = timeline.wanted();
    const double start = timed ? timeline.now() : 0;
    std::vector<const Tensor*> in;
    in.reserve(p.inputs.size());
    bool usable = true;
    for (const FusedInput& fi : p.inputs) {
      const Datum& d = get(f, fi.value);
      usable = usable && d.defined() && !d.isList();
      in.push_back(&d.t);
    }
    bool nonFinite = false;
    std::vector<Tensor> out;
    if (usable) {
      try {
        out = fused->runGroup(gi, in, nonFinite);
      } catch (const std::bad_alloc&) {
        throw EngineError("out of memory", last.loc, std::string(last.opName()));
      }
    }
    // A missing input, or a NaN/Inf to locate: the members one by one say where, as the
    // serial executor would.
    if (!usable || nonFinite) {
      for (int id : p.members) execNode(f, g.node(id));
      return;
    }
    for (size_t k = 0; k < out.size(); ++k) {
      const Value v = p.outputs[k].value;
      auto& s = slot(f, v.node);
      if (s.size() <= size_t(v.index)) s.resize(size_t(v.index) + 1);
      s[size_t(v.index)] = Datum(std::move(out[k]));
      if (opt.valueRecords && f.parent == nullptr) recorder.value(v, s[size_t(v.index)]);
    }
    f.countPrimitives(int64_t(p.members.size()));
    if (liveBytesRoughly() > opt.memoryBudget)
      throw EngineError("the run exceeded the memory budget", last.loc, std::string(last.opName()));
    if (timed) timeline.add(last.id, f.iteration, start, timeline.now());
  }

  // Runs region r in a child frame of f into `out` (whose vectors keep their capacity); the
  // node's used saved values are read before the frame goes.
  // With `taken`, the params move into the frame instead (ControlRuntime::runRegionTaking).
  void runRegion(const Frame& f, const Node& owner, int r, const std::vector<Datum>& params,
                 std::vector<Datum>* taken, int64_t iteration, RegionRun& out) {
    out.results.clear();
    out.saved.clear();
    const Region& region = g.region(r);
    Frame child(&f, r, iteration, region.nodes.size());
    const auto& ps = region.params;
    for (size_t i = 0; i < ps.size() && i < params.size(); ++i) {
      std::vector<Datum>& s = slot(child, ps[i].node);
      if (taken) {
        s.resize(1);
        s[0] = std::move((*taken)[i]);
      } else {
        setOnly(s, params[i]);
      }
    }
    execRegion(child);
    for (int i : plan->usedSaved(owner.id)) {
      const Value s = owner.saved[size_t(i)];
      out.saved.push_back(node(s).region == r ? get(child, s) : Datum());
    }
    // The frame ends here: its results move out (no reference count taken here and dropped
    // when the frame goes), unless a later result is the same value or it lives elsewhere.
    const std::vector<Value>& rs = region.results;
    for (size_t i = 0; i < rs.size(); ++i) {
      const Value v = rs[i];
      const Node& from = node(v);
      std::vector<Datum>* held = nullptr;
      if (from.region == r && from.kind != NodeKind::Const &&
          std::find(rs.begin() + std::ptrdiff_t(i) + 1, rs.end(), v) == rs.end())
        held = &slot(child, v.node);
      if (held && size_t(v.index) < held->size())
        out.results.push_back(std::move((*held)[size_t(v.index)]));
      else
        out.results.push_back(get(child, v));
    }
  }

  // ---- nodes ------------------------------------------------------------------------------
  void execNode(Frame& f, const Node& n) {
    if (n.kind == NodeKind::Const && f.parent) return;  // nothing to run (see constant())
    if (f.parent == nullptr && opt.known)
      if (const std::vector<Datum>* known = plan->knownValues(n.id)) {
        slot(f, n.id) = *known;
        return;
      }
    if (opt.monitor && f.parent == nullptr && opt.monitor->cancelled()) throw CancelledError();
    const bool timed = timeline.wanted();
    const double start = timed ? timeline.now() : 0;
    auto op = [&n] { return std::string(n.opName()); };  // only when something went wrong
    if (n.is(NodeKind::Primitive)) checkBudgetBefore(n);
    // The top level runs once: its ops count one by one (loops count per iteration above).
    if (f.parent == nullptr &&
        primitiveOps.load(std::memory_order_relaxed) + f.primitivesSoFar() >= opt.maxOps &&
        n.is(NodeKind::Primitive))
      throw EngineError(overOpsLimit(), n.loc, op());
    try {
      execKind(f, n);
    } catch (const CancelledError&) {
      throw;
    } catch (const EngineError& e) {
      throw e.located(n.loc, op());
    } catch (const ShapeError& e) {
      throw EngineError(e.what(), n.loc, op());
    } catch (const std::bad_alloc&) {
      throw EngineError("out of memory", n.loc, op());
    }
    if (liveBytesRoughly() > opt.memoryBudget)
      throw EngineError("the run exceeded the memory budget", n.loc, op());
    if (opt.computed && f.parent == nullptr && !n.is(NodeKind::Const))
      (*opt.computed)[n.id] = slot(f, n.id);
    if (opt.valueRecords && f.parent == nullptr) {
      const auto& s = slot(f, n.id);
      for (size_t i = 0; i < s.size(); ++i)
        if (s[i].defined()) recorder.value({n.id, int(i)}, s[i]);
    }
    if (timed && !n.is(NodeKind::Param) && !n.is(NodeKind::Const))
      timeline.add(n.id, f.iteration, start, timeline.now());
  }

  // The bytes of a node's outputs, known from their static shapes (unknown dimensions count 0).
  static double staticOutputBytes(const Node& n) {
    double bytes = 0;
    for (const TypeInfo& t : n.outputs) {
      if (t.list) continue;
      double elements = 1;
      for (int64_t d : t.shape) elements *= d < 0 ? 0 : double(d);
      bytes += elements * double(dtypeSize(t.dtype));
    }
    return bytes;
  }

  // The outputs' bytes must fit beside what is live before the kernel allocates them (after
  // it, a [30000,30000] product had already taken 3.4 GiB). Known per node before the run.
  void checkBudgetBefore(const Node& n) const {
    const double bytes = outputBytes[size_t(n.id)];
    if (double(liveBytesRoughly()) + bytes > double(opt.memoryBudget))
      throw EngineError(
          diagnosed("this needs " + std::to_string(int64_t(bytes / (1 << 20))) +
                        " MiB more, over the memory budget of " +
                        std::to_string(opt.memoryBudget >> 20) + " MiB" + kRaiseBudget,
                    {DiagCode::OverMemoryBudget,
                     {},
                     {std::to_string(int64_t(bytes / (1 << 20))) + " MiB",
                      std::to_string(opt.memoryBudget >> 20) + " MiB"}}),
          n.loc, std::string(n.opName()));
  }

  // Where a loop runs in frame f: the iterations of the enclosing loop bodies and map elements,
  // outermost first. A reverse body names the forward iteration it differentiates, so a loop's
  // gradient finds the execution it belongs to.
  std::vector<int64_t> placeOf(const Frame& f) const {
    std::vector<int64_t> at;
    for (const Frame* fr = &f; fr && fr->parent; fr = fr->parent) {
      const Region& r = g.region(fr->region);
      if (!isIterationBody(r.kind)) continue;
      int64_t iteration = fr->iteration;
      if (r.forwardOf >= 0 && r.iterationIndex.valid()) {
        const Datum& index = get(*fr, r.iterationIndex);
        if (index.t.defined()) iteration = int64_t(index.t.at(0));
      }
      at.insert(at.begin(), iteration);
    }
    return at;
  }

  // The parallel and fusing executors run independent nodes (and fused groups) side by side
  // where two or more are worth a thread each (exec/dataflow.h); the serial one keeps plan order.
  void planSideBySide() {
    dataflow.clear();
    sideBySide = {};
    if (!usesThreads(opt.executor) || threads < 2) return;
    dataflow.resize(size_t(g.numRegions()));
    std::vector<std::vector<int>> units;
    for (int r = 0; r < g.numRegions(); ++r) {
      units.clear();
      if (fused) {
        const FusedSchedule& fs = fused->schedule(r);
        for (const FusedUnit& u : fs.units)
          units.push_back(u.group >= 0 ? fused->group(u.group).members : std::vector<int>{u.node});
      } else {
        for (int id : plan->region(r).order) units.push_back({id});
      }
      auto d = planDataflow(g, *plan, r, units,
                            fused ? fused->schedule(r).freeAfter : plan->region(r).freeAfter);
      if (d->worthIt) dataflow[size_t(r)] = std::move(d);
    }
  }

  void execKind(Frame& f, const Node& n);
  void execPrimitive(Frame& f, const Node& n);
  bool diesHere(const Frame& f, const Node& n, size_t k) const;
  void execPlaceholder(Frame& f, const Node& n);
  void execPrint(Frame& f, const Node& n);
  void execControl(Frame& f, const Node& n);
  class FrameRuntime;

  RunResult run(const std::vector<Value>& fetches) {
    // Rewrites drop the values they absorb: not when the inspector records every value, nor
    // for the fusing executor, which fuses such chains anyway.
    plan = std::make_unique<ExecutionPlan>(
        g, fetches, !opt.valueRecords && opt.executor != ExecutorKind::Fused && !opt.known,
        opt.sideEffects, opt.known, opt.sideEffectNodes, opt.alsoRun);
    tableConstants();
    checkPlannedMemory(g, *plan, memoryStats().live, opt.memoryBudget);
    outputBytes.resize(size_t(g.numNodes()));
    for (const Node& n : g.nodes()) outputBytes[size_t(n.id)] = staticOutputBytes(n);
    primitiveOps = 0;
    threads = usesThreads(opt.executor) ? (opt.threads > 0 ? opt.threads : omp_get_num_procs()) : 1;
    if (opt.executor == ExecutorKind::Fused)
      fused = std::make_unique<FusedExecution>(g, *plan, fetches, opt, threads);
    planSideBySide();
    // Threads left to the executor follow the machine's load; a count the user chose is kept.
    share.emplace(threads, opt.threads <= 0);
    teamNow = threads;
    static std::atomic<uint64_t> runs{0};
    runSerial = ++runs;
    resetPeakMemory();
    timeline.start();
    Frame top(nullptr, 0, -1, g.region(0).nodes.size());
    {
      OmpThreads scope(threads);
      DenormalsFlushed flush(opt.flushDenormals, threads);
      execRegion(top);  // its units follow the core share from the first one
    }
    RunResult result;
    result.seconds = timeline.now();
    result.primitiveOps = primitiveOps.load();
    result.peakBytes = memoryStats().peak;
    result.savedBytes = peakSaved;
    for (Value v : fetches) result.values.push_back(get(top, v));
    result.timeline = timeline.take(result.timelineTruncated);
    recorder.takeLoops(result.loops, result.loopExecutions);
    result.valueRecords = recorder.takeValues();
    result.log = std::move(log);
    result.numerics = numerics.take();
    result.sideBySidePhases = sideBySide.phases;
    result.sideBySideNodes = sideBySide.nodes;
    if (fused) {
      result.fusedGroups = fused->numGroups();
      result.fusedNodes = fused->numFusedNodes();
      result.loopFusion = fused->takeLoopNotes();
    }
    return result;
  }
};

// A control-flow node's view of the executor at the frame where it runs.
class Executor::Impl::FrameRuntime final : public ControlRuntime {
 public:
  FrameRuntime(Impl& ex, Frame& f, const Node& n) : ex_(ex), f_(f), n_(n) {}
  const Graph& graph() const override { return ex_.g; }
  const Datum& value(Value v) const override { return ex_.get(f_, v); }
  int64_t iteration() const override { return f_.iteration; }
  void runRegionInto(int region, const std::vector<Datum>& params, int64_t iteration,
                     RegionRun& out) override {
    ex_.runRegion(f_, n_, region, params, nullptr, iteration, out);
  }
  void runRegionTaking(int region, std::vector<Datum>& params, int64_t iteration,
                       RegionRun& out) override {
    ex_.runRegion(f_, n_, region, params, &params, iteration, out);
  }
  const std::vector<int>& usedSaved() const override { return ex_.plan->usedSaved(n_.id); }
  void setOutputs(std::vector<Datum> outputs) override { ex_.slot(f_, n_.id) = std::move(outputs); }
  void accountSaved(size_t bytes) override { ex_.savedBytes.fetch_add(bytes); }
  bool parallel() const override { return ex_.opt.executor == ExecutorKind::Parallel; }
  int threads() const override { return ex_.teamNow; }
  void parallelFor(int64_t count, int threads, const std::function<void(int64_t)>& body) override {
    // Iterations running at once add their ops to this frame at once.
    const bool wasShared = f_.shared;
    f_.shared = wasShared || threads > 1;
    try {
      gl::parallelFor(count, threads, body);
    } catch (...) {
      f_.shared = wasShared;
      throw;
    }
    f_.shared = wasShared;
  }
  void checkCancelled() const override {
    if (ex_.opt.monitor && ex_.opt.monitor->cancelled()) throw CancelledError();
  }
  void progress(int64_t done, int64_t total) override {
    if (ex_.opt.monitor && f_.parent == nullptr && omp_get_thread_num() == 0)
      ex_.opt.monitor->onProgress(n_.id, done, total);
  }
  LoopRecord* beginRecord(const Node& n) override { return ex_.recorder.begin(n, ex_.placeOf(f_)); }
  bool recordRow(LoopRecord& rec, const std::vector<Datum>& values,
                 std::vector<TensorRecord>& row) override {
    return ex_.recorder.row(rec, values, row);
  }

 private:
  Impl& ex_;
  Frame& f_;
  const Node& n_;
};

void Executor::Impl::execKind(Frame& f, const Node& n) {
  switch (n.kind) {
    case NodeKind::Primitive:
      return execPrimitive(f, n);
    case NodeKind::Const:
      // Read from the constant table (get); the top level's slot is there for value records.
      if (!f.parent) setOnly(slot(f, n.id), n.value);
      return;
    case NodeKind::Variable:
      setOnly(slot(f, n.id), n.value);
      return;
    case NodeKind::Param:
      return;  // set by the frame's owner
    case NodeKind::Placeholder:
      return execPlaceholder(f, n);
    case NodeKind::Print:
      return execPrint(f, n);
    case NodeKind::While:
    case NodeKind::Map:
    case NodeKind::Cond:
    case NodeKind::Scan:
      return execControl(f, n);
  }
}

void Executor::Impl::execPrimitive(Frame& f, const Node& n) {
  // A per-thread buffer: a primitive never runs another node, so it is never in use twice.
  thread_local Data in;
  // Drops the references however the kernel ends: inputs are freed after their last use.
  struct Release {
    Data& d;
    ~Release() { d.clear(); }
  } release{in};
  KernelContext ctx;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const Value v = n.inputs[k];
    const Datum& d = get(f, v);
    if (!d.defined())
      throw EngineError("input " + g.node(v).label() +
                        " has no value here (it is computed in a branch that did not run)");
    if (diesHere(f, n, k)) {
      // Its slot is cleared after this node anyway: hand the kernel the only reference, so an
      // elementwise kernel can write its output into the buffer (KernelContext::forwardable).
      in.push_back(std::move(slot(f, v.node)[size_t(v.index)]));
      if (in.back().t.soleOwner() && k < 32) ctx.forwardable |= 1u << k;
    } else {
      in.push_back(d);
    }
  }
  if (n.prim->stateful) {
    // Random draws read a stream fixed by the node and the iterations around it, so serial and
    // parallel runs agree.
    uint64_t h = drawSeed(n.id);
    for (const Frame* fr = &f; fr; fr = fr->parent) h = drawSeedStep(h, fr->iteration);
    ctx.seed = h;
  }
  ctx.checkFinite = opt.checkNumerics;
  // A rewrite's absorbed negation read input 1 (transform/simplify.h): a NaN/Inf already there
  // is the negation's, which ran first. A buffer the kernel may write over (forwardable) is a
  // primitive's output this frame alone held, and was checked when that primitive ran; another
  // is kept to look at if the output is not finite (the kernel takes its inputs).
  const int absorbed = plan->absorbed(n.id);
  Datum negated;
  if (absorbed >= 0 && opt.checkNumerics && !(ctx.forwardable & 2u)) negated = in[1];
  std::vector<Datum>& out = slot(f, n.id);
  out.clear();
  n.prim->forward(in, n.attrs, ctx, out);
  f.countPrimitives(absorbed >= 0 ? 2 : 1);
  // Elementwise kernels check their outputs while writing them; the others are scanned here.
  if (opt.checkNumerics && !ctx.outputsFinite) {
    if (negated.defined()) numerics.scan(g.node(absorbed), 0, negated, f.iteration);
    numerics.scan(n, out, f.iteration);
  }
}

// Input k of n is a tensor of n's own frame whose last use is n, read by no other input of n.
bool Executor::Impl::diesHere(const Frame& f, const Node& n, size_t k) const {
  if (!f.lastUseHere) return false;
  const Value v = n.inputs[k];
  const Node& from = node(v);
  if (from.region != f.region || from.kind == NodeKind::Const) return false;
  for (size_t j = 0; j < n.inputs.size(); ++j)
    if (j != k && n.inputs[j] == v) return false;
  const int local = plan->local(v.node);
  const std::vector<int>& last = *f.lastUseHere;
  return std::find(last.begin(), last.end(), local) != last.end();
}

void Executor::Impl::execPlaceholder(Frame& f, const Node& n) {
  auto it = opt.feeds.find(n.id);
  if (it == opt.feeds.end()) throw EngineError("no value was fed for placeholder '" + n.name + "'");
  const TypeInfo& t = n.type();
  if (it->second.dtype() != t.dtype || !compatible(t.shape, it->second.shape()))
    throw EngineError("fed value " + std::string(dtypeName(it->second.dtype())) +
                      shapeStr(it->second.shape()) + " does not match " + t.str());
  slot(f, n.id) = {it->second};
}

void Executor::Impl::execPrint(Frame& f, const Node& n) {
  std::string line;
  bool newline = true;
  if (n.attrs.has("format")) {
    // tf.print: the text with kPrintSlot where each input goes, its summarize and end.
    const std::string format = n.attrs.s("format");
    const int64_t summarize = n.attrs.i("summarize", 3);
    size_t k = 0;
    for (char c : format) {
      if (c == kPrintSlot && k < n.inputs.size())
        line += formatDatum(get(f, n.inputs[k++]), summarize);
      else
        line += c;
    }
    std::string end = n.attrs.s("end", "\n");
    newline = !end.empty() && end.back() == '\n';
    if (newline) end.pop_back();
    line += end;
  } else {
    line = n.printPrefix;
    for (Value v : n.inputs) line += (line.empty() ? "" : " ") + formatDatum(get(f, v));
  }
  std::lock_guard<std::mutex> lock(mu);
  // A print whose end was not a newline leaves its line open for the next one.
  if (printLineOpen && !log.empty())
    log.back() += line;
  else
    log.push_back(line);
  printLineOpen = !newline;
  if (opt.monitor) opt.monitor->onPrint(line);
}

void Executor::Impl::execControl(Frame& f, const Node& n) {
  FrameRuntime rt(*this, f, n);
  if (!fused || !fused->runLoop(rt, n)) controlKind(n.kind).execute(rt, n);
  std::lock_guard<std::mutex> lock(mu);
  peakSaved = std::max(peakSaved, savedBytes.load());
}

Executor::Executor(const Graph& g, RunOptions options)
    : impl_(std::make_unique<Impl>(g, std::move(options))) {}
Executor::~Executor() = default;

RunResult Executor::run(const std::vector<Value>& fetches) {
  for (Value v : fetches)
    if (!v.valid()) throw EngineError("cannot fetch a missing value (a None gradient?)");
  return impl_->run(fetches);
}

std::vector<Tensor> evaluate(const Graph& g, const std::vector<Value>& fetches,
                             const RunOptions& options) {
  Executor ex(g, options);
  RunResult r = ex.run(fetches);
  std::vector<Tensor> out;
  for (const auto& d : r.values) out.push_back(d.t);
  return out;
}

}  // namespace gl
