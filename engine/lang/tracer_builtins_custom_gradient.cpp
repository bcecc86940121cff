// tf.custom_gradient, in decorator and call form: f(*x) returns (y, grad_fn), and the gradient
// of y with respect to x is grad_fn(dy) instead of f's own. The wrapped call emits a
// custom_gradient node (inputs [x..., y...], outputs y) and records grad_fn for it; reverse mode
// traces grad_fn when a tape asks for the node's gradient (engine/autodiff/custom_gradient.h).
#include "engine/autodiff/custom_gradient.h"
#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

namespace {

// The input gradients grad_fn returned, one per tensor input; None = no gradient.
std::vector<Value> inputGradients(Context& cx, const Val& r, size_t nx, const SourceLoc& loc) {
  std::vector<Val> items = r.isSeq() ? r.items() : std::vector<Val>{r};
  // TF's variables= form returns (input grads, variable grads); GradLab has no such form yet.
  if (items.size() == 2 && items[0].isSeq() && items[1].isSeq() && nx != 2)
    cx.fail(loc,
            "tf.custom_gradient: grad_fn returned (input gradients, variable gradients); "
            "the variables= form is not supported yet");
  if (items.size() != nx)
    cx.fail(loc, "tf.custom_gradient: grad_fn returned " + std::to_string(items.size()) +
                     " gradient(s) for " + std::to_string(nx) + " tensor input(s)");
  std::vector<Value> grads;
  for (const Val& g : items) grads.push_back(g.isNone() ? Value{} : cx.toTensor(g, loc));
  return grads;
}

struct CustomGradientObj : Object {
  Val f;
  SourceLoc loc;  // where tf.custom_gradient was applied
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }

  Val call(Context& cx, CallArgs& args) override {
    // The tensor arguments are what the custom gradient is for; others pass through untouched.
    if (!args.kw.empty())
      cx.fail(args.loc, "tf.custom_gradient: pass the function's arguments by position");
    std::vector<Value> xs;
    std::vector<Val> vals;
    for (const Arg& a : args.pos) {
      if (a.v.kind == Kind::Tensor) xs.push_back(a.v.t);
      vals.push_back(a.v);
    }
    if (xs.empty()) cx.fail(args.loc, "tf.custom_gradient: the function needs a tensor argument");
    const Val r = cx.callSimple(f, vals, args.loc, "the custom_gradient function");
    if (!r.isSeq() || r.items().size() != 2 || r.items()[1].kind != Kind::Object ||
        !r.items()[1].obj->callable())
      cx.fail(args.loc, "tf.custom_gradient: the function must return (y, grad_fn), got " +
                            article(trace::typeName(r)));
    const Val y = r.items()[0];
    const Val gradFn = r.items()[1];
    std::vector<Value> ys;
    cx.flatten(y, ys, args.loc, "the custom_gradient result");
    std::vector<Value> in = xs;
    in.insert(in.end(), ys.begin(), ys.end());
    const std::vector<Value> outs =
        cx.b.op("custom_gradient", in, Attrs{{"inputs", int64_t(xs.size())}});
    const SourceLoc callLoc = args.loc;
    const size_t nx = xs.size();
    setCustomGradient(
        cx.b.graph(), outs.at(0).node,
        [&cx, y, gradFn, callLoc, nx](const std::vector<Value>& gout) {
          size_t pos = 0;
          const Val upstream = cx.unflatten(y, gout, pos);
          std::vector<Value> grads = inputGradients(
              cx, cx.callSimple(gradFn, {upstream}, callLoc, "grad_fn"), nx, callLoc);
          grads.resize(nx + gout.size());  // f's results get no gradient: grad_fn replaces f's
          return grads;
        });
    size_t pos = 0;
    return cx.unflatten(y, outs, pos);
  }
};

}  // namespace

void addCustomGradientBuiltins(BuiltinTable& t) {
  // @tf.custom_gradient and tf.custom_gradient(f).
  t["tf.custom_gradient"] = {Signature::parse("f=None"), [](Bound& a) {
                               if (a["f"].kind != Kind::Object || !a["f"].obj->callable())
                                 a.fail("f", "must be a function");
                               auto o = std::make_shared<CustomGradientObj>();
                               o->f = a["f"];
                               o->loc = a.callLoc;
                               return Val::object(o);
                             }};
}

}  // namespace gl::lang::trace
