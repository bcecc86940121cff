// Bad input never crashes: each case gives an error naming the op and its script location.
#include "test_main.h"

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

namespace {

template <class F>
QString errorOf(F&& f) {
  try {
    f();
  } catch (const EngineError& e) {
    return QString::fromStdString(e.what());
  }
  return QString();
}

}  // namespace

class TestErrors : public QObject {
  Q_OBJECT
 private slots:
  void shapeMismatch() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 3, 7});
    Value x = b.constant(Tensor::zeros(DType::F32, {2, 3}));
    Value y = b.constant(Tensor::zeros(DType::F32, {4}));
    QString e = errorOf([&] { o::add(b, x, y); });
    QVERIFY2(
        e.contains("a.gls:3:7") && e.contains("add") && e.contains("[2,3]") && e.contains("[4]"),
        qPrintable(e));
  }

  void dtypeMismatch() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 4, 1});
    Value x = b.constant(Tensor::zeros(DType::F32, {2}));
    Value y = b.constant(Tensor::zeros(DType::F64, {2}));
    QString e = errorOf([&] { o::mul(b, x, y); });
    QVERIFY2(e.contains("a.gls:4:1") && e.contains("float32") && e.contains("float64"),
             qPrintable(e));
  }

  void gatherOutOfRange() {
    Graph g;
    Builder b(g);
    Value x = b.constant(Tensor::zeros(DType::F32, {10, 2}));
    b.setLoc({"a.gls", 8, 2});
    Value i = b.constant(Tensor::fromVector({3, 12}, {2}, DType::I32));
    Value y = o::gather(b, x, i);
    QString e = errorOf([&] { evaluate(g, {y}); });
    QVERIFY2(e.contains("a.gls:8:2") && e.contains("12") && e.contains("gather"), qPrintable(e));
  }

  void condBranchesDiffer() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 5, 3});
    Value p = b.constant(Tensor::scalar(1, DType::Bool));
    QString e = errorOf([&] {
      cond(
          b, p,
          [](Builder& bb) {
            return std::vector<Value>{bb.constant(Tensor::zeros(DType::F32, {3}))};
          },
          [](Builder& bb) {
            return std::vector<Value>{bb.constant(Tensor::zeros(DType::F32, {3, 4}))};
          });
    });
    // Different ranks: TF's cond_v2 accepts [3] and [4] (the result is [None]), not [3] and
    // [3, 4].
    QVERIFY2(
        e.contains("a.gls:5:3") && e.contains("[3]") && e.contains("[3,4]") && e.contains("cond"),
        qPrintable(e));
  }

  void loopBodyChangesShape() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 6, 9});
    Value x = b.constant(Tensor::zeros(DType::F32, {10, 5000}));
    QString e = errorOf([&] {
      whileLoop(
          b,
          [](Builder& bb, const std::vector<Value>&) {
            return bb.constant(Tensor::scalar(0, DType::Bool));
          },
          [](Builder& bb, const std::vector<Value>& v) {
            return std::vector<Value>{o::reduceSum(bb, v[0], {0})};
          },
          {x});
    });
    QVERIFY2(e.contains("a.gls:6:9") && e.contains("[10,5000]") && e.contains("[5000]"),
             qPrintable(e));
  }

  void readUnwrittenTensorArray() {
    Graph g;
    Builder b(g);
    Value ta =
        b.op1("list_new", {}, Attrs{{"dtype", std::string("float32")}, {"size", int64_t(3)}});
    b.setLoc({"a.gls", 9, 4});
    Value r = b.op1("list_read", {ta, b.scalar(1, DType::I32)});
    QString e = errorOf([&] { evaluate(g, {r}); });
    QVERIFY2(e.contains("a.gls:9:4") && e.contains("never written"), qPrintable(e));
  }

  void overMemoryBudget() {
    Graph g;
    Builder b(g, size_t(1) << 30);
    b.setLoc({"a.gls", 2, 1});
    QString e = errorOf([&] { o::randomNormal(b, {100000, 100000}, 0, 1, DType::F32, 1); });
    QVERIFY2(e.contains("a.gls:2:1") && e.contains("memory budget"), qPrintable(e));
  }

  // At run time the budget is checked from the node's static output shape before the kernel
  // allocates: three [30000,30000] products used to run past an 8 GiB budget.
  void runTimeBudgetIsCheckedBeforeANodeAllocates() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 3, 7});
    Value x = b.placeholder(DType::F32, {1000, 1000});
    Value y = o::matmul(b, x, x);
    RunOptions opt;
    opt.memoryBudget = size_t(6) << 20;  // the fed x (3.8 MiB) fits, x and y (7.6 MiB) do not
    opt.feeds[x.node] = Tensor::zeros(DType::F32, {1000, 1000});
    QString e = errorOf([&] { evaluate(g, {y}, opt); });
    QCOMPARE(e, QString("a.gls:3:7: matmul: this needs 3 MiB more, over the memory budget of 6 "
                        "MiB (set a larger one with --memory-budget or in Settings)"));
  }

  // The plan knows which top-level tensors are alive together: three [30000,30000] float32
  // draws (3.4 GiB each, all read by the sum) cannot fit in 8 GiB, and the run says so before
  // its first kernel allocates anything.
  void plannedMemoryFailsBeforeTheFirstKernel() {
    Graph g;
    Builder b(g);  // 8 GiB: each draw alone fits, so tracing accepts them
    std::vector<Value> draws;
    for (int line = 1; line <= 3; ++line) {
      b.setLoc({"a.gls", line, 5});
      draws.push_back(o::randomNormal(b, {30000, 30000}, 0, 1, DType::F32, line));
    }
    b.setLoc({"a.gls", 4, 5});
    Value sum = o::add(b, o::add(b, draws[0], draws[1]), draws[2]);
    const size_t liveBefore = memoryStats().live;
    resetPeakMemory();
    QString e = errorOf([&] { evaluate(g, {sum}); });
    QCOMPARE(e, QString("a.gls:3:5: random_normal: the tensors alive at once at this point of the "
                        "run need 10.1 GiB, over the memory budget of 8.0 GiB (set a larger one "
                        "with --memory-budget or in Settings)"));
    QVERIFY2(memoryStats().peak < liveBefore + (size_t(1) << 20),
             qPrintable(QString::number(memoryStats().peak)));
    // Two of them fit: the same check lets a run through that stays under the budget.
    RunOptions small;
    small.memoryBudget = size_t(50) << 20;  // two [2000,2000] draws and their sum: 45.8 MiB
    Graph g2;
    Builder b2(g2);
    Value a = o::randomNormal(b2, {2000, 2000}, 0, 1, DType::F32, 1);
    Value c = o::randomNormal(b2, {2000, 2000}, 0, 1, DType::F32, 2);
    QCOMPARE(evaluate(g2, {o::add(b2, a, c)}, small)[0].shape(), (Shape{2000, 2000}));
  }

  // A run stops after RunOptions::maxOps primitive ops, every loop iteration counted, at the
  // loop's line and naming the setting; the same loop under a larger limit finishes.
  void opsLimitStopsAnEndlessLoopAtItsLine() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 2, 9});
    Value n = b.scalar(100000, DType::I32);
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [](Builder& bb, const std::vector<Value>& v) {
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32))};
        },
        {b.scalar(0, DType::I32)});
    RunOptions limited;
    limited.maxOps = 1000;
    for (const RunOptions& opt : gltest::everyExecutor(limited)) {
      QCOMPARE(errorOf([&] { evaluate(g, {outs[0]}, opt); }),
               QString("a.gls:2:9: while: the run executed more than 1000 ops (the maxOps limit, "
                       "--max-ops or in Settings)"));
    }
    RunOptions enough;
    enough.maxOps = 300000;  // a compare and an add per iteration
    QCOMPARE(evaluate(g, {outs[0]}, enough)[0].item(), 100000.0);
    // Top-level ops count one by one.
    Graph flat;
    Builder fb(flat);
    fb.setLoc({"a.gls", 7, 1});
    Value x = fb.scalar(1.0, DType::F32);
    for (int i = 0; i < 10; ++i) x = o::add(fb, x, x);
    RunOptions three;
    three.maxOps = 3;
    QCOMPARE(errorOf([&] { evaluate(flat, {x}, three); }),
             QString("a.gls:7:1: add: the run executed more than 3 ops (the maxOps limit, "
                     "--max-ops or in Settings)"));
  }

  void matmulInnerDims() {
    Graph g;
    Builder b(g);
    b.setLoc({"a.gls", 11, 2});
    Value x = b.constant(Tensor::zeros(DType::F32, {2, 3}));
    Value y = b.constant(Tensor::zeros(DType::F32, {4, 5}));
    QString e = errorOf([&] { o::matmul(b, x, y); });
    QVERIFY2(e.contains("a.gls:11:2") && e.contains("matmul"), qPrintable(e));
  }

  void unfedPlaceholderAndCancel() {
    Graph g;
    Builder b(g);
    Value p = b.placeholder(DType::F32, {2}, "images");
    QString e = errorOf([&] { evaluate(g, {p}); });
    QVERIFY(e.contains("images"));
    struct Cancel : RunMonitor {
      bool cancelled() const override { return true; }
    } cancel;
    Graph g2;
    Builder b2(g2);
    Value n = b2.scalar(1000000, DType::I32);
    auto outs = whileLoop(
        b2, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [](Builder& bb, const std::vector<Value>& v) {
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32))};
        },
        {b2.scalar(0, DType::I32)});
    RunOptions opt;
    opt.monitor = &cancel;
    QVERIFY_THROWS_EXCEPTION(CancelledError, evaluate(g2, {outs[0]}, opt));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestErrors)
#include "test_errors.moc"
