// The executor's share of the cores (exec/core_share.h): /proc/loadavg is read right, the team
// shrinks only on two lookups in a row that see another runnable thread and grows back at once,
// and a run with threads left to the executor keeps to one thread (no side-by-side phases) while
// another program runs, with the same values, while a thread count the user chose is kept.
#include "test_main.h"

#include <omp.h>

#include "engine/exec/core_share.h"
#include "engine/lab/session.h"

using namespace gl;
using namespace gl::lab;

namespace {

// A LoadWatch whose runnable-thread counts come from the test.
struct FakeLoad {
  int runnable = 1;
  LoadWatch watch{[this] { return std::optional<int>(runnable); }};
};

// Swaps the machine's load lookup for one that answers `runnable`, for the test's scope.
class MachineLoadAnswers {
 public:
  explicit MachineLoadAnswers(int runnable) : saved_(machineLoad().runnable) {
    machineLoad().runnable = [runnable] { return std::optional<int>(runnable); };
    machineLoad().lastOthers = runnable - 1;  // as if the last run saw the same
  }
  ~MachineLoadAnswers() {
    machineLoad().runnable = saved_;
    machineLoad().lastOthers = 0;
  }

 private:
  std::function<std::optional<int>()> saved_;
};

// Sixteen independent [64,128] @ [128,128] products: each worth a thread of its own.
const char* kIndependentLayers = R"(
tf.random.set_seed(1)
x = tf.random.normal([64, 128])
w = tf.Variable(tf.random.normal([16, 128, 128], stddev=0.1), name="w")
with tf.GradientTape() as tape:
    y = tf.concat([tf.matmul(x, w[i]) for i in range(16)], axis=1)
    loss = tf.reduce_sum(tf.square(y))
dw = tape.gradient(loss, w)
)";

ProgramRun runLayers(bool parallel, int threads) {
  RunRequest s;
  s.options.executor = parallel ? ExecutorKind::Parallel : ExecutorKind::Serial;
  s.options.threads = threads;
  s.options.records = s.options.valueRecords = false;
  ProgramRun r =
      runProgram(lang::traceProgram(kIndependentLayers, "layers.gls", lang::TraceOptions{}), s);
  if (!r.variants.at(0).ok()) QTest::qFail(r.variants[0].error.c_str(), __FILE__, __LINE__);
  return r;
}

}  // namespace

class TestCoreShare : public QObject {
  Q_OBJECT
 private slots:
  void readsLoadavg() {
    QCOMPARE(runnableThreads("0.52 0.30 0.20 3/412 12345"), std::optional<int>(3));
    QCOMPARE(runnableThreads("1.71 1.30 0.56 12/85 13111\n"), std::optional<int>(12));
    QCOMPARE(runnableThreads("1.71  1.30 0.56 1/85 13111"), std::optional<int>(1));
    QCOMPARE(runnableThreads(""), std::optional<int>());
    QCOMPARE(runnableThreads("1.71 1.30 0.56"), std::optional<int>());
    QCOMPARE(runnableThreads("1.71 1.30 0.56 x/85 1"), std::optional<int>());
    QCOMPARE(runnableThreads("1.71 1.30 0.56 4 1"), std::optional<int>());
    // This machine's file is in that form, and counts at least the thread reading it.
    const std::optional<int> now = runnableThreadsNow();
    QVERIFY(now.has_value());
    QVERIFY(*now >= 1);
  }

  void shrinksOnTwoLookupsAndGrowsAtOnce() {
    FakeLoad load;
    CoreShare share(4, true, load.watch);
    QCOMPARE(share.threads(), 4);  // alone on the machine
    load.runnable = 3;             // two other threads start running
    share.recheck(true);
    QCOMPARE(share.threads(), 4);  // one lookup may have caught a passing kernel thread
    share.recheck(true);
    QCOMPARE(share.threads(), 2);  // two in a row: they hold two of the four cores
    load.runnable = 2;
    share.recheck(true);
    QCOMPARE(share.threads(), 3);  // one of them stopped: grow at once (min of the two lookups)
    load.runnable = 9;
    share.recheck(true);
    share.recheck(true);
    QCOMPARE(share.threads(), 1);  // never fewer than one
    load.runnable = 1;
    share.recheck(true);
    QCOMPARE(share.threads(), 4);
  }

  void recheckWaitsForItsInterval() {
    FakeLoad load;
    load.runnable = 2;
    load.watch.lastOthers = 1;
    CoreShare share(2, true, load.watch);
    QCOMPARE(share.threads(), 1);  // the previous lookup (another run's) saw the same
    load.runnable = 1;
    share.recheck();  // within kRecheckSeconds of the constructor's lookup: nothing read
    QCOMPARE(share.threads(), 1);
    QTest::qWait(int(CoreShare::kRecheckSeconds * 1000) + 5);
    share.recheck();
    QCOMPARE(share.threads(), 2);
  }

  void chosenCountIsKept() {
    FakeLoad load;
    load.runnable = 5;
    load.watch.lastOthers = 4;
    CoreShare share(2, false, load.watch);
    share.recheck(true);
    QCOMPARE(share.threads(), 2);
    CoreShare one(1, true, load.watch);
    QCOMPARE(one.threads(), 1);
  }

  void unreadableLoadKeepsTheTeam() {
    LoadWatch none{[] { return std::optional<int>(); }};
    CoreShare share(2, true, none);
    share.recheck(true);
    QCOMPARE(share.threads(), 2);
  }

  void executorKeepsToOneThreadBesideABusyProgram() {
    if (omp_get_num_procs() < 2) QSKIP("one core: the parallel executor's team is one thread");
    ProgramRun serial = runLayers(false, 1);
    ProgramRun busy, quiet, chosen;
    {
      MachineLoadAnswers answers(2);  // one other thread runs all along
      busy = runLayers(true, 0);
      chosen = runLayers(true, 2);
    }
    {
      MachineLoadAnswers answers(1);
      quiet = runLayers(true, 0);
    }
    QCOMPARE(busy.variants[0].run.sideBySidePhases, int64_t(0));
    QVERIFY2(quiet.variants[0].run.sideBySidePhases >= 1, "alone, the layers run side by side");
    QVERIFY2(chosen.variants[0].run.sideBySidePhases >= 1, "--threads 2 is the user's choice");
    std::vector<VariantRun> all;
    for (const ProgramRun* r : {&serial, &busy, &quiet, &chosen}) {
      all.push_back(r->variants[0]);
      all.back().name += std::to_string(all.size());
    }
    for (const Agreement& ag : compareVariants(all))
      QVERIFY2(ag.agree(), qPrintable(QString::fromStdString(ag.output + " " + ag.other)));
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestCoreShare)
#include "test_core_share.moc"
