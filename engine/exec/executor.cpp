#include "engine/exec/executor.h"

#include <omp.h>

#include <Eigen/Core>
#include <chrono>
#include <cmath>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "engine/control/control_flow.h"
#include "engine/ops/registry.h"

namespace gl {

TensorRecord TensorRecord::of(const Datum& d, int64_t smallTensor) {
  TensorRecord r;
  if (d.isList()) {
    r.dtype = d.list->dtype;
    r.shape = {static_cast<int64_t>(d.list->items.size())};
    r.shape.insert(r.shape.end(), d.list->elemShape.begin(), d.list->elemShape.end());
    return r;
  }
  const Tensor& t = d.t;
  if (!t.defined()) return r;
  r.dtype = t.dtype();
  r.shape = t.shape();
  const int64_t n = t.numel();
  double mn = INFINITY, mx = -INFINITY, sum = 0, sq = 0;
  dispatchAll(t.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(p[i]);
      mn = std::min(mn, v);
      mx = std::max(mx, v);
      sum += v;
      sq += v * v;
    }
  });
  r.min = n ? mn : 0;
  r.max = n ? mx : 0;
  r.mean = n ? sum / double(n) : 0;
  r.l2 = std::sqrt(sq);
  for (int64_t i = 0; i < std::min<int64_t>(n, 8); ++i) r.head.push_back(t.at(i));
  if (n <= smallTensor) r.full = t.clone();
  return r;
}

namespace {

using Clock = std::chrono::steady_clock;

struct Plan {
  std::vector<int> order;                   // node ids to run, in order
  std::vector<std::vector<int>> freeAfter;  // per position: local slots whose last use it is
};

struct Frame {
  const Frame* parent = nullptr;
  int region = 0;
  int64_t iteration = -1;
  std::vector<std::vector<Datum>> slots;
};

std::string formatDatum(const Datum& d) {
  if (d.isList()) return "TensorArray(size=" + std::to_string(d.list->items.size()) + ")";
  const Tensor& t = d.t;
  if (!t.defined()) return "<undefined>";
  std::ostringstream os;
  auto elem = [&](int64_t i) {
    if (t.dtype() == DType::Bool)
      os << (t.at(i) != 0 ? "True" : "False");
    else
      os << t.at(i);
  };
  if (t.rank() == 0) {
    elem(0);
    return os.str();
  }
  // Nested brackets like TensorFlow, eliding the middle of long axes.
  std::function<void(int, int64_t)> rec = [&](int axis, int64_t offset) {
    const auto strides = stridesOf(t.shape());
    const int64_t n = t.shape()[axis];
    os << "[";
    for (int64_t i = 0; i < n; ++i) {
      if (n > 6 && i == 3) {
        os << " ...";
        i = n - 3;
      }
      if (i) os << (axis + 1 == t.rank() ? " " : "\n ");
      if (axis + 1 == t.rank())
        elem(offset + i);
      else
        rec(axis + 1, offset + i * strides[axis]);
    }
    os << "]";
  };
  rec(0, 0);
  return os.str();
}

}  // namespace

struct Executor::Impl {
  const Graph& g;
  RunOptions opt;
  std::vector<int> local;                    // node id -> index in its region
  std::vector<std::unique_ptr<Plan>> plans;  // per region
  std::set<Value> consumed;
  RunResult result;
  Clock::time_point t0;
  std::mutex mu;
  int threads = 1;
  std::atomic<size_t> savedBytes{0};
  std::atomic<size_t> recordBytes{0};
  // One event list per thread, owned here and reached through a thread_local pointer, so
  // threads never index a container another thread may be growing.
  std::vector<std::unique_ptr<std::vector<TimelineEvent>>> timelines;
  const uint64_t runId = nextRunId();
  std::atomic<size_t> timelineCount{0};
  static uint64_t nextRunId() {
    static std::atomic<uint64_t> counter{0};
    return ++counter;
  }
  using Handler = void (Impl::*)(Frame&, const Node&);
  std::map<NodeKind, Handler> structural;

  Impl(const Graph& graph, RunOptions o) : g(graph), opt(std::move(o)) {
    structural = {{NodeKind::Const, &Impl::execConst},
                  {NodeKind::Variable, &Impl::execConst},
                  {NodeKind::Placeholder, &Impl::execPlaceholder},
                  {NodeKind::Param, &Impl::execParam},
                  {NodeKind::While, &Impl::execWhile},
                  {NodeKind::Cond, &Impl::execCond},
                  {NodeKind::Map, &Impl::execMap},
                  {NodeKind::Print, &Impl::execPrint}};
  }

  // ---- planning ------------------------------------------------------------------------
  void indexGraph() {
    local.assign(static_cast<size_t>(g.numNodes()), -1);
    for (int r = 0; r < g.numRegions(); ++r) {
      const auto& nodes = g.region(r).nodes;
      for (size_t i = 0; i < nodes.size(); ++i) local[static_cast<size_t>(nodes[i])] = int(i);
    }
    for (const Node& n : g.nodes()) {
      for (Value v : n.inputs) consumed.insert(v);
      for (Value v : n.captures) consumed.insert(v);
    }
    for (int r = 0; r < g.numRegions(); ++r)
      for (Value v : g.region(r).results) consumed.insert(v);
    // A saved accumulator that is read makes what it saves read too; outer loops save the
    // accumulators of inner ones, so propagate to a fixed point.
    for (bool grew = true; grew;) {
      grew = false;
      for (const Node& n : g.nodes()) {
        const int base = n.saved.empty() ? 0 : savedBase(n);
        for (size_t i = 0; i < n.saved.size(); ++i)
          if (consumed.count({n.id, base + int(i)}) && consumed.insert(n.saved[i]).second)
            grew = true;
      }
    }
  }

  std::vector<Value> usedSaved(const Node& owner) const {
    std::vector<Value> roots;
    const int base = savedBase(owner);
    for (size_t i = 0; i < owner.saved.size(); ++i)
      if (consumed.count({owner.id, base + int(i)})) roots.push_back(owner.saved[i]);
    return roots;
  }

  std::unique_ptr<Plan> makePlan(int r, const std::vector<Value>& roots) const {
    const Region& reg = g.region(r);
    std::vector<char> need(reg.nodes.size(), 0), keep(reg.nodes.size(), 0);
    std::vector<int> stack;
    auto mark = [&](Value v, bool isRoot) {
      if (!v.valid() || g.node(v).region != r) return;
      const int li = local[size_t(v.node)];
      if (isRoot) keep[size_t(li)] = 1;
      if (!need[size_t(li)]) {
        need[size_t(li)] = 1;
        stack.push_back(v.node);
      }
    };
    for (Value v : roots) mark(v, true);
    for (Value v : reg.params) mark(v, true);
    for (int id : reg.nodes)
      if (g.node(id).sideEffect) mark({id, 0}, true);
    while (!stack.empty()) {
      const Node& n = g.node(stack.back());
      stack.pop_back();
      for (Value v : n.inputs) mark(v, false);
      for (Value v : n.captures) mark(v, false);
    }
    auto plan = std::make_unique<Plan>();
    std::vector<int> lastUse(reg.nodes.size(), -1);
    for (size_t i = 0; i < reg.nodes.size(); ++i)
      if (need[i]) plan->order.push_back(reg.nodes[i]);
    for (size_t p = 0; p < plan->order.size(); ++p) {
      const Node& n = g.node(plan->order[p]);
      lastUse[size_t(local[size_t(n.id)])] = std::max(lastUse[size_t(local[size_t(n.id)])], int(p));
      auto use = [&](Value v) {
        if (v.valid() && g.node(v).region == r) lastUse[size_t(local[size_t(v.node)])] = int(p);
      };
      for (Value v : n.inputs) use(v);
      for (Value v : n.captures) use(v);
    }
    plan->freeAfter.resize(plan->order.size());
    for (size_t i = 0; i < reg.nodes.size(); ++i)
      if (need[i] && !keep[i] && lastUse[i] >= 0)
        plan->freeAfter[size_t(lastUse[i])].push_back(int(i));
    return plan;
  }

  void makePlans(const std::vector<Value>& fetches) {
    plans.resize(size_t(g.numRegions()));
    plans[0] = makePlan(0, fetches);
    for (int r = 1; r < g.numRegions(); ++r) {
      const Region& reg = g.region(r);
      std::vector<Value> roots = reg.results;
      if (reg.owner >= 0) {
        const Node& owner = g.node(reg.owner);
        for (Value v : usedSaved(owner))
          if (g.node(v).region == r) roots.push_back(v);
      }
      plans[size_t(r)] = makePlan(r, roots);
    }
  }

  // ---- frames ----------------------------------------------------------------------------
  Frame newFrame(const Frame* parent, int r, int64_t iteration) const {
    Frame f;
    f.parent = parent;
    f.region = r;
    f.iteration = iteration;
    f.slots.resize(g.region(r).nodes.size());
    return f;
  }

  const Datum& get(const Frame& f, Value v) const {
    const int r = g.node(v).region;
    const Frame* fr = &f;
    while (fr && fr->region != r) fr = fr->parent;
    if (!fr) throw EngineError("internal: value " + g.node(v).label() + " is not in scope");
    const auto& slot = fr->slots[size_t(local[size_t(v.node)])];
    static const Datum kNone;
    if (size_t(v.index) >= slot.size()) return kNone;
    return slot[size_t(v.index)];
  }

  void setParams(Frame& f, const std::vector<Datum>& values) const {
    const auto& params = g.region(f.region).params;
    for (size_t i = 0; i < params.size() && i < values.size(); ++i)
      f.slots[size_t(local[size_t(params[i].node)])] = {values[i]};
  }

  std::vector<Datum> results(const Frame& f) const {
    std::vector<Datum> out;
    for (Value v : g.region(f.region).results) out.push_back(get(f, v));
    return out;
  }

  void execRegion(Frame& f) {
    const Plan& plan = *plans[size_t(f.region)];
    for (size_t p = 0; p < plan.order.size(); ++p) {
      execNode(f, g.node(plan.order[p]));
      for (int li : plan.freeAfter[p]) f.slots[size_t(li)].clear();
    }
  }

  // One iteration's entry of a loop's saved accumulator: a tensor, or (nested loops) a list.
  void saveEntry(TensorList& acc, const Datum& d, size_t i) {
    if (d.isList()) {
      savedBytes.fetch_add(d.list->bytes());
      if (acc.lists.size() <= i) acc.lists.resize(i + 1);
      if (acc.items.size() <= i) acc.items.resize(i + 1);
      acc.lists[i] = d.list;
      return;
    }
    if (d.t.defined()) savedBytes.fetch_add(d.t.bytes());
    if (acc.items.size() <= i) acc.items.resize(i + 1);
    acc.items[i] = d.t;
  }

  void recordValues(const Frame& f, const Node& n) {
    const auto& slot = f.slots[size_t(local[size_t(n.id)])];
    for (size_t i = 0; i < slot.size(); ++i) {
      if (!slot[i].defined()) continue;
      TensorRecord r = TensorRecord::of(slot[i], opt.smallTensor);
      std::lock_guard<std::mutex> lock(mu);
      result.valueRecords[{n.id, int(i)}] = std::move(r);
    }
  }

  // ---- timeline ---------------------------------------------------------------------------
  // The cache is keyed by a run id, not `this`: a later Impl may reuse the same address.
  std::pair<int, std::vector<TimelineEvent>*> threadTimeline() {
    thread_local uint64_t owner = 0;
    thread_local int idx = 0;
    thread_local std::vector<TimelineEvent>* events = nullptr;
    if (owner != runId) {
      std::lock_guard<std::mutex> lock(mu);
      idx = int(timelines.size());
      timelines.push_back(std::make_unique<std::vector<TimelineEvent>>());
      events = timelines.back().get();
      owner = runId;
    }
    return {idx, events};
  }

  double now() const { return std::chrono::duration<double>(Clock::now() - t0).count(); }

  // ---- nodes ------------------------------------------------------------------------------
  void execNode(Frame& f, const Node& n) {
    if (opt.monitor && f.parent == nullptr && opt.monitor->cancelled()) throw CancelledError();
    // Past the timeline's cap the clock is not read at all: two clock reads per node were a
    // tenth of the time of loops with tiny bodies.
    const bool timed =
        opt.timeline && timelineCount.load(std::memory_order_relaxed) < opt.timelineLimit;
    const double start = timed ? now() : 0;
    try {
      auto it = n.prim ? structural.end() : structural.find(n.kind);
      if (it != structural.end())
        (this->*(it->second))(f, n);
      else
        execPrimitive(f, n);
    } catch (const CancelledError&) {
      throw;
    } catch (const EngineError& e) {
      throw e.located(n.loc, std::string(n.opName()));
    } catch (const ShapeError& e) {
      throw EngineError(e.what(), n.loc, std::string(n.opName()));
    } catch (const std::bad_alloc&) {
      throw EngineError("out of memory", n.loc, std::string(n.opName()));
    }
    if (memoryStats().live > opt.memoryBudget)
      throw EngineError("the run exceeded the memory budget", n.loc, std::string(n.opName()));
    if (opt.valueRecords && f.parent == nullptr) recordValues(f, n);
    if (timed && !n.is(NodeKind::Param) && !n.is(NodeKind::Const)) {
      const double end = now();
      if (timelineCount.fetch_add(1, std::memory_order_relaxed) < opt.timelineLimit) {
        auto [t, events] = threadTimeline();
        events->push_back({n.id, f.iteration, t, start, end});
      }
    }
  }

  void execPrimitive(Frame& f, const Node& n) {
    const Primitive& p = *n.prim;
    Data in;
    in.reserve(n.inputs.size());
    for (Value v : n.inputs) {
      const Datum& d = get(f, v);
      if (!d.defined())
        throw EngineError("input " + g.node(v).label() +
                          " has no value here (it is computed in "
                          "a branch that did not run)");
      in.push_back(d);
    }
    KernelContext ctx;
    if (p.stateful) {  // only random draws read the per-execution seed
      uint64_t h = uint64_t(n.id) * 0x9E3779B97F4A7C15ull;
      for (const Frame* fr = &f; fr; fr = fr->parent)
        h = h * 1000003ull + uint64_t(fr->iteration + 1);
      ctx.seed = h;
    }
    f.slots[size_t(local[size_t(n.id)])] = p.forward(in, n.attrs, ctx);
  }

  void execConst(Frame& f, const Node& n) { f.slots[size_t(local[size_t(n.id)])] = {n.value}; }
  void execParam(Frame&, const Node&) {}

  void execPlaceholder(Frame& f, const Node& n) {
    auto it = opt.feeds.find(n.id);
    if (it == opt.feeds.end())
      throw EngineError("no value was fed for placeholder '" + n.name + "'");
    const TypeInfo& t = n.type();
    if (it->second.dtype() != t.dtype || !compatible(t.shape, it->second.shape()))
      throw EngineError("fed value " + std::string(dtypeName(it->second.dtype())) +
                        shapeStr(it->second.shape()) + " does not match " + t.str());
    f.slots[size_t(local[size_t(n.id)])] = {it->second};
  }

  void execPrint(Frame& f, const Node& n) {
    std::string line = n.printPrefix;
    for (Value v : n.inputs) line += (line.empty() ? "" : " ") + formatDatum(get(f, v));
    std::lock_guard<std::mutex> lock(mu);
    result.log.push_back(line);
    if (opt.monitor) opt.monitor->onPrint(line);
  }

  // Per-iteration records: loop-carried values (forward loops) or adjoints (reverse loops),
  // under the record budget. Only the first execution of a loop node is recorded.
  LoopRecord* beginRecord(const Node& n) {
    if (!opt.records) return nullptr;
    std::lock_guard<std::mutex> lock(mu);
    if (n.forwardNode >= 0) {
      auto it = result.loops.find(n.forwardNode);
      if (it == result.loops.end() || !it->second.adjoints.empty()) return nullptr;
      it->second.adjoints.resize(it->second.carried.size());
      return &it->second;
    }
    if (result.loops.count(n.id)) return nullptr;
    LoopRecord& r = result.loops[n.id];
    r.loopNode = n.id;
    return &r;
  }

  std::vector<TensorRecord> recordValues(const std::vector<Datum>& vals, LoopRecord& rec) {
    std::vector<TensorRecord> out;
    size_t bytes = 0;
    for (const auto& d : vals) {
      out.push_back(TensorRecord::of(d, opt.smallTensor));
      bytes += sizeof(TensorRecord) + (out.back().full.defined() ? out.back().full.bytes() : 0);
    }
    if (recordBytes.fetch_add(bytes) + bytes > opt.recordBudget) {
      rec.truncated = true;
      return {};
    }
    return out;
  }

  void execWhile(Frame& f, const Node& n) {
    const int nv = whileVarCount(n);
    std::vector<Datum> vars;
    for (Value v : n.inputs) vars.push_back(get(f, v));
    const int condR = n.regions[0], bodyR = n.regions[1];
    const Region& body = g.region(bodyR);
    const int base = savedBase(n);
    std::vector<int> savedIdx;
    for (size_t i = 0; i < n.saved.size(); ++i)
      if (consumed.count({n.id, base + int(i)})) savedIdx.push_back(int(i));
    std::vector<std::shared_ptr<TensorList>> saved(n.saved.size());
    for (int i : savedIdx) {
      saved[size_t(i)] = std::make_shared<TensorList>();
      const TypeInfo& t = g.type(n.saved[size_t(i)]);
      saved[size_t(i)]->dtype = t.dtype;
      saved[size_t(i)]->elemShape = t.shape;
    }
    const int64_t maxIter = n.control.maximumIterations;
    int64_t it = 0;
    if (opt.parallel && savedIdx.empty() && n.forwardNode < 0 && tryParallelWhile(f, n, vars, it)) {
      // done: vars and it updated
    } else {
      LoopRecord* rec = beginRecord(n);
      const bool reverse = n.forwardNode >= 0;
      const int64_t total = reverse && !vars.empty() && vars[0].t.defined()
                                ? int64_t(vars[0].t.at(0)) + 1
                                : (maxIter >= 0 ? maxIter : -1);
      auto record = [&](int64_t step) {
        if (!rec || rec->truncated) return;
        if (!reverse) {
          std::vector<Datum> carried(vars.begin(), vars.begin() + nv);
          auto r = recordValues(carried, *rec);
          if (!rec->truncated) rec->carried.push_back(std::move(r));
          return;
        }
        // reverse loops carry [k, adjoints of forward vars listed in "adj_of", ...]
        const auto& adjOf = n.control.adjointOf;
        const int64_t k = int64_t(vars[0].t.at(0)) + 1;  // the forward iteration these belong to
        if (k < 0 || size_t(k) >= rec->adjoints.size()) return;
        std::vector<Datum> adj;
        for (size_t j = 0; j < adjOf.size(); ++j) adj.push_back(vars[1 + j]);
        auto r = recordValues(adj, *rec);
        if (rec->truncated) return;
        std::vector<TensorRecord> row(rec->carried.empty() ? adjOf.size() : rec->carried[0].size());
        for (size_t j = 0; j < adjOf.size() && size_t(adjOf[j]) < row.size(); ++j)
          row[size_t(adjOf[j])] = r[j];
        rec->adjoints[size_t(k)] = std::move(row);
        (void)step;
      };
      if (reverse) record(0);  // adjoints of the final values
      while (true) {
        if (opt.monitor && opt.monitor->cancelled()) throw CancelledError();
        if (maxIter >= 0 && it >= maxIter) break;
        Frame cf = newFrame(&f, condR, it);
        setParams(cf, vars);
        execRegion(cf);
        const Datum& pred = get(cf, g.region(condR).results[0]);
        if (!pred.t.defined() || pred.t.at(0) == 0.0) break;
        if (!reverse) record(it);
        Frame bf = newFrame(&f, bodyR, it);
        setParams(bf, vars);
        execRegion(bf);
        for (int i : savedIdx) {
          const Datum& d = get(bf, n.saved[size_t(i)]);
          saveEntry(*saved[size_t(i)], d, saved[size_t(i)]->items.size());
        }
        std::vector<Datum> next;
        for (Value v : body.results) next.push_back(get(bf, v));
        vars = std::move(next);
        ++it;
        if (reverse) record(it);
        if (opt.monitor && f.parent == nullptr) opt.monitor->onProgress(n.id, it, total);
      }
      if (rec && !reverse && !rec->truncated) {
        record(it);
        rec->iterations = it;
      }
    }
    auto& slot = f.slots[size_t(local[size_t(n.id)])];
    slot.assign(vars.begin(), vars.end());
    slot.push_back(Datum(Tensor::scalar(double(it), DType::I32)));
    slot.resize(size_t(base) + n.saved.size());
    for (int i : savedIdx) slot[size_t(base + i)] = Datum(ListPtr(saved[size_t(i)]));
    updatePeakSaved();
  }

  // Parallel while: iterations are independent when the loop is a counter i < N stepping by
  // one, every other variable passes through unchanged or is a TensorArray written at i, and
  // nothing else reads those TensorArrays (seed-a's per-sample loop).
  bool tryParallelWhile(Frame& f, const Node& n, std::vector<Datum>& vars, int64_t& iterations) {
    const int nv = whileVarCount(n);
    if (n.control.parallelIterations <= 1 || nv < 1) return false;
    const Region& condR = g.region(n.regions[0]);
    const Region& body = g.region(n.regions[1]);
    // cond: less(counter, limit)
    const Node& c = g.node(condR.results[0]);
    if (!isPrimitive(c, "less") || c.inputs[0].node < 0) return false;
    const Node& cp = g.node(c.inputs[0]);
    if (!cp.is(NodeKind::Param) || cp.region != condR.id) return false;
    const int counter = cp.paramIndex;
    if (g.node(c.inputs[1]).region == condR.id && !g.node(c.inputs[1]).is(NodeKind::Const))
      return false;
    // body: counter + 1
    const Node& inc = g.node(body.results[size_t(counter)]);
    if (!isPrimitive(inc, "add") || inc.inputs[0] != body.params[size_t(counter)]) return false;
    const Node& one = g.node(inc.inputs[1]);
    if (!one.is(NodeKind::Const) || one.value.numel() != 1 || one.value.at(0) != 1.0) return false;
    std::vector<int> writes(size_t(nv), -1);
    for (int j = 0; j < nv; ++j) {
      if (j == counter) continue;
      Value r = body.results[size_t(j)], p = body.params[size_t(j)];
      if (r == p) continue;
      const Node& w = g.node(r);
      if (!isPrimitive(w, "list_write") || w.inputs[0] != p ||
          w.inputs[1] != body.params[size_t(counter)])
        return false;
      writes[size_t(j)] = w.id;
      // the list param may be used only by that write
      for (int id : body.nodes) {
        const Node& m = g.node(id);
        if (id == w.id) continue;
        for (Value v : m.inputs)
          if (v == p) return false;
        for (Value v : m.captures)
          if (v == p) return false;
      }
    }
    for (int id : body.nodes)
      if (g.node(id).sideEffect) return false;
    // trip count
    Frame cf = newFrame(&f, condR.id, -1);
    setParams(cf, vars);
    double limit;
    if (g.node(c.inputs[1]).region == condR.id)
      limit = g.node(c.inputs[1]).value.at(0);
    else
      limit = get(cf, c.inputs[1]).t.at(0);
    const int64_t start = int64_t(vars[size_t(counter)].t.at(0));
    int64_t n_it = std::max<int64_t>(0, int64_t(std::ceil(limit)) - start);
    const int64_t maxIter = n.control.maximumIterations;
    if (maxIter >= 0) n_it = std::min(n_it, maxIter);
    std::vector<std::shared_ptr<TensorList>> lists(static_cast<size_t>(nv));
    for (int j = 0; j < nv; ++j)
      if (writes[size_t(j)] >= 0) {
        if (!vars[size_t(j)].isList()) return false;
        lists[size_t(j)] = std::make_shared<TensorList>(*vars[size_t(j)].list);
        if (lists[size_t(j)]->items.size() < size_t(start + n_it)) {
          if (!lists[size_t(j)]->dynamicSize)
            throw EngineError("TensorArray write at index " + std::to_string(start + n_it - 1) +
                              " is out of range for size " +
                              std::to_string(lists[size_t(j)]->items.size()));
          lists[size_t(j)]->items.resize(size_t(start + n_it));
        }
      }
    const int pi = int(std::min<int64_t>(n.control.parallelIterations, threads));
    std::exception_ptr error;
    std::atomic<int64_t> done{0};
#pragma omp parallel for num_threads(std::max(pi, 1)) schedule(dynamic, 1)
    for (int64_t i = 0; i < n_it; ++i) {
      if (error) continue;
      try {
        if (opt.monitor && opt.monitor->cancelled()) throw CancelledError();
        std::vector<Datum> params = vars;
        params[size_t(counter)] = Datum(Tensor::scalar(double(start + i), DType::I32));
        Frame bf = newFrame(&f, body.id, i);
        setParams(bf, params);
        execRegion(bf);
        for (int j = 0; j < nv; ++j)
          if (writes[size_t(j)] >= 0)
            // The written tensor itself may already be freed; the body's result list holds it.
            lists[size_t(j)]->items[size_t(start + i)] =
                get(bf, body.results[size_t(j)]).list->items.at(size_t(start + i));
        int64_t d = ++done;
        if (opt.monitor && f.parent == nullptr && omp_get_thread_num() == 0)
          opt.monitor->onProgress(n.id, d, n_it);
      } catch (...) {
#pragma omp critical
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    for (int j = 0; j < nv; ++j)
      if (writes[size_t(j)] >= 0) vars[size_t(j)] = Datum(ListPtr(lists[size_t(j)]));
    vars[size_t(counter)] = Datum(Tensor::scalar(double(start + n_it), DType::I32));
    iterations = n_it;
    return true;
  }

  void execCond(Frame& f, const Node& n) {
    const Datum& pred = get(f, n.inputs[0]);
    const bool taken = pred.t.at(0) != 0.0;
    const int r = n.regions[taken ? 0 : 1];
    Frame bf = newFrame(&f, r, f.iteration);
    execRegion(bf);
    auto& slot = f.slots[size_t(local[size_t(n.id)])];
    slot = results(bf);
    const int base = savedBase(n);
    slot.resize(size_t(base) + n.saved.size());
    for (size_t i = 0; i < n.saved.size(); ++i)
      if (g.node(n.saved[i]).region == r || g.within(g.node(n.saved[i]).region, r))
        if (g.node(n.saved[i]).region == r) slot[size_t(base) + i] = get(bf, n.saved[i]);
  }

  void execMap(Frame& f, const Node& n) {
    std::vector<Tensor> elems;
    for (Value v : n.inputs) elems.push_back(get(f, v).t);
    const int64_t count = elems[0].shape()[0];
    for (const auto& e : elems)
      if (e.shape()[0] != count)
        throw EngineError("map_fn elements have different first dimensions: " +
                          std::to_string(count) + " and " + std::to_string(e.shape()[0]));
    const int r = n.regions[0];
    const Region& body = g.region(r);
    const int base = savedBase(n);
    std::vector<int> savedIdx;
    for (size_t i = 0; i < n.saved.size(); ++i)
      if (consumed.count({n.id, base + int(i)})) savedIdx.push_back(int(i));
    std::vector<std::shared_ptr<TensorList>> saved(n.saved.size());
    for (int i : savedIdx) {
      saved[size_t(i)] = std::make_shared<TensorList>();
      saved[size_t(i)]->dtype = g.type(n.saved[size_t(i)]).dtype;
      saved[size_t(i)]->elemShape = g.type(n.saved[size_t(i)]).shape;
      saved[size_t(i)]->items.resize(size_t(count));
      if (g.type(n.saved[size_t(i)]).list) saved[size_t(i)]->lists.resize(size_t(count));
    }
    std::vector<std::vector<Tensor>> outs(static_cast<size_t>(count));
    std::exception_ptr error;
    auto iteration = [&](int64_t i) {
      std::vector<Datum> params{Datum(Tensor::scalar(double(i), DType::I32))};
      for (const auto& e : elems) {
        Shape s(e.shape().begin() + 1, e.shape().end());
        Tensor slice = Tensor::empty(e.dtype(), s);
        const size_t row = slice.bytes();
        std::memcpy(slice.raw(), static_cast<const char*>(e.raw()) + size_t(i) * row, row);
        params.push_back(Datum(slice));
      }
      Frame bf = newFrame(&f, r, i);
      setParams(bf, params);
      execRegion(bf);
      for (Value v : body.results) outs[size_t(i)].push_back(get(bf, v).t);
      for (int k : savedIdx) {
        const Datum& d = get(bf, n.saved[size_t(k)]);
        saveEntry(*saved[size_t(k)], d, size_t(i));
      }
    };
    const int pi = int(std::min<int64_t>(n.control.parallelIterations, threads));
    if (opt.parallel && pi > 1 && count > 1) {
#pragma omp parallel for num_threads(pi) schedule(dynamic, 1)
      for (int64_t i = 0; i < count; ++i) {
        if (error) continue;
        try {
          if (opt.monitor && opt.monitor->cancelled()) throw CancelledError();
          iteration(i);
        } catch (...) {
#pragma omp critical
          if (!error) error = std::current_exception();
        }
      }
      if (error) std::rethrow_exception(error);
    } else {
      for (int64_t i = 0; i < count; ++i) {
        if (opt.monitor && opt.monitor->cancelled()) throw CancelledError();
        iteration(i);
      }
    }
    auto& slot = f.slots[size_t(local[size_t(n.id)])];
    slot.clear();
    for (size_t j = 0; j < body.results.size(); ++j) {
      Shape elem = count ? outs[0][j].shape()
                         : Shape(n.type(int(j)).shape.begin() + 1, n.type(int(j)).shape.end());
      for (auto& d : elem)
        if (d < 0) d = 0;
      Shape s{count};
      s.insert(s.end(), elem.begin(), elem.end());
      Tensor out = Tensor::empty(n.type(int(j)).dtype, s);
      const size_t row = size_t(numel(elem)) * dtypeSize(out.dtype());
      for (int64_t i = 0; i < count; ++i) {
        const Tensor& t = outs[size_t(i)][j];
        if (t.shape() != elem)
          throw EngineError("map_fn body returns shape " + shapeStr(t.shape()) + " at index " +
                            std::to_string(i) + " but " + shapeStr(elem) + " at index 0");
        std::memcpy(static_cast<char*>(out.raw()) + size_t(i) * row, t.raw(), row);
      }
      slot.push_back(Datum(out));
    }
    slot.resize(size_t(base) + n.saved.size());
    for (int k : savedIdx) slot[size_t(base + k)] = Datum(ListPtr(saved[size_t(k)]));
    updatePeakSaved();
  }

  void updatePeakSaved() {
    std::lock_guard<std::mutex> lock(mu);
    result.savedBytes = std::max(result.savedBytes, savedBytes.load());
  }

  RunResult run(const std::vector<Value>& fetches) {
    indexGraph();
    makePlans(fetches);
    threads = opt.parallel ? (opt.threads > 0 ? opt.threads : omp_get_num_procs()) : 1;
    const int oldThreads = omp_get_max_threads();
    omp_set_num_threads(threads);
    Eigen::setNbThreads(threads);
    resetPeakMemory();
    t0 = Clock::now();
    Frame top = newFrame(nullptr, 0, -1);
    try {
      execRegion(top);
    } catch (...) {
      omp_set_num_threads(oldThreads);
      throw;
    }
    omp_set_num_threads(oldThreads);
    result.seconds = now();
    result.peakBytes = memoryStats().peak;
    for (Value v : fetches) result.values.push_back(get(top, v));
    for (auto& tl : timelines)
      result.timeline.insert(result.timeline.end(), tl->begin(), tl->end());
    result.timelineTruncated = timelineCount >= opt.timelineLimit;
    std::sort(result.timeline.begin(), result.timeline.end(),
              [](const TimelineEvent& a, const TimelineEvent& b) { return a.start < b.start; });
    return std::move(result);
  }
};

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
