// Why is this gradient None? Each cause gives its explanation, naming the node where the chain
// breaks and its script line.
#include "test_main.h"

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/ops/api.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

class TestDiagnostics : public QObject {
  Q_OBJECT
  static SourceLoc at(int line) { return {"lesson.gls", line, 5}; }

 private slots:
  // Seed-d: the logits are computed under the tape, the per-head target indexed after it closed.
  void targetIndexedAfterTapeClosed() {
    Graph g;
    Builder b(g);
    b.setLoc(at(1));
    Value w = b.variable(Tensor::fromVector({1, 2, 3, 4, 5, 6}, {3, 2}, DType::F32), "w");
    GradientTape tape(b);
    b.setLoc(at(3));
    Value logits = o::mul(b, w, w);
    tape.stop();
    b.setLoc(at(5));
    Value head = o::gather(b, logits, b.scalar(1, DType::I32));
    Value loss = o::reduceSum(b, head);
    GradResult r = tape.gradient(loss, {w});
    QVERIFY(!r.grads[0].valid());
    QCOMPARE(r.why[0].node, head.node);
    QCOMPARE(r.why[0].loc.line, 5);
    QVERIFY2(QString::fromStdString(r.why[0].text).contains("after the tape stopped recording"),
             r.why[0].text.c_str());
  }

  void sourceNeverWatched() {
    Graph g;
    Builder b(g);
    b.setLoc(at(2));
    Value x = b.constant(Tensor::fromVector({1, 2}, {2}, DType::F32), "x");
    GradientTape tape(b);
    Value y = o::reduceSum(b, o::square(b, x));
    tape.stop();
    GradResult r = tape.gradient(y, {x});
    QVERIFY(!r.grads[0].valid());
    QCOMPARE(r.why[0].node, x.node);
    QVERIFY(QString::fromStdString(r.why[0].text).contains("never watched"));
    QVERIFY(QString::fromStdString(r.why[0].text).contains("tape.watch(x)"));
  }

  void castToIntBreaksChain() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({1.5, 2.5}, {2}, DType::F32), "x");
    GradientTape tape(b);
    b.setLoc(at(4));
    Value xi = o::cast(b, x, DType::I32);
    b.setLoc(at(5));
    Value y = o::reduceSum(b, o::cast(b, xi, DType::F32));
    tape.stop();
    GradResult r = tape.gradient(y, {x});
    QVERIFY(!r.grads[0].valid());
    QCOMPARE(r.why[0].node, xi.node);
    QCOMPARE(r.why[0].loc.line, 4);
    QVERIFY(QString::fromStdString(r.why[0].text).contains("cast to int32"));
  }

  void comparisonAndStopGradient() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({1.5, -2.5}, {2}, DType::F32), "x");
    GradientTape tape(b, true);
    b.setLoc(at(6));
    Value sg = o::stopGradient(b, x);
    Value y1 = o::reduceSum(b, o::mul(b, sg, sg));
    b.setLoc(at(7));
    Value pos = o::greater(b, x, b.scalar(0));
    Value y2 = o::reduceSum(b, o::cast(b, pos, DType::F32));
    tape.stop();
    GradResult r1 = tape.gradient(y1, {x});
    QCOMPARE(r1.why[0].node, sg.node);
    QVERIFY(QString::fromStdString(r1.why[0].text).contains("stop_gradient"));
    GradResult r2 = tape.gradient(y2, {x});
    QCOMPARE(r2.why[0].node, pos.node);
    QVERIFY(QString::fromStdString(r2.why[0].text).contains("bool"));
  }

  // Seed-b's mistake: a Variable created inside the loop body is a new leaf every step.
  void variableCreatedInsideLoopBody() {
    Graph g;
    Builder b(g);
    Value x0 = b.constant(Tensor::scalar(2.0, DType::F32), "x0");
    Value inner;
    GradientTape tape(b);
    Value n = b.scalar(3, DType::I32);
    auto outs = whileLoop(
        b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
        [&](Builder& bb, const std::vector<Value>& v) {
          bb.setLoc(at(9));
          inner = bb.variable(Tensor::scalar(1.0, DType::F32), "w_t");
          return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                    o::mul(bb, v[1], inner)};
        },
        {b.scalar(0, DType::I32), x0});
    tape.stop();
    GradResult r = tape.gradient(outs[1], {inner});
    QVERIFY(!r.grads[0].valid());
    QCOMPARE(r.why[0].node, inner.node);
    QCOMPARE(r.why[0].loc.line, 9);
    QVERIFY(QString::fromStdString(r.why[0].text).contains("inside the body"));
    QVERIFY(QString::fromStdString(r.why[0].text).contains("new leaf"));
  }

  void stopRecording() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({1, 2}, {2}, DType::F32), "x");
    GradientTape tape(b);
    Value z;
    {
      GradientTape::StopRecording pause(tape);
      b.setLoc(at(12));
      z = o::square(b, x);
    }
    Value y = o::reduceSum(b, z);
    tape.stop();
    GradResult r = tape.gradient(y, {x});
    QVERIFY(!r.grads[0].valid());
    QCOMPARE(r.why[0].node, z.node);
    QVERIFY(QString::fromStdString(r.why[0].text).contains("stop_recording"));
  }

  void notConnectedAtAll() {
    Graph g;
    Builder b(g);
    Value x = b.variable(Tensor::fromVector({1, 2}, {2}, DType::F32), "x");
    Value u = b.variable(Tensor::fromVector({1, 2}, {2}, DType::F32), "u");
    GradientTape tape(b);
    Value y = o::reduceSum(b, o::square(b, x));
    tape.stop();
    GradResult r = tape.gradient(y, {u});
    QVERIFY(QString::fromStdString(r.why[0].text).contains("does not depend"));
  }

  // The fix of seed-d: index inside the tape, and map_fn / while_loop carry gradients.
  void indexingInsideTapeWorks() {
    Graph g;
    Builder b(g);
    Value w = b.variable(Tensor::fromVector({1, 2, 3, 4, 5, 6}, {3, 2}, DType::F64), "w");
    GradientTape tape(b, true);
    Value logits = o::mul(b, w, w);
    Value head = o::gather(b, logits, b.scalar(1, DType::I32));
    Value loss = o::reduceSum(b, head);
    Value perRow = mapFn(b,
                         [&](Builder& bb, const std::vector<Value>& r) {
                           return std::vector<Value>{o::reduceSum(bb, r[0])};
                         },
                         {logits})[0];
    Value loss2 = o::gather(b, perRow, b.scalar(1, DType::I32));
    tape.stop();
    GradResult r = tape.gradient(loss, {w});
    GradResult r2 = tape.gradient(loss2, {w});
    QVERIFY(r.grads[0].valid());
    QVERIFY(r2.grads[0].valid());
    auto vals = gltest::runEveryExecutor(g, {r.grads[0], r2.grads[0]}, 1e-12);
    QCOMPARE(vals[0].toVector(), (std::vector<double>{0, 0, 6, 8, 0, 0}));
    QCOMPARE(vals[1].toVector(), (std::vector<double>{0, 0, 6, 8, 0, 0}));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestDiagnostics)
#include "test_diagnostics.moc"
