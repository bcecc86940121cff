// Keras's SimpleRNN, GRU and LSTM as scripts in float64 on a [2, 3, 2] input: their outputs
// against the cell formulas of keras/layers/rnn/{simple_rnn,gru,lstm}.py computed here in
// double from the layer's own (seeded random) weights, and the gradients of
// L = sum(sin(out)) by the input and by each weight against central finite differences of the
// same graph (the weight's variable value moved by +-h).
#include "test_main.h"

#include <cmath>
#include <functional>

#include "../engine/helpers.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

using Vec = std::vector<double>;

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

Value outputValue(const TracedProgram& p, const std::string& name) {
  for (const Output& o : p.variants.at(0).outputs)
    if (o.name == name) return o.entries.at(0).value;
  return {};
}

Vec values(const Tensor& t) {
  Vec v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.at(i));
  return v;
}

const Vec kX = {0.5, -1.0, 0.25, 0.8, -0.3, 0.6, 1.2, 0.1, -0.7, 0.4, 0.9, -0.2};
constexpr int kB = 2, kT = 3, kF = 2, kU = 3;

enum class Kind { Simple, Gru, GruBefore, Lstm };

struct Case {
  const char* name;
  Kind kind;
  const char* layer;
  bool sequences, backwards;
};

const Case kCases[] = {
    {"SimpleRNN", Kind::Simple,
     "tf.keras.layers.SimpleRNN(3, return_sequences=True, bias_initializer=bi)", true, false},
    {"GRU", Kind::Gru, "tf.keras.layers.GRU(3, return_sequences=True, bias_initializer=bi)", true,
     false},
    {"GRU reset_after=False go_backwards", Kind::GruBefore,
     "tf.keras.layers.GRU(3, return_sequences=True, reset_after=False, go_backwards=True, "
     "bias_initializer=bi)",
     true, true},
    {"LSTM", Kind::Lstm, "tf.keras.layers.LSTM(3, return_sequences=True, bias_initializer=bi)",
     true, false},
    {"LSTM last go_backwards", Kind::Lstm,
     "tf.keras.layers.LSTM(3, go_backwards=True, bias_initializer=bi)", false, true},
};

std::string script(const Case& c) {
  std::string xs;
  for (double v : kX) xs += (xs.empty() ? "" : ", ") + std::to_string(v);
  return "tf.random.set_seed(3)\n"
         "bi = tf.keras.initializers.RandomNormal(stddev=0.5)\n"
         "xv = tf.Variable([" +
         xs +
         "], dtype=tf.float64)\n"
         "layer = " +
         c.layer +
         "\n"
         "with tf.GradientTape(persistent=True) as tape:\n"
         "    x = tf.reshape(xv, [2, 3, 2])\n"
         "    out = layer(x)\n"
         "    loss = tf.reduce_sum(tf.sin(out))\n"
         "k = layer.kernel\nrk = layer.recurrent_kernel\nbb = layer.bias\n"
         "gx = tape.gradient(loss, xv)\ngk = tape.gradient(loss, k)\n"
         "grk = tape.gradient(loss, rk)\ngb = tape.gradient(loss, bb)\n";
}

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

// The layer's output by Keras's cell formulas: K [F, g U], R [U, g U], bias as the layer
// holds it (GRU reset_after: [2, 3U], input bias then recurrent bias).
Vec reference(const Case& c, const Vec& K, const Vec& R, const Vec& bias) {
  const int g = c.kind == Kind::Simple ? 1 : c.kind == Kind::Lstm ? 4 : 3, n = g * kU;
  Vec out;
  std::vector<Vec> seq(kB);
  for (int bt = 0; bt < kB; ++bt) {
    Vec h(kU, 0.0), cs(kU, 0.0);
    for (int s = 0; s < kT; ++s) {
      const int t = c.backwards ? kT - 1 - s : s;
      const double* x = &kX[size_t((bt * kT + t) * kF)];
      // mx = x K + input bias; mh = h R (+ recurrent bias for GRU reset_after)
      Vec mx(size_t(n), 0.0), mh(size_t(n), 0.0);
      for (int j = 0; j < n; ++j) {
        for (int f = 0; f < kF; ++f) mx[size_t(j)] += x[f] * K[size_t(f * n + j)];
        mx[size_t(j)] += bias[size_t(j)];
        for (int u = 0; u < kU; ++u) mh[size_t(j)] += h[size_t(u)] * R[size_t(u * n + j)];
        if (c.kind == Kind::Gru) mh[size_t(j)] += bias[size_t(n + j)];
      }
      Vec next(kU);
      for (int u = 0; u < kU; ++u) {
        const size_t i = size_t(u), U = kU;
        switch (c.kind) {
          case Kind::Simple:
            next[i] = std::tanh(mx[i] + mh[i]);
            break;
          case Kind::Lstm: {
            const double ig = sigmoid(mx[i] + mh[i]), fg = sigmoid(mx[U + i] + mh[U + i]);
            cs[i] = fg * cs[i] + ig * std::tanh(mx[2 * U + i] + mh[2 * U + i]);
            next[i] = sigmoid(mx[3 * U + i] + mh[3 * U + i]) * std::tanh(cs[i]);
            break;
          }
          case Kind::Gru: {
            const double z = sigmoid(mx[i] + mh[i]), r = sigmoid(mx[U + i] + mh[U + i]);
            const double hh = std::tanh(mx[2 * U + i] + r * mh[2 * U + i]);
            next[i] = z * h[i] + (1 - z) * hh;
            break;
          }
          case Kind::GruBefore: {
            const double z = sigmoid(mx[i] + mh[i]), r = sigmoid(mx[U + i] + mh[U + i]);
            // (r * h) times the candidate's columns of R
            double rh = 0;
            for (size_t v = 0; v < U; ++v)
              rh += sigmoid(mx[U + v] + mh[U + v]) * h[v] * R[v * size_t(n) + 2 * U + i];
            (void)r;
            next[i] = z * h[i] + (1 - z) * std::tanh(mx[2 * U + i] + rh);
            break;
          }
        }
      }
      h = next;
      if (c.sequences) seq[size_t(bt)].insert(seq[size_t(bt)].end(), h.begin(), h.end());
    }
    if (!c.sequences) seq[size_t(bt)] = h;
  }
  for (const Vec& v : seq) out.insert(out.end(), v.begin(), v.end());
  return out;
}

}  // namespace

class TestKerasRnn : public QObject {
  Q_OBJECT
 private slots:
  void layers_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kCases)); ++i) QTest::newRow(kCases[i].name) << i;
  }

  void layers() {
    QFETCH(int, index);
    const Case& c = kCases[index];
    TracedProgram p;
    try {
      p = traceProgram(script(c), "rnn.gls");
    } catch (const EngineError& e) {
      QFAIL(e.what());
    }
    const std::vector<std::string> names{"out", "loss", "k", "rk", "bb", "gx", "gk", "grk", "gb"};
    std::vector<Value> f;
    for (const auto& n : names) {
      f.push_back(outputValue(p, n));
      QVERIFY2(f.back().valid(), n.c_str());
    }
    const std::vector<Tensor> v = gltest::runEveryExecutor(*p.graph, f, 1e-12);
    // Keras's shapes: kernel [2, g 3], recurrent_kernel [3, g 3].
    const int64_t g = c.kind == Kind::Simple ? 1 : c.kind == Kind::Lstm ? 4 : 3;
    QVERIFY(v[2].shape() == (Shape{kF, g * kU}));
    QVERIFY(v[3].shape() == (Shape{kU, g * kU}));
    QVERIFY(v[4].shape() == (c.kind == Kind::Gru ? Shape{2, g * kU} : Shape{g * kU}));
    // recurrent_kernel is orthogonal (Keras's default): [3, 3 g] with orthonormal rows.
    for (int i = 0; i < kU; ++i)
      for (int j = 0; j < kU; ++j) {
        double d = 0;
        for (int k = 0; k < g * kU; ++k) d += v[3].at(i * g * kU + k) * v[3].at(j * g * kU + k);
        QVERIFY(std::abs(d - (i == j)) < 1e-12);
      }
    const Vec want = reference(c, values(v[2]), values(v[3]), values(v[4]));
    QCOMPARE(v[0].numel(), int64_t(want.size()));
    for (size_t i = 0; i < want.size(); ++i)
      QVERIFY2(std::abs(v[0].at(int64_t(i)) - want[i]) < 1e-12,
               qPrintable(QString("out[%1] = %2, Keras's formula gives %3")
                              .arg(i)
                              .arg(v[0].at(int64_t(i)), 0, 'g', 17)
                              .arg(want[i], 0, 'g', 17)));
    // Gradients by x, kernel, recurrent_kernel, bias against central differences.
    const Value lossV = f[1];
    const Value wrt[] = {outputValue(p, "xv"), f[2], f[3], f[4]};
    for (int w = 0; w < 4; ++w) {
      QVERIFY(wrt[w].valid());
      Node& node = p.graph->node(wrt[w]);
      const Tensor base = node.value;
      const Tensor& grad = v[size_t(5 + w)];
      QCOMPARE(grad.numel(), base.numel());
      for (int64_t i = 0; i < base.numel(); ++i) {
        const double h = 1e-6;
        double l[2];
        for (int side = 0; side < 2; ++side) {
          Tensor moved = base.clone();
          moved.data<double>()[i] += side ? -h : h;
          node.value = moved;
          l[side] = evaluate(*p.graph, {lossV}).at(0).item();
        }
        node.value = base;
        const double fd = (l[0] - l[1]) / (2 * h);
        QVERIFY2(std::abs(grad.at(i) - fd) < 1e-7 * (1 + std::abs(fd)),
                 qPrintable(QString("d loss / d %1[%2] = %3, finite differences %4")
                                .arg(names[size_t(w == 0 ? 0 : w + 1)].c_str())
                                .arg(i)
                                .arg(grad.at(i), 0, 'g', 12)
                                .arg(fd, 0, 'g', 12)));
      }
    }
  }

  // A cell called on its own: (output, [h]) and (output, [h, c]); return_state's extra states.
  void cellsAndStates() {
    const auto p = traceProgram(
        "x = tf.constant([[0.5, -1.0]])\n"
        "cell = tf.keras.layers.SimpleRNNCell(2, kernel_initializer='ones', "
        "recurrent_initializer='ones')\n"
        "out, st = cell(x, [tf.constant([[0.1, 0.2]])])\n"
        "lstm = tf.keras.layers.LSTMCell(2, kernel_initializer='zeros', "
        "recurrent_initializer='zeros')\n"
        "o2, s2 = lstm(x, [tf.zeros([1, 2]), tf.ones([1, 2])])\n"
        "c2 = s2[1]\n"
        "seq = tf.ones([1, 4, 2])\n"
        "y, hs, cs = tf.keras.layers.LSTM(2, return_state=True)(seq)\n"
        "hy = y - hs\n",
        "cells.gls");
    const auto v = gltest::runEveryExecutor(*p.graph, {outputValue(p, "out"), outputValue(p, "c2"),
                                                       outputValue(p, "o2"), outputValue(p, "hy")});
    // SimpleRNN: tanh(0.5 - 1.0 + 0.1 + 0.2) in both units.
    QVERIFY(std::abs(v[0].at(0) - std::tanh(-0.2)) < 1e-6);
    // LSTM with zero weights: gates sigmoid(0) = 0.5 except the forget gate's unit bias
    // sigmoid(1); c = sigmoid(1) * 1 + 0.5 * tanh(0), h = 0.5 tanh(c).
    const double c = 1 / (1 + std::exp(-1.0));
    QVERIFY(std::abs(v[1].at(1) - c) < 1e-6);
    QVERIFY(std::abs(v[2].at(0) - 0.5 * std::tanh(c)) < 1e-6);
    // return_state: the output is the last h.
    QCOMPARE(v[3].at(0), 0.0);
  }

  void refusals() {
    auto err = [](const std::string& s) {
      return gltest::errorText([&] { traceProgram(s + "\n", "rnn.gls"); });
    };
    QVERIFY(has(err("l = tf.keras.layers.LSTM(2, dropout=0.5)"), "dropout"));
    QVERIFY(has(err("l = tf.keras.layers.GRU(2, stateful=True)"), "stateful"));
    QVERIFY(has(err("l = tf.keras.layers.LSTM(2, kernel_regularizer='l2')"), "kernel_regularizer"));
    QVERIFY(has(err("y = tf.keras.layers.LSTM(2)(tf.ones([2, 3]))"), "rank 3"));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestKerasRnn)
#include "test_keras_rnn.moc"
