#include <QtTest>

#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"
#include "engine/tensor/tensor.h"

using namespace gl;

class TestTensor : public QObject {
  Q_OBJECT
 private slots:
  void shapesAndDtypes() {
    Tensor t = Tensor::fromVector({1, 2, 3, 4, 5, 6}, {2, 3}, DType::F64);
    QCOMPARE(t.numel(), 6);
    QCOMPARE(t.rank(), 2);
    QCOMPARE(t.at(4), 5.0);
    QCOMPARE(t.astype(DType::I32).at(5), 6.0);
    QCOMPARE(t.astype(DType::Bool).dtype(), DType::Bool);
    QVERIFY_THROWS_EXCEPTION(ShapeError, t.reshaped({4, 2}));
  }
  void broadcasting() {
    QCOMPARE(broadcastShapes({10, 1}, {5000}), (Shape{10, 5000}));
    QCOMPARE(broadcastShapes({}, {3, 2}), (Shape{3, 2}));
    try {
      broadcastShapes({2, 3}, {4});
      QFAIL("expected a shape error");
    } catch (const ShapeError& e) {
      QVERIFY(QString(e.what()).contains("[2,3] and [4]"));
    }
  }
  void rngIsReproducible() {
    Rng a(7), b(7), c(8);
    Tensor x = a.normal({100}, 0, 1, DType::F32), y = b.normal({100}, 0, 1, DType::F32);
    Tensor z = c.normal({100}, 0, 1, DType::F32);
    QCOMPARE(x.toVector(), y.toVector());
    QVERIFY(x.toVector() != z.toVector());
    double mean = 0;
    Tensor big = a.normal({20000}, 3.0, 2.0, DType::F64);
    for (double v : big.toVector()) mean += v / 20000;
    QVERIFY(std::abs(mean - 3.0) < 0.05);
  }
  void memoryAccounting() {
    size_t before = memoryStats().live;
    {
      Tensor t = Tensor::zeros(DType::F32, {1000, 1000});
      QVERIFY(memoryStats().live >= before + 4000000);
    }
    QCOMPARE(memoryStats().live, before);
  }
};

QTEST_APPLESS_MAIN(TestTensor)
#include "test_tensor.moc"
