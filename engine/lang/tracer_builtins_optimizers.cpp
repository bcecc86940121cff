// What the Keras optimizers share (TF >= 2.11's keras/optimizers/optimizer.py, the one
// tf.keras.optimizers.* names since TF 2.11): the learning rate and iterations variables, the
// common constructor arguments, build(var_list), apply_gradients (clipping, weight decay, one
// update per pair, iterations + 1) and minimize. The update rules are in
// tracer_optimizer_rules.cpp; the header says how slots meet tensor loops.
#include <algorithm>

#include "engine/lang/tracer_optimizer.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

// A non-trainable variable holding `init` (a new tf.Variable(..., trainable=False)).
std::shared_ptr<VarState> stateVariable(Context& cx, Value init) {
  auto var = std::make_shared<VarState>();
  var->handle = var->current = init;
  var->trainable = false;
  cx.registerVariable(var);
  return var;
}

std::string varLabel(const Context& cx, const VarState& v) {
  const Node& n = cx.graph().node(v.handle);
  const std::string tf = n.attrs.s("tf_name", "");
  return tf.empty() ? "a variable" : "'" + tf + "'";
}

// TF's clip_by_norm: g * c / max(|g|, c), with |g| = 0 for an all-zero g.
Value clipByNorm(Emitter& b, Value g, Value c) {
  const Value norm = o::sqrt(b, o::reduceSum(b, o::square(b, g), {}, false));
  return o::div(b, o::mul(b, g, c), o::maximum(b, norm, c));
}

}  // namespace

std::optional<Val> OptimizerObj::attr(Context& cx, const std::string& n) {
  if (n == "learning_rate" || n == "lr") return cx.fresh(learningRate);
  if (n == "iterations") return cx.fresh(iterationsVal);
  if (n == "name") return Val::str(name);
  if (n == "built") return Val::boolean(built);
  if (n == "variables") {
    // Keras's order: iterations, then each variable's slots as build made them.
    std::vector<Val> out{cx.fresh(iterationsVal)};
    for (const auto& per : slots)
      for (const auto& s : per) out.push_back(cx.fresh(Val::variable(s)));
    return Val::listOf(std::move(out));
  }
  if (n == "clipnorm" && clipnorm) return Val::real(*clipnorm);
  if (n == "clipvalue" && clipvalue) return Val::real(*clipvalue);
  if (n == "global_clipnorm" && globalClipnorm) return Val::real(*globalClipnorm);
  if (n == "weight_decay" && weightDecay) return Val::real(*weightDecay);
  return std::nullopt;
}

std::vector<std::string> OptimizerObj::attrNames() const {
  return {"learning_rate", "iterations", "name", "built", "variables"};
}

void OptimizerObj::build(Context& cx, const std::vector<Val>& varList, const SourceLoc& loc) {
  if (built) return;
  for (const Val& v : varList)
    if (!v.var())
      cx.fail(loc, kind + " builds slots for tf.Variables only; got " +
                       article(trace::typeName(v)) +
                       (v.isTensor() ? " that is not a tf.Variable" : ""));
  // A slot made inside a loop body would start afresh on every iteration and be lost after
  // the loop: slots, like every tf.Variable the loop assigns, must exist before it.
  if (cx.b.currentRegion() != 0)
    cx.fail(loc, kind +
                     " would create its slot variables inside a loop body or branch, where "
                     "they would not persist; call opt.build(var_list) (or apply it once) "
                     "before the loop, with the variables it will train");
  const SourceLoc saved = cx.b.loc();
  cx.at(loc);
  for (const Val& v : varList) {
    if (std::find(vars.begin(), vars.end(), v.var()) != vars.end()) continue;
    const TypeInfo& t = cx.b.type(v.var()->current);
    if (!fullyKnown(t.shape))
      cx.fail(loc,
              kind + " needs variables of known shape for its slots, got " + shapeStr(t.shape));
    std::vector<std::shared_ptr<VarState>> per;
    const std::vector<std::string> names = slotNames();
    for (size_t k = 0; k < names.size(); ++k) {
      const std::string label = names[k] + "/" + cx.graph().node(v.var()->handle).name;
      const Value init = cx.b.constant(Tensor::full(t.dtype, t.shape, slotInitialValue(k)), label);
      per.push_back(stateVariable(cx, init));
    }
    vars.push_back(v.var());
    slots.push_back(std::move(per));
  }
  cx.at(saved);
  built = true;
}

Val OptimizerObj::apply(Context& cx, const std::vector<std::pair<Val, Val>>& pairs,
                        const SourceLoc& loc, const SourceLoc& pairsLoc) {
  std::vector<Val> all;
  for (const auto& [g, v] : pairs) {
    if (!v.var())
      cx.fail(pairsLoc, "apply_gradients needs (gradient, tf.Variable) pairs; the second item is " +
                            article(trace::typeName(v)) +
                            (v.isTensor() ? " that is not a tf.Variable" : ""));
    all.push_back(v);
  }
  build(cx, all, loc);  // Keras builds for the first call's variables, None gradients included
  std::vector<std::pair<Value, Val>> live;  // gradient, variable
  for (const auto& [g, v] : pairs) {
    if (g.isNone()) {
      // TF skips a variable without a gradient (with a warning), and so does GradLab.
      cx.log("note: " + kind + ".apply_gradients skips a variable whose gradient is None" +
             (g.why() ? ": " + g.why()->text : std::string()));
      continue;
    }
    if (std::find(vars.begin(), vars.end(), v.var()) == vars.end())
      cx.fail(pairsLoc, kind + " cannot recognize " + varLabel(cx, *v.var()) +
                            ": it was built for other variables (Keras: call "
                            "optimizer.build(variables) with the full list of trainable "
                            "variables before the training loop)");
    const DType dt = cx.b.type(v.var()->current).dtype;
    if (!isFloat(dt))
      cx.fail(pairsLoc, std::string("apply_gradients cannot update a ") + dtypeName(dt) +
                            " variable (only floating variables are trained)");
    live.push_back({cx.toTensor(g, pairsLoc, dt), v});
  }
  if (live.empty()) return cx.fresh(iterationsVal);
  cx.at(loc);
  Emitter& b = cx.b;
  // Keras's _clip_gradients: clipnorm per gradient, else global_clipnorm, else clipvalue.
  if (clipnorm && *clipnorm > 0) {
    for (auto& [g, v] : live) g = clipByNorm(b, g, b.scalar(*clipnorm, b.type(g).dtype));
  } else if (globalClipnorm && *globalClipnorm > 0) {
    // clip_by_global_norm: every gradient times c / max(global norm, c), the norm over all
    // of them (summed in the first gradient's dtype).
    Value total;
    const DType dt = b.type(live[0].first).dtype;
    for (auto& [g, v] : live) {
      const Value s = o::cast(b, o::reduceSum(b, o::square(b, g), {}, false), dt);
      total = total.valid() ? o::add(b, total, s) : s;
    }
    const Value c = b.scalar(*globalClipnorm, dt);
    const Value scale = o::div(b, c, o::maximum(b, o::sqrt(b, total), c));
    for (auto& [g, v] : live) g = o::mul(b, g, o::cast(b, scale, b.type(g).dtype));
  } else if (clipvalue && *clipvalue > 0) {
    for (auto& [g, v] : live) {
      const DType dt = b.type(g).dtype;
      g = o::minimum(b, o::maximum(b, g, b.scalar(-*clipvalue, dt)), b.scalar(*clipvalue, dt));
    }
  }
  // The learning rate is a float32 variable in Keras, cast to each variable's dtype.
  const Value lr32 = cx.fresh(learningRate).tensorValue();
  // Weight decay first, on every variable with a gradient: var -= var * wd * lr.
  if (weightDecay)
    for (auto& [g, v] : live) {
      const DType dt = b.type(g).dtype;
      const Value now = v.var()->current;
      const Value lr = o::cast(b, lr32, dt);
      cx.assignVariable(v, o::sub(b, now, o::mul(b, o::scale(b, now, *weightDecay), lr)), loc,
                        kind + " weight decay");
    }
  const Value step = o::add(b, iterations->current, b.scalar(1, DType::I32));
  for (auto& [g, v] : live) {
    const DType dt = b.type(g).dtype;
    const size_t i = size_t(std::find(vars.begin(), vars.end(), v.var()) - vars.begin());
    cx.at(loc);
    update(cx, cx.fresh(v), g, slots[i], o::cast(b, lr32, dt), o::cast(b, step, dt), loc);
  }
  cx.at(loc);
  cx.assignVariable(iterationsVal, step, loc, kind + ".apply_gradients");
  return cx.fresh(iterationsVal);
}

void prepareLoopUpdates(Context& cx, OptimizerObj& opt, const Val& varList, const SourceLoc& loc) {
  if (opt.built || cx.b.currentRegion() != 0) return;
  const std::vector<Val> list = varList.isSeq() ? varList.items() : std::vector<Val>{varList};
  if (list.empty()) return;
  for (const Val& v : list)
    if (!v.var()) return;  // the call itself reports it
  opt.build(cx, list, loc);
}

void readCommonOptimizerArgs(Bound& a, OptimizerObj& opt) {
  Context& cx = a.cx;
  if (cx.b.currentRegion() != 0)
    cx.fail(a.callLoc, opt.kind +
                           " makes variables (its iterations and learning rate); make the "
                           "optimizer before the loop or branch, not inside it");
  opt.name = a.string("name");
  cx.at(a.callLoc);
  // Keras keeps the learning rate in its own float32 variable, made from the value given
  // (a number, or a scalar tensor's value now).
  const Val& lr = a["learning_rate"];
  Value lrInit;
  if (lr.isNumber()) {
    lrInit = cx.b.constant(
        Tensor::scalar(lr.kind() == Kind::Int ? double(lr.asInt()) : lr.asFloat(), DType::F32),
        "learning_rate");
  } else if (lr.isTensor()) {
    const Value t = cx.fresh(lr).tensorValue();
    if (!cx.b.type(t).shape.empty())
      a.fail("learning_rate", "must be a scalar, got shape " + shapeStr(cx.b.type(t).shape));
    if (!isFloat(cx.b.type(t).dtype)) a.fail("learning_rate", "must be a floating scalar");
    lrInit = o::cast(cx.b, o::stopGradient(cx.b, t), DType::F32);
  } else {
    a.fail("learning_rate",
           "must be a number or a scalar tensor (LearningRateSchedule objects are not "
           "supported yet), got " +
               article(typeName(lr)));
  }
  opt.learningRate = Val::variable(stateVariable(cx, lrInit));
  opt.iterations = stateVariable(cx, cx.b.constant(Tensor::scalar(0, DType::I32), "iteration"));
  opt.iterationsVal = Val::variable(opt.iterations);
  auto positive = [&](const char* p) -> std::optional<double> {
    if (a.none(p)) return std::nullopt;
    return a.number(p);
  };
  opt.clipnorm = positive("clipnorm");
  opt.clipvalue = positive("clipvalue");
  opt.globalClipnorm = positive("global_clipnorm");
  opt.weightDecay = positive("weight_decay");
  if (opt.clipnorm && opt.globalClipnorm)
    a.fail("global_clipnorm", "cannot be set with clipnorm (Keras: at most one of them)");
  if (a.boolean("use_ema"))
    a.fail("use_ema", "is not supported by GradLab yet (an average copy of every variable)");
}

void addOptimizerMethods(BuiltinTable& t, const std::string& kind) {
  t[kind + ".build"] = {Signature::parse("var_list"), [](Bound& a) {
                          auto& opt = *a.self.as<OptimizerObj>();
                          const Val& l = a["var_list"];
                          opt.build(a.cx, l.isSeq() ? l.items() : std::vector<Val>{l},
                                    a.loc("var_list"));
                          return Val::none();
                        }};
  t[kind + ".apply_gradients"] = {
      Signature::parse("grads_and_vars, name=None, ~skip_gradients_aggregation=False"),
      [](Bound& a) {
        auto& opt = *a.self.as<OptimizerObj>();
        const Val& pairs = a["grads_and_vars"];
        if (!pairs.isSeq())
          a.fail("grads_and_vars",
                 "must be a list of (gradient, variable) pairs, e.g. zip(grads, [w, b])");
        std::vector<std::pair<Val, Val>> ps;
        for (const Val& p : pairs.items()) {
          if (!p.isSeq() || p.items().size() != 2)
            a.fail("grads_and_vars", "must hold (gradient, variable) pairs");
          ps.push_back({p.items()[0], a.cx.fresh(p.items()[1])});
        }
        return opt.apply(a.cx, ps, a.callLoc, a.loc("grads_and_vars"));
      }};
  // minimize(loss, var_list): loss a function of no arguments, as in TF 2 (a tensor loss needs
  // the tape it was recorded on: use tape.gradient and apply_gradients).
  t[kind + ".minimize"] = {
      Signature::parse("loss, var_list, tape=None"), [](Bound& a) {
        auto& opt = *a.self.as<OptimizerObj>();
        const Val& loss = a["loss"];
        if (!(loss.kind() == Kind::Object && loss.obj()->callable()))
          a.fail("loss",
                 "must be a function of no arguments in GradLab (for a tensor loss, "
                 "call tape.gradient(loss, vars) and apply_gradients)");
        if (!a.none("tape")) a.fail("tape", "is not supported: minimize records its own tape");
        const Val& vars = a["var_list"];
        const std::vector<Val> list = vars.isSeq() ? vars.items() : std::vector<Val>{vars};
        for (const Val& v : list)
          if (!v.var()) a.fail("var_list", "must hold tf.Variables");
        GradientTape& tape = a.cx.openTape(false, true, a.callLoc);
        const Val value = a.cx.callSimple(loss, {}, a.loc("loss"), "loss");
        tape.stop();
        Value target = a.cx.toTensor(value, a.loc("loss"));
        std::vector<Value> sources;
        std::vector<size_t> sizes;
        for (const Val& v : list) {
          const auto s = a.cx.variableSources(*v.var(), tape);
          sources.insert(sources.end(), s.begin(), s.end());
          sizes.push_back(s.size());
        }
        a.cx.at(a.callLoc);
        const GradResult r = tape.gradient(target, sources);
        std::vector<std::pair<Val, Val>> ps;
        size_t k = 0;
        for (size_t i = 0; i < list.size(); ++i) {
          Val g;
          for (size_t j = 0; j < sizes[i]; ++j, ++k)
            if (r.grads[k].valid())
              g = g.isTensor() ? Val::tensor(o::add(a.cx.b, g.tensorValue(), r.grads[k]))
                               : Val::tensor(r.grads[k]);
          if (!g.isTensor()) g = Val::noneBecause(r.why[k - 1]);
          ps.push_back({g, a.cx.fresh(list[i])});
        }
        opt.apply(a.cx, ps, a.callLoc, a.loc("var_list"));
        return Val::none();
      }};
}

void addOptimizerBuiltins(BuiltinTable& t) { addOptimizerRules(t); }

}  // namespace gl::lang::trace
