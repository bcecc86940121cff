// tf.custom_gradient, in decorator and call form, and tf.recompute_grad.
//
// custom_gradient: f(*x) returns (y, grad_fn), and the gradient of y with respect to x is
// grad_fn(dy) instead of f's own. The wrapped call emits a custom_gradient node (inputs
// [x..., v..., y...], outputs y) and records grad_fn for it; reverse mode traces grad_fn when a
// tape asks for the node's gradient (engine/autodiff/custom_gradient.h). v are the tf.Variables
// f read: as in TF, grad_fn then takes `variables=` and returns (input grads, variable grads).
//
// recompute_grad: TF builds it on custom_gradient (custom_gradient.py: grad_fn runs f again
// under a tape), and so does GradLab. The node's gradient function traces f a second time where
// reverse mode is building, then differentiates that copy. The forward copy's inner values are
// read by nothing in the backward pass, so the executor frees them after the forward pass and a
// loop saves only f's inputs per iteration; the backward pass runs the copy again, in place.
#include "engine/autodiff/backprop.h"
#include "engine/autodiff/custom_gradient.h"
#include "engine/lang/tracer.h"
#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

namespace {

// Values the nodes built since node `firstNew` read from before it (inputs and control-flow
// captures), in first-use order: what a traced function closed over.
std::vector<Value> readFromOutside(const Graph& g, int firstNew) {
  std::vector<Value> out;
  auto consider = [&](Value v) {
    if (v.valid() && v.node < firstNew && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  };
  for (int id = firstNew; id < g.numNodes(); ++id) {
    for (Value v : g.node(id).inputs) consider(v);
    for (Value v : g.node(id).captures) consider(v);
  }
  return out;
}

// The tf.Variables f read besides its arguments, as TF's tape records them (float variables:
// the ones with a gradient).
std::vector<Value> variablesRead(const Graph& g, int firstNew, const std::vector<Value>& args) {
  std::vector<Value> vars;
  for (Value v : readFromOutside(g, firstNew))
    if (g.node(v).is(NodeKind::Variable) && isFloat(g.type(v).dtype) && !g.type(v).list &&
        std::find(args.begin(), args.end(), v) == args.end())
      vars.push_back(v);
  return vars;
}

// The gradients in `r` (a tensor, a sequence of them, None = no gradient), exactly `n` of them.
std::vector<Value> gradientList(Context& cx, const Val& r, size_t n, const SourceLoc& loc,
                                const std::string& what) {
  std::vector<Val> items = r.isSeq() ? r.items() : std::vector<Val>{r};
  if (items.size() != n)
    cx.fail(loc, "tf.custom_gradient: grad_fn returned " + std::to_string(items.size()) + " " +
                     what + " gradient(s) for " + std::to_string(n) + " " + what + "(s)");
  std::vector<Value> grads;
  for (const Val& g : items) grads.push_back(g.isNone() ? Value{} : cx.toTensor(g, loc));
  return grads;
}

// Whether grad_fn takes `variables` (TF passes it by keyword; GradLab passes it second).
bool takesVariables(const Val& gradFn) {
  const auto* fn = dynamic_cast<const FunctionObj*>(gradFn.obj().get());
  if (!fn) return false;
  for (const Parameter& p : fn->params)
    if (p.name == "variables") return true;
  return false;
}

// The tensor arguments of a call, and all arguments as passed.
struct TensorArgs {
  std::vector<Value> xs;
  std::vector<Val> vals;
};

TensorArgs tensorArguments(Context& cx, const CallArgs& args, const std::string& what) {
  // The tensor arguments are what the gradient is for; others pass through untouched.
  if (!args.kw.empty()) cx.fail(args.loc, what + ": pass the function's arguments by position");
  TensorArgs t;
  for (const Arg& a : args.pos) {
    if (a.v.kind() == Kind::Tensor) t.xs.push_back(a.v.tensorValue());
    t.vals.push_back(a.v);
  }
  if (t.xs.empty()) cx.fail(args.loc, what + ": the function needs a tensor argument");
  return t;
}

struct CustomGradientObj : Object {
  Val f;
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }

  Val call(Context& cx, CallArgs& args) override {
    const TensorArgs in = tensorArguments(cx, args, "tf.custom_gradient");
    const int firstNew = cx.b.graph().numNodes();
    const Val r = cx.callSimple(f, in.vals, args.loc, "the custom_gradient function");
    if (!r.isSeq() || r.items().size() != 2 || r.items()[1].kind() != Kind::Object ||
        !r.items()[1].obj()->callable())
      cx.fail(args.loc, "tf.custom_gradient: the function must return (y, grad_fn), got " +
                            article(trace::typeName(r)));
    const Val y = r.items()[0];
    const Val gradFn = r.items()[1];
    const std::vector<Value> vars = variablesRead(cx.b.graph(), firstNew, in.xs);
    // As TF (custom_gradient.py): grad_fn gets variables= only when f read some, and then
    // must take it.
    const bool withVariables = !vars.empty();
    if (withVariables && !takesVariables(gradFn))
      cx.fail(args.loc, "tf.custom_gradient: the function reads tf.Variable '" +
                            cx.b.graph().node(vars[0]).name +
                            "', so grad_fn must take a keyword argument 'variables' and return "
                            "(input gradients, variable gradients)");
    std::vector<Value> ys;
    cx.flatten(y, ys, args.loc, "the custom_gradient result");
    std::vector<Value> nodeIn = in.xs;
    nodeIn.insert(nodeIn.end(), vars.begin(), vars.end());
    const size_t nx = in.xs.size(), nv = vars.size();
    const size_t nGrad = nodeIn.size();
    nodeIn.insert(nodeIn.end(), ys.begin(), ys.end());
    const std::vector<Value> outs =
        cx.b.op("custom_gradient", nodeIn, Attrs{{"inputs", int64_t(nGrad)}});
    const SourceLoc callLoc = args.loc;
    setCustomGradient(
        cx.b.graph(), outs.at(0).node,
        [&cx, y, gradFn, callLoc, nx, nv, nGrad, vars,
         withVariables](const std::vector<Value>& gout) {
          size_t pos = 0;
          const Val upstream = cx.unflatten(y, gout, pos);
          std::vector<Value> grads;
          if (!withVariables) {
            grads = gradientList(cx, cx.callSimple(gradFn, {upstream}, callLoc, "grad_fn"), nx,
                                 callLoc, "tensor input");
          } else {
            std::vector<Val> varVals;
            for (Value v : vars) varVals.push_back(Val::tensor(v));
            const Val r =
                cx.callSimple(gradFn, {upstream, Val::listOf(varVals)}, callLoc, "grad_fn");
            if (!r.isSeq() || r.items().size() != 2)
              cx.fail(callLoc,
                      "tf.custom_gradient: grad_fn takes variables=, so it must return "
                      "(input gradients, variable gradients), got " +
                          article(trace::typeName(r)));
            grads = gradientList(cx, r.items()[0], nx, callLoc, "tensor input");
            const std::vector<Value> vg = gradientList(cx, r.items()[1], nv, callLoc, "variable");
            grads.insert(grads.end(), vg.begin(), vg.end());
          }
          grads.resize(nGrad + gout.size());  // f's results get no gradient: grad_fn's replace
          return grads;
        });
    size_t pos = 0;
    return cx.unflatten(y, outs, pos);
  }
};

// tf.recompute_grad(f): f's values; its gradient comes from a second trace of f built by
// reverse mode (see the file comment).
struct RecomputeGradObj : Object {
  Val f;
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }

  Val call(Context& cx, CallArgs& args) override {
    const TensorArgs in = tensorArguments(cx, args, "tf.recompute_grad");
    const int firstNew = cx.b.graph().numNodes();
    const Val y = cx.callSimple(f, in.vals, args.loc, "the recompute_grad function");
    // Besides the arguments, whatever float tensor f closed over gets its gradient too (TF:
    // the variables f read).
    std::vector<Value> sources = in.xs;
    const Graph& g = cx.b.graph();
    for (Value v : readFromOutside(g, firstNew))
      if (!g.type(v).list && isFloat(g.type(v).dtype) &&
          std::find(sources.begin(), sources.end(), v) == sources.end())
        sources.push_back(v);
    std::vector<Value> ys;
    cx.flatten(y, ys, args.loc, "the recompute_grad result");
    std::vector<Value> nodeIn = sources;
    nodeIn.insert(nodeIn.end(), ys.begin(), ys.end());
    const std::vector<Value> outs =
        cx.b.op("custom_gradient", nodeIn, Attrs{{"inputs", int64_t(sources.size())}});
    const SourceLoc callLoc = args.loc;
    const Val fn = f;
    const std::vector<Val> vals = in.vals;
    setCustomGradient(cx.b.graph(), outs.at(0).node,
                      [&cx, fn, vals, sources, callLoc](const std::vector<Value>& gout) {
                        return recompute(cx, fn, vals, sources, callLoc, gout);
                      });
    size_t pos = 0;
    return cx.unflatten(y, outs, pos);
  }

  // Traces f again where reverse mode builds (a loop's reverse body reads the arguments from
  // what the forward loop saved), then differentiates that copy alone.
  static std::vector<Value> recompute(Context& cx, const Val& fn, const std::vector<Val>& vals,
                                      const std::vector<Value>& sources, const SourceLoc& loc,
                                      const std::vector<Value>& gout) {
    Builder& b = cx.b;
    // The sources as this region sees them (a saved read inside a reverse body); f's copy
    // reads the same values, since building resolves every input the same way.
    std::vector<Value> here;
    for (Value s : sources) here.push_back(b.resolve(s));
    std::vector<Val> args;
    for (const Val& v : vals)
      args.push_back(v.kind() == Kind::Tensor ? Val::tensor(b.resolve(v.tensorValue())) : v);
    const int firstCopy = b.graph().numNodes();
    const Val again = cx.callSimple(fn, args, loc, "the recompute_grad function");
    std::vector<Value> ys;
    cx.flatten(again, ys, loc, "the recompute_grad result");
    BackpropRequest req;
    req.targets = ys;
    req.seeds = gout;
    req.sources = here;
    // Only the copy: a saved read of an argument is a leaf here, not a path back into the
    // forward loop that saved it (which would differentiate that loop again, recursively).
    req.eligible = [firstCopy](const Node& n) { return n.id >= firstCopy && !n.recordingStopped; };
    const std::map<Value, Value> adj = backprop(b, req);
    std::vector<Value> grads;
    for (Value s : here) {
      auto it = adj.find(s);
      grads.push_back(it != adj.end() ? it->second : Value{});
    }
    grads.resize(sources.size() + gout.size());
    return grads;
  }
};

Val wrap(Bound& a, std::shared_ptr<Object> o) {
  if (a["f"].kind() != Kind::Object || !a["f"].obj()->callable()) a.fail("f", "must be a function");
  return Val::object(std::move(o));
}

}  // namespace

void addCustomGradientBuiltins(BuiltinTable& t) {
  // @tf.custom_gradient and tf.custom_gradient(f).
  t["tf.custom_gradient"] = {Signature::parse("f=None"), [](Bound& a) {
                               auto o = std::make_shared<CustomGradientObj>();
                               o->f = a["f"];
                               return wrap(a, o);
                             }};
  // @tf.recompute_grad and tf.recompute_grad(f).
  t["tf.recompute_grad"] = {Signature::parse("f"), [](Bound& a) {
                              auto o = std::make_shared<RecomputeGradObj>();
                              o->f = a["f"];
                              return wrap(a, o);
                            }};
}

}  // namespace gl::lang::trace
