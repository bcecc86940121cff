// tf.recompute_grad recomputes: the same values and gradients as the plain function (checked
// against finite differences of an independent C++ evaluation), inside a while_loop too, and
// a lower tensor memory peak, since the forward pass's inner values are not kept for the
// backward pass.
#include "test_main.h"

#include "executor_kinds.h"

#include <cmath>

#include "engine/lab/session.h"

using namespace gl;
using namespace gl::lang;
using namespace gl::lab;

namespace {

const Tensor& outputTensor(const VariantRun& v, const std::string& name) {
  for (const OutputResult& o : v.outputs)
    if (o.name == name && !o.entries.empty() && !o.entries[0].none()) return o.entries[0].value.t;
  QTest::qFail(("no output " + name + " in " + v.name).c_str(), __FILE__, __LINE__);
  static const Tensor kMissing;
  return kMissing;
}

ProgramRun runScript(const std::string& src, const RunOptions& run = {}) {
  TraceOptions opt;
  const TracedProgram p = traceProgram(src, "recompute.gls", opt);
  ProgramRun r = runProgram(p, {{}, run});
  for (const VariantRun& v : r.variants)
    if (!v.ok()) QTest::qFail(v.error.c_str(), __FILE__, __LINE__);
  return r;
}

const VariantRun& variantNamed(const ProgramRun& r, const std::string& name) {
  for (const VariantRun& v : r.variants)
    if (v.name == name) return v;
  QTest::qFail(("no variant " + name).c_str(), __FILE__, __LINE__);
  static const VariantRun kMissing;
  return kMissing;
}

// The deep body of kDeepScript, in double precision: 12 layers of x <- sin(w x) + 0.1 x.
double deep(double x, double w) {
  for (int k = 0; k < 12; ++k) x = std::sin(w * x) + 0.1 * x;
  return x;
}
double deepLoss(double a, double b, double w) {
  const double u = deep(a, w), v = deep(b, w);
  return u * u + v * v;
}

const char* kDeepScript = R"(
w = tf.Variable(0.8)
x = tf.constant([0.3, -1.1])


def deep(x):
    for _ in range(12):
        x = tf.sin(w * x) + 0.1 * x
    return x


with variant("saved"):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(deep(x) ** 2)
    d_x, d_w = tape.gradient(loss, [x, w])

with variant("recomputed"):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.recompute_grad(deep)(x) ** 2)
    d_x, d_w = tape.gradient(loss, [x, w])
)";

// A loop whose body is 6 layers deep; recompute_grad wraps the body.
const char* kLoopScript = R"(
w = tf.Variable(0.8)
x0 = tf.constant([0.3, -1.1])


def deep(x):
    for _ in range(6):
        x = tf.sin(w * x) + 0.1 * x
    return x


def run(block):
    with tf.GradientTape() as tape:
        tape.watch(x0)
        _, x = tf.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1, block(x)),
                             (tf.constant(0), x0))
        loss = tf.reduce_sum(x ** 2)
    return loss, tape.gradient(loss, [x0, w])


with variant("saved"):
    loss, (d_x, d_w) = run(deep)

with variant("recomputed"):
    loss, (d_x, d_w) = run(tf.recompute_grad(deep))
)";

// 8 blocks of 8 elementwise layers on 2^16 floats (256 KiB each).
const char* kChainScript = R"(
tf.random.set_seed(0)
x0 = tf.random.normal([65536])


def block(x):
    for _ in range(8):
        x = tf.sin(x)
    return x


def chain(f):
    with tf.GradientTape() as tape:
        tape.watch(x0)
        x = x0
        for _ in range(8):
            x = f(x)
        loss = tf.reduce_sum(x)
    return tape.gradient(loss, x0)


with variant("saved"):
    g = chain(block)

with variant("recomputed"):
    g = chain(tf.recompute_grad(block))
)";

// Both scripts compute 12 layers (the loop: 2 iterations of 6).
void checkAgainstFiniteDifferences(const ProgramRun& r) {
  const double a = 0.3, b = -1.1, w = 0.8, h = 1e-6;
  const auto loss = deepLoss;
  const double fa = (loss(a + h, b, w) - loss(a - h, b, w)) / (2 * h);
  const double fb = (loss(a, b + h, w) - loss(a, b - h, w)) / (2 * h);
  const double fw = (loss(a, b, w + h) - loss(a, b, w - h)) / (2 * h);
  for (const char* name : {"saved", "recomputed"}) {
    const VariantRun& v = variantNamed(r, name);
    const Tensor& dx = outputTensor(v, "d_x");
    const Tensor& dw = outputTensor(v, "d_w");
    QVERIFY2(std::abs(outputTensor(v, "loss").at(0) - deepLoss(a, b, w)) < 1e-4, name);
    QVERIFY2(std::abs(dx.at(0) - fa) < 1e-3 * std::max(1.0, std::abs(fa)), name);
    QVERIFY2(std::abs(dx.at(1) - fb) < 1e-3 * std::max(1.0, std::abs(fb)), name);
    QVERIFY2(std::abs(dw.at(0) - fw) < 1e-3 * std::max(1.0, std::abs(fw)), name);
  }
}

}  // namespace

class TestRecomputeGrad : public QObject {
  Q_OBJECT
 private slots:
  void deepBodyMatchesFiniteDifferences() {
    for (const RunOptions& run : gltest::everyExecutor())
      checkAgainstFiniteDifferences(runScript(kDeepScript, run));
  }

  void loopBodyMatchesFiniteDifferences() {
    for (const RunOptions& run : gltest::everyExecutor())
      checkAgainstFiniteDifferences(runScript(kLoopScript, run));
  }

  // The backward pass traces the body again: the recomputed variant holds two copies of its
  // sin layers (sin's VJP itself uses cos).
  void backwardPassRunsTheBodyAgain() {
    const TracedProgram p = traceProgram(kChainScript, "chain.gls", TraceOptions{});
    int sins = 0;
    for (const Node& n : p.graph->nodes()) sins += n.opName() == "sin";
    // saved: 64 sins; recomputed: 64 in the forward pass + 64 in the backward pass.
    QCOMPARE(sins, 64 + 64 + 64);
  }

  // Saved: all 64 layer inputs stay alive until the backward pass (64 x 256 KiB = 16 MiB).
  // Recomputed: the 8 block boundaries plus one block's layers at a time (~4 MiB).
  void recomputingLowersThePeak() {
    const ProgramRun r = runScript(kChainScript);
    const VariantRun& saved = variantNamed(r, "saved");
    const VariantRun& recomputed = variantNamed(r, "recomputed");
    const Tensor& a = outputTensor(saved, "g");
    const Tensor& b = outputTensor(recomputed, "g");
    QCOMPARE(a.numel(), int64_t(65536));
    double maxDiff = 0;
    for (int64_t i = 0; i < a.numel(); ++i)
      maxDiff = std::max(maxDiff, std::abs(a.at(i) - b.at(i)));
    QVERIFY2(maxDiff < 1e-6, qPrintable(QString::number(maxDiff)));
    const size_t ps = saved.run.peakBytes, pr = recomputed.run.peakBytes;
    QVERIFY2(ps >= size_t(16) << 20, qPrintable(QString::number(ps)));
    QVERIFY2(pr * 2 < ps, qPrintable(QString("saved %1 recomputed %2").arg(ps).arg(pr)));
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestRecomputeGrad)
#include "test_recompute_grad.moc"
