#include "engine/autodiff/tape.h"

#include <algorithm>

#include "engine/autodiff/backprop.h"
#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/diagnostic.h"

namespace gl {

GradientTape::GradientTape(Builder& b, bool persistent, bool watchVariables)
    : b_(b), persistent_(persistent), watchVariables_(watchVariables) {
  openedAt_ = b.graph().numNodes();
  b_.pushTape(this);
}

GradientTape::~GradientTape() { b_.popTape(this); }

void GradientTape::stop() {
  if (!active_) return;
  active_ = false;
  closedAt_ = b_.graph().numNodes();
  b_.popTape(this);
}

void GradientTape::resume() {
  if (active_) return;
  active_ = true;
  closedAt_ = -1;
  b_.pushTape(this);
}

void GradientTape::reset() {
  recorded_.clear();
  watched_.clear();
  used_ = false;
  openedAt_ = b_.graph().numNodes();
  closedAt_ = active_ ? -1 : openedAt_;
}

std::vector<Value> GradientTape::watchedVariables() const {
  const Graph& g = b_.graph();
  std::vector<Value> out;
  std::set<Value> seen;
  auto add = [&](Value v) {
    if (g.node(v).is(NodeKind::Variable) && seen.insert(v).second) out.push_back(v);
  };
  for (Value v : watched_) add(v);
  if (watchVariables_)
    for (int id : recorded_) {
      const Node& n = g.node(id);
      for (const auto* inputs : {&n.inputs, &n.captures})
        for (Value v : *inputs) add(v);
    }
  return out;
}

void GradientTape::onNode(const Node& n) {
  if (active_ && stopDepth_ == 0) recorded_.insert(n.id);
}

void GradientTape::watch(Value v) {
  if (!v.valid()) throw EngineError("cannot watch a missing value", b_.loc(), "watch");
  watched_.insert(v);
}

bool GradientTape::isWatched(Value v) const {
  return watched_.count(v) || (watchVariables_ && b_.graph().node(v).is(NodeKind::Variable));
}

// TF's tape traces every tensor computed while it records from something it watches: such an
// intermediate (y in z = y * y) is a source as valid as a watched one.
bool GradientTape::isTraced(Value v) const {
  if (isWatched(v)) return true;
  const Graph& g = b_.graph();
  std::set<int> seen;
  std::vector<int> stack{v.node};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (!recorded_.count(id) || !seen.insert(id).second) continue;
    const Node& n = g.node(id);
    for (const auto* inputs : {&n.inputs, &n.captures})
      for (Value in : *inputs) {
        if (isWatched(in)) return true;
        stack.push_back(in.node);
      }
  }
  return false;
}

void GradientTape::beginQuery(const char* what) {
  if (used_ && !persistent_)
    // TF's RuntimeError (backprop.py GradientTape.gradient), so a script's
    // `except RuntimeError` catches it; tf.GradientTape(persistent=True) allows more.
    throw EngineError(
        "RuntimeError: A non-persistent GradientTape can only be used to compute one set of "
        "gradients (or jacobians)",
        b_.loc(), what);
  used_ = true;
}

namespace {

std::string describe(const Node& n) {
  const std::string op(n.opName());
  std::string s = n.name.empty() ? "'" + op + "'" : "'" + n.name + "' (" + op + ")";
  if (n.loc.known()) s += " at line " + std::to_string(n.loc.line);
  return s;
}

DiagNode diagNode(const Node& n) { return {n.name, std::string(n.opName()), n.loc.line}; }

// The code for nondiffReason's sentence, with its arguments. A primitive that names why it has
// no gradient is a random draw (stateful), an integer result (argmax), or, when it is marked
// differentiable and still blocks, tf.stop_gradient, the only op that blocks on purpose.
Diagnostic nondiffDiag(const Node& n) {
  const std::string op(n.opName());
  const bool intResult = !n.outputs.empty() && !isFloat(n.outputs[0].dtype);
  const std::string dtype = n.outputs.empty() ? "" : std::string(dtypeName(n.outputs[0].dtype));
  if (n.prim && !n.prim->noGradient.empty()) {
    if (n.prim->stateful) return {DiagCode::ChainRandomDraw, {}, {op}};
    if (intResult) return {DiagCode::ChainIntegerResult, {}, {op, dtype}};
    if (n.prim->differentiable) return {DiagCode::ChainStopGradient, {}, {op}};
    return {DiagCode::ChainNoGradient, {}, {op}};
  }
  if (intResult) return {DiagCode::ChainIntegerResult, {}, {op, dtype}};
  return {DiagCode::ChainNoGradient, {}, {op}};
}

std::string nondiffReason(const Node& n) {
  const std::string op(n.opName());
  if (n.prim && !n.prim->noGradient.empty()) return n.prim->noGradient;
  if (!n.outputs.empty() && !isFloat(n.outputs[0].dtype)) {
    // "cast to int32": ops that take a target dtype read best with it.
    const std::string what =
        n.attrs.has("dtype") ? op + " to " + dtypeName(n.outputs[0].dtype) : op;
    return what + ", whose " + dtypeName(n.outputs[0].dtype) +
           " result has no gradient (integer and bool tensors carry none)";
  }
  return op + ", which has no gradient";
}

// Why a source created inside a loop or branch body that the target lies outside of has no
// gradient there.
std::string sourceInsideBody(const Graph& g, const Node& sn, const Node& tn, Diagnostic& diag) {
  const std::string src = describe(sn);
  int r = sn.region;
  while (g.region(r).parent >= 0 && !g.within(tn.region, g.region(r).parent))
    r = g.region(r).parent;
  const Region& body = g.region(r);
  const std::string where = body.owner >= 0 ? describe(g.node(body.owner)) : "a body";
  const DiagNode owner = body.owner >= 0 ? diagNode(g.node(body.owner)) : DiagNode{};
  diag = {isLoopBody(body.kind) ? DiagCode::SourceInLoopBody : DiagCode::SourceInBranch,
          {diagNode(sn), owner},
          {}};
  if (isLoopBody(body.kind))
    return "the source " + src + " was created inside the body of " + where +
           ": the body runs once per iteration and makes a new leaf each time, so the value "
           "the loop used is not the one you asked about. Create it once, outside the loop "
           "(for per-step weights: a list of variables, or one [T] variable indexed by the "
           "step)";
  return "the source " + src + " only exists inside a branch of " + where +
         "; differentiate with respect to a value created outside the cond";
}

}  // namespace

GradDiagnostic GradientTape::explain(Value target, Value source) const {
  const Graph& g = b_.graph();
  const Node& sn = g.node(source);
  const Node& tn = g.node(target);
  GradDiagnostic d;
  d.node = sn.id;
  d.loc = sn.loc;
  Diagnostic diag;  // the sentence's structure, recorded with it (engine/tensor/diagnostic.h)
  auto done = [&] {
    d.text = diagnosed(std::move(d.text), std::move(diag));
    return d;
  };
  const std::string src = describe(sn);
  if (!isFloat(g.type(source).dtype)) {
    d.text = "the source " + src + " is " + dtypeName(g.type(source).dtype) +
             ": integer and bool tensors carry no gradient";
    diag = {DiagCode::SourceIntegerDtype,
            {diagNode(sn)},
            {std::string(dtypeName(g.type(source).dtype))}};
    return done();
  }
  // A source defined inside a loop/branch body that the target lies outside of.
  if (!g.within(tn.region, sn.region)) {
    d.text = sourceInsideBody(g, sn, tn, diag);
    return done();
  }
  // The same analysis backprop ran, for this source alone.
  BackpropRequest req;
  req.targets = {target};
  req.sources = {source};
  req.eligible = [this](const Node& n) { return recorded_.count(n.id) > 0; };
  const PathAnalysis paths = analyzePaths(g, req);
  if (!paths.connected.count(target)) {
    d.text = "the target " + describe(tn) + " does not depend on " + src +
             " at all: no chain of operations leads from it to the target";
    diag = {DiagCode::TargetNotDependent, {diagNode(sn), diagNode(tn)}, {}};
    return done();
  }
  if (!isTraced(source)) {
    d.text = "the source " + src +
             " was never watched: a plain tensor (unlike a tf.Variable) is recorded only after "
             "tape.watch(" +
             (sn.name.empty() ? std::string("x") : sn.name) + ") inside the tape";
    diag = {DiagCode::SourceNeverWatched,
            {diagNode(sn)},
            {sn.name.empty() ? std::string("x") : sn.name}};
    return done();
  }
  // A non-differentiable op on the path (a comparison feeding a cond's predicate, a cast to
  // int) only explains the None when no later node breaks a chain that was still alive.
  const PathStop* stop = nullptr;
  for (const PathStop& s : paths.stops)
    if (s.reason != StopReason::NoGradient) {
      stop = &s;
      break;
    }
  if (!stop && !paths.stops.empty()) stop = &paths.stops.front();
  if (!stop) {
    d.text = "the target " + describe(tn) + " is not connected to " + src + " on this tape";
    diag = {DiagCode::TargetNotOnTape, {diagNode(sn), diagNode(tn)}, {}};
    return done();
  }
  const int id = stop->node;
  const Node& n = g.node(id);
  d.node = id;
  d.loc = n.loc;
  const std::string breaks = "the chain from " + src + " to the target breaks at " + describe(n);
  if (stop->reason == StopReason::NoGradient) {
    d.text = breaks + ": it passes through " + nondiffReason(n);
    diag = nondiffDiag(n);
  } else if (stop->reason == StopReason::RecordingStopped) {
    d.text = breaks + ", which was computed inside tape.stop_recording()";
    diag.code = DiagCode::ChainRecordingStopped;
  } else if (closedAt_ >= 0 && id >= closedAt_) {
    d.text = breaks +
             ": it was computed after the tape stopped recording (outside the `with "
             "tf.GradientTape()` block), so the tape never saw it. Compute it inside the block";
    diag.code = DiagCode::ChainAfterTapeClosed;
  } else if (id < openedAt_) {
    d.text = breaks + ": it was computed before the tape started recording";
    diag.code = DiagCode::ChainBeforeTapeOpened;
  } else {
    d.text = breaks + ": this tape did not record it";
    diag.code = DiagCode::ChainNotRecorded;
  }
  diag.nodes = {diagNode(sn), diagNode(n)};
  return done();
}

GradResult GradientTape::gradient(Value target, const std::vector<Value>& sources,
                                  Unconnected unconnected, Value outputGradient) {
  return gradient(std::vector<Value>{target}, sources, unconnected, {outputGradient});
}

GradResult GradientTape::gradient(const std::vector<Value>& targets,
                                  const std::vector<Value>& sources, Unconnected unconnected,
                                  const std::vector<Value>& outputGradients) {
  beginQuery("gradient");
  if (targets.empty()) throw EngineError("gradient of no targets", b_.loc(), "gradient");
  for (Value t : targets)
    if (!t.valid()) throw EngineError("gradient of a missing target", b_.loc(), "gradient");
  const SourceLoc loc = b_.loc();
  BackpropRequest req;
  req.targets = targets;
  req.seeds = outputGradients;
  req.eligible = [this](const Node& n) { return recorded_.count(n.id) > 0; };
  // Unwatched plain tensors are not sources the tape knows.
  for (Value s : sources)
    if (isTraced(s)) req.sources.push_back(s);
  std::map<Value, Value> adj = backprop(b_, req);
  b_.setLoc(loc);
  GradResult r;
  // A target that is itself a source: backprop seeds it when the source carries a gradient;
  // this covers the others (a single target only, as before).
  const Value target = targets[0];
  const Value seed0 = outputGradients.empty() ? Value{} : outputGradients[0];
  for (Value s : sources) {
    auto it = adj.find(s);
    if (it == adj.end() && targets.size() == 1 && s == target && isTraced(s)) {
      r.grads.push_back(seed0.valid() ? seed0 : b_.onesLike(s));
      r.why.push_back({});
    } else if (it != adj.end()) {
      r.grads.push_back(it->second);
      r.why.push_back({});
    } else {
      GradDiagnostic d = explain(target, s);
      r.grads.push_back(unconnected == Unconnected::Zero ? b_.zerosLike(s) : Value{});
      r.why.push_back(std::move(d));
    }
  }
  return r;
}

GradResult GradientTape::jacobian(Value target, const std::vector<Value>& sources,
                                  Unconnected unconnected, int parallelIterations, bool usePfor) {
  beginQuery("jacobian");
  const SourceLoc loc = b_.loc();
  const TypeInfo ty = b_.type(target);
  const int64_t m = numel(ty.shape);
  if (m < 0) throw EngineError("jacobian needs a target of known shape", loc, "jacobian");
  std::vector<Value> known;
  for (Value s : sources)
    if (isTraced(s)) known.push_back(s);
  // One VJP per row of the identity, as iterations of a map the parallel executor spreads
  // over threads.
  b_.checkBudget(TypeInfo{ty.dtype, {m, m}}, "jacobian");  // the identity, before allocating it
  Tensor eye = Tensor::zeros(ty.dtype, {m, m});
  for (int64_t i = 0; i < m; ++i) eye.set(i * m + i, 1.0);
  Value eyeV = b_.constant(eye, "identity");
  std::vector<bool> connected(known.size(), false);
  auto fn = [&](Builder& bb, const std::vector<Value>& row) {
    BackpropRequest req;
    req.targets = {target};
    req.seeds = {ops::reshape(bb, row[0], ty.shape)};
    req.sources = known;
    req.eligible = [this](const Node& n) { return recorded_.count(n.id) > 0; };
    std::map<Value, Value> adj = backprop(bb, req);
    std::vector<Value> out;
    for (size_t k = 0; k < known.size(); ++k) {
      auto it = adj.find(known[k]);
      connected[k] = it != adj.end();
      out.push_back(it != adj.end() ? it->second : bb.zerosLike(known[k]));
    }
    return out;
  };
  GradResult r;
  std::vector<Value> outs;
  if (!known.empty())
    outs = usePfor ? vectorizedMap(b_, fn, {eyeV}, true, parallelIterations, "jacobian").outputs
                   : mapFn(b_, fn, {eyeV}, parallelIterations);
  b_.setLoc(loc);
  for (Value s : sources) {
    auto it = std::find(known.begin(), known.end(), s);
    if (it == known.end() || !connected[size_t(it - known.begin())]) {
      GradDiagnostic d = explain(target, s);
      if (unconnected == Unconnected::Zero) {
        Shape js = ty.shape;
        const Shape& ss = b_.type(s).shape;
        js.insert(js.end(), ss.begin(), ss.end());
        r.grads.push_back(b_.op1("fill", {},
                                 Attrs{{"dtype", std::string(dtypeName(b_.type(s).dtype))},
                                       {"shape", js},
                                       {"value", 0.0}}));
      } else {
        r.grads.push_back({});
      }
      r.why.push_back(d);
      continue;
    }
    Shape js = ty.shape;
    const Shape& ss = b_.type(s).shape;
    js.insert(js.end(), ss.begin(), ss.end());
    r.grads.push_back(ops::reshape(b_, outs[size_t(it - known.begin())], js));
    r.why.push_back({});
  }
  return r;
}

GradResult GradientTape::batchJacobian(Value target, Value source, int parallelIterations,
                                       Unconnected unconnected, bool usePfor) {
  beginQuery("batch_jacobian");
  const SourceLoc loc = b_.loc();
  const TypeInfo ty = b_.type(target);
  const TypeInfo sy = b_.type(source);
  if (ty.shape.empty() || sy.shape.empty() || !fullyKnown(ty.shape))
    throw EngineError("batch_jacobian needs a target and source with a known batch axis", loc,
                      "batch_jacobian");
  if (ty.shape[0] != sy.shape[0] && sy.shape[0] >= 0)
    throw EngineError("batch_jacobian: target batch " + std::to_string(ty.shape[0]) +
                          " differs from source batch " + std::to_string(sy.shape[0]),
                      loc, "batch_jacobian");
  GradResult r;
  const bool traced = isTraced(source);
  if (!traced && unconnected == Unconnected::None) {
    r.grads.push_back({});
    r.why.push_back(explain(target, source));
    return r;
  }
  const Shape rowShape(ty.shape.begin() + 1, ty.shape.end());
  const int64_t m = numel(rowShape);
  b_.checkBudget(TypeInfo{ty.dtype, {m, m}}, "batch_jacobian");
  Tensor eye = Tensor::zeros(ty.dtype, {m, m});
  for (int64_t i = 0; i < m; ++i) eye.set(i * m + i, 1.0);
  Value eyeV = b_.constant(eye, "identity");
  bool connected = false;
  auto fn = [&](Builder& bb, const std::vector<Value>& row) {
    Shape one{1};
    one.insert(one.end(), rowShape.begin(), rowShape.end());
    Value seed = ops::broadcastTo(bb, ops::reshape(bb, row[0], one), ty.shape);
    BackpropRequest req;
    req.targets = {target};
    req.seeds = {seed};
    if (traced) req.sources = {source};
    req.eligible = [this](const Node& n) { return recorded_.count(n.id) > 0; };
    std::map<Value, Value> adj = backprop(bb, req);
    connected = adj.count(source) > 0;
    return std::vector<Value>{connected ? adj[source] : bb.zerosLike(source)};
  };
  std::vector<Value> outs =  // [m, B, n...]
      usePfor ? vectorizedMap(b_, fn, {eyeV}, true, parallelIterations, "batch_jacobian").outputs
              : mapFn(b_, fn, {eyeV}, parallelIterations);
  b_.setLoc(loc);
  if (!connected && unconnected == Unconnected::None) {
    r.grads.push_back({});
    r.why.push_back(explain(target, source));
    return r;
  }
  // Unconnected with ZERO: the map's rows are already zeros of the source's shape.
  std::vector<int64_t> perm{1, 0};
  for (int64_t i = 2; i < int64_t(sy.shape.size()) + 1; ++i) perm.push_back(i);
  Value t = ops::transpose(b_, outs[0], perm);  // [B, m, n...]
  Shape js{ty.shape[0]};
  js.insert(js.end(), rowShape.begin(), rowShape.end());
  js.insert(js.end(), sy.shape.begin() + 1, sy.shape.end());
  r.grads.push_back(ops::reshape(b_, t, js));
  r.why.push_back({});
  return r;
}

}  // namespace gl
