// tf.function: tracing per input signature, calls of concrete functions (tracer_function.h).
#include "engine/lang/tracer_function.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>

#include "engine/lang/tracer.h"
#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_classes.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/transform/clone_fragment.h"

namespace gl::lang::trace {

namespace o = gl::ops;

std::optional<Val> TfFunctionObj::attr(Context&, const std::string& attrName) {
  if (attrName == "python_function") return python;
  if (attrName == "__name__") return Val::str(name);
  if (attrName == "experimental_get_tracing_count") {
    // A bound builtin would need the table; a tiny callable object is enough.
    struct Count : Object {
      int n = 0;
      std::string typeName() const override { return "method"; }
      bool callable() const override { return true; }
      Val call(Context&, CallArgs&) override { return Val::integer(n); }
    };
    auto c = std::make_shared<Count>();
    c->n = int(concrete.size());
    return Val::object(c);
  }
  return std::nullopt;
}

std::string TfFunctionObj::reprText() const {
  return "<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function object>";
}

namespace {

std::string pointerText(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// Rebuilds v with each plain tensor (not a tf.Variable) replaced by f(tensor).
Val mapTensors(const Val& v, const std::function<Val(const Val&)>& f, int depth = 0) {
  if (depth > kMaxListNesting) return v;
  if (v.isTensor() && !v.var()) return f(v);
  if (v.isSeq()) {
    std::vector<Val> items;
    for (const Val& x : v.items()) items.push_back(mapTensors(x, f, depth + 1));
    return Val::listOf(std::move(items), v.kind() == Kind::Tuple);
  }
  if (auto d = v.as<DictObj>()) {
    auto out = std::make_shared<DictObj>();
    for (size_t i = 0; i < d->keys.size(); ++i)
      out->set(d->keys[i], mapTensors(d->values[i], f, depth + 1));
    return Val::object(out);
  }
  return v;
}

// A function's outputs as TF's func_graph makes them (convert_to_tensor_or_composite on each):
// a tf.Variable returned, or the variable `v.assign_add(...)` returns, becomes the tensor of
// its value at the return, and a Python number a constant tensor (number(v) makes it).
Val outputsAsTensors(const Val& v, const std::function<Val(const Val&)>& number, int depth = 0) {
  if (depth > kMaxListNesting) return v;
  if (v.var()) return Val::tensor(v.tensorValue());
  if (v.isNumber()) return number(v);
  if (v.isSeq()) {
    std::vector<Val> items;
    for (const Val& x : v.items()) items.push_back(outputsAsTensors(x, number, depth + 1));
    return Val::listOf(std::move(items), v.kind() == Kind::Tuple);
  }
  if (auto d = v.as<DictObj>()) {
    auto out = std::make_shared<DictObj>();
    for (size_t i = 0; i < d->keys.size(); ++i)
      out->set(d->keys[i], outputsAsTensors(d->values[i], number, depth + 1));
    return Val::object(out);
  }
  return v;
}

}  // namespace

// TF's trace type of one argument (tensorflow/core/function/trace_type): tensors by dtype and
// shape, Python scalars, strings and None by value, tf.Variables and other objects by
// identity, containers by their items.
void Tracer::signatureOf(const Val& v, std::string& key, int depth) {
  if (depth > kMaxListNesting) fail(lastLoc(), "a tf.function argument nests too deeply");
  if (v.var()) {
    key += "Variable@" + pointerText(v.var().get());
  } else if (v.isTensor()) {
    key += g_.type(v.tensorValue()).str();
  } else if (v.isSeq()) {
    key += v.kind() == Kind::Tuple ? "(" : "[";
    for (const Val& x : v.items()) signatureOf(x, key, depth + 1), key += ",";
    key += v.kind() == Kind::Tuple ? ")" : "]";
  } else if (auto d = v.as<DictObj>()) {
    key += "{";
    for (size_t i = 0; i < d->keys.size(); ++i) {
      key += repr(g_, d->keys[i]) + ":";
      signatureOf(d->values[i], key, depth + 1);
      key += ",";
    }
    key += "}";
  } else if (v.kind() == Kind::Object) {
    key += v.obj()->typeName() + "@" + pointerText(v.obj().get());
  } else {
    key += typeName(v) + ":" + repr(g_, v);
  }
}

Val Tracer::callTfFunction(TfFunctionObj& f, CallArgs& args) {
  // Nested in a trace, or in a loop body being traced: TF inlines the function's graph.
  if (opt_.model != ExecutionModel::Eager || functionDepth_ > 0 || b_.currentRegion() != 0)
    return call(f.python, args, f.name);
  // tf.config.run_functions_eagerly(True): the Python function runs as eager code.
  if (runFunctionsEagerly_) return call(f.python, args, f.name);

  std::string key;
  for (const Arg& a : args.pos) signatureOf(a.v, key), key += ";";
  std::vector<std::pair<std::string, Arg>> kw = args.kw;
  std::sort(kw.begin(), kw.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, a] : kw) key += name + "=", signatureOf(a.v, key), key += ";";
  if (!f.inputSignature.isNone()) key = checkInputSignature(f, args);

  const int first = g_.numNodes();
  std::shared_ptr<ConcreteFunction> traced;
  for (const auto& cf : f.concrete)
    if (cf->key == key) traced = cf;
  const Val result = traced ? replayConcrete(f, *traced, args) : traceConcrete(f, args, key);
  runCallSideEffects(first, g_.numNodes());
  return result;
}

// Eager code called the function: its tf.prints print now, between the Python prints around
// the call, as TF's do (the guide's "Traced with 1 / Executed with 1" order). They have run
// then: the graph keeps their nodes but a run of it does not print them again.
void Tracer::runCallSideEffects(int first, int end) {
  bool prints = false;
  for (int id = first; id < end; ++id) prints = prints || g_.node(id).is(NodeKind::Print);
  if (!prints) return;
  for (const std::string& line : runNow({}, {first, end}).second) log(line);
  for (int id = first; id < end; ++id) g_.node(id).sideEffect = false;
}

std::optional<Shape> Tracer::signatureShape(const TfFunctionObj& f, size_t i,
                                            const SourceLoc& loc) {
  if (f.inputSignature.isNone() || i >= f.inputSignature.items().size()) return std::nullopt;
  const Val dims = getAttr(f.inputSignature.items()[i], "shape", loc);  // items() refers into it
  Shape shape;
  for (const Val& d : dims.items()) shape.push_back(d.isNone() ? -1 : d.asInt());
  return shape;
}

std::string Tracer::checkInputSignature(const TfFunctionObj& f, const CallArgs& args) {
  const std::vector<Val>& specs = f.inputSignature.items();
  if (!args.kw.empty())
    fail(args.kw[0].second.loc, "'" + f.name +
                                    "' has an input_signature: pass its arguments "
                                    "positionally (TF binds them to the signature's specs)");
  if (args.pos.size() != specs.size())
    fail(args.loc, "TypeError: '" + f.name + "' takes " + std::to_string(specs.size()) +
                       " argument(s) by its input_signature, got " +
                       std::to_string(args.pos.size()));
  for (size_t i = 0; i < specs.size(); ++i) {
    const Arg& a = args.pos[i];
    if (!a.v.isTensor())
      fail(a.loc, "'" + f.name + "' has an input_signature, so argument " + std::to_string(i + 1) +
                      " must be a tensor matching " + repr(g_, specs[i]) + ", got " +
                      article(typeName(a.v)) + " (convert it with tf.constant)");
    const TypeInfo& t = g_.type(toTensor(a.v, a.loc));
    const DType want = getAttr(specs[i], "dtype", a.loc).asDType();
    const Val dims = getAttr(specs[i], "shape", a.loc);
    Shape shape;
    for (const Val& d : dims.items()) shape.push_back(d.isNone() ? -1 : d.asInt());
    if (t.dtype != want || !compatible(shape, t.shape))
      fail(a.loc, "TypeError: argument " + std::to_string(i + 1) + " of '" + f.name + "' is " +
                      t.str() + ", which does not match its input_signature " + repr(g_, specs[i]));
  }
  return "input_signature";
}

Val Tracer::traceConcrete(TfFunctionObj& f, CallArgs& args, const std::string& key) {
  auto cf = std::make_shared<ConcreteFunction>();
  cf->key = key;
  cf->region = b_.currentRegion();
  // Each tensor argument gets its own node before the trace, so a later call can put its own
  // tensor there even where the first call passed one tensor twice or a captured one.
  // They take the Python parameter's name, as TF's placeholders do (Tensor("x:0", ...)).
  const int callFirst = g_.numNodes();
  at(args.loc);
  std::string argName;
  // With an input_signature the trace sees the spec's shape, None dims unknown, as TF's
  // placeholders do (Tensor("x:0", shape=(None,), ...)); later calls copy it with their sizes.
  std::optional<Shape> specShape;
  auto param = [&](const Val& v) {
    const Value arg = toTensor(v, args.loc);
    const Value p = specShape && *specShape != g_.type(arg).shape
                        ? b_.op1("relax_shape", {arg}, Attrs{{"shape", *specShape}})
                        : o::identity(b_, arg);
    if (!argName.empty()) {
      g_.node(p).attrs.set("tf_name", argName);
      g_.node(p).name = argName;
    }
    cf->params.push_back(p);
    return Val::tensor(p);
  };
  CallArgs traced = args;
  std::sort(traced.kw.begin(), traced.kw.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  const FunctionObj* py = f.python.as<FunctionObj>();
  for (size_t i = 0; i < traced.pos.size(); ++i) {
    argName = py && i < py->params.size() && py->params[i].kind == ParamKind::Normal
                  ? py->params[i].name
                  : "";
    specShape = signatureShape(f, i, traced.pos[i].loc);
    traced.pos[i].v = mapTensors(traced.pos[i].v, param);
  }
  specShape.reset();
  for (auto& [name, a] : traced.kw) {
    argName = name;
    a.v = mapTensors(a.v, param);
  }

  const void* owner = nullptr;
  if (!args.pos.empty() && args.pos[0].v.as<InstanceObj>()) owner = args.pos[0].v.obj().get();
  const int tracesBefore = f.traces[owner]++;
  if (!f.concrete.empty())
    log("note: tf.function '" + f.name + "' is traced again (trace " +
        std::to_string(f.concrete.size() + 1) +
        ") for a new input signature; its Python code runs again, as TF retraces");

  runTrace(f, *cf, traced, args.loc, tracesBefore > 0, callFirst);
  if (tracesBefore == 0 && cf->createdVariables) {
    // TF's Function._call (def_function.py): a first trace that created variables only
    // initializes them; a second trace, which may not create any, is what runs. Its Python code
    // runs again, and the first trace's assignments and prints never run.
    for (int id = cf->first; id < cf->end; ++id) g_.node(id).sideEffect = false;
    for (auto& [var, value] : cf->variablesBefore) var->current = value;
    for (auto& [var, value] : cf->variablesCreated) var->current = var->handle;
    runTrace(f, *cf, traced, args.loc, true, callFirst);
  }
  cf->calls = 1;
  // Its side effects (prints, asserts, the loops holding them) as traced: a call runs them at
  // once and switches them off in the graph, so a copy for a later call turns them back on.
  for (int id = cf->first; id < cf->end; ++id)
    if (g_.node(id).sideEffect) cf->sideEffects.insert(id);
  g_.functionCalls.push_back({f.name, int(f.concrete.size()), true, callFirst, cf->end});
  f.concrete.push_back(cf);
  return cf->result;
}

void Tracer::runTrace(TfFunctionObj& f, ConcreteFunction& cf, CallArgs& traced,
                      const SourceLoc& callLoc, bool mayNotCreate, int graphFirst) {
  const size_t variablesBefore = variables_.size();
  cf.variablesBefore.clear();
  cf.variablesCreated.clear();
  cf.variablesAfter.clear();
  cf.createdVariables = false;
  for (const auto& w : variables_)
    if (auto v = w.lock()) cf.variablesBefore.emplace_back(v, v->current);
  cf.first = g_.numNodes();
  ++functionDepth_;
  // While Python runs, the trace's nodes form a graph of their own for TF's op names
  // (tfTensorName: `x:0` on each trace, not `x_1:0`): a provisional call record says where it
  // starts, replaced by the real one when the trace is done.
  g_.functionCalls.push_back({f.name, -1, true, graphFirst, std::numeric_limits<int>::max()});
  const size_t provisional = g_.functionCalls.size() - 1;
  auto dropProvisional = [&] {
    g_.functionCalls.erase(g_.functionCalls.begin() + std::ptrdiff_t(provisional));
  };
  try {
    cf.result = outputsAsTensors(call(f.python, traced, f.name),
                                 [&](const Val& x) { return Val::tensor(toTensor(x, callLoc)); });
  } catch (...) {
    dropProvisional();
    --functionDepth_;
    throw;
  }
  dropProvisional();
  --functionDepth_;
  cf.end = g_.numNodes();
  // TF: only the first trace of a Function may create variables (def_function.py). A variable
  // the body dropped still counts; its node says where it was made.
  if (mayNotCreate && variables_.size() > variablesBefore) {
    SourceLoc where = callLoc;
    for (int id = cf.first; id < cf.end; ++id)
      if (g_.node(id).attrs.has("tf_name")) {
        where = g_.node(id).loc;
        break;
      }
    fail(where,
         "ValueError: tf.function only supports singleton tf.Variables created on the first "
         "call. Make sure the tf.Variable is only created once or created outside tf.function "
         "('" +
             f.name + "' creates one each time it is traced)");
  }
  cf.createdVariables = variables_.size() > variablesBefore;
  for (size_t i = variablesBefore; i < variables_.size(); ++i)
    if (auto v = variables_[i].lock()) cf.variablesCreated.emplace_back(v, v->current);
  for (const auto& w : variables_)
    if (auto v = w.lock())
      if (v->current.node >= cf.first) cf.variablesAfter.emplace_back(v, v->current);
}

Val Tracer::replayConcrete(TfFunctionObj& f, ConcreteFunction& cf, CallArgs& args) {
  // A custom_gradient's gradient function was traced against the first call's values and
  // lives beside the graph: such a function is traced again, and the log says so.
  for (int id = cf.first; id < cf.end; ++id)
    if (g_.node(id).primName == "custom_gradient") {
      if (noteOnce("retrace custom_gradient " + f.name))
        log("note: tf.function '" + f.name +
            "' holds a tf.custom_gradient, so GradLab traces it on every call: its Python code "
            "runs each time, where TF runs it once per input signature");
      CallArgs traced = args;
      runTrace(f, cf, traced, args.loc, true, g_.numNodes());
      ++cf.calls;
      return cf.result;
    }
  // This call's tensors take the places of the first call's arguments.
  std::map<Value, Value> substitute;
  size_t next = 0;
  auto argument = [&](const Val& v) {
    substitute[cf.params.at(next++)] = toTensor(v, args.loc);
    return v;
  };
  for (const Arg& a : args.pos) mapTensors(a.v, argument);
  std::vector<std::pair<std::string, Arg>> kw = args.kw;  // by name, as the trace took them
  std::sort(kw.begin(), kw.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [name, a] : kw) mapTensors(a.v, argument);
  // Variables: the trace read their values when it started; now they may hold others. A
  // recording tape sees the read, as it would see the concrete function's read of the handle.
  std::set<Value> inputs;
  for (int id = cf.first; id < cf.end; ++id) {
    const Node& n = g_.node(id);
    inputs.insert(n.inputs.begin(), n.inputs.end());
    inputs.insert(n.captures.begin(), n.captures.end());
  }
  for (const auto& [var, before] : cf.variablesBefore) {
    if (!inputs.count(before)) continue;
    readVariable(Val::variable(var));
    if (var->current != before) substitute[before] = var->current;
  }
  at(args.loc);
  const int callFirst = g_.numNodes();
  const FragmentClone copy =
      cloneFragment(b_, cf.first, cf.end, cf.region, b_.currentRegion(), substitute, [&](Node& n) {
        // A stateful random op draws new numbers on each call, as TF's kernels do.
        if (n.prim && n.prim->stateful && n.attrs.has("seed"))
          n.attrs.set("seed", nextSeed(std::nullopt));
        if (cf.sideEffects.count(n.id)) n.sideEffect = true;
      });
  for (const auto& [var, after] : cf.variablesAfter) var->current = copy.map(after);
  ++cf.calls;
  int index = 0;
  while (f.concrete[size_t(index)].get() != &cf) ++index;
  g_.functionCalls.push_back({f.name, index, false, callFirst, g_.numNodes()});
  return mapTensors(cf.result, [&](const Val& v) {
    Val out = Val::tensor(copy.map(v.tensorValue()));
    if (v.fromGradient()) out.markFromGradient();
    return out;
  });
}

namespace {

// What tf.function's options say about the Function it makes.
struct FunctionOptions {
  std::optional<std::string> name;
  Val inputSignature;
};

Val makeFunction(Context& cx, const Val& fn, const FunctionOptions& opt, const SourceLoc& loc) {
  if (auto w = fn.as<TfFunctionObj>()) return Val::object(w->shared_from_this());
  if (fn.kind() != Kind::Object || !fn.obj()->callable())
    cx.fail(loc, "tf.function needs a function, got " + article(typeName(fn)));
  auto f = std::make_shared<TfFunctionObj>();
  f->python = fn;
  auto s = fn.as<FunctionObj>();
  f->name = opt.name ? *opt.name : s ? s->name : typeName(fn);
  f->inputSignature = opt.inputSignature;
  return Val::object(f);
}

// @tf.function(input_signature=...): options first, the function when the decorator applies.
struct FunctionDecorator : Object {
  FunctionOptions options;
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override {
    if (args.pos.size() != 1 || !args.kw.empty())
      cx.fail(args.loc, "the tf.function(...) decorator takes one function");
    return makeFunction(cx, args.pos[0].v, options, args.pos[0].loc);
  }
};

}  // namespace

namespace {

// TF's PhysicalDevice namedtuple (config.py), for the one CPU.
struct PhysicalDeviceObj : Object {
  std::string typeName() const override { return "PhysicalDevice"; }
  std::optional<Val> attr(Context&, const std::string& n) override {
    if (n == "name") return Val::str("/physical_device:CPU:0");
    if (n == "device_type") return Val::str("CPU");
    return std::nullopt;
  }
  std::vector<std::string> attrNames() const override { return {"name", "device_type"}; }
  std::string reprText() const override {
    return "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')";
  }
};

}  // namespace

void addFunctionBuiltins(BuiltinTable& t) {
  // @tf.function, tf.function(f), @tf.function(input_signature=...): a Function. jit_compile
  // and reduce_retracing change how TF compiles and when it retraces, not what f returns.
  t["tf.function"] = {
      Signature::parse("func=None, input_signature=None, autograph=True, ~jit_compile=None, "
                       "~reduce_retracing=False, ~experimental_compile=None, "
                       "~experimental_relax_shapes=None, name=None"),
      [](Bound& a) {
        if (!a.boolean("autograph"))
          a.fail("autograph",
                 "=False is not supported: GradLab traces Python control flow on tensors with "
                 "AutoGraph's rules");
        FunctionOptions opt;
        if (!a.none("name")) opt.name = a.string("name");
        opt.inputSignature = a["input_signature"];
        if (!opt.inputSignature.isNone() && !opt.inputSignature.isSeq())
          a.fail("input_signature", "must be a list of tf.TensorSpec");
        if (!a.none("func")) return makeFunction(a.cx, a["func"], opt, a.loc("func"));
        auto d = std::make_shared<FunctionDecorator>();
        d->options = opt;
        return Val::object(d);
      }};
  t["tf.config.run_functions_eagerly"] = {
      Signature::parse("run_eagerly"), [](Bound& a) {
        a.cx.setRunFunctionsEagerly(a.cx.truthy(a["run_eagerly"], a.loc("run_eagerly")));
        return Val::none();
      }};
  t["tf.config.functions_run_eagerly"] = {
      Signature::parse(""), [](Bound& a) { return Val::boolean(a.cx.runFunctionsEagerly()); }};
  // tf.config.list_physical_devices (config.py): GradLab computes on the CPU, as TF does on a
  // machine without accelerators: one CPU device, no GPU or TPU.
  t["tf.config.list_physical_devices"] = {
      Signature::parse("device_type=None"), [](Bound& a) {
        const std::string type = a.none("device_type") ? "CPU" : a.string("device_type");
        if (type != "CPU" && type != "GPU" && type != "TPU")
          a.fail("device_type", "must be 'CPU', 'GPU' or 'TPU' in GradLab script");
        std::vector<Val> devices;
        if (type == "CPU") devices.push_back(Val::object(std::make_shared<PhysicalDeviceObj>()));
        return Val::listOf(std::move(devices));
      }};
}

}  // namespace gl::lang::trace
