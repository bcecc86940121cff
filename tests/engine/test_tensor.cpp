#include <QtTest>

#include <set>
#include <thread>
#include <vector>

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
  // Freed buffers are reused (the free lists work) but never while a tensor holding them lives:
  // each live tensor keeps its own bytes however many same-sized values come and go, on this
  // thread and when another thread frees and takes buffers.
  void reusedBuffersNeverAliasLiveTensors() {
    const Shape shape{1000};
    std::vector<Tensor> live;
    std::set<const void*> liveBuffers;
    for (int i = 0; i < 8; ++i) {
      live.push_back(Tensor::full(DType::F32, shape, double(i)));
      liveBuffers.insert(live.back().raw());
    }
    QCOMPARE(liveBuffers.size(), size_t(8));
    const void* dropped = nullptr;
    {
      Tensor t = Tensor::empty(DType::F32, shape);
      dropped = t.raw();
    }
    bool reused = false;
    auto churn = [&](std::vector<const void*>& seen) {
      for (int round = 0; round < 200; ++round) {
        std::vector<Tensor> temporaries;
        std::set<const void*> inRound;
        for (int k = 0; k < 1 + round % 7; ++k) {
          temporaries.push_back(Tensor::full(DType::F32, shape, double(-1 - k)));
          seen.push_back(temporaries.back().raw());
          inRound.insert(temporaries.back().raw());
        }
        if (inRound.size() != temporaries.size()) seen.push_back(nullptr);  // two shared one
        for (size_t k = 0; k < temporaries.size(); ++k)
          if (temporaries[k].at(999) != double(-1 - int(k))) seen.push_back(nullptr);
      }
    };
    std::vector<const void*> seenHere, seenThere;
    churn(seenHere);
    std::thread other([&] {
      // Takes buffers this thread freed, frees them on its own thread.
      churn(seenThere);
    });
    other.join();
    churn(seenHere);
    for (const void* p : seenHere) {
      QVERIFY(p != nullptr);
      QVERIFY(!liveBuffers.count(p));
      reused = reused || p == dropped;
    }
    for (const void* p : seenThere) QVERIFY(p != nullptr && !liveBuffers.count(p));
    QVERIFY(reused);
    for (int i = 0; i < 8; ++i)
      for (int64_t e : {int64_t(0), int64_t(500), int64_t(999)})
        QCOMPARE(live[size_t(i)].at(e), double(i));
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
