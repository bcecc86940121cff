// Values computed while tracing (a tf.Variable's initial value, constants folded for shapes)
// run under the trace's limits and never run the script's side effects (issue #31, item 1: a
// tf.Variable created after an endless loop made `gradlab check` hang, because evaluating
// its initial value also ran every tf.print of the graph, one of them after the loop).
#include "test_main.h"

#include <atomic>
#include <string>

#include "../engine/helpers.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

// The fuzzer's finding, as it found it: `i % +1` is always 0, so the loop never ends.
const char* kEndless = R"(var = tf.Variable(tf.ones([5]))
with tf.GradientTape() as t:
    r = tf.while_loop(lambda i, _: i < 3,
                      lambda i, x: (i % + 1, x * tf.reduce_sum(tf.gather(var, [1, 3]))),
                      [0, tf.constant(1.0)])[1]
tf.print(t.gradient(r, var))

var1 = tf.Variable(tf.ones([5]))
)";

}  // namespace

class TestTraceLimits : public QObject {
  Q_OBJECT
 private slots:
  // The trace ends: var1's initial value needs tf.ones only, not the print after the loop
  // (traced as one tf.function, the print is a node that only a run executes).
  void aVariableAfterAnEndlessLoopTraces() {
    TraceOptions opt;
    opt.maxOps = 100000;
    opt.model = ExecutionModel::WholeScriptFunction;
    const TracedProgram p = traceProgram(kEndless, "endless.gls", opt);
    QCOMPARE(int(p.variants.size()), 1);
  }

  // Eagerly the tf.print runs at once, as in TF (where this loop never ends): it stops at the
  // op limit, located at the loop that ran away.
  void anEagerPrintAfterAnEndlessLoopStops() {
    TraceOptions opt;
    opt.maxOps = 100000;
    const std::string e = gltest::errorText([&] { traceProgram(kEndless, "endless.gls", opt); });
    QVERIFY2(e.find("endless.gls:3:") != std::string::npos, e.c_str());
    QVERIFY2(e.find("100000") != std::string::npos, e.c_str());
  }

  // An initial value that needs the endless loop stops at the op limit, located at the
  // argument, naming the limit.
  void anInitialValueStopsAtTheOpLimit() {
    TraceOptions opt;
    opt.maxOps = 1000;
    const std::string src =
        "r = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i % 1, x + 1.0), [0, 1.0])[1]\n"
        "v = tf.Variable(r)\n";
    const std::string e = gltest::errorText([&] { traceProgram(src, "limit.gls", opt); });
    QVERIFY2(e.find("limit.gls:2:") != std::string::npos, e.c_str());
    QVERIFY2(e.find("initial_value") != std::string::npos, e.c_str());
    QVERIFY2(e.find("1000") != std::string::npos, e.c_str());
  }

  // The window's trace is cancelled when a newer edit supersedes it: the evaluation stops.
  void aCancelledTraceStops() {
    TraceOptions opt;
    std::atomic<int> asked{0};
    opt.cancelled = [&asked] { return ++asked > 3; };
    const std::string src =
        "r = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i % 1, x + 1.0), [0, 1.0])[1]\n"
        "v = tf.Variable(r)\n";
    const std::string e = gltest::errorText([&] { traceProgram(src, "cancel.gls", opt); });
    QVERIFY2(e.find("cancelled") != std::string::npos, e.c_str());
    QVERIFY(asked > 3);
  }

  // The fuzzer's second finding (issue #31 campaign): a Python loop unrolled while tracing,
  // a tape and a variable update per step, traced for 48 s of CPU under ASan (2000 steps) and
  // never asked the cancellation: the fuzz harness's time limit, and the window's cancellation,
  // did not reach it. Each unrolled iteration asks now.
  void aCancelledUnrollStops() {
    TraceOptions opt;
    std::atomic<int> asked{0};
    opt.cancelled = [&asked] { return ++asked > 3; };
    const std::string src =
        "w = tf.Variable(0.0)\n"
        "for epoch in range(100):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.square(w * 2.0 - 1.0)\n"
        "    w.assign_sub(0.1 * tape.gradient(loss, w))\n";
    const std::string e = gltest::errorText([&] { traceProgram(src, "unroll.gls", opt); });
    QVERIFY2(e.find("cancelled") != std::string::npos, e.c_str());
    QVERIFY(asked > 3 && asked < 100);
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestTraceLimits)
#include "test_trace_limits.moc"
