// Walks the whole primitive registry, with no list of exceptions: every entry states its math
// (two lines, the second a gradient for differentiable entries) and has a shape rule and a
// forward kernel; every differentiable entry has a VJP and grad-check cases, or says in
// noGradCheck why it has none; and each VJP, built as graph nodes and run by the executor,
// matches central finite differences in float64 -- once with the inputs' static shapes, and
// once with every dimension unknown at trace time (each float input through relax_shape, as a
// loop variable with shape_invariants=[None, ...] or a dynamic TensorArray's stack is), so no
// VJP can take a static dimension for the run-time one.
#include "test_main.h"

#include <cmath>
#include <set>

#include "../helpers.h"
#include "engine/autodiff/tape.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"
#include "fd_check.h"

using namespace gl;
namespace o = gl::ops;

namespace {

// The second math line of a differentiable entry states its gradient: "dy/dx = ...",
// "dx = ...", "d(g) = ...".
bool isGradientLine(const QString& line) {
  return line.startsWith(QLatin1Char('d')) && line.contains(QLatin1Char('='));
}

// What is wrong with entry p, one line per problem; empty = nothing.
QStringList problemsOf(const Primitive& p) {
  QStringList r;
  const QString n = QString::fromStdString(p.name);
  if (p.name.empty()) r << "an entry has no name";
  if (!p.shape) r << n + ": no shape rule";
  if (!p.forward) r << n + ": no forward kernel";
  const QString math = QString::fromStdString(p.math);
  const QStringList lines = math.split(QLatin1Char('\n'));
  if (math.trimmed().isEmpty())
    r << n + ": no math";
  else if (lines.size() != 2 || lines[0].trimmed().isEmpty() || lines[1].trimmed().isEmpty())
    r << n + ": the math must be two non-empty lines, the forward and the gradient: " + math;
  else if (p.differentiable && !isGradientLine(lines[1]))
    r << n + ": differentiable, but the second math line is no gradient (d.. = ..): " + lines[1];
  if (p.differentiable && !p.vjp) r << n + ": differentiable but has no VJP";
  if (p.differentiable && p.gradChecks.empty() && p.noGradCheck.empty())
    r << n + ": differentiable, with no gradChecks and no noGradCheck saying why";
  if (!p.gradChecks.empty() && !p.noGradCheck.empty())
    r << n + ": has gradChecks and also a noGradCheck reason";
  for (size_t i = 0; i < p.gradChecks.size(); ++i)
    if (p.arity >= 0 && int(p.gradChecks[i].inputs.size()) != p.arity)
      r << n + QString(": grad-check case %1 has %2 inputs, the arity is %3")
                   .arg(i)
                   .arg(p.gradChecks[i].inputs.size())
                   .arg(p.arity);
  return r;
}

// A complete, differentiable fake entry: y = 2x.
Primitive fakeEntry() {
  Primitive p;
  p.name = "fake_double";
  p.math = "y = 2x\ndy/dx = 2";
  p.arity = 1;
  p.shape = [](const Types& in, const Attrs&) { return in; };
  p.forward = tensorKernel([](const Tensors& in, const Attrs&) { return in; });
  p.vjp = [](VjpContext& c) -> std::vector<Value> { return {o::scale(c.b, c.gout[0], 2)}; };
  p.gradChecks = {{{Tensor::scalar(1.0, DType::F64)}, {}}};
  return p;
}

}  // namespace

// Grad-check cases ("entry#index") whose VJP needs a static size and refuses a dimension
// unknown while tracing, with an error naming it (a gap, issue #28: TF builds these from the
// run-time shape too).
bool refusesUnknownDims(const std::string& row) {
  static const std::set<std::string> kRefuse{"conv2d_backprop_filter_pooled#0",
                                             "conv2d_backprop_filter_pooled#1",
                                             "einsum#5",
                                             "einsum#6",
                                             "qr#0",
                                             "qr#1",
                                             "qr#2",
                                             "qr#3",
                                             "reshape#0",
                                             "sort#0",
                                             "sort#1",
                                             "svd#6",
                                             "tile#0",
                                             "tile#1"};
  return kRefuse.count(row) > 0;
}

class TestRegistry : public QObject {
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

  // Every entry, no exceptions: a differentiable entry without a VJP, or without grad-check
  // cases and no stated reason, fails here.
  void everyEntryIsComplete() {
    const auto names = Registry::instance().names();
    QVERIFY(names.size() >= 70);
    QStringList problems;
    for (const auto& name : names) problems << problemsOf(Registry::instance().get(name));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
  }

  // The walk above would catch each kind of incomplete entry.
  void problemsOfFindsIncompleteEntries_data() {
    QTest::addColumn<int>("variant");
    QTest::addColumn<QString>("problem");  // empty = none expected
    QTest::newRow("complete") << 0 << QString();
    QTest::newRow("no VJP") << 1 << "no VJP";
    QTest::newRow("no grad checks") << 2 << "no noGradCheck";
    QTest::newRow("no grad checks, a reason") << 3 << QString();
    QTest::newRow("one-line math") << 4 << "two non-empty lines";
    QTest::newRow("no gradient line") << 5 << "no gradient";
    QTest::newRow("empty math") << 6 << "no math";
    QTest::newRow("not differentiable") << 7 << QString();
    QTest::newRow("wrong arity") << 8 << "arity";
    QTest::newRow("checks and a reason") << 9 << "also a noGradCheck";
  }

  void problemsOfFindsIncompleteEntries() {
    QFETCH(int, variant);
    QFETCH(QString, problem);
    Primitive p = fakeEntry();
    switch (variant) {
      case 1:
        p.vjp = nullptr;
        break;
      case 2:
        p.gradChecks.clear();
        break;
      case 3:
        p.gradChecks.clear();
        p.noGradCheck = "a reason";
        break;
      case 4:
        p.math = "y = 2x";
        break;
      case 5:
        p.math = "y = 2x\nno gradient";
        break;
      case 6:
        p.math.clear();
        break;
      case 7:
        p.differentiable = false;
        p.vjp = nullptr;
        p.gradChecks.clear();
        p.math = "y = 2x\n(not differentiable)";
        break;
      case 8:
        p.arity = 2;
        break;
      case 9:
        p.noGradCheck = "a reason";
        break;
      default:
        break;
    }
    const QStringList found = problemsOf(p);
    if (problem.isEmpty())
      QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    else
      QVERIFY2(found.size() == 1 && found[0].contains(problem),
               qPrintable(found.join(QLatin1Char('\n'))));
  }

  // One row per grad-check case of every entry that has any.
  void gradcheck_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    QTest::addColumn<bool>("unknownDims");
    int checked = 0;
    for (const auto& name : Registry::instance().names()) {
      const Primitive& p = Registry::instance().get(name);
      if (p.differentiable)
        QVERIFY2(!p.gradChecks.empty() || !p.noGradCheck.empty(),
                 ("no grad-check case for " + name).c_str());
      for (int i = 0; i < int(p.gradChecks.size()); ++i) {
        for (bool unknown : {false, true})
          QTest::newRow((name + "#" + std::to_string(i) + (unknown ? " unknown dims" : "")).c_str())
              << QString::fromStdString(name) << i << unknown;
        ++checked;
      }
    }
    QVERIFY(checked >= 40);
  }

  void gradcheck() {
    QFETCH(QString, name);
    QFETCH(int, index);
    QFETCH(bool, unknownDims);
    const Primitive& p = Registry::instance().get(name.toStdString());
    QVERIFY2(p.differentiable && p.vjp, qPrintable(name + " has grad-check cases but no VJP"));
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
    if (unknownDims)  // recorded by the tape, so the gradient flows back through it
      for (size_t k = 0; k < sources.size(); ++k) {
        const size_t i = size_t(srcInput[k]);
        ins[i] = b.op1("relax_shape", {ins[i]},
                       {{"shape", Shape(c.inputs[i].shape().size(), int64_t(-1))}});
      }
    std::vector<Value> outs;
    const std::string shapeError = gltest::errorText([&] { outs = b.op(p.name, ins, c.attrs); });
    if (!shapeError.empty()) {
      // The entry itself needs those sizes (squeeze without axes, unstack): it refuses them
      // with an error when built, so there is no VJP to run.
      QVERIFY2(unknownDims && shapeError.find("known") != std::string::npos, shapeError.c_str());
      return;
    }
    // L = sum_k sum(out_k * r_k) with fixed random weights r_k, shaped as the outputs are at
    // run time (with unknown dims, the static shapes say less).
    const Tensors forward = p.run(c.inputs, c.attrs);
    QCOMPARE(forward.size(), outs.size());
    Rng rng(42);
    Value loss;
    for (size_t k = 0; k < outs.size(); ++k) {
      const TypeInfo& t = g.type(outs[k]);
      if (!isFloat(t.dtype)) continue;
      QVERIFY2(compatible(t.shape, forward[k].shape()),
               qPrintable(name + ": the static shape does not fit the run-time one"));
      Value r = b.constant(rng.normal(forward[k].shape(), 0, 1, DType::F64));
      Value out = outs[k];
      Value term = o::reduceSum(b, o::mul(b, out, r));
      loss = loss.valid() ? o::add(b, loss, term) : term;
    }
    QVERIFY(loss.valid());
    tape.stop();
    if (unknownDims && refusesUnknownDims(name.toStdString() + "#" + std::to_string(index))) {
      // A located refusal at trace time, never a wrong answer; fixing one fails this line.
      const std::string e =
          gltest::errorText([&] { tape.gradient(loss, sources, Unconnected::Zero); });
      QVERIFY2(e.find("known") != std::string::npos,
               qPrintable(name + " was listed as refusing unknown dims: " +
                          QString::fromStdString(e.empty() ? "it no longer does" : e)));
      return;
    }
    GradResult gr;
    const std::string e =
        gltest::errorText([&] { gr = tape.gradient(loss, sources, Unconnected::Zero); });
    QVERIFY2(e.empty(), e.c_str());
    RunOptions opt;
    std::vector<Tensor> base;
    for (size_t k = 0; k < sources.size(); ++k) {
      base.push_back(c.inputs[size_t(srcInput[k])]);
      opt.feeds[sources[k].node] = base.back();
    }
    std::vector<Tensor> sym = gltest::runEveryExecutor(g, gr.grads, 1e-9, opt);
    gltest_ops::expectFiniteDifferences(g, loss, sources, base, sym, opt, name, srcInput);
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestRegistry)
#include "test_registry.moc"
