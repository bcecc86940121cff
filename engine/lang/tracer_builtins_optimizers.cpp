// tf.keras.optimizers.SGD, the minimal optimizer a training loop needs: plain gradient descent
// (v <- v - learning_rate * g) through the variables' assign (tracer_variables.cpp), so it works
// at the top level and inside tensor loops, which carry the variables it assigns.
#include "engine/lang/tracer_builtins.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

struct SgdObj : Object {
  Val learningRate;  // a Python number or a scalar tensor
  std::string name = "SGD";
  std::string typeName() const override { return "SGD"; }
  std::optional<Val> attr(Context&, const std::string& n) override {
    if (n == "learning_rate" || n == "lr") return learningRate;
    if (n == "name") return Val::str(name);
    return std::nullopt;
  }
  std::vector<std::string> attrNames() const override { return {"learning_rate", "name"}; }
};

// v <- v - learning_rate * g for one (gradient, variable) pair.
void descend(Bound& a, const SgdObj& opt, const Val& grad, const Val& var, const SourceLoc& loc) {
  if (!var.var)
    a.cx.fail(loc, "apply_gradients needs (gradient, tf.Variable) pairs; the second item is " +
                       article(typeName(var)) +
                       (var.isTensor() ? " that is not a tf.Variable" : ""));
  if (grad.isNone()) {
    // TF skips a variable without a gradient (with a warning), and so does GradLab.
    a.cx.log("note: SGD.apply_gradients skips a variable whose gradient is None" +
             (grad.why ? ": " + grad.why->text : std::string()));
    return;
  }
  const Value now = var.var->current;
  const DType dt = a.cx.b.type(now).dtype;
  if (!isFloat(dt))
    a.cx.fail(loc, std::string("apply_gradients cannot update a ") + dtypeName(dt) +
                       " variable (only floating variables are trained)");
  Value g = a.cx.toTensor(grad, loc, dt);
  Value lr = a.cx.toTensor(opt.learningRate, loc, dt);
  a.cx.at(a.callLoc);
  a.cx.assignVariable(var, o::sub(a.cx.b, now, o::mul(a.cx.b, lr, g)), a.callLoc,
                      "SGD.apply_gradients");
}

}  // namespace

void addOptimizerBuiltins(BuiltinTable& t) {
  t["tf.keras.optimizers.SGD"] = {
      Signature::parse("learning_rate=0.01, momentum=0.0, nesterov=False, name='SGD', **kwargs"),
      [](Bound& a) {
        auto opt = std::make_shared<SgdObj>();
        opt->learningRate = a["learning_rate"];
        if (!opt->learningRate.isNumber() && !opt->learningRate.isTensor())
          a.fail("learning_rate", "must be a number or a scalar tensor");
        if (a.number("momentum") != 0.0)
          a.fail("momentum", "is not supported in GradLab yet (plain SGD: momentum=0.0)");
        if (a.boolean("nesterov")) a.fail("nesterov", "is not supported in GradLab yet");
        opt->name = a.string("name");
        return Val::object(opt);
      }};
  t["SGD.apply_gradients"] = {
      Signature::parse("grads_and_vars, name=None, **kwargs"), [](Bound& a) {
        const SgdObj& opt = *a.self.as<SgdObj>();
        const Val& pairs = a["grads_and_vars"];
        if (!pairs.isSeq())
          a.fail("grads_and_vars",
                 "must be a list of (gradient, variable) pairs, e.g. "
                 "zip(grads, [w, b])");
        for (const Val& p : pairs.items()) {
          if (!p.isSeq() || p.items().size() != 2)
            a.fail("grads_and_vars", "must hold (gradient, variable) pairs");
          descend(a, opt, p.items()[0], p.items()[1], a.loc("grads_and_vars"));
        }
        return Val::none();
      }};
  // minimize(loss, var_list): loss a function of no arguments, as in TF 2 (a tensor loss needs
  // the tape it was recorded on: use tape.gradient and apply_gradients).
  t["SGD.minimize"] = {
      Signature::parse("loss, var_list, tape=None"), [](Bound& a) {
        const SgdObj& opt = *a.self.as<SgdObj>();
        const Val& loss = a["loss"];
        if (!(loss.kind == Kind::Object && loss.obj->callable()))
          a.fail("loss",
                 "must be a function of no arguments in GradLab (for a tensor loss, "
                 "call tape.gradient(loss, vars) and apply_gradients)");
        const Val& vars = a["var_list"];
        const std::vector<Val> list = vars.isSeq() ? vars.items() : std::vector<Val>{vars};
        GradientTape& tape = a.cx.openTape(false, true);
        const Val value = a.cx.callSimple(loss, {}, a.loc("loss"), "loss");
        tape.stop();
        Value target = a.cx.toTensor(value, a.loc("loss"));
        std::vector<Value> sources;
        std::vector<size_t> sizes;
        for (const Val& v : list) {
          if (!v.var) a.fail("var_list", "must hold tf.Variables");
          const auto s = a.cx.variableSources(*v.var, tape);
          sources.insert(sources.end(), s.begin(), s.end());
          sizes.push_back(s.size());
        }
        a.cx.at(a.callLoc);
        const GradResult r = tape.gradient(target, sources);
        size_t k = 0;
        for (size_t i = 0; i < list.size(); ++i) {
          Val g;
          for (size_t j = 0; j < sizes[i]; ++j, ++k)
            if (r.grads[k].valid())
              g = g.isTensor() ? Val::tensor(o::add(a.cx.b, g.t, r.grads[k]))
                               : Val::tensor(r.grads[k]);
          if (!g.isTensor()) g.why = std::make_shared<GradDiagnostic>(r.why[k - 1]);
          descend(a, opt, g, list[i], a.loc("var_list"));
        }
        return Val::none();
      }};
}

}  // namespace gl::lang::trace
