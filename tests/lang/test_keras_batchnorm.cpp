// tf.keras.layers.BatchNormalization as scripts in float64: inference with the initial moving
// statistics, training with the batch's, the moving statistics after one update at the top
// level and two more in a tf.range loop (Keras's moving -= (moving - batch) (1 - momentum),
// computed here in closed form), and the training output's gradient by x and gamma against
// central finite differences.
#include "test_main.h"

#include <cmath>

#include "../engine/helpers.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

Value outputValue(const TracedProgram& p, const std::string& name) {
  for (const Output& o : p.variants.at(0).outputs)
    if (o.name == name) return o.entries.at(0).value;
  return {};
}

// x = [[1, 2], [3, 6], [5, 4]]: both columns have batch variance 8/3; means 3 and 4.
const char* kScript =
    "xv = tf.Variable([1.0, 2.0, 3.0, 6.0, 5.0, 4.0], dtype=tf.float64)\n"
    "bn = tf.keras.layers.BatchNormalization(momentum=0.9, epsilon=0.01, "
    "beta_initializer=tf.keras.initializers.Constant(0.5), "
    "gamma_initializer=tf.keras.initializers.Constant(2.0))\n"
    "with tf.GradientTape(persistent=True) as tape:\n"
    "    x = tf.reshape(xv, [3, 2])\n"
    "    y0 = bn(x)\n"
    "    y1 = bn(x, training=True)\n"
    "    loss = tf.reduce_sum(tf.sin(y1))\n"
    "m1 = bn.moving_mean + 0.0\nv1 = bn.moving_variance + 0.0\n"
    "y2 = y1\n"
    "for i in tf.range(2):\n"
    "    y2 = bn(x, training=True)\n"
    "m3 = bn.moving_mean + 0.0\nv3 = bn.moving_variance + 0.0\n"
    "y3 = bn(x)\n"

    "gx = tape.gradient(loss, xv)\ngg = tape.gradient(loss, bn.gamma)\n";

}  // namespace

class TestKerasBatchNorm : public QObject {
  Q_OBJECT
 private slots:
  void statistics() {
    TracedProgram p;
    try {
      p = traceProgram(kScript, "bn.gls");
    } catch (const EngineError& e) {
      QFAIL(e.what());
    }
    const std::vector<std::string> names{"y0", "y1", "m1",   "v1", "m3",
                                         "v3", "y3", "loss", "gx", "gg"};
    std::vector<Value> f;
    for (const auto& n : names) {
      f.push_back(outputValue(p, n));
      QVERIFY2(f.back().valid(), n.c_str());
    }
    const auto v = gltest::runEveryExecutor(*p.graph, f, 1e-12);
    const double x[3][2] = {{1, 2}, {3, 6}, {5, 4}}, mean[2] = {3, 4}, var = 8.0 / 3;
    auto near = [](double a, double b) { return std::abs(a - b) < 1e-12 * (1 + std::abs(b)); };
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j) {
        // Inference at first: moving mean 0, variance 1.
        QVERIFY(near(v[0].at(i * 2 + j), x[i][j] / std::sqrt(1.01) * 2 + 0.5));
        // Training: the batch's mean and biased variance.
        QVERIFY(near(v[1].at(i * 2 + j), (x[i][j] - mean[j]) / std::sqrt(var + 0.01) * 2 + 0.5));
      }
    for (int j = 0; j < 2; ++j) {
      // moving_n = 0.9^n initial + (1 - 0.9^n) batch.
      QVERIFY(near(v[2].at(j), 0.1 * mean[j]));
      QVERIFY(near(v[3].at(j), 0.9 + 0.1 * var));
      const double k = std::pow(0.9, 3);
      QVERIFY2(near(v[4].at(j), (1 - k) * mean[j]),
               qPrintable(QString::number(v[4].at(j), 'g', 17)));
      QVERIFY(near(v[5].at(j), k + (1 - k) * var));
      // Inference after the updates uses them.
      const double m3 = (1 - k) * mean[j], v3 = k + (1 - k) * var;
      QVERIFY(near(v[6].at(j), (x[0][j] - m3) / std::sqrt(v3 + 0.01) * 2 + 0.5));
    }
    // Gradients by x and gamma against central differences of the same graph. The loop
    // carries xv and gamma (training=True calls carry every live variable), so their names end
    // bound to the loop's outputs: their Variable nodes are found by size and Keras name.
    int xNode = -1, gammaNode = -1;
    for (int id = 0; id < p.graph->numNodes(); ++id) {
      const Node& n = p.graph->node(id);
      if (!n.is(NodeKind::Variable)) continue;
      if (n.value.numel() == 6) xNode = id;
      if (n.attrs.s("tf_name", "") == "batch_normalization/gamma") gammaNode = id;
    }
    QVERIFY(xNode >= 0 && gammaNode >= 0);
    Node* nodes[] = {&p.graph->node(xNode), &p.graph->node(gammaNode)};
    for (int w = 0; w < 2; ++w) {
      Node& node = *nodes[w];
      const Tensor base = node.value;
      const Tensor& grad = v[size_t(8 + w)];
      QCOMPARE(grad.numel(), base.numel());
      for (int64_t i = 0; i < base.numel(); ++i) {
        const double h = 1e-6;
        double l[2];
        for (int side = 0; side < 2; ++side) {
          Tensor moved = base.clone();
          moved.data<double>()[i] += side ? -h : h;
          node.value = moved;
          l[side] = evaluate(*p.graph, {f[7]}).at(0).item();
        }
        node.value = base;
        const double fd = (l[0] - l[1]) / (2 * h);
        QVERIFY2(std::abs(grad.at(i) - fd) < 1e-7 * (1 + std::abs(fd)),
                 qPrintable(QString("grad %1 [%2] = %3, finite differences %4")
                                .arg(w)
                                .arg(i)
                                .arg(grad.at(i), 0, 'g', 12)
                                .arg(fd, 0, 'g', 12)));
      }
    }
  }

  void refusals() {
    auto err = [](const std::string& s) {
      return gltest::errorText([&] { traceProgram(s + "\n", "bn.gls"); });
    };
    QVERIFY(has(err("bn = tf.keras.layers.BatchNormalization(axis=1)"), "axis"));
    QVERIFY(has(err("bn = tf.keras.layers.BatchNormalization(renorm=True)"), "renorm"));
    QVERIFY(has(err("bn = tf.keras.layers.BatchNormalization(virtual_batch_size=2)"),
                "virtual_batch_size"));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestKerasBatchNorm)
#include "test_keras_batchnorm.moc"
