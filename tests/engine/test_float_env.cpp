// Flush-to-zero during runs: an underflowing float32 product is 0 on both executors (as
// TensorFlow on CPU), a denormal with flushDenormals off, and the caller's mode is untouched.
#include "executor_kinds.h"
#include "test_main.h"

#include <cmath>

#include "engine/build/builder.h"
#include "engine/exec/executor.h"
#include "engine/exec/float_env.h"
#include "engine/ops/api.h"

using namespace gl;
namespace o = gl::ops;

namespace {

// 1e-30 * 1e-10 underflows float32's normal range (1.18e-38) into the denormals.
struct Underflow {
  Graph g;
  Value y;
  Underflow() {
    Builder b(g);
    const Value x = b.constant(Tensor::fromVector({1e-30, 2e-30}, {2}, DType::F32), "x");
    y = o::mul(b, x, b.scalar(1e-10, DType::F32));
  }
};

}  // namespace

class TestFloatEnv : public QObject {
  Q_OBJECT
 private slots:
  void underflowFlushesToZeroOnBothExecutors() {
    Underflow u;
    for (const RunOptions& opt : gltest::everyExecutor()) {
      const Tensor y = evaluate(u.g, {u.y}, opt)[0];
      QCOMPARE(y.at(0), 0.0);
      QCOMPARE(y.at(1), 0.0);
    }
  }

  void denormalsStayWhenAskedTo() {
    Underflow u;
    RunOptions ieee;
    ieee.flushDenormals = false;
    for (const RunOptions& opt : gltest::everyExecutor(ieee)) {
      const Tensor y = evaluate(u.g, {u.y}, opt)[0];
      QVERIFY2(y.at(0) > 0 && y.at(0) < 1.18e-38, qPrintable(QString::number(y.at(0))));
      QVERIFY(std::abs(y.at(1) - 2e-40) < 1e-42);
    }
  }

  void theCallersModeIsRestored() {
    QVERIFY(!DenormalsFlushed::active());
    {
      DenormalsFlushed flush(true, 2);
      QVERIFY(DenormalsFlushed::active());
    }
    QVERIFY(!DenormalsFlushed::active());
    Underflow u;
    evaluate(u.g, {u.y}, RunOptions{});
    QVERIFY(!DenormalsFlushed::active());
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestFloatEnv)
#include "test_float_env.moc"
