// The Keras optimizers as scripts: three steps on loss = sum(w * w) (gradient 2w) from
// w = [1, 2] in float64, compared with the update formulas of TF >= 2.11's
// keras/optimizers/{sgd,adam,nadam,rmsprop,adagrad}.py computed here in double, independently of
// GradLab; at the top level, in a Python for loop, in a `for i in tf.range(3)` tensor loop
// (which must carry the slots and the iteration counter) and through minimize. Also TF's
// docstring values and the refusals.
#include "test_main.h"

#include <cmath>
#include <functional>

#include "../engine/helpers.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

using Vec = std::vector<double>;
// One step of a reference optimizer: w and g in, w updated; t is the 1-based step.
using Step = std::function<void(Vec& w, const Vec& g, int t)>;

// Keras keeps the learning rate in a float32 variable and casts it to the variable's dtype.
double f32(double x) { return double(float(x)); }

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

Value outputValue(const TracedProgram& p, const std::string& name) {
  for (const Output& o : p.variants.at(0).outputs)
    if (o.name == name) return o.entries.at(0).value;
  return {};
}

std::vector<Tensor> run(const std::string& src, const std::vector<std::string>& names) {
  const TracedProgram p = traceProgram(src, "opt.gls");
  std::vector<Value> fetches;
  for (const auto& n : names) {
    fetches.push_back(outputValue(p, n));
    if (!fetches.back().valid()) throw EngineError(n + " is None");
  }
  return gltest::runEveryExecutor(*p.graph, fetches, 1e-12);
}

// The loop forms the steps run in.
enum class Form { TopLevel, PythonLoop, TensorLoop, Minimize, WhileLoop };

std::string script(const std::string& opt, Form form) {
  std::string s = "w = tf.Variable([1.0, 2.0], dtype=tf.float64)\nopt = " + opt + "\n";
  const std::string step =
      "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(w * w)\n"
      "g = tape.gradient(loss, w)\nopt.apply_gradients(zip([g], [w]))\n";
  auto indent = [](const std::string& body, const std::string& pad) {
    std::string out;
    size_t start = 0;
    while (start < body.size()) {
      const size_t end = body.find('\n', start);
      out += pad + body.substr(start, end - start + 1);
      start = end + 1;
    }
    return out;
  };
  switch (form) {
    case Form::TopLevel:
      s += step + step + step;
      break;
    case Form::PythonLoop:
      s += "for i in range(3):\n" + indent(step, "    ");
      break;
    case Form::TensorLoop:
      s += "for i in tf.range(3):\n" + indent(step, "    ");
      break;
    case Form::Minimize:
      s += "for i in tf.range(3):\n    opt.minimize(lambda: tf.reduce_sum(w * w), [w])\n";
      break;
    case Form::WhileLoop:
      s += "def body(i):\n" + indent(step, "    ") + "    return (i + 1,)\n";
      s += "opt.build([w])\ntf.while_loop(lambda i: i < 3, body, (tf.constant(0),))\n";
      break;
  }
  s += "final = w + 0.0\nsteps = opt.iterations + 0\n";
  return s;
}

Vec reference(const Step& step) {
  Vec w{1, 2};
  for (int t = 1; t <= 3; ++t) {
    Vec g{2 * w[0], 2 * w[1]};
    step(w, g, t);
  }
  return w;
}

struct Case {
  const char* name;
  const char* opt;
  std::function<Step()> make;  // a fresh reference optimizer
};

// keras/optimizers/sgd.py update_step.
Step sgd(double lr, double momentum = 0, bool nesterov = false) {
  auto m = std::make_shared<Vec>(2, 0.0);
  lr = f32(lr);
  return [=](Vec& w, const Vec& g, int) {
    for (size_t i = 0; i < w.size(); ++i) {
      if (momentum == 0) {
        w[i] -= lr * g[i];
        continue;
      }
      (*m)[i] = momentum * (*m)[i] - lr * g[i];
      w[i] += nesterov ? momentum * (*m)[i] - lr * g[i] : (*m)[i];
    }
  };
}

// keras/optimizers/adam.py update_step, which is the numpy reference adam_update_numpy of
// keras/optimizers/optimizer_v2/adam_test.py: lr_t = lr sqrt(1 - b2^t) / (1 - b1^t).
Step adam(double lr = 0.001, double b1 = 0.9, double b2 = 0.999, double eps = 1e-7,
          bool amsgrad = false) {
  auto m = std::make_shared<Vec>(2, 0.0), v = std::make_shared<Vec>(2, 0.0),
       vhat = std::make_shared<Vec>(2, 0.0);
  lr = f32(lr);
  return [=](Vec& w, const Vec& g, int t) {
    const double alpha = lr * std::sqrt(1 - std::pow(b2, t)) / (1 - std::pow(b1, t));
    for (size_t i = 0; i < w.size(); ++i) {
      (*m)[i] = b1 * (*m)[i] + (1 - b1) * g[i];
      (*v)[i] = b2 * (*v)[i] + (1 - b2) * g[i] * g[i];
      double vi = (*v)[i];
      if (amsgrad) vi = (*vhat)[i] = std::max((*vhat)[i], vi);
      w[i] -= alpha * (*m)[i] / (std::sqrt(vi) + eps);
    }
  };
}

// keras/optimizers/nadam.py update_step: the momentum schedule u_t = beta_1 (1 - 0.5 0.96^t),
// its running product U_t (one per optimizer, multiplied once per step), Nesterov's m_hat.
Step nadam(double lr = 0.001, double b1 = 0.9, double b2 = 0.999, double eps = 1e-7) {
  auto m = std::make_shared<Vec>(2, 0.0), v = std::make_shared<Vec>(2, 0.0);
  auto product = std::make_shared<double>(1.0);
  lr = f32(lr);
  return [=](Vec& w, const Vec& g, int t) {
    const double ut = b1 * (1 - 0.5 * std::pow(0.96, t));
    const double ut1 = b1 * (1 - 0.5 * std::pow(0.96, t + 1));
    *product *= ut;
    const double product1 = *product * ut1;
    for (size_t i = 0; i < w.size(); ++i) {
      (*m)[i] += (g[i] - (*m)[i]) * (1 - b1);
      (*v)[i] += (g[i] * g[i] - (*v)[i]) * (1 - b2);
      const double mHat = ut1 * (*m)[i] / (1 - product1) + (1 - ut) * g[i] / (1 - *product);
      const double vHat = (*v)[i] / (1 - std::pow(b2, t));
      w[i] -= mHat * lr / (std::sqrt(vHat) + eps);
    }
  };
}

// keras/optimizers/rmsprop.py update_step: epsilon inside the square root.
Step rmsprop(double lr = 0.001, double rho = 0.9, double momentum = 0, double eps = 1e-7,
             bool centered = false) {
  auto vel = std::make_shared<Vec>(2, 0.0), mom = std::make_shared<Vec>(2, 0.0),
       avg = std::make_shared<Vec>(2, 0.0);
  lr = f32(lr);
  return [=](Vec& w, const Vec& g, int) {
    for (size_t i = 0; i < w.size(); ++i) {
      (*vel)[i] = rho * (*vel)[i] + (1 - rho) * g[i] * g[i];
      double den = (*vel)[i] + eps;
      if (centered) {
        (*avg)[i] = rho * (*avg)[i] + (1 - rho) * g[i];
        den = (*vel)[i] - (*avg)[i] * (*avg)[i] + eps;
      }
      const double inc = lr * g[i] / std::sqrt(den);
      if (momentum > 0) {
        (*mom)[i] = momentum * (*mom)[i] + inc;
        w[i] -= (*mom)[i];
      } else {
        w[i] -= inc;
      }
    }
  };
}

// keras/optimizers/adagrad.py update_step: epsilon inside the square root.
Step adagrad(double lr = 0.001, double init = 0.1, double eps = 1e-7) {
  auto acc = std::make_shared<Vec>(2, init);
  lr = f32(lr);
  return [=](Vec& w, const Vec& g, int) {
    for (size_t i = 0; i < w.size(); ++i) {
      (*acc)[i] += g[i] * g[i];
      w[i] -= lr * g[i] / std::sqrt((*acc)[i] + eps);
    }
  };
}

// Gradient transforms of optimizer.py's apply_gradients, around an inner rule.
Step clipnorm(double c, Step inner) {
  return [=](Vec& w, const Vec& g, int t) {
    const double n = std::hypot(g[0], g[1]);
    Vec h = g;
    for (double& x : h) x = x * c / std::max(n, c);
    inner(w, h, t);
  };
}
Step clipvalue(double c, Step inner) {
  return [=](Vec& w, const Vec& g, int t) {
    Vec h = g;
    for (double& x : h) x = std::min(std::max(x, -c), c);
    inner(w, h, t);
  };
}
Step weightDecay(double wd, double lr, Step inner) {
  return [=](Vec& w, const Vec& g, int t) {
    for (double& x : w) x -= x * wd * f32(lr);
    inner(w, g, t);
  };
}

const Case kCases[] = {
    {"SGD default", "tf.keras.optimizers.SGD()", [] { return sgd(0.01); }},
    {"SGD lr", "tf.keras.optimizers.SGD(learning_rate=0.1)", [] { return sgd(0.1); }},
    {"SGD momentum", "tf.keras.optimizers.SGD(0.1, momentum=0.9)", [] { return sgd(0.1, 0.9); }},
    {"SGD nesterov", "tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)",
     [] { return sgd(0.1, 0.9, true); }},
    {"SGD clipnorm", "tf.keras.optimizers.SGD(0.1, clipnorm=1.0)",
     [] { return clipnorm(1.0, sgd(0.1)); }},
    {"SGD global_clipnorm", "tf.keras.optimizers.SGD(0.1, global_clipnorm=1.5)",
     [] { return clipnorm(1.5, sgd(0.1)); }},
    {"SGD clipvalue", "tf.keras.optimizers.SGD(0.1, clipvalue=0.5)",
     [] { return clipvalue(0.5, sgd(0.1)); }},
    {"SGD weight_decay", "tf.keras.optimizers.SGD(0.1, momentum=0.5, weight_decay=0.2)",
     [] { return weightDecay(0.2, 0.1, sgd(0.1, 0.5)); }},
    {"Adam default", "tf.keras.optimizers.Adam()", [] { return adam(); }},
    {"Adam args", "tf.keras.optimizers.Adam(0.2, beta_1=0.8, beta_2=0.99, epsilon=0.01)",
     [] { return adam(0.2, 0.8, 0.99, 0.01); }},
    // beta_2 = 0.5 and a large step make v shrink by the third step, where amsgrad differs.
    {"Adam amsgrad", "tf.keras.optimizers.Adam(0.5, beta_2=0.5, amsgrad=True)",
     [] { return adam(0.5, 0.9, 0.5, 1e-7, true); }},
    {"Adam clipvalue weight_decay",
     "tf.keras.optimizers.Adam(0.1, clipvalue=1.5, weight_decay=0.1)",
     [] { return weightDecay(0.1, 0.1, clipvalue(1.5, adam(0.1))); }},
    {"Nadam default", "tf.keras.optimizers.Nadam()", [] { return nadam(); }},
    {"Nadam args", "tf.keras.optimizers.Nadam(0.2, beta_1=0.8, beta_2=0.99, epsilon=0.01)",
     [] { return nadam(0.2, 0.8, 0.99, 0.01); }},
    {"RMSprop default", "tf.keras.optimizers.RMSprop()", [] { return rmsprop(); }},
    {"RMSprop momentum", "tf.keras.optimizers.RMSprop(0.05, rho=0.8, momentum=0.5)",
     [] { return rmsprop(0.05, 0.8, 0.5); }},
    {"RMSprop centered", "tf.keras.optimizers.RMSprop(0.05, momentum=0.3, centered=True)",
     [] { return rmsprop(0.05, 0.9, 0.3, 1e-7, true); }},
    {"Adagrad default", "tf.keras.optimizers.Adagrad()", [] { return adagrad(); }},
    {"Adagrad args",
     "tf.keras.optimizers.Adagrad(0.3, initial_accumulator_value=0.5, epsilon=0.01)",
     [] { return adagrad(0.3, 0.5, 0.01); }},
};

}  // namespace

class TestKerasOptimizers : public QObject {
  Q_OBJECT
 private slots:
  void formulas_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("form");
    const char* forms[] = {"top level", "python loop", "tf.range loop", "minimize", "while_loop"};
    for (int i = 0; i < int(std::size(kCases)); ++i)
      for (int f = 0; f < 5; ++f)
        QTest::newRow((std::string(kCases[i].name) + ", " + forms[f]).c_str()) << i << f;
  }

  // Three steps agree with the formulas to float64 rounding, and iterations counts them.
  void formulas() {
    QFETCH(int, index);
    QFETCH(int, form);
    const Case& c = kCases[index];
    std::vector<Tensor> v;
    try {
      v = run(script(c.opt, Form(form)), {"final", "steps"});
    } catch (const EngineError& e) {
      QFAIL(e.what());
    }
    const Vec want = reference(c.make());
    QCOMPARE(v[0].numel(), int64_t(2));
    for (int i = 0; i < 2; ++i)
      if (!(std::abs(v[0].at(i) - want[size_t(i)]) <= 1e-12 * (1 + std::abs(want[size_t(i)]))))
        QFAIL(qPrintable(QString("w[%1] = %2, the formula gives %3")
                             .arg(i)
                             .arg(v[0].at(i), 0, 'g', 17)
                             .arg(want[size_t(i)], 0, 'g', 17)));
    QCOMPARE(v[1].item(), 3.0);
  }

  // The usage examples of keras/optimizers/sgd.py's docstring (TF >= 2.11), in float32:
  // one step of lr 0.1 on var**2 / 2 from 1.0 gives 0.9; with momentum 0.9 the steps are
  // 0.1 then 0.18.
  void sgdDocstring() {
    const auto v = run(
        "var = tf.Variable(1.0)\nopt = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
        "opt.minimize(lambda: (var ** 2) / 2.0, [var])\na = var + 0.0\n"
        "var2 = tf.Variable(1.0)\nopt2 = tf.keras.optimizers.SGD(0.1, momentum=0.9)\n"
        "val0 = var2 + 0.0\nopt2.minimize(lambda: (var2 ** 2) / 2.0, [var2])\nval1 = var2 + 0.0\n"
        "opt2.minimize(lambda: (var2 ** 2) / 2.0, [var2])\nval2 = var2 + 0.0\n"
        "d1 = val0 - val1\nd2 = val1 - val2\n",
        {"a", "d1", "d2"});
    QCOMPARE(float(v[0].item()), 0.9f);
    QVERIFY(std::abs(v[1].item() - 0.1) < 1e-6);
    QVERIFY(std::abs(v[2].item() - 0.18) < 1e-6);
  }

  // The usage examples of keras/optimizers/adam.py and rmsprop.py (TF >= 2.11): one minimize
  // step of lr 0.1 on var1**2 / 2 from 10.0 gives 9.9 (Adam: "the first step is
  // -learning_rate*sign(grad)") and 9.683772 (RMSprop).
  void adamRmspropDocstrings() {
    const auto v =
        run("var1 = tf.Variable(10.0)\nopt = tf.keras.optimizers.Adam(learning_rate=0.1)\n"
            "opt.minimize(lambda: (var1 ** 2) / 2.0, [var1])\na = var1 + 0.0\n"
            "var2 = tf.Variable(10.0)\nopt2 = tf.keras.optimizers.RMSprop(learning_rate=0.1)\n"
            "opt2.minimize(lambda: (var2 ** 2) / 2.0, [var2])\nr = var2 + 0.0\n",
            {"a", "r"});
    QVERIFY2(std::abs(v[0].item() - 9.9) < 1e-5, qPrintable(QString::number(v[0].item(), 'g', 9)));
    QVERIFY2(std::abs(v[1].item() - 9.683772) < 1e-5,
             qPrintable(QString::number(v[1].item(), 'g', 9)));
  }

  // keras/optimizers/nadam.py's usage example: one minimize step of lr 0.2 on var1**2 / 2
  // from 10.0 gives "9.8" ({:.1f}); the formula gives 9.787442 in float32. compile() takes
  // "nadam" by name, as Keras's optimizers.get does.
  void nadamDocstring() {
    const auto v =
        run("var1 = tf.Variable(10.0)\nopt = tf.keras.optimizers.Nadam(learning_rate=0.2)\n"
            "opt.minimize(lambda: (var1 ** 2) / 2.0, [var1])\na = var1 + 0.0\n",
            {"a"});
    QVERIFY2(std::abs(v[0].item() - 9.787442) < 1e-5,
             qPrintable(QString::number(v[0].item(), 'g', 9)));
    const TracedProgram p = traceProgram(
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.compile(optimizer='nadam', loss='mse')\nprint(type(model.optimizer).__name__)\n",
        "opt.gls");
    QCOMPARE(p.traceLog.back(), std::string("Nadam"));
  }

  // Keras layer weights are trained like tf.Variables: a Dense layer (kernel ones, bias
  // zeros) on x = [[1, 2]] with loss y^2, two SGD(0.1, momentum=0.5) steps in a tf.range loop
  // through model.trainable_variables, against the formulas in double.
  void trainsLayerWeights() {
    const auto v =
        run("x = tf.constant([[1.0, 2.0]], dtype=tf.float64)\n"
            "layer = tf.keras.layers.Dense(1, kernel_initializer='ones')\n"
            "model = tf.keras.Sequential([layer])\n"
            "y0 = model(x)\nopt = tf.keras.optimizers.SGD(0.1, momentum=0.5)\n"
            "for i in tf.range(2):\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_sum(tf.square(model(x)))\n"
            "    grads = tape.gradient(loss, model.trainable_variables)\n"
            "    opt.apply_gradients(zip(grads, model.trainable_variables))\n"
            "k = layer.kernel + 0.0\nb = layer.bias + 0.0\n",
            {"k", "b"});
    double w[3] = {1, 1, 0}, m[3] = {0, 0, 0};  // k1, k2, b
    const double lr = f32(0.1);
    for (int t = 0; t < 2; ++t) {
      const double y = w[0] + 2 * w[1] + w[2], g[3] = {2 * y, 4 * y, 2 * y};
      for (int i = 0; i < 3; ++i) {
        m[i] = 0.5 * m[i] - lr * g[i];
        w[i] += m[i];
      }
    }
    QVERIFY2(std::abs(v[0].at(0) - w[0]) < 1e-12 && std::abs(v[0].at(1) - w[1]) < 1e-12,
             qPrintable(QString("kernel %1 %2, want %3 %4")
                            .arg(v[0].at(0))
                            .arg(v[0].at(1))
                            .arg(w[0])
                            .arg(w[1])));
    QVERIFY(std::abs(v[1].at(0) - w[2]) < 1e-12);
  }

  // A loop body whose variable list cannot be read before the loop: its first apply would
  // make the slots inside the body, a located error that says to build before the loop; with
  // opt.build([w]) first, the same loop runs.
  void slotsInsideLoop() {
    const std::string body =
        "for i in tf.range(3):\n"
        "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(w * w)\n"
        "    g = tape.gradient(loss, w)\n    opt.apply_gradients(zip([g], [w, w][0:1]))\n"
        "final = w + 0.0\n";
    const std::string head =
        "w = tf.Variable([1.0, 2.0], dtype=tf.float64)\n"
        "opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)\n";
    // Traced (inside a tf.function) the loop is one while_loop, which must carry the slots.
    TraceOptions traced;
    traced.model = ExecutionModel::WholeScriptFunction;
    const std::string err =
        gltest::errorText([&] { traceProgram(head + body, "opt.gls", traced); });
    QVERIFY2(has(err, "opt.build(var_list)") && has(err, ":7:"), err.c_str());
    const Vec want = reference(sgd(0.1, 0.9));
    const auto v = run(head + "opt.build([w])\n" + body, {"final"});
    QVERIFY(std::abs(v[0].at(1) - want[1]) < 1e-12);
    // Eager, the loop runs step by step and the first step builds the slots.
    const auto e = run(head + body, {"final"});
    QVERIFY(std::abs(e[0].at(1) - want[1]) < 1e-12);
  }

  // Arguments Keras honours that GradLab does not implement are refused by name.
  void refusals() {
    const std::string w = "w = tf.Variable([1.0, 2.0])\n";
    auto err = [&](const std::string& s) {
      return gltest::errorText([&] { traceProgram(w + s + "\n", "opt.gls"); });
    };
    QVERIFY(has(err("opt = tf.keras.optimizers.SGD(use_ema=True)"), "use_ema"));
    QVERIFY(has(err("opt = tf.keras.optimizers.SGD(decay=0.1)"), "decay"));
    QVERIFY(has(err("opt = tf.keras.optimizers.SGD(momentum=1.5)"), "momentum"));
    QVERIFY(has(err("opt = tf.keras.optimizers.SGD(clipnorm=1.0, global_clipnorm=1.0)"),
                "global_clipnorm"));
    QVERIFY(has(err("opt = tf.keras.optimizers.SGD(learning_rate='fast')"), "learning_rate"));
    // A variable the optimizer was not built for (Keras raises KeyError).
    QVERIFY(has(err("v = tf.Variable(1.0)\nopt = tf.keras.optimizers.SGD(0.1, momentum=0.5)\n"
                    "opt.apply_gradients([(tf.ones(2), w)])\nopt.apply_gradients([(1.0, v)])"),
                "cannot recognize"));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestKerasOptimizers)
#include "test_keras_optimizers.moc"
