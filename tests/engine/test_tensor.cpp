#include "allocation_counter.h"
#include "test_main.h"

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "engine/tensor/error.h"
#include "engine/tensor/moments.h"
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
  // Float to int32 truncates toward zero; NaN, infinities and values out of range give
  // INT32_MIN, as TF's cast on x86 CPUs (cvttss2si), never undefined behaviour (issue #31).
  void floatToIntCastIsDefined() {
    const double inf = std::numeric_limits<double>::infinity();
    const Tensor x = Tensor::fromVector({3.7, -3.7, std::nan(""), inf, -inf, 3e9, -2147483648.0},
                                        {7}, DType::F64);
    const std::vector<double> want{
        3, -3, -2147483648.0, -2147483648.0, -2147483648.0, -2147483648.0, -2147483648.0};
    for (DType from : {DType::F64, DType::F32}) {
      const Tensor y = x.astype(from).astype(DType::I32);
      for (int64_t i = 0; i < 7; ++i) QCOMPARE(y.at(i), want[size_t(i)]);
    }
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
  // The vector moments against the definition, element by element in double: every length
  // around the 8-wide step, NaN (skipped by min and max only), +-Inf, -0, denormals and the
  // largest floats (whose squares need the double lanes).
  void momentsMatchTheDefinition() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> uniform(-3.0f, 3.0f);
    const float specials[] = {
        std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY, -0.0f, 1e-40f,
        std::numeric_limits<float>::max(),       -1e30f};
    for (int n : {0, 1, 7, 8, 9, 15, 16, 17, 63, 1000}) {
      for (int special = -1; special < int(std::size(specials)); ++special) {
        std::vector<float> v(static_cast<size_t>(n));
        for (float& x : v) x = uniform(rng);
        if (special >= 0 && n > 0) v[size_t(n) / 2] = v[size_t(n) - 1] = specials[special];
        Moments want;
        for (float x : v) {
          const double d = x;
          want.nan += std::isnan(d);
          want.inf += std::isinf(d);
          if (!std::isnan(d)) want.min = std::min(want.min, d), want.max = std::max(want.max, d);
          want.sum += d;
          want.squares += d * d;
        }
        const Moments got = momentsOf(v.data(), n);
        const QString what = QString("n=%1 special=%2").arg(n).arg(special);
        QCOMPARE(got.nan, want.nan);
        QCOMPARE(got.inf, want.inf);
        QVERIFY2(got.min == want.min, qPrintable(what));
        QVERIFY2(got.max == want.max, qPrintable(what));
        auto close = [](double a, double b) {
          return (std::isnan(a) && std::isnan(b)) || a == b ||
                 std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
        };
        QVERIFY2(close(got.sum, want.sum), qPrintable(what));
        QVERIFY2(close(got.squares, want.squares), qPrintable(what));
        QCOMPARE(allFinite(v.data(), n), want.nan == 0 && want.inf == 0);
        std::vector<double> w(v.begin(), v.end());
        const Moments wide = momentsOf(w.data(), n);
        QCOMPARE(wide.nan, want.nan);
        QCOMPARE(wide.inf, want.inf);
        QVERIFY2(wide.min == want.min && wide.max == want.max, qPrintable(what));
        QVERIFY2(close(wide.sum, want.sum), qPrintable(what));
        QCOMPARE(allFinite(w.data(), n), want.nan == 0 && want.inf == 0);
      }
    }
  }

  void momentsOfIntegers() {
    const int32_t ints[] = {3, -1, 2};
    const Moments m = momentsOf(ints, 3);
    QCOMPARE(m.min, -1.0);
    QCOMPARE(m.max, 3.0);
    QCOMPARE(m.sum, 4.0);
    QCOMPARE(m.squares, 14.0);
    QCOMPARE(m.nan + m.inf, int64_t(0));
    const uint8_t bools[] = {1, 0, 1, 1};
    QCOMPARE(momentsOf(bools, 4).sum, 3.0);
  }

  // Copies count references to one block that holds the buffer and the shape; a reshaped view
  // has a shape of its own and outlives the tensor it came from.
  void copiesShareOneBlock() {
    const size_t before = memoryStats().live;
    Tensor copy, view, moved;
    {
      Tensor t = Tensor::fromVector({1, 2, 3, 4, 5, 6}, {2, 3});
      copy = t;
      view = t.reshaped({3, 2});
      QVERIFY(copy.sharesBufferWith(t) && view.sharesBufferWith(t));
      QVERIFY(t.reshaped({2, 3}).sharesBufferWith(t));
      Tensor other = t;
      moved = std::move(other);
      QVERIFY(!other.defined());
      QCOMPARE(other.numel(), int64_t(0));
      QVERIFY(other.shape().empty());
    }
    QCOMPARE(copy.shape(), (Shape{2, 3}));
    QCOMPARE(view.shape(), (Shape{3, 2}));
    QCOMPARE(moved.shape(), (Shape{2, 3}));
    QCOMPARE(view.at(5), 6.0);
    QCOMPARE(copy.toVector(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    copy = Tensor();
    moved = Tensor();
    QVERIFY(memoryStats().live > before);  // the view still holds the buffer
    Tensor viewOfView = view.reshaped({6});
    view = Tensor();
    QCOMPARE(viewOfView.shape(), (Shape{6}));
    QCOMPARE(viewOfView.at(2), 3.0);
    viewOfView = Tensor();
    QCOMPARE(memoryStats().live, before);
  }

  // A loop body's steady state: a tensor of a shape just freed, and copies of it, allocate
  // nothing from the heap (the block comes back from the pool with its shape's capacity).
  void steadyStateAllocatesNothing() {
    if (!gl::testing::countsAllocations())
      QSKIP("ThreadSanitizer's operator new cannot be replaced to count allocations");
    const Shape shape{10, 5000};
    auto body = [&](int i) {
      Tensor t = Tensor::full(DType::F32, shape, double(i));
      Tensor a = t, b = t;
      Tensor c = std::move(b);
      const Tensor s = Tensor::scalar(double(i));
      return a.at(49999) + c.at(0) + s.item();
    };
    double sum = body(0);  // warm: the pool holds the blocks
    const int64_t before = gl::testing::heapAllocations();
    for (int i = 1; i <= 100; ++i) sum += body(i);
    QCOMPARE(gl::testing::heapAllocations() - before, int64_t(0));
    QCOMPARE(sum, 3.0 * 5050);
  }

  void memoryAccounting() {
    size_t before = memoryStats().live;
    {
      Tensor t = Tensor::zeros(DType::F32, {1000, 1000});
      QVERIFY(memoryStats().live >= before + 4000000);
    }
    QCOMPARE(memoryStats().live, before);
  }

  // Each thread counts its own allocations; the live bytes and the peak are still the
  // process's: exact for one thread, the sum at the moment for two threads holding blocks at
  // once, and a block freed on another thread than the one that made it is uncounted there.
  void memoryAccountingAcrossThreads() {
    const size_t mib = size_t(1) << 20;
    const size_t before = memoryStats().live;
    resetPeakMemory();
    {
      Tensor a = Tensor::zeros(DType::F32, {1 << 20});  // 4 MiB
    }
    {
      Tensor b = Tensor::zeros(DType::F32, {1 << 19});  // 2 MiB, after a went
    }
    QCOMPARE(memoryStats().peak, before + 4 * mib);  // one thread: exact
    QCOMPARE(memoryStats().live, before);

    resetPeakMemory();
    Tensor mine = Tensor::zeros(DType::F32, {1 << 20});  // 4 MiB here
    Tensor theirs;
    std::thread other([&] { theirs = Tensor::zeros(DType::F32, {1 << 19}); });  // 2 MiB there
    other.join();
    QCOMPARE(memoryStats().live, before + 6 * mib);
    QCOMPARE(memoryStats().peak, before + 6 * mib);
    QVERIFY(liveBytesRoughly() + 4 * mib > before + 6 * mib);
    mine = Tensor();
    std::thread freer([&] { theirs = Tensor(); });  // made on `other`, freed on `freer`
    freer.join();
    QCOMPARE(memoryStats().live, before);
    QCOMPARE(memoryStats().peak, before + 6 * mib);
    QVERIFY(liveBytesRoughly() < before + 4 * mib);  // within a MiB per thread
  }

  // The window drops an old result on a helper thread that lives on and allocates nothing: the
  // buffers it frees must go where the run thread can take them again, not stay in the helper's
  // own cache (the run thread then took fresh memory, and page faults, on every run).
  void aThreadThatOnlyFreesKeepsNoBuffers() {
    const int64_t n = (3 << 18) + 48;  // a size no other test uses: 3 MiB and 192 bytes
    Tensor t = Tensor::zeros(DType::F32, {n});
    const float* first = t.data<float>();
    std::mutex mu;
    std::condition_variable cv;
    bool freed = false, done = false;
    std::thread helper([&] {
      t = Tensor();
      std::unique_lock<std::mutex> lock(mu);
      freed = true;
      cv.notify_all();
      cv.wait(lock, [&] { return done; });  // still alive while the block is taken again
    });
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return freed; });
    }
    const Tensor again = Tensor::zeros(DType::F32, {n});
    const bool reused = again.data<float>() == first;
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
    }
    cv.notify_all();
    helper.join();
    QVERIFY2(reused, "the block freed on the helper thread was not taken again");

    // A thread that allocates keeps what it frees (a loop body's steady state).
    bool kept = false;
    std::thread body([&kept] {
      const float* p = nullptr;
      {
        const Tensor a = Tensor::zeros(DType::F32, {n});
        p = a.data<float>();
      }
      const Tensor b = Tensor::zeros(DType::F32, {n});
      kept = b.data<float>() == p;
    });
    body.join();
    QVERIFY(kept);
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestTensor)
#include "test_tensor.moc"
