// Walks the registry: every primitive with a batching rule, applied to a batch of 3 examples
// (built from its grad-check cases, each subset of the inputs batched), gives what running the
// primitive once per example and stacking gives, in values and in gradients with respect to
// every input (float64, through the batched graph and through the per-example one).
#include "test_main.h"

#include <cmath>

#include "../helpers.h"
#include "engine/autodiff/tape.h"
#include "engine/ops/api.h"
#include "engine/ops/batch_rules.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

using namespace gl;
namespace o = gl::ops;

namespace {

constexpr int kBatch = 3;

// Example inputs for entries without grad-check cases (comparisons, logic, *_like, argmax).
std::vector<GradCheckCase> casesOf(const Primitive& p) {
  if (!p.gradChecks.empty()) return p.gradChecks;
  Rng rng(7);
  auto floats = [&](const Shape& s) { return rng.normal(s, 0, 1, DType::F64); };
  auto bools = [&](const Shape& s) {
    Tensor t = Tensor::empty(DType::Bool, s);
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, rng.uniform() < 0.5);
    return t;
  };
  const bool logic = p.name.rfind("logical_", 0) == 0;
  auto gen = [&](const Shape& s) { return logic ? bools(s) : floats(s); };
  if (p.name == "argmax") return {{{floats({3, 4})}, {{"axis", int64_t(1)}}}};
  if (p.arity == 1) return {{{gen({3, 4})}, {}}};
  if (p.arity == 2) return {{{gen({3, 4}), gen({4})}, {}}, {{gen({2, 1}), gen({2, 3})}, {}}};
  return {};
}

// Example k of a batched input: floats scaled (which keeps log's and sqrt's domains),
// indices and bools the same in every example.
Tensor example(const Tensor& t, int k) {
  if (!isFloat(t.dtype())) return t;
  Tensor out = t.clone();
  for (int64_t i = 0; i < out.numel(); ++i) out.set(i, t.at(i) * (1.0 + 0.2 * k));
  return out;
}

Tensor stacked(const Tensor& t) {
  Shape s{kBatch};
  s.insert(s.end(), t.shape().begin(), t.shape().end());
  Tensor out = Tensor::empty(t.dtype(), s);
  for (int k = 0; k < kBatch; ++k) {
    const Tensor e = example(t, k);
    for (int64_t i = 0; i < t.numel(); ++i) out.set(k * t.numel() + i, e.at(i));
  }
  return out;
}

// True for primitives with a list input or output (their shape rules say so on list types).
bool isListOp(const Primitive& p) {
  for (const char* name : {"list_new", "list_zeros", "list_write", "list_read", "list_stack",
                           "list_unstack", "list_gather", "list_scatter", "list_size", "list_add"})
    if (p.name == name) return true;
  return false;
}

double relDiff(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return INFINITY;
  double m = 0;
  for (int64_t i = 0; i < a.numel(); ++i)
    m = std::max(m, std::abs(a.at(i) - b.at(i)) / std::max(1.0, std::abs(b.at(i))));
  return m;
}

}  // namespace

class TestBatchRules : public QObject {
  Q_OBJECT
 private slots:
  void theLessonsPrimitivesHaveRules() {
    for (const char* name : {"einsum", "gather", "add", "mul", "sum", "mean", "square", "reshape",
                             "transpose", "matmul", "sin", "exp", "where", "less", "concat",
                             "stack", "softmax", "expand_dims", "squeeze"})
      QVERIFY2(Registry::instance().get(name).batch, name);
  }

  void batchedEqualsPerExample_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("mask");  // bit i: input i batched
    int rows = 0;
    for (const auto& name : Registry::instance().names()) {
      const Primitive& p = Registry::instance().get(name);
      // TensorArray ops take or make lists, which example tensors cannot stand for: they
      // are checked through round trips below (listRulesEqualPerExample).
      if (!p.batch || isListOp(p)) continue;
      const std::vector<GradCheckCase> cases = casesOf(p);
      QVERIFY2(!cases.empty(), ("no example inputs for " + name).c_str());
      for (int i = 0; i < int(cases.size()); ++i) {
        const int n = int(cases[size_t(i)].inputs.size());
        for (int mask = 1; mask < (1 << n); ++mask) {
          QTest::newRow((name + "#" + std::to_string(i) + "/" + std::to_string(mask)).c_str())
              << QString::fromStdString(name) << i << mask;
          ++rows;
        }
      }
    }
    QVERIFY(rows >= 80);
  }

  void batchedEqualsPerExample() {
    QFETCH(QString, name);
    QFETCH(int, index);
    QFETCH(int, mask);
    const Primitive& p = Registry::instance().get(name.toStdString());
    const GradCheckCase c = casesOf(p)[size_t(index)];
    Graph g;
    Builder b(g);
    RunOptions opt;
    std::vector<Value> whole, sources;
    std::vector<int> axes;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const bool batched = mask & (1 << i);
      const Tensor t = batched ? stacked(c.inputs[i]) : c.inputs[i];
      if (isFloat(t.dtype())) {
        whole.push_back(b.placeholder(t.dtype(), t.shape(), "in" + std::to_string(i)));
        opt.feeds[whole.back().node] = t;
        sources.push_back(whole.back());
      } else {
        whole.push_back(b.constant(t));
      }
      axes.push_back(batched ? 0 : -1);
    }
    GradientTape tape(b, true);
    for (Value s : sources) tape.watch(s);
    // Per example: slice k of each batched input, the primitive, then stack.
    std::vector<std::vector<Value>> perOut;
    for (int k = 0; k < kBatch; ++k) {
      std::vector<Value> ins;
      for (size_t i = 0; i < whole.size(); ++i)
        ins.push_back(axes[i] < 0
                          ? whole[i]
                          : o::gather(b, whole[i], b.constant(Tensor::scalar(k, DType::I32))));
      perOut.push_back(b.op(p.name, ins, c.attrs));
    }
    std::vector<Value> reference;
    for (size_t j = 0; j < perOut[0].size(); ++j) {
      std::vector<Value> parts;
      for (int k = 0; k < kBatch; ++k) parts.push_back(perOut[size_t(k)][j]);
      reference.push_back(o::stack(b, parts));
    }
    std::vector<Value> batched;
    try {
      batched = p.batch(b, p, whole, axes, c.attrs);
    } catch (const EngineError& e) {
      // The combinations a rule declines (the transform loops over it instead).
      QVERIFY2((name == "gather" && mask == 3) || (name == "scatter_add" && (mask & 2)), e.what());
      return;
    }
    QCOMPARE(batched.size(), reference.size());
    for (size_t j = 0; j < batched.size(); ++j)
      QCOMPARE(QString::fromStdString(g.type(batched[j]).str()),
               QString::fromStdString(g.type(reference[j]).str()));
    // Gradients of L = sum(out * r) with the same fixed weights r for both graphs.
    Rng rng(11);
    Value lossRef, lossBatched;
    for (size_t j = 0; j < batched.size(); ++j) {
      const TypeInfo& t = g.type(batched[j]);
      if (!isFloat(t.dtype) || !p.differentiable) continue;
      Value r = b.constant(rng.normal(t.shape, 0, 1, DType::F64));
      Value a = o::reduceSum(b, o::mul(b, reference[j], r));
      Value z = o::reduceSum(b, o::mul(b, batched[j], r));
      lossRef = lossRef.valid() ? o::add(b, lossRef, a) : a;
      lossBatched = lossBatched.valid() ? o::add(b, lossBatched, z) : z;
    }
    tape.stop();
    std::vector<Value> fetches = reference;
    fetches.insert(fetches.end(), batched.begin(), batched.end());
    size_t numGrads = 0;
    if (lossRef.valid() && !sources.empty()) {
      GradResult gr = tape.gradient(lossRef, sources, Unconnected::Zero);
      GradResult gz = tape.gradient(lossBatched, sources, Unconnected::Zero);
      fetches.insert(fetches.end(), gr.grads.begin(), gr.grads.end());
      fetches.insert(fetches.end(), gz.grads.begin(), gz.grads.end());
      numGrads = sources.size();
    }
    const std::vector<Tensor> v = gltest::runEveryExecutor(g, fetches, 1e-9, opt);
    const size_t n = batched.size();
    for (size_t j = 0; j < n; ++j)
      QVERIFY2(relDiff(v[n + j], v[j]) < 1e-9, qPrintable(QString("output %1").arg(j)));
    for (size_t k = 0; k < numGrads; ++k)
      QVERIFY2(relDiff(v[2 * n + numGrads + k], v[2 * n + k]) < 1e-9,
               qPrintable(QString("gradient of input %1").arg(k)));
  }

  // The TensorArray rules on one chain that uses every list op: per example (slice k of the
  // batch, the ops, then stack) and batched (each op's rule on the whole batch) give the same
  // values and the same gradients with respect to the batch (float64).
  void listRulesEqualPerExample() {
    Graph g;
    Builder b(g);
    RunOptions opt;
    Rng rng(5);
    const Tensor xs = rng.normal({kBatch, 4, 2}, 0, 1, DType::F64);
    const Value x = b.placeholder(DType::F64, xs.shape(), "x");
    opt.feeds[x.node] = xs;
    const Value shared = b.constant(rng.normal({2}, 0, 1, DType::F64));
    auto idx = [&](std::vector<double> v) {
      const int64_t n = int64_t(v.size());
      return b.constant(Tensor::fromVector(v, {n}, DType::I32));
    };
    auto at = [&](int i) { return b.constant(Tensor::scalar(i, DType::I32)); };
    const Attrs f64{{"dtype", std::string("float64")}, {"elem_shape", Shape{2}}};
    // One op: per example (batched = false) its primitive; batched, its rule with `axes`.
    auto call = [&](bool batched, const char* name, std::vector<Value> in, std::vector<int> axes,
                    const Attrs& a) {
      const Primitive& p = Registry::instance().get(name);
      if (!batched) return b.op1(name, in, a);
      if (in.empty()) {  // list_new / list_zeros learn the batch size from the batch itself
        in = {x};
        axes = {0};
      }
      return p.batch(b, p, in, axes, a).at(0);
    };
    auto chain = [&](bool B, Value e) {
      const Value l1 = call(B, "list_unstack", {e}, {0}, {});
      const Value r = call(B, "list_read", {l1, at(1)}, {0, -1}, {});
      const Value gth = call(B, "list_gather", {l1, idx({3, 0})}, {0, -1}, {});
      Attrs newAttrs = f64;
      newAttrs.set("size", int64_t(3));
      Value l2 = call(B, "list_new", {}, {}, newAttrs);
      l2 = call(B, "list_write", {l2, at(0), o::mul(b, r, b.scalar(2.0, DType::F64))}, {0, -1, 0},
                {});
      l2 = call(B, "list_write", {l2, at(1), shared}, {0, -1, -1}, {});  // a shared value
      l2 = call(B, "list_write", {l2, at(2), o::mul(b, r, r)}, {0, -1, 0}, {});
      const Value st = call(B, "list_stack", {l2}, {0}, {{"size", int64_t(3)}});
      const Value size = o::cast(b, call(B, "list_size", {l2}, {0}, {}), DType::F64);
      Value lz = call(B, "list_zeros", {}, {}, f64);
      lz = call(B, "list_write", {lz, at(2), r}, {0, -1, 0}, {});
      const Value ls = call(B, "list_scatter", {idx({1, 3}), gth}, {-1, 0}, {});
      const Value la = call(B, "list_add", {lz, ls}, {0, 0}, {});
      const Value st2 =
          call(B, "list_stack", {la}, {0}, {{"size", int64_t(4)}, {"min_size", int64_t(4)}});
      return std::vector<Value>{st, size, gth, st2};
    };
    GradientTape tape(b, true);
    tape.watch(x);
    std::vector<std::vector<Value>> perExample;
    for (int k = 0; k < kBatch; ++k)
      perExample.push_back(
          chain(false, o::gather(b, x, b.constant(Tensor::scalar(k, DType::I32)))));
    const std::vector<Value> batched = chain(true, x);
    std::vector<Value> reference;
    for (size_t j = 0; j < batched.size(); ++j) {
      std::vector<Value> parts;
      for (int k = 0; k < kBatch; ++k) parts.push_back(perExample[size_t(k)][j]);
      reference.push_back(o::stack(b, parts));
      QCOMPARE(QString::fromStdString(g.type(batched[j]).str()),
               QString::fromStdString(g.type(reference[j]).str()));
    }
    Value lossRef, lossBatched;
    for (size_t j = 0; j < batched.size(); ++j) {
      Value r = b.constant(rng.normal(g.type(batched[j]).shape, 0, 1, DType::F64));
      Value a = o::reduceSum(b, o::mul(b, reference[j], r));
      Value z = o::reduceSum(b, o::mul(b, batched[j], r));
      lossRef = lossRef.valid() ? o::add(b, lossRef, a) : a;
      lossBatched = lossBatched.valid() ? o::add(b, lossBatched, z) : z;
    }
    tape.stop();
    std::vector<Value> fetches = reference;
    fetches.insert(fetches.end(), batched.begin(), batched.end());
    fetches.push_back(tape.gradient(lossRef, {x}).grads.at(0));
    fetches.push_back(tape.gradient(lossBatched, {x}).grads.at(0));
    const std::vector<Tensor> v = gltest::runEveryExecutor(g, fetches, 1e-9, opt);
    const size_t n = batched.size();
    for (size_t j = 0; j < n; ++j)
      QVERIFY2(relDiff(v[n + j], v[j]) < 1e-9, qPrintable(QString("output %1").arg(j)));
    QVERIFY2(relDiff(v[2 * n + 1], v[2 * n]) < 1e-9, "gradient");
    double norm = 0;  // the gradient is not trivially zero
    for (int64_t i = 0; i < v[2 * n].numel(); ++i) norm += std::abs(v[2 * n].at(i));
    QVERIFY(norm > 0.1);
  }

  // A rule that cannot apply says why (the transform then loops over that node).
  void gatherWithBothBatchedSaysWhy() {
    Graph g;
    Builder b(g);
    Value params = b.constant(Tensor::zeros(DType::F32, {3, 4}));
    Value idx = b.constant(Tensor::zeros(DType::I32, {3, 2}));
    const Primitive& p = Registry::instance().get("gather");
    try {
      p.batch(b, p, {params, idx}, {0, 0}, {{"axis", int64_t(0)}});
      QFAIL("expected an error");
    } catch (const EngineError& e) {
      QVERIFY2(QString(e.what()).contains("batched params and batched indices"), e.what());
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestBatchRules)
#include "test_batch_rules.moc"
