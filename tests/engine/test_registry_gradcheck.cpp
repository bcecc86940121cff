// Walks the whole primitive registry: every differentiable primitive lists grad-check cases,
// and its VJP (built as graph nodes, run by the executor) matches central finite differences
// in float64.
#include <QtTest>

#include <cmath>

#include "engine/autodiff/tape.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

class TestRegistryGradcheck : public QObject {
  Q_OBJECT
 private slots:
  void everyPrimitiveHasAMathCommentAndShapeRule() {
    for (const auto& name : Registry::instance().names()) {
      const Primitive& p = Registry::instance().get(name);
      QVERIFY2(p.shape, name.c_str());
      QVERIFY2(p.forward, name.c_str());
      QVERIFY2(p.math.find('\n') != std::string::npos, ("two-line math comment: " + name).c_str());
    }
  }

  void gradcheck_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    int checked = 0;
    for (const auto& name : Registry::instance().names()) {
      const Primitive& p = Registry::instance().get(name);
      if (!p.differentiable || !p.vjp || name.rfind("list_", 0) == 0) continue;
      if (name == "stop_gradient") continue;
      QVERIFY2(!p.gradChecks.empty(), ("no grad-check case for " + name).c_str());
      for (int i = 0; i < int(p.gradChecks.size()); ++i) {
        QTest::newRow((name + "#" + std::to_string(i)).c_str())
            << QString::fromStdString(name) << i;
        ++checked;
      }
    }
    QVERIFY(checked >= 40);
  }

  void gradcheck() {
    QFETCH(QString, name);
    QFETCH(int, index);
    const Primitive& p = Registry::instance().get(name.toStdString());
    const GradCheckCase& c = p.gradChecks[size_t(index)];
    Graph g;
    Builder b(g);
    std::vector<Value> ins, sources;
    std::vector<int> srcInput;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const Tensor& t = c.inputs[i];
      if (isFloat(t.dtype())) {
        QCOMPARE(t.dtype(), DType::F64);
        ins.push_back(b.placeholder(t.dtype(), t.shape(), "in" + std::to_string(i)));
        sources.push_back(ins.back());
        srcInput.push_back(int(i));
      } else {
        ins.push_back(b.constant(t));
      }
    }
    GradientTape tape(b);
    for (Value s : sources) tape.watch(s);
    std::vector<Value> outs = b.op(p.name, ins, c.attrs);
    // L = sum_k sum(out_k * r_k) with fixed random weights r_k.
    Rng rng(42);
    Value loss;
    for (Value out : outs) {
      const TypeInfo& t = g.type(out);
      if (!isFloat(t.dtype)) continue;
      Value r = b.constant(rng.normal(t.shape, 0, 1, DType::F64));
      Value term = o::reduceSum(b, o::mul(b, out, r));
      loss = loss.valid() ? o::add(b, loss, term) : term;
    }
    QVERIFY(loss.valid());
    tape.stop();
    GradResult gr = tape.gradient(loss, sources, Unconnected::Zero);
    RunOptions opt;
    for (size_t k = 0; k < sources.size(); ++k)
      opt.feeds[sources[k].node] = c.inputs[size_t(srcInput[k])];
    std::vector<Tensor> sym = gltest::runBoth(g, gr.grads, 1e-9, opt);
    const double h = 1e-6;
    for (size_t k = 0; k < sources.size(); ++k) {
      const Tensor base = c.inputs[size_t(srcInput[k])];
      const int64_t n = base.numel();
      const int64_t stride = std::max<int64_t>(1, n / 25);  // at most ~25 probes per input
      for (int64_t e = 0; e < n; e += stride) {
        double f[2];
        for (int s = 0; s < 2; ++s) {
          Tensor x = base.clone();
          x.set(e, x.at(e) + (s ? -h : h));
          RunOptions o2 = opt;
          o2.feeds[sources[k].node] = x;
          o2.timeline = false;
          f[s] = evaluate(g, {loss}, o2)[0].item();
        }
        const double num = (f[0] - f[1]) / (2 * h);
        const double got = sym[k].at(e);
        const double tol = 1e-5 + 1e-4 * std::abs(num);
        QVERIFY2(std::abs(num - got) <= tol,
                 qPrintable(QString("%1 input %2 element %3: vjp %4, finite differences %5")
                                .arg(name)
                                .arg(srcInput[k])
                                .arg(e)
                                .arg(got)
                                .arg(num)));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestRegistryGradcheck)
#include "test_registry_gradcheck.moc"
