// Loops that run more than once keep one record per execution (the step-through chooses which):
// a while_loop inside a map_fn of 5 elements has 5 executions, each with its own per-iteration
// values and adjoints, on both executors.
#include "test_main.h"

#include "executor_kinds.h"

#include <cmath>

#include "engine/exec/executor.h"
#include "engine/lab/session.h"
#include "engine/lang/program.h"

using namespace gl;

namespace {

// v_{t+1} = v_t^2 from v_0 = x_e = 1 + e/10: v_t = x_e^(2^t), and the adjoint of v_t in
// sum_e v_3 is d v_3 / d v_t = 2^(3-t) v_t^(2^(3-t) - 1).
const char* kLoopInMap = R"(
xs = tf.constant([1.0, 1.1, 1.2, 1.3, 1.4], dtype=tf.float64)

def squarings(x):
    def cond(i, v):
        return tf.less(i, 3)
    def body(i, v):
        return i + 1, v * v
    _, last = tf.while_loop(cond, body, loop_vars=[tf.constant(0), x])
    return last

with tf.GradientTape() as tape:
    tape.watch(xs)
    ys = tf.map_fn(squarings, xs)
    total = tf.reduce_sum(ys)
d_xs = tape.gradient(total, xs)
)";

}  // namespace

class TestLoopExecutions : public QObject {
  Q_OBJECT
 private slots:
  void loopInMapHasOneRecordPerElement_data() { gltest::addExecutorRows(); }
  void loopInMapHasOneRecordPerElement() {
    QFETCH(ExecutorKind, executor);
    const lang::TracedProgram p = lang::traceProgram(kLoopInMap, "test.gls", {});
    const lab::ProgramRun run = lab::runProgram(p, {{}, gltest::onExecutor(executor)});
    QVERIFY(run.ok());
    const RunResult& r = run.variants.at(0).run;
    QCOMPARE(r.loops.size(), size_t(1));
    const int loop = r.loops.begin()->first;
    QVERIFY(r.loopExecutions.count(loop));
    const LoopExecutions& more = r.loopExecutions.at(loop);
    QCOMPARE(more.count(), size_t(5));
    for (size_t k = 0; k < 5; ++k) {
      const LoopRecord rec = loopExecution(r.loops.at(loop), &more, k);
      QCOMPARE(rec.at, std::vector<int64_t>{int64_t(k)});
      QCOMPARE(rec.iterations, int64_t(3));
      QCOMPARE(rec.carried.size(), size_t(4));
      QCOMPARE(rec.adjoints.size(), size_t(4));
      const double x = 1 + 0.1 * double(k);
      for (size_t t = 0; t <= 3; ++t) {
        const double v = std::pow(x, std::pow(2.0, double(t)));
        QCOMPARE(rec.carried[t][0].full.at(0), double(t));
        QVERIFY2(std::abs(rec.carried[t][1].full.at(0) - v) < 1e-12,
                 qPrintable(QString("execution %1 step %2").arg(k).arg(t)));
        const double e = std::pow(2.0, 3.0 - double(t));
        const double adjoint = e * std::pow(v, e - 1);
        QVERIFY2(rec.adjoints[t].size() == 2, qPrintable(QString::number(t)));
        QVERIFY2(std::abs(rec.adjoints[t][1].full.at(0) - adjoint) < 1e-9 * adjoint,
                 qPrintable(QString("execution %1 step %2: %3 vs %4")
                                .arg(k)
                                .arg(t)
                                .arg(rec.adjoints[t][1].full.at(0))
                                .arg(adjoint)));
      }
    }
  }

  // A record budget smaller than all executions keeps the first ones, and the run still says
  // how many ran: the step controls then read "execution 1 of 5", not "of 1".
  void executionsPastTheBudgetAreCounted_data() { loopInMapHasOneRecordPerElement_data(); }
  void executionsPastTheBudgetAreCounted() {
    QFETCH(ExecutorKind, executor);
    const lang::TracedProgram p = lang::traceProgram(kLoopInMap, "test.gls", {});
    std::vector<Value> fetches;
    for (const lang::Output& o : p.variants.at(0).outputs)
      for (const lang::OutputEntry& e : o.entries)
        if (e.value.valid()) fetches.push_back(e.value);
    RunOptions opt = gltest::onExecutor(executor);
    opt.recordBudget = 2 * sizeof(LoopRecord);  // room for two records at most
    const RunResult r = Executor(*p.graph, opt).run(fetches);
    QCOMPARE(r.loops.size(), size_t(1));
    const int loop = r.loops.begin()->first;
    QVERIFY(r.loopExecutions.count(loop));
    const LoopExecutions& more = r.loopExecutions.at(loop);
    QVERIFY2(more.count() < 5, qPrintable(QString::number(more.count())));
    QCOMPARE(more.ran, size_t(5));
    QCOMPARE(more.total(), size_t(5));

    opt.recordBudget = kDefaultRecordBudget;  // all recorded: the count says the same
    const RunResult all = Executor(*p.graph, opt).run(fetches);
    QCOMPARE(all.loopExecutions.at(loop).count(), size_t(5));
    QCOMPARE(all.loopExecutions.at(loop).total(), size_t(5));
  }

  // tape.jacobian with experimental_use_pfor=False (TF's row loop): the forward loop runs once
  // and its gradient once per row. y = w^4 elementwise, so row k's adjoint of y at the start of
  // iteration t is e_k * w^(4-t); every row shares the forward values (w^t).
  void jacobianRowsHaveOneReverseExecutionEach() {
    const char* src = R"(
w = tf.constant([1.0, 2.0, 3.0], dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(w)
    _, y = tf.while_loop(lambda i, v: tf.less(i, 4), lambda i, v: (i + 1, v * w),
                         [tf.constant(0), tf.ones([3], dtype=tf.float64)])
j = tape.jacobian(y, w, experimental_use_pfor=False)
)";
    const lang::TracedProgram p = lang::traceProgram(src, "test.gls", {});
    const lab::ProgramRun run = lab::runProgram(p, {});
    QVERIFY(run.ok());
    const RunResult& r = run.variants.at(0).run;
    QCOMPARE(r.loops.size(), size_t(1));
    const int loop = r.loops.begin()->first;
    QVERIFY(r.loopExecutions.count(loop));
    const LoopExecutions& more = r.loopExecutions.at(loop);
    QCOMPARE(more.count(), size_t(3));
    const double w[3] = {1, 2, 3};
    for (size_t k = 0; k < 3; ++k) {
      const LoopRecord rec = loopExecution(r.loops.at(loop), &more, k);
      QVERIFY2(!rec.at.empty() && rec.at.front() == int64_t(k), qPrintable(QString::number(k)));
      QCOMPARE(rec.iterations, int64_t(4));
      QCOMPARE(rec.carried.size(), size_t(5));
      QCOMPARE(rec.adjoints.size(), size_t(5));
      for (size_t t = 0; t <= 4; ++t) {
        for (int e = 0; e < 3; ++e) {
          QCOMPARE(rec.carried[t][1].full.at(e), std::pow(w[e], double(t)));
          const double adjoint = size_t(e) == k ? std::pow(w[e], 4.0 - double(t)) : 0.0;
          QVERIFY2(std::abs(rec.adjoints[t][1].full.at(e) - adjoint) < 1e-12,
                   qPrintable(QString("row %1 step %2 element %3: %4 vs %5")
                                  .arg(k)
                                  .arg(t)
                                  .arg(e)
                                  .arg(rec.adjoints[t][1].full.at(e))
                                  .arg(adjoint)));
        }
      }
    }
    for (const LoopRecord& rec : more.later) QVERIFY(rec.sharesCarried);
  }

  // A loop that runs once keeps one record and no later executions.
  void loopAtTopLevelHasOneExecution() {
    const char* src = R"(
x = tf.constant(2.0, dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    _, y = tf.while_loop(lambda i, v: tf.less(i, 4), lambda i, v: (i + 1, v * 0.5), [tf.constant(0), x])
g = tape.gradient(y, x)
)";
    const lang::TracedProgram p = lang::traceProgram(src, "test.gls", {});
    const lab::ProgramRun run = lab::runProgram(p, {});
    QVERIFY(run.ok());
    const RunResult& r = run.variants.at(0).run;
    QCOMPARE(r.loops.size(), size_t(1));
    QVERIFY(r.loopExecutions.empty());
    const LoopRecord& rec = r.loops.begin()->second;
    QVERIFY(rec.at.empty());
    QCOMPARE(rec.carried.size(), size_t(5));
    QCOMPARE(rec.adjoints.at(2).at(1).full.at(0), 0.25);
  }

  // Nested loops: the inner loop runs once per outer iteration, one record each; under a small
  // budget the records (rows and the executions themselves) stay within it and say truncated.
  void nestedLoopRecordsStayUnderTheBudget() {
    const char* src = R"(
x = tf.constant(1.0, dtype=tf.float64)

def inner(v):
    _, w = tf.while_loop(lambda j, w: tf.less(j, 30), lambda j, w: (j + 1, w * 1.01), [tf.constant(0), v])
    return w

_, y = tf.while_loop(lambda i, v: tf.less(i, 40), lambda i, v: (i + 1, inner(v)), [tf.constant(0), x])
)";
    const lang::TracedProgram p = lang::traceProgram(src, "test.gls", {});
    Value y;
    for (const lang::Output& o : p.variants.at(0).outputs)
      if (o.name == "y") y = o.entries.at(0).value;
    QVERIFY(y.valid());
    auto recordBytes = [](const LoopRecord& r) {
      size_t bytes = sizeof(LoopRecord);
      for (const auto& row : r.carried)
        for (const TensorRecord& t : row) bytes += t.bytes();
      return bytes;
    };
    {  // the default budget: every execution, each placed at its outer iteration
      Executor ex(*p.graph);
      const RunResult r = ex.run({y});
      QCOMPARE(r.values.at(0).t.at(0), std::pow(1.01, 30 * 40));
      QCOMPARE(r.loops.size(), size_t(2));
      QCOMPARE(r.loopExecutions.size(), size_t(1));
      const int innerLoop = r.loopExecutions.begin()->first;
      const LoopExecutions& more = r.loopExecutions.begin()->second;
      QCOMPARE(more.count(), size_t(40));
      for (size_t k = 0; k < 40; ++k) {
        const LoopRecord rec = loopExecution(r.loops.at(innerLoop), &more, k);
        QCOMPARE(rec.at, std::vector<int64_t>{int64_t(k)});
        QCOMPARE(rec.carried.size(), size_t(31));
        QCOMPARE(rec.carried[5][1].full.at(0), std::pow(1.01, 30 * double(k) + 5));
      }
    }
    RunOptions small;
    small.recordBudget = 16 << 10;
    Executor ex(*p.graph, small);
    const RunResult r = ex.run({y});
    QCOMPARE(r.values.at(0).t.at(0), std::pow(1.01, 30 * 40));  // records never change results
    size_t bytes = 0, executions = 0;
    bool truncated = false;
    for (const auto& [node, first] : r.loops) {
      bytes += recordBytes(first);
      ++executions;
      truncated = truncated || first.truncated;
      if (auto it = r.loopExecutions.find(node); it != r.loopExecutions.end())
        for (const LoopRecord& rec : it->second.later) {
          bytes += recordBytes(rec);
          ++executions;
          truncated = truncated || rec.truncated;
        }
    }
    QVERIFY2(bytes <= small.recordBudget, qPrintable(QString::number(bytes)));
    QVERIFY(executions < 41);
    QVERIFY(executions >= 2);
    QVERIFY(truncated);
  }

  // Records off: nothing recorded however often the loop runs.
  void recordsOff() {
    const lang::TracedProgram p = lang::traceProgram(kLoopInMap, "test.gls", {});
    lab::RunRequest s;
    s.options.records = false;
    const lab::ProgramRun run = lab::runProgram(p, s);
    QVERIFY(run.ok());
    QVERIFY(run.variants.at(0).run.loops.empty());
    QVERIFY(run.variants.at(0).run.loopExecutions.empty());
  }
};

GRADLAB_TEST_MAIN(TestLoopExecutions)
#include "test_loop_executions.moc"
