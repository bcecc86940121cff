// The TensorArray primitives (list_ops.cpp) through round trips: write then read or stack,
// unstack then read, stack or gather, scatter then gather, zeros plus add. Each round trip is a
// graph run on both executors; its values are compared with what the tensors in it must give,
// and its gradient (taped, reverse mode through the list VJPs) with finite differences. The list
// ops cannot be grad-checked by the registry walk (their operands are lists); this file is where
// their noGradCheck points.
#include "test_main.h"

#include <memory>
#include <set>
#include <string>

#include "../helpers.h"
#include "engine/autodiff/tape.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"
#include "fd_check.h"
#include "op_test_util.h"

using namespace gl;
using namespace gltest_ops;
namespace o = gl::ops;

namespace {

// Every primitive some round trip ran, forward or backward.
std::set<std::string>& covered() {
  static std::set<std::string> s;
  return s;
}

// A round trip: float64 inputs fed to placeholders, a tape over the ops built between
// record() and check(), and a check of values and gradients.
class RoundTrip {
 public:
  RoundTrip() : b_(g_) {}

  // A float64 input (a watched placeholder fed `t`).
  Value input(const Tensor& t) {
    const Value v = b_.placeholder(t.dtype(), t.shape(), "in" + std::to_string(base_.size()));
    sources_.push_back(v);
    base_.push_back(t);
    opt_.feeds[v.node] = t;
    return v;
  }
  Value index(int i) { return b_.scalar(i, DType::I32); }
  Value indices(const std::vector<double>& v) {
    return b_.constant(Tensor::fromVector(v, {int64_t(v.size())}, DType::I32));
  }
  Builder& b() { return b_; }

  void record() {
    tape_ = std::make_unique<GradientTape>(b_);
    for (Value s : sources_) tape_->watch(s);
  }

  // Runs `outs` on both executors and returns their values; the gradient of
  // L = sum_k sum(out_k * r_k), with fixed random weights r_k, must match finite differences.
  std::vector<Tensor> check(const std::vector<Value>& outs, const QString& what) {
    Rng rng(7);
    Value loss;
    for (Value out : outs) {
      const Value r = b_.constant(rng.normal(g_.type(out).shape, 0, 1, DType::F64));
      const Value term = o::reduceSum(b_, o::mul(b_, out, r));
      loss = loss.valid() ? o::add(b_, loss, term) : term;
    }
    tape_->stop();
    const GradResult gr = tape_->gradient(loss, sources_, Unconnected::Zero);
    std::vector<Value> fetches = outs;
    fetches.insert(fetches.end(), gr.grads.begin(), gr.grads.end());
    const std::vector<Tensor> all = gltest::runEveryExecutor(g_, fetches, 1e-12, opt_);
    const std::vector<Tensor> sym(all.begin() + long(outs.size()), all.end());
    std::vector<int> ids;
    for (size_t k = 0; k < sources_.size(); ++k) ids.push_back(int(k));
    expectFiniteDifferences(g_, loss, sources_, base_, sym, opt_, what, ids);
    for (int i = 0; i < g_.numNodes(); ++i)
      if (g_.node(i).prim) covered().insert(g_.node(i).prim->name);
    return {all.begin(), all.begin() + long(outs.size())};
  }

  // How many nodes run primitive `name`.
  int count(const std::string& name) const {
    int n = 0;
    for (int i = 0; i < g_.numNodes(); ++i) n += runs(g_.node(i), Registry::instance().get(name));
    return n;
  }

 private:
  Graph g_;
  Builder b_;
  std::unique_ptr<GradientTape> tape_;
  std::vector<Value> sources_;
  std::vector<Tensor> base_;
  RunOptions opt_;
};

Attrs newList(int64_t size, const Shape& elem = {}) {
  return Attrs{{"dtype", std::string("float64")}, {"size", size}, {"elem_shape", elem}};
}

Tensor randn(uint64_t seed, const Shape& s) { return Rng(seed).normal(s, 0, 1, DType::F64); }

// Row i of a [n, ...] tensor.
Tensor row(const Tensor& t, int64_t i) {
  return runAll("unstack", {t}, {{"axis", int64_t(0)}}).at(size_t(i));
}

Tensor stacked(const Tensors& rows) { return run("stack", rows, {{"axis", int64_t(0)}}); }

}  // namespace

class TestListOps : public QObject {
  Q_OBJECT
 private slots:
  // list_new, list_write, list_read, list_stack, list_size.
  void writeThenReadAndStack() {
    RoundTrip t;
    const Tensor x0 = randn(1, {2, 3}), x1 = randn(2, {2, 3}), x2 = randn(3, {2, 3});
    Value v0 = t.input(x0), v1 = t.input(x1), v2 = t.input(x2);
    t.record();
    Builder& b = t.b();
    Value ta = b.op1("list_new", {}, newList(3, {2, 3}));
    ta = b.op1("list_write", {ta, t.index(0), v0});
    ta = b.op1("list_write", {ta, t.index(2), v2});
    ta = b.op1("list_write", {ta, t.index(1), v1});
    const Value read = b.op1("list_read", {ta, t.index(1)});
    const Value all = b.op1("list_stack", {ta}, {{"size", int64_t(3)}});
    const Value size = b.op1("list_size", {ta});
    const Value sizeF = o::cast(b, size, DType::F64);  // int32: joins the loss as a constant term
    const auto out = t.check({read, all, sizeF}, "write/read/stack");
    expectClose(out[0], x1, 0, "read(1)");
    expectClose(out[1], stacked({x0, x1, x2}), 0, "stack");
    QCOMPARE(out[2].item(), 3.0);
  }

  // A dynamic-size list grows on writes past its end; stack sees every entry.
  void dynamicSizeGrowsOnWrite() {
    RoundTrip t;
    const Tensor x = randn(4, {3});
    Value v = t.input(x);
    t.record();
    Builder& b = t.b();
    Attrs a = newList(0, {3});
    a.set("dynamic_size", true);
    Value ta = b.op1("list_new", {}, a);
    ta = b.op1("list_write", {ta, t.index(0), o::scale(b, v, 2.0)});
    ta = b.op1("list_write", {ta, t.index(1), o::sin(b, v)});
    const auto out = t.check({b.op1("list_stack", {ta}, {{"size", int64_t(2)}})}, "dynamic");
    Tensor twice = x.clone(), sines = x.clone();
    for (int64_t i = 0; i < x.numel(); ++i)
      twice.set(i, 2 * x.at(i)), sines.set(i, std::sin(x.at(i)));
    expectClose(out[0], stacked({twice, sines}), 1e-15, "stack of a grown list");
  }

  // list_unstack, then list_read, list_stack and list_gather (repeated indices) of the same
  // list: three consumers, so the adjoint lists are summed with list_add.
  void unstackThenReadStackGather() {
    RoundTrip t;
    const Tensor x = randn(5, {4, 3});
    Value v = t.input(x);
    t.record();
    Builder& b = t.b();
    const Value ta = b.op1("list_unstack", {v});
    const Value r2 = b.op1("list_read", {ta, t.index(2)});
    const Value back = b.op1("list_stack", {ta}, {{"size", int64_t(4)}});
    const Value picked = b.op1("list_gather", {ta, t.indices({3, 0, 3})});
    const auto out = t.check({r2, back, picked}, "unstack/read/stack/gather");
    expectClose(out[0], row(x, 2), 0, "read(2)");
    expectClose(out[1], x, 0, "stack(unstack(x))");
    expectClose(out[2], stacked({row(x, 3), row(x, 0), row(x, 3)}), 0, "gather([3, 0, 3])");
    QVERIFY(t.count("list_add") >= 1);
  }

  // list_scatter adds into zeros (repeated indices sum; unscattered entries read as zeros), and
  // list_gather reads it back; the adjoint of each is the other.
  void scatterThenGather() {
    RoundTrip t;
    const Tensor x = randn(6, {4, 2});
    Value v = t.input(x);
    t.record();
    Builder& b = t.b();
    const Value ta = b.op1("list_scatter", {t.indices({1, 3, 1, 0}), v});
    const Value back = b.op1("list_gather", {ta, t.indices({0, 1, 2, 3})});
    const Value size = o::cast(b, b.op1("list_size", {ta}), DType::F64);
    const auto out = t.check({back, size}, "scatter/gather");
    const Tensor zero = Tensor::zeros(DType::F64, {2});
    const Tensor sum02 = run("add", {row(x, 0), row(x, 2)});
    expectClose(out[0], stacked({row(x, 3), sum02, zero, row(x, 1)}), 1e-15, "gather(scatter)");
    QCOMPARE(out[1].item(), 4.0);             // entries 0..3, entry 2 never scattered to
    QCOMPARE(t.count("list_gather"), 1 + 1);  // forward, and the adjoint of list_scatter
  }

  // list_zeros plus list_add: an entry written on one side only is copied; entries written on
  // both sides are summed; an entry written on neither reads as zeros.
  void zerosPlusAdd() {
    RoundTrip t;
    const Tensor x = randn(7, {3}), y = randn(8, {3, 3});
    Value vx = t.input(x), vy = t.input(y);
    t.record();
    Builder& b = t.b();
    const Attrs zeros{{"dtype", std::string("float64")}, {"elem_shape", Shape{3}}};
    const Value z = b.op1("list_zeros", {}, zeros);
    const Value a = b.op1("list_write", {z, t.index(1), vx});
    const Value c = b.op1("list_add", {a, b.op1("list_unstack", {vy})});
    const Value sum = b.op1("list_stack", {c}, {{"size", int64_t(3)}});
    const Value d = b.op1("list_add", {b.op1("list_zeros", {}, zeros), a});
    const Value d0 = b.op1("list_read", {d, t.index(0)});
    const Value d1 = b.op1("list_read", {d, t.index(1)});
    const auto out = t.check({sum, d0, d1}, "zeros + add");
    expectClose(out[0], stacked({row(y, 0), run("add", {x, row(y, 1)}), row(y, 2)}), 1e-15,
                "stack(write(zeros, 1, x) + unstack(y))");
    expectClose(out[1], Tensor::zeros(DType::F64, {3}), 0, "zeros read where nothing was written");
    expectClose(out[2], x, 0, "zeros + write(zeros, 1, x) at 1");
  }

  // Writes are functional: ta2 and ta3 are both written from ta1 (ta3 after ta2 reused ta1's
  // storage), and ta1, read after both, still has only its own entry.
  void writesFromOneListKeepItsEntries() {
    RoundTrip t;
    const Tensor x = randn(9, {2}), y = randn(10, {2}), z = randn(11, {2});
    Value vx = t.input(x), vy = t.input(y), vz = t.input(z);
    t.record();
    Builder& b = t.b();
    Attrs a = newList(0, {2});
    a.set("dynamic_size", true);
    const Value ta1 = b.op1("list_write", {b.op1("list_new", {}, a), t.index(0), vx});
    const Value ta2 = b.op1("list_write", {ta1, t.index(1), vy});
    const Value ta3 = b.op1("list_write", {ta1, t.index(2), o::scale(b, vz, 3.0)});
    const Value s2 = b.op1("list_stack", {ta2}, {{"size", int64_t(2)}});
    const Value r3 = b.op1("list_read", {ta3, t.index(2)});
    const Value r30 = b.op1("list_read", {ta3, t.index(0)});
    const Value r1 = b.op1("list_read", {ta1, t.index(0)});
    const Value n1 = o::cast(b, b.op1("list_size", {ta1}), DType::F64);
    const Value n3 = o::cast(b, b.op1("list_size", {ta3}), DType::F64);
    const auto out = t.check({s2, r3, r30, r1, n1, n3}, "writes from one list");
    expectClose(out[0], stacked({x, y}), 0, "ta2 = [x, y]");
    expectClose(out[1], run("mul", {z, Tensor::scalar(3.0, DType::F64)}), 0, "ta3[2] = 3 z");
    expectClose(out[2], x, 0, "ta3[0] = x");
    expectClose(out[3], x, 0, "ta1[0] = x");
    QCOMPARE(out[4].item(), 1.0);
    QCOMPARE(out[5].item(), 3.0);
  }

  // ta3 is written from ta1, which never had entry 1: it reads as zeros (TF fills unwritten
  // entries with zeros of the element shape), with ta2's entry at 1 not leaking into ta3.
  void writesFromOneListDoNotLeak() {
    Graph g;
    Builder b(g);
    Attrs a = newList(3, {});
    Value ta1 = b.op1("list_write", {b.op1("list_new", {}, a), b.scalar(0, DType::I32),
                                     b.scalar(1.0, DType::F64)});
    Value ta2 = b.op1("list_write", {ta1, b.scalar(1, DType::I32), b.scalar(2.0, DType::F64)});
    Value ta3 = b.op1("list_write", {ta1, b.scalar(2, DType::I32), b.scalar(3.0, DType::F64)});
    Value r2 = b.op1("list_read", {ta2, b.scalar(1, DType::I32)});
    Value r3 = b.op1("list_read", {ta3, b.scalar(1, DType::I32)});
    const auto v = evaluate(g, {r2, r3});
    QCOMPARE(v[0].item(), 2.0);
    QCOMPARE(v[1].item(), 0.0);
  }

  // An unwritten entry inside the size reads and stacks as zeros of the element shape, given
  // (element_shape=[2]) or learnt from a write, as TF's TensorArray (eager _maybe_zero, graph
  // TensorListGetItem/TensorListStack). With neither, reading it is a run-time error.
  void unwrittenEntriesReadAsZeros() {
    Graph g;
    Builder b(g);
    const Value ta = b.op1("list_new", {}, newList(3, {2}));
    const Value r1 = b.op1("list_read", {ta, b.scalar(1, DType::I32)});
    const Value w = b.op1("list_write", {b.op1("list_new", {}, newList(3, {})),
                                         b.scalar(2, DType::I32), b.constant(randn(3, {2}))});
    const Value r0 = b.op1("list_read", {w, b.scalar(0, DType::I32)});
    const Value all = b.op1("list_stack", {w}, {{"size", int64_t(3)}});
    const auto v = evaluate(g, {r1, r0, all});
    expectClose(v[0], Tensor::zeros(DType::F64, {2}), 0, "read(1) of element_shape [2]");
    expectClose(v[1], Tensor::zeros(DType::F64, {2}), 0, "read(0) after a write of [2]");
    QCOMPARE(v[2].shape(), (Shape{3, 2}));
    for (int64_t i = 0; i < 4; ++i) QCOMPARE(v[2].at(i), 0.0);
    expectClose(row(v[2], 2), randn(3, {2}), 0, "stack row 2");
    Graph g2;
    Builder b2(g2);
    const Value unknown =
        b2.op1("list_read", {b2.op1("list_new", {}, newList(3, {})), b2.scalar(1, DType::I32)});
    try {
      evaluate(g2, {unknown});
      QFAIL("reading an unwritten entry of unknown shape succeeded");
    } catch (const EngineError& e) {
      QVERIFY2(QString(e.what()).contains("never written") &&
                   QString(e.what()).contains("element_shape"),
               e.what());
    }
  }

  // Unwritten entries of an adjoint list read as zeros without a zeros tensor per read.
  void unwrittenAdjointEntriesShareZeros() {
    Graph g;
    Builder b(g);
    const Attrs zeros{{"dtype", std::string("float64")}, {"elem_shape", Shape{4}}};
    const Value z = b.op1("list_zeros", {}, zeros);
    const Value ta = b.op1("list_write", {z, b.scalar(3, DType::I32), b.constant(randn(12, {4}))});
    const Value r0 = b.op1("list_read", {ta, b.scalar(0, DType::I32)});
    const Value r1 = b.op1("list_read", {ta, b.scalar(1, DType::I32)});
    const Value all = b.op1("list_stack", {ta}, {{"size", int64_t(4)}});
    const auto v = evaluate(g, {r0, r1, all});
    expectClose(v[0], Tensor::zeros(DType::F64, {4}), 0, "read(0)");
    QVERIFY(v[0].sharesBufferWith(v[1]));
    for (int64_t i = 0; i < 12; ++i) QCOMPARE(v[2].at(i), 0.0);
    expectClose(row(v[2], 3), randn(12, {4}), 0, "stack row 3");
  }

  // Writing an entry twice is an error, as in TensorFlow: the list_write VJP passes dta' on
  // whole, so an overwritten first value would otherwise get a gradient it does not have.
  // Reading past the size is out of range (it used to say "never written").
  void entriesAreWrittenOnceAndReadInRange() {
    Graph g;
    Builder b(g);
    b.setLoc({"ta.gls", 4, 9});
    Value ta = b.op1("list_new", {}, newList(3, {2}));
    const Value x = b.constant(Tensor::fromVector({1, 2}, {2}, DType::F64));
    ta = b.op1("list_write", {ta, b.scalar(1, DType::I32), x});
    const Value twice = b.op1("list_write", {ta, b.scalar(1, DType::I32), x});
    const Value far = b.op1("list_read", {ta, b.scalar(7, DType::I32)});
    for (const RunOptions& opt : gltest::everyExecutor()) {
      QCOMPARE(gltest::errorText([&] { evaluate(g, {twice}, opt); }),
               std::string("ta.gls:4:9: list_write: could not write to TensorArray index 1 "
                           "because it has already been written to"));
      QCOMPARE(gltest::errorText([&] { evaluate(g, {far}, opt); }),
               std::string("ta.gls:4:9: list_read: TensorArray read at index 7 is out of range "
                           "for size 3"));
    }
  }

  // Every differentiable list primitive of the registry ran in a round trip above, forward or
  // in reverse mode: their noGradCheck reasons point here.
  void everyDifferentiableListOpIsCovered() {
    for (const auto& name : Registry::instance().names()) {
      const Primitive& p = Registry::instance().get(name);
      if (name.rfind("list_", 0) != 0 || !p.differentiable) continue;
      QVERIFY2(covered().count(name), ("no round trip runs " + name).c_str());
      QVERIFY2(!p.noGradCheck.empty() && p.gradChecks.empty(), name.c_str());
    }
    for (const std::string n : {"list_new", "list_zeros", "list_size"})
      QVERIFY2(covered().count(n), n.c_str());
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestListOps)
#include "test_list_ops.moc"
