// traceProgram: params and their overrides, variant blocks and their outputs.
#include <algorithm>
#include <cmath>

#ifdef __linux__
#include <pthread.h>
#endif

#include "engine/control/kind.h"
#include "engine/lang/parser.h"
#include "engine/lang/tracer.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/transform/independent_iterations.h"

namespace gl::lang {

namespace trace {

const BuiltinTable& builtins() {
  static const BuiltinTable table = [] {
    BuiltinTable t;
    addPythonBuiltins(t);
    addTfMathBuiltins(t);
    addTfArrayBuiltins(t);
    addControlFlowBuiltins(t);
    addObjectBuiltins(t);
    addKerasBuiltins(t);
    addGuideOpBuiltins(t);
    addCustomGradientBuiltins(t);
    addOptimizerBuiltins(t);
    addTfMathMoreBuiltins(t);
    addTfArrayMoreBuiltins(t);
    addPythonModuleBuiltins(t);
    addStringBuiltins(t);
    addStringMethodBuiltins(t);
    addClassBuiltins(t);
    addExceptionBuiltins(t);
    addKerasSubclassBuiltins(t);
    addKerasTrainingBuiltins(t);
    addDataBuiltins(t);
    addNumpyBuiltins(t);
    addFunctionBuiltins(t);
    return t;
  }();
  return table;
}

namespace {

// One output entry per tensor (or None from a tape) in a value; false if the value is not a
// result (a number, a function, a tape, a list holding those).
bool outputEntries(const Graph& g, const Val& v, std::vector<OutputEntry>& out, bool& gradient,
                   int depth = 0) {
  if (depth > kMaxListNesting) return false;
  gradient = gradient || v.fromGradient();
  if (v.isTensor()) {
    const Value t =
        v.var() ? v.var()->current : v.tensorValue();  // a variable: its value at the end
    if (g.node(t).region != 0 || g.type(t).list) return false;
    out.push_back({t, "", -1, {}});
    return true;
  }
  if (v.isNone() && v.why()) {
    out.push_back({Value{}, v.why()->text, v.why()->node, v.why()->loc});
    return true;
  }
  if (v.isSeq()) {
    if (v.items().empty()) return false;
    for (const Val& x : v.items())
      if (!outputEntries(g, x, out, gradient, depth + 1)) return false;
    return true;
  }
  return false;
}

std::vector<Output> collectOutputs(const Graph& g, const Scope& s) {
  std::vector<std::pair<int, Output>> ordered;
  for (const auto& [name, bnd] : s.vars) {
    if (name[0] == '_') continue;  // `_, x = ...`: a throwaway, not a result
    Output o;
    o.name = name;
    o.loc = bnd.loc;
    o.isList = bnd.v.isSeq();
    if (!outputEntries(g, bnd.v, o.entries, o.isGradient)) continue;
    ordered.push_back({bnd.order, std::move(o)});
  }
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Output> out;
  for (auto& [k, o] : ordered) out.push_back(std::move(o));
  return out;
}

std::vector<int> controlFlowNodes(const Graph& g, int from) {
  std::vector<int> ids;
  for (int id = from; id < g.numNodes(); ++id) {
    const Node& n = g.node(id);
    if (n.phase == Phase::Forward && findControlKind(n.kind)) ids.push_back(id);
  }
  return ids;
}

}  // namespace

bool Tracer::isVariantBlock(const Stmt::With& w) const {
  if (w.items.size() != 1) return false;
  auto c = w.items[0].context->as<Expr::Call>();
  if (!c) return false;
  auto n = c->func->as<Expr::Name>();
  return n && n->id == "variant" && !lookup("variant");
}

Flow Tracer::execVariant(const Stmt::With& w, const SourceLoc& loc) {
  const auto& item = w.items[0];
  const auto& call = *item.context->as<Expr::Call>();
  if (scope_ != globals_ || variant_)
    fail(loc, "variant blocks must be at the top level of the script, not inside another block");
  if (call.args.size() != 1 || !call.keywords.empty() || !call.args[0]->is<Expr::StrLit>())
    fail(item.context->loc, "write a variant as `with variant(\"name\"):` with one string literal");
  if (!item.asName.empty()) fail(item.asLoc, "`with variant(...)` binds no name; drop the `as`");
  const std::string name = call.args[0]->as<Expr::StrLit>()->value;
  // "" is the name of a script without variant blocks: its code would merge with the top level.
  if (name.empty()) fail(call.args[0]->loc, "a variant needs a name, got ''");
  for (const Variant& v : prog_.variants)
    if (v.name == name) fail(call.args[0]->loc, "variant '" + name + "' is defined twice");
  prog_.variants.push_back(Variant{name, loc, {}, {}, {}});
  const size_t index = prog_.variants.size() - 1;
  variant_ = &prog_.variants[index];
  const int firstNode = g_.numNodes();
  // Each variant gets its own names (reading the shared top level), so one variant's results
  // cannot leak into the next.
  ScopePtr own = newScope(globals_);
  own->variantBlock = true;
  scope_ = own;
  // Top-level variables too: each variant starts from their state before it.
  std::vector<std::pair<std::shared_ptr<VarState>, VarState>> state;
  for (const auto& v : variables_)
    if (auto var = v.lock()) state.emplace_back(var, *var);
  auto leave = [&] {
    scope_ = globals_;
    variant_ = nullptr;
    for (auto& [var, before] : state) *var = before;
  };
  try {
    execBlock(w.body);
  } catch (...) {
    leave();
    throw;
  }
  leave();
  Variant& v = prog_.variants[index];
  if (opt_.model == ExecutionModel::Eager) v.eagerNodes = {firstNode, g_.numNodes()};
  v.outputs = collectOutputs(g_, *own);
  v.loops = controlFlowNodes(g_, firstNode);
  for (const VectorizedMapRecord& r : g_.vectorizedMaps)
    if (r.mapNode >= firstNode) v.vectorized.push_back(r);
  return Flow::Normal;
}

void Tracer::limitStack(const char* base, size_t threadStack) {
  stackBase_ = base;
  stackLimit_ = std::min(stackLimit_, threadStack / 2);
}

void Tracer::runModule(const Module& m) {
  execBlock(m.body);
  recordTapes();
  if (!logPending_.empty()) log("");  // the last print's unfinished line
  if (prog_.variants.empty()) {
    Variant v{"", SourceLoc{file_, 1, 1}, {}, {}, {}};
    if (opt_.model == ExecutionModel::Eager) v.eagerNodes = {0, g_.numNodes()};
    v.outputs = collectOutputs(g_, *globals_);
    v.loops = controlFlowNodes(g_, 0);
    v.vectorized = g_.vectorizedMaps;
    v.tapes = topTapes_;
    prog_.variants.push_back(std::move(v));
  }
}

}  // namespace trace

namespace {

// The calling thread's stack size (a GUI worker thread may have less than the main thread).
size_t threadStackSize() {
#ifdef __linux__
  pthread_attr_t attr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstacksize(&attr, &size);
    pthread_attr_destroy(&attr);
  }
  if (size > 0) return size;
#endif
  return size_t(8) << 20;
}

std::string formatNumber(double v, bool isInt) {
  // Only a double inside int64's range converts (--set n=1e300 or inf would be undefined).
  if (isInt && std::fabs(v) < 9.2e18) return std::to_string(int64_t(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::vector<Param> collectParams(const Module& m, const std::string& fileName,
                                 const TraceOptions& options) {
  std::vector<Param> params;
  for (const Stmt::ParamDecl* d : paramDecls(m)) {
    Param p;
    p.name = d->name;
    p.isInt =
        d->value.isInt && d->lo.isInt && d->hi.isInt && (!d->classroom || d->classroom->isInt);
    p.seedValue = d->value.value;
    if (d->classroom) p.classroom = d->classroom->value;
    p.value = options.preset == ParamPreset::Classroom && p.classroom ? *p.classroom : p.seedValue;
    p.lo = d->lo.value;
    p.hi = d->hi.value;
    p.loc = d->value.loc;
    params.push_back(p);
  }
  for (const auto& entry : options.overrides) {
    // Named copies, not a structured binding: clang 14 cannot capture a binding in a lambda.
    const std::string& name = entry.first;
    const double value = entry.second;
    auto it =
        std::find_if(params.begin(), params.end(), [&](const Param& p) { return p.name == name; });
    if (it == params.end()) {
      std::string list;
      for (const Param& p : params) list += (list.empty() ? "" : ", ") + p.name;
      throw EngineError(
          "unknown param '" + name + "' (params: " + (list.empty() ? "none" : list) + ")",
          SourceLoc{fileName, 0, 0});
    }
    if (it->isInt && value != std::floor(value))
      throw EngineError("param '" + name + "' is an integer; got " + formatNumber(value, false),
                        it->loc);
    if (!(value >= it->lo && value <= it->hi))
      throw EngineError("param '" + name + "' = " + formatNumber(value, it->isInt) +
                            " is outside its range " + formatNumber(it->lo, it->isInt) + ".." +
                            formatNumber(it->hi, it->isInt),
                        it->loc);
    it->value = value;
  }
  return params;
}

}  // namespace

TracedProgram traceProgram(const std::string& source, const std::string& fileName,
                           const TraceOptions& options) {
  Module m = parse(source, fileName);
  TracedProgram prog;
  prog.graph = std::make_shared<Graph>();
  prog.params = collectParams(m, fileName, options);
  {
    trace::Tracer tracer(fileName, options, prog);
    trace::PythonItemLimit items(options.maxItems);
    char stackMarker = 0;
    tracer.limitStack(&stackMarker, threadStackSize());
    try {
      tracer.runModule(m);
    } catch (const EngineError& e) {
      if (e.loc().known()) throw;
      throw e.located(tracer.lastLoc().known() ? tracer.lastLoc() : SourceLoc{fileName, 0, 0}, "");
    } catch (const std::bad_alloc&) {
      throw EngineError("tracing ran out of memory", SourceLoc{fileName, 0, 0});
    } catch (const std::exception& e) {
      // Anything else is a bug in GradLab, reported rather than crashing the window.
      throw EngineError(std::string("internal error while tracing: ") + e.what(),
                        tracer.lastLoc().known() ? tracer.lastLoc() : SourceLoc{fileName, 0, 0});
    }
  }
  // Optimisation passes over the finished graph.
  markIndependentIterations(*prog.graph);
  return prog;
}

}  // namespace gl::lang
