// The tracer core: expressions, name resolution, attributes and calls.
#include "engine/lang/tracer.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "engine/exec/run.h"
#include "engine/lang/name_suggest.h"
#include "engine/lang/tracer_function.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl::lang::trace {

namespace {

constexpr int kMaxEvalDepth = 4000;  // nested evaluations (expressions and calls)
constexpr int kMaxCallDepth = 200;   // script recursion depth

// A primitive reached by name (tf.conv2d, list_new, ...).
struct PrimitiveObj : Object {
  std::string name;
  std::string typeName() const override { return "builtin_function"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override { return callPrimitive(cx, name, args); }
};

Val primitiveVal(const std::string& name) {
  auto p = std::make_shared<PrimitiveObj>();
  p->name = name;
  return Val::object(p);
}

Val builtinVal(const std::string& key, const BuiltinDef& def) {
  if (def.isConstant) return def.constant;
  auto o = std::make_shared<BuiltinObj>();
  o->name = key;
  o->def = &def;
  return Val::object(o);
}

bool hasNamespace(const std::string& prefix) {
  const auto& t = builtins();
  auto it = t.lower_bound(prefix);
  return it != t.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

// "keras.x" is spelled "tf.keras.x" in the table, and so are TF 2's short aliases of Keras
// modules (tf.initializers, tf.optimizers, tf.losses: the v2 API exports them).
std::string canonicalPrefix(const std::string& prefix) {
  if (prefix.rfind("keras.", 0) == 0) return "tf." + prefix;
  for (const char* alias : {"tf.initializers.", "tf.optimizers.", "tf.losses."})
    if (prefix.rfind(alias, 0) == 0) return "tf.keras." + prefix.substr(3);
  return prefix;
}

// A name that is not bound by the script: a Python builtin, a tf name (prefix optional), a
// namespace, or a registered primitive.
}  // namespace

std::optional<Val> lookupBuiltin(const std::string& name) {
  const auto& t = builtins();
  if (auto it = t.find(name); it != t.end()) return builtinVal(it->first, it->second);
  if (name == "tf" || name == "keras") {
    auto m = std::make_shared<ModuleObj>();
    m->prefix = name == "tf" ? "tf." : "tf.keras.";
    return Val::object(m);
  }
  return moduleAttr("tf.", name);
}

namespace {

int editDistance(const std::string& a, const std::string& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = int(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = int(i);
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

// ModuleObj --------------------------------------------------------------------------------

std::optional<Val> ModuleObj::attr(Context& cx, const std::string& name) {
  if (prefix == "py.os." && name == "environ") return cx.osEnviron();  // one per trace
  return moduleAttr(prefix, name);
}

std::optional<Val> moduleAttr(const std::string& prefix, const std::string& name) {
  const std::string p = canonicalPrefix(prefix);
  const auto& t = builtins();
  if (auto it = t.find(p + name); it != t.end()) return builtinVal(it->first, it->second);
  const bool alias =
      p == "tf." && (name == "math" || name == "linalg" || name == "nn" || name == "raw_ops");
  // tf.raw_ops.<name>: the primitive itself, even where a tf function has the same name.
  if (p == "tf.raw_ops.") {
    if (Registry::instance().find(name)) return primitiveVal(name);
    return std::nullopt;
  }
  if (alias || hasNamespace(canonicalPrefix(p + name + "."))) {
    auto m = std::make_shared<ModuleObj>();
    m->prefix = p + name + ".";
    return Val::object(m);
  }
  // tf.math.exp, tf.nn.relu, tf.linalg.matmul: the same functions as tf.exp, tf.relu, ...
  if (p == "tf.math." || p == "tf.nn." || p == "tf.linalg.") {
    if (auto it = t.find("tf." + name); it != t.end()) return builtinVal(it->first, it->second);
  }
  if (p == "tf." || p == "tf.math." || p == "tf.nn." || p == "tf.linalg.") {
    if (Registry::instance().find(name)) return primitiveVal(name);
  }
  return std::nullopt;
}

std::vector<std::string> ModuleObj::attrNames() const {
  const std::string p = canonicalPrefix(prefix);
  std::vector<std::string> out;
  for (const auto& [k, v] : builtins()) {
    if (k.compare(0, p.size(), p) != 0) continue;
    std::string rest = k.substr(p.size());
    out.push_back(rest.substr(0, rest.find('.')));
  }
  if (p == "tf." || p == "tf.raw_ops.")
    for (const auto& n : Registry::instance().names()) out.push_back(n);
  return out;
}

// Object defaults ----------------------------------------------------------------------------

std::optional<Val> Object::attr(Context&, const std::string&) { return std::nullopt; }

std::optional<std::vector<Val>> Object::iterate(Context&, const SourceLoc&) { return std::nullopt; }

Val Object::call(Context& cx, CallArgs& args) {
  cx.fail(args.loc, "'" + typeName() + "' object is not callable");
}

Val Object::enter(Context& cx, const SourceLoc& loc) {
  cx.fail(loc, "'" + typeName() + "' object cannot be used in a with statement");
}

// Tracer -----------------------------------------------------------------------------------

Tracer::Tracer(const std::string& fileName, const TraceOptions& options, TracedProgram& out)
    : file_(fileName),
      opt_(options),
      prog_(out),
      g_(*out.graph),
      b_(*out.graph, options.memoryBudget) {
  globals_ = newScope(nullptr);
  scope_ = globals_;
}

Tracer::~Tracer() {
  // Closures refer to the scopes that hold them, and a list may hold itself (x.append(x)):
  // break the cycles so objects (and the tapes they hold) go away before the builder does.
  returnValue_ = Val();
  std::set<ListObj*> lists;
  std::vector<const Val*> todo;
  for (auto& w : allScopes_)
    if (auto s = w.lock())
      for (const auto& [k, bnd] : s->vars) todo.push_back(&bnd.v);
  std::vector<std::shared_ptr<ListObj>> keep;
  while (!todo.empty()) {
    const Val* v = todo.back();
    todo.pop_back();
    if (!v->isSeq() || !lists.insert(v->list().get()).second) continue;
    keep.push_back(v->list());
    for (const Val& x : v->list()->items) todo.push_back(&x);
  }
  for (auto& l : keep) l->items.clear();
  keep.clear();
  for (auto& w : allScopes_)
    if (auto s = w.lock()) s->vars.clear();
  scope_.reset();
  globals_.reset();
  tapes_.clear();
}

ScopePtr Tracer::newScope(ScopePtr parent) {
  auto s = std::make_shared<Scope>();
  s->parent = std::move(parent);
  allScopes_.push_back(s);
  if (allScopes_.size() % 4096 == 0)  // forget the scopes of finished calls
    std::erase_if(allScopes_, [](const std::weak_ptr<Scope>& w) { return w.expired(); });
  return s;
}

void Tracer::fail(const SourceLoc& loc, const std::string& msg) const {
  SourceLoc l = loc;
  if (l.file.empty()) l.file = file_;
  throw EngineError(msg, l);
}

void Tracer::checkLimits(const SourceLoc& loc) {
  if (g_.numNodes() > opt_.maxNodes)
    fail(loc, "the graph grew past " + std::to_string(opt_.maxNodes) + " nodes" + kRaiseNodes +
                  "; a Python loop unrolling a large body is the usual cause: use tf.range to "
                  "build one while_loop instead");
}

void Tracer::countUnroll(const SourceLoc& loc) {
  // Each unrolled copy can build (and differentiate) a large body: the window's cancellation
  // and the fuzzer's time limit must reach a long unroll, not only values evaluated now.
  if (opt_.cancelled && opt_.cancelled()) throw CancelledError();
  if (++prog_.unrolledCopies > opt_.maxUnroll)
    fail(loc, "Python loops ran more than " + std::to_string(opt_.maxUnroll) +
                  " iterations while tracing" + kRaiseUnroll +
                  "; use tf.range or tf.while_loop to make a graph loop");
  checkLimits(loc);
}

int64_t Tracer::nextSeed(std::optional<int64_t> opSeed) {
  // Like TF: the global seed and a per-op seed (or a counter) together pick the stream.
  const uint64_t op = opSeed ? uint64_t(*opSeed) : uint64_t(++seedCounter_);
  return int64_t((globalSeed_ * 1000003u + op * 7919u) & 0x7fffffffffffull);
}

size_t Tracer::stackUsed() const {
  if (!stackBase_) return 0;
  char here;
  const auto a = reinterpret_cast<uintptr_t>(stackBase_), h = reinterpret_cast<uintptr_t>(&here);
  return a > h ? a - h : h - a;
}

Tracer::DepthGuard::DepthGuard(Tracer& t, const SourceLoc& loc) : t_(t) {
  ++t.evalDepth_;
  if (t.evalDepth_ > kMaxEvalDepth || t.stackUsed() > t.stackLimit_)
    t.fail(loc, t.callDepth_ > 0 ? "maximum recursion depth exceeded: calls and expressions nest "
                                   "too deeply here for the tracer's stack"
                                 : "the script nests too deeply here (expressions inside each "
                                   "other)");
}

std::string suggest(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string best = closestName(name, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

std::string closestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  int bestD = 1 << 30;
  const int limit = std::max<int>(1, int(name.size()) / 3);
  for (const auto& c : candidates) {
    if (c == name || c.empty()) continue;
    const int d = editDistance(name, c);
    if (d < bestD || (d == bestD && c < best)) bestD = d, best = c;
  }
  if (best.empty() || bestD > limit) return "";
  return best;
}

std::vector<std::string> Tracer::namesInScope() const {
  std::vector<std::string> out;
  for (auto s = scope_; s; s = s->parent)
    for (const auto& [k, v] : s->vars) out.push_back(k);
  for (const auto& [k, v] : builtins()) {
    if (k.find('.') == std::string::npos) out.push_back(k);
    if (k.rfind("tf.", 0) == 0 && k.find('.', 3) == std::string::npos) out.push_back(k.substr(3));
  }
  out.push_back("tf");
  return out;
}

const Binding* Tracer::lookup(const std::string& name) const {
  for (auto s = scope_; s; s = s->parent)
    if (auto it = s->vars.find(name); it != s->vars.end()) return &it->second;
  return nullptr;
}

// Attributes -------------------------------------------------------------------------------

Val Tracer::getAttr(const Val& v, const std::string& name, const SourceLoc& loc) {
  std::string prefix;
  switch (v.kind()) {
    case Kind::Object: {
      if (auto r = scriptAttr(v, name, loc)) return *r;
      if (auto r = v.obj()->attr(cx_, name)) return *r;
      if (auto m = v.as<ModuleObj>(); m && m->prefix.rfind("py.numpy.", 0) == 0)
        fail(loc,
             m->prefix.substr(3) + name +
                 " is not supported by GradLab (it provides numpy's "
                 "array creation, dtypes, arithmetic, reductions, shape functions and np.random)" +
                 suggest(name, v.obj()->attrNames()));
      if (auto m = v.as<ModuleObj>())
        fail(loc, "module '" +
                      (m->shown.empty() ? m->prefix.substr(0, m->prefix.size() - 1) : m->shown) +
                      "' has no attribute '" + name + "'" + suggest(name, v.obj()->attrNames()));
      prefix = v.obj()->typeName() + ".";
      break;
    }
    case Kind::Tensor:
      prefix = "Tensor.";
      break;
    case Kind::List:
      prefix = "list.";
      break;
    case Kind::Tuple:
      prefix = "tuple.";
      break;
    case Kind::DType:
      prefix = "DType.";
      break;
    case Kind::Str:
      prefix = "str.";
      break;
    default:
      break;
  }
  // Methods and properties live in the builtin table as "<type>.<name>".
  const auto& t = builtins();
  if (!prefix.empty()) {
    if (auto it = t.find(prefix + name); it != t.end()) {
      auto o = std::make_shared<BuiltinObj>();
      o->name = prefix + name;
      o->def = &it->second;
      o->self = v;
      // Properties (x.shape, x.dtype) are applied at once.
      if (it->second.isProperty) {
        CallArgs none;
        none.loc = loc;
        return o->call(cx_, none);
      }
      return Val::object(o);
    }
  }
  // None has no attributes but Python's dunders, so this one is Python's AttributeError (an
  // `except AttributeError` catches it); for other types GradLab may lack one TF has.
  if (v.isNone()) fail(loc, "AttributeError: 'NoneType' object has no attribute '" + name + "'");
  std::vector<std::string> names;
  if (v.kind() == Kind::Object) names = v.obj()->attrNames();
  for (const auto& [k, d] : t)
    if (!prefix.empty() && k.rfind(prefix, 0) == 0) names.push_back(k.substr(prefix.size()));
  fail(loc, "'" + typeName(v) + "' object has no attribute '" + name + "'" + suggest(name, names));
}

// Calls ------------------------------------------------------------------------------------

Val Tracer::call(const Val& fn, CallArgs& args, const std::string& what) {
  checkLimits(args.loc);
  if (fn.kind() != Kind::Object || !fn.obj()->callable())
    fail(args.loc,
         "'" + what + "' is " + article(typeName(fn)) + ", not a function; it cannot be called");
  // Script functions run here; every other callable gets the builtins' context.
  if (auto f = fn.as<FunctionObj>()) return callFunction(*f, args);
  if (auto f = fn.as<TfFunctionObj>()) return callTfFunction(*f, args);
  if (auto r = callScriptObject(fn, args)) return *r;
  return fn.obj()->call(cx_, args);
}

Val Tracer::callSimple(const Val& fn, std::vector<Val> args, const SourceLoc& loc,
                       const std::string& what) {
  CallArgs a;
  a.loc = loc;
  for (auto& v : args) a.pos.push_back({std::move(v), loc, nullptr});
  return call(fn, a, what);
}

Val BuiltinObj::call(Context& cx, CallArgs& args) {
  // Python's modules live under "py." in the table; messages name them as scripts do.
  Bound bound(cx, name.rfind("py.", 0) == 0 ? name.substr(3) : name, def->sig, args);
  bound.self = self;
  cx.at(args.loc);
  try {
    Val result = def->fn(bound);
    bound.checkAllRead();
    return result;
  } catch (const EngineError& e) {
    if (e.loc().known()) throw;
    throw e.located(args.loc, "");
  }
}

// Python's binding: positional arguments fill the parameters before `*args` (the rest go to
// *args), keywords fill any named parameter but `*args`/`**kwargs` (the rest go to **kwargs).
ScopePtr Tracer::bindArguments(const FunctionObj& f, CallArgs& args) {
  const std::string fn = f.name + "()";
  ScopePtr local = newScope(f.closure);
  std::vector<bool> set(f.params.size(), false);
  size_t positional = 0;  // parameters a positional argument can fill
  int varArgs = -1, varKw = -1;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const ParamKind k = f.params[i].kind;
    if (k == ParamKind::Normal) positional = i + 1;
    if (k == ParamKind::VarArgs) varArgs = int(i);
    if (k == ParamKind::VarKw) varKw = int(i);
  }
  if (args.pos.size() > positional && varArgs < 0)
    fail(args.loc, fn + " takes " + std::to_string(positional) + " positional argument" +
                       (positional == 1 ? "" : "s") + " but " + std::to_string(args.pos.size()) +
                       (args.pos.size() == 1 ? " was" : " were") + " given");
  std::vector<Val> extraPos;
  for (size_t i = 0; i < args.pos.size(); ++i) {
    if (i >= positional) {
      extraPos.push_back(args.pos[i].v);
      continue;
    }
    local->vars[f.params[i].name] = {args.pos[i].v, f.params[i].loc, 0};
    set[i] = true;
  }
  auto extraKw = std::make_shared<DictObj>();
  for (auto& [k, a] : args.kw) {
    size_t i = 0;
    while (i < f.params.size() &&
           (f.params[i].name != k || f.params[i].kind == ParamKind::VarArgs ||
            f.params[i].kind == ParamKind::VarKw))
      ++i;
    if (i == f.params.size()) {
      if (varKw >= 0) {
        extraKw->keys.push_back(Val::str(k));
        extraKw->values.push_back(a.v);
        continue;
      }
      std::vector<std::string> names;
      for (const auto& p : f.params) names.push_back(p.name);
      fail(a.loc, fn + " got an unexpected keyword argument '" + k + "'" + suggest(k, names));
    }
    if (set[i]) fail(a.loc, fn + " got multiple values for argument '" + k + "'");
    local->vars[k] = {a.v, f.params[i].loc, 0};
    set[i] = true;
  }
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (set[i]) continue;
    const Parameter& p = f.params[i];
    if (p.kind == ParamKind::VarArgs) {
      local->vars[p.name] = {Val::listOf(extraPos, true), p.loc, 0};
    } else if (p.kind == ParamKind::VarKw) {
      local->vars[p.name] = {Val::object(extraKw), p.loc, 0};
    } else if (!f.defaults[i]) {
      fail(args.loc, fn + " missing required " +
                         (p.kind == ParamKind::KwOnly ? "keyword-only " : "") + "argument '" +
                         p.name + "'");
    } else {
      local->vars[p.name] = {*f.defaults[i], p.loc, 0};
    }
  }
  return local;
}

Val Tracer::callFunction(const FunctionObj& f, CallArgs& args) {
  // The stack check here is stricter than the one in eval, so deep recursion (on a thread with
  // a small stack, or in a sanitizer build) stops at a call with the same message.
  if (callDepth_ >= kMaxCallDepth || stackUsed() > stackLimit_ / 10 * 9)
    fail(args.loc, "maximum recursion depth (" +
                       std::to_string(std::min(callDepth_, kMaxCallDepth)) +
                       ") exceeded calling '" + f.name + "'");
  ScopePtr local = bindArguments(f, args);
  ScopePtr saved = scope_;
  Val savedReturn = returnValue_;
  scope_ = local;
  ++callDepth_;
  callFrames_.emplace_back(&f, local);
  Val result;
  try {
    if (f.lambdaBody) {
      result = eval(*f.lambdaBody);
    } else {
      returnValue_ = Val();
      if (execBlock(*f.body) == Flow::Return) result = returnValue_;
    }
  } catch (...) {
    callFrames_.pop_back();
    --callDepth_;
    scope_ = saved;
    throw;
  }
  callFrames_.pop_back();
  --callDepth_;
  scope_ = saved;
  returnValue_ = savedReturn;
  return result;
}

}  // namespace gl::lang::trace
