// The Keras optimizers' update rules and defaults, as TF >= 2.11's keras/optimizers/*.py
// (the optimizer.py-based ones; their update_step on dense gradients). Each rule assigns the
// variable and its slots through assignVariable, so tensor loops carry them.
#include "engine/lang/tracer_optimizer.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

void set(Context& cx, const std::shared_ptr<VarState>& v, Value x, const SourceLoc& loc,
         const std::string& what) {
  cx.assignVariable(Val::variable(v), x, loc, what);
}

// keras/optimizers/sgd.py: with momentum, m = momentum * m - lr * g and w += m (nesterov:
// w += momentum * m - lr * g, with the new m); without, w -= lr * g.
struct Sgd : OptimizerObj {
  double momentum = 0;
  bool nesterov = false;
  std::vector<std::string> slotNames() const override {
    if (momentum == 0) return {};
    return {"m"};
  }
  void update(Context& cx, const Val& var, Value g, const std::vector<std::shared_ptr<VarState>>& s,
              Value lr, Value, const SourceLoc& loc) override {
    Emitter& b = cx.b;
    const Value step = o::neg(b, o::mul(b, g, lr));  // -lr * g
    if (momentum == 0) {
      cx.assignVariable(var, o::add(b, var.tensorValue(), step), loc, "SGD.apply_gradients");
      return;
    }
    const Value m = o::add(b, step, o::scale(b, s[0]->current, momentum));
    set(cx, s[0], m, loc, "SGD momentum");
    const Value delta = nesterov ? o::add(b, step, o::scale(b, m, momentum)) : m;
    cx.assignVariable(var, o::add(b, var.tensorValue(), delta), loc, "SGD.apply_gradients");
  }
};

// keras/optimizers/adam.py: m += (g - m)(1 - beta_1), v += (g^2 - v)(1 - beta_2), and
// w -= alpha m / (sqrt(v) + epsilon) with alpha = lr sqrt(1 - beta_2^t) / (1 - beta_1^t);
// amsgrad divides by the running maximum of v instead.
struct Adam : OptimizerObj {
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-7;
  bool amsgrad = false;
  std::vector<std::string> slotNames() const override {
    if (amsgrad) return {"m", "v", "vhat"};
    return {"m", "v"};
  }
  void update(Context& cx, const Val& var, Value g, const std::vector<std::shared_ptr<VarState>>& s,
              Value lr, Value t, const SourceLoc& loc) override {
    Emitter& b = cx.b;
    const DType dt = b.type(g).dtype;
    auto power = [&](double beta) { return o::pow(b, b.scalar(beta, dt), t); };
    const Value one = b.scalar(1, dt);
    const Value alpha = o::div(b, o::mul(b, lr, o::sqrt(b, o::sub(b, one, power(beta2)))),
                               o::sub(b, one, power(beta1)));
    const Value m0 = s[0]->current, v0 = s[1]->current;
    const Value m = o::add(b, m0, o::scale(b, o::sub(b, g, m0), 1 - beta1));
    Value v = o::add(b, v0, o::scale(b, o::sub(b, o::square(b, g), v0), 1 - beta2));
    set(cx, s[0], m, loc, "Adam m");
    set(cx, s[1], v, loc, "Adam v");
    if (amsgrad) {
      v = o::maximum(b, s[2]->current, v);
      set(cx, s[2], v, loc, "Adam vhat");
    }
    const Value den = o::addScalar(b, o::sqrt(b, v), epsilon);
    cx.assignVariable(var, o::sub(b, var.tensorValue(), o::div(b, o::mul(b, m, alpha), den)), loc,
                      "Adam.apply_gradients");
  }
};

// keras/optimizers/nadam.py: Adam with Nesterov momentum (Dozat 2015). With the momentum
// schedule u_t = beta_1 (1 - 0.5 * 0.96^t) and its running product U_t = u_1 ... u_t:
// m += (g - m)(1 - beta_1), v += (g^2 - v)(1 - beta_2),
// m_hat = u_{t+1} m / (1 - U_t u_{t+1}) + (1 - u_t) g / (1 - U_t), v_hat = v / (1 - beta_2^t),
// w -= lr m_hat / (sqrt(v_hat) + epsilon).
// Keras keeps U in one scalar variable multiplied once per step; here each variable keeps its
// own copy as a third slot (initial 1, multiplied by u_t at each of its updates), which holds
// the same values as long as every variable is updated at every step, as apply_gradients does
// in fit and in training loops. (The slot is the one visible difference: opt.variables lists
// it per variable where Keras lists one.)
struct Nadam : OptimizerObj {
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-7;
  std::vector<std::string> slotNames() const override { return {"m", "v", "u_product"}; }
  double slotInitialValue(size_t i) const override { return i == 2 ? 1 : 0; }
  void update(Context& cx, const Val& var, Value g, const std::vector<std::shared_ptr<VarState>>& s,
              Value lr, Value t, const SourceLoc& loc) override {
    Emitter& b = cx.b;
    const DType dt = b.type(g).dtype;
    const Value one = b.scalar(1, dt);
    // beta_1 * (1 - 0.5 * 0.96^step)
    auto schedule = [&](Value step) {
      const Value decayed = o::pow(b, b.scalar(0.96, dt), step);
      return o::scale(b, o::sub(b, one, o::scale(b, decayed, 0.5)), beta1);
    };
    const Value ut = schedule(t), ut1 = schedule(o::add(b, t, one));
    const Value uProduct = o::mul(b, s[2]->current, ut);
    const Value uProduct1 = o::mul(b, uProduct, ut1);
    const Value m0 = s[0]->current, v0 = s[1]->current;
    const Value m = o::add(b, m0, o::scale(b, o::sub(b, g, m0), 1 - beta1));
    const Value v = o::add(b, v0, o::scale(b, o::sub(b, o::square(b, g), v0), 1 - beta2));
    set(cx, s[0], m, loc, "Nadam m");
    set(cx, s[1], v, loc, "Nadam v");
    set(cx, s[2], uProduct, loc, "Nadam u_product");
    const Value mHat =
        o::add(b, o::div(b, o::mul(b, ut1, m), o::sub(b, one, uProduct1)),
               o::div(b, o::mul(b, o::sub(b, one, ut), g), o::sub(b, one, uProduct)));
    const Value vHat = o::div(b, v, o::sub(b, one, o::pow(b, b.scalar(beta2, dt), t)));
    const Value den = o::addScalar(b, o::sqrt(b, vHat), epsilon);
    cx.assignVariable(var, o::sub(b, var.tensorValue(), o::div(b, o::mul(b, mHat, lr), den)), loc,
                      "Nadam.apply_gradients");
  }
};

// keras/optimizers/rmsprop.py: velocity = rho velocity + (1 - rho) g^2; centered subtracts
// the square of the gradients' average; increment = lr g / sqrt(denominator + epsilon)
// (epsilon inside the root, unlike Adam); momentum accumulates the increments.
struct RmsProp : OptimizerObj {
  double rho = 0.9, momentum = 0, epsilon = 1e-7;
  bool centered = false;
  std::vector<std::string> slotNames() const override {
    std::vector<std::string> n{"velocity"};
    if (momentum > 0) n.push_back("momentum");
    if (centered) n.push_back("average_gradient");
    return n;
  }
  void update(Context& cx, const Val& var, Value g, const std::vector<std::shared_ptr<VarState>>& s,
              Value lr, Value, const SourceLoc& loc) override {
    Emitter& b = cx.b;
    const Value vel =
        o::add(b, o::scale(b, s[0]->current, rho), o::scale(b, o::square(b, g), 1 - rho));
    set(cx, s[0], vel, loc, "RMSprop velocity");
    Value den = vel;
    if (centered) {
      const auto& avgSlot = s[momentum > 0 ? 2 : 1];
      const Value avg = o::add(b, o::scale(b, avgSlot->current, rho), o::scale(b, g, 1 - rho));
      set(cx, avgSlot, avg, loc, "RMSprop average_gradient");
      den = o::sub(b, vel, o::square(b, avg));
    }
    Value inc = o::mul(b, o::mul(b, lr, g), b.op1("rsqrt", {o::addScalar(b, den, epsilon)}));
    if (momentum > 0) {
      inc = o::add(b, o::scale(b, s[1]->current, momentum), inc);
      set(cx, s[1], inc, loc, "RMSprop momentum");
    }
    cx.assignVariable(var, o::sub(b, var.tensorValue(), inc), loc, "RMSprop.apply_gradients");
  }
};

// keras/optimizers/adagrad.py: accumulator += g^2 (from initial_accumulator_value);
// w -= lr g / sqrt(accumulator + epsilon).
struct Adagrad : OptimizerObj {
  double initial = 0.1, epsilon = 1e-7;
  std::vector<std::string> slotNames() const override { return {"accumulator"}; }
  double slotInitialValue(size_t) const override { return initial; }
  void update(Context& cx, const Val& var, Value g, const std::vector<std::shared_ptr<VarState>>& s,
              Value lr, Value, const SourceLoc& loc) override {
    Emitter& b = cx.b;
    const Value acc = o::add(b, s[0]->current, o::square(b, g));
    set(cx, s[0], acc, loc, "Adagrad accumulator");
    const Value inc = o::div(b, o::mul(b, lr, g), o::sqrt(b, o::addScalar(b, acc, epsilon)));
    cx.assignVariable(var, o::sub(b, var.tensorValue(), inc), loc, "Adagrad.apply_gradients");
  }
};

// The arguments every optimizer.py optimizer takes after its own.
const char* kCommon =
    "weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, "
    "~ema_momentum=0.99, ~ema_overwrite_frequency=None, ~jit_compile=True";

Signature signature(const std::string& own, const std::string& name) {
  return Signature::parse(own + ", " + kCommon + ", name='" + name + "'");
}

template <class T>
std::shared_ptr<T> make(Bound& a, const char* kind) {
  auto opt = std::make_shared<T>();
  opt->kind = kind;
  readCommonOptimizerArgs(a, *opt);
  return opt;
}

}  // namespace

void addOptimizerRules(BuiltinTable& t) {
  t["tf.keras.optimizers.SGD"] = {
      signature("learning_rate=0.01, momentum=0.0, nesterov=False", "SGD"), [](Bound& a) {
        auto opt = make<Sgd>(a, "SGD");
        opt->momentum = a.number("momentum");
        if (!(opt->momentum >= 0 && opt->momentum <= 1))
          a.fail("momentum", "must be between 0 and 1 (Keras: `momentum` must be between [0, 1])");
        opt->nesterov = a.boolean("nesterov");
        return Val::object(opt);
      }};
  addOptimizerMethods(t, "SGD");
  t["tf.keras.optimizers.Adam"] = {
      signature("learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, amsgrad=False",
                "Adam"),
      [](Bound& a) {
        auto opt = make<Adam>(a, "Adam");
        opt->beta1 = a.number("beta_1");
        opt->beta2 = a.number("beta_2");
        opt->epsilon = a.number("epsilon");
        opt->amsgrad = a.boolean("amsgrad");
        return Val::object(opt);
      }};
  addOptimizerMethods(t, "Adam");
  t["tf.keras.optimizers.Nadam"] = {
      signature("learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07", "Nadam"),
      [](Bound& a) {
        auto opt = make<Nadam>(a, "Nadam");
        opt->beta1 = a.number("beta_1");
        opt->beta2 = a.number("beta_2");
        opt->epsilon = a.number("epsilon");
        return Val::object(opt);
      }};
  addOptimizerMethods(t, "Nadam");
  t["tf.keras.optimizers.RMSprop"] = {
      signature("learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-07, centered=False",
                "RMSprop"),
      [](Bound& a) {
        auto opt = make<RmsProp>(a, "RMSprop");
        opt->rho = a.number("rho");
        opt->momentum = a.number("momentum");
        opt->epsilon = a.number("epsilon");
        opt->centered = a.boolean("centered");
        if (opt->momentum < 0) a.fail("momentum", "must be non-negative");
        return Val::object(opt);
      }};
  addOptimizerMethods(t, "RMSprop");
  t["tf.keras.optimizers.Adagrad"] = {
      signature("learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-07", "Adagrad"),
      [](Bound& a) {
        auto opt = make<Adagrad>(a, "Adagrad");
        opt->initial = a.number("initial_accumulator_value");
        opt->epsilon = a.number("epsilon");
        if (opt->initial < 0)
          a.fail("initial_accumulator_value", "must be non-negative (Keras's docstring)");
        return Val::object(opt);
      }};
  addOptimizerMethods(t, "Adagrad");
}

}  // namespace gl::lang::trace
