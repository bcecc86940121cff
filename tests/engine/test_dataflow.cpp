// The parallel executor runs independent nodes side by side (exec/dataflow.h): same values,
// gradients, prints and errors as the serial executor, and side-by-side phases only where two
// or more independent nodes are each worth a thread.
#include "test_main.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "engine/exec/dataflow.h"
#include "engine/lab/session.h"

using namespace gl;
using namespace gl::lab;

namespace {

lang::TracedProgram traceScript(const std::string& source) {
  return lang::traceProgram(source, "test.gls", lang::TraceOptions{});
}

lang::TracedProgram traceLesson(const std::string& name) {
  std::ifstream in(std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  lang::TraceOptions opt;
  opt.preset = lang::ParamPreset::Seed;  // at classroom size no node is worth a thread
  return lang::traceProgram(ss.str(), name, opt);
}

void fail(const std::string& message) { QTest::qFail(message.c_str(), __FILE__, __LINE__); }

RunRequest settings(bool parallel, const std::string& variant = {}) {
  RunRequest s;
  s.variant = variant;
  s.options.executor = parallel ? ExecutorKind::Parallel : ExecutorKind::Serial;
  s.options.threads = 2;
  s.options.records = s.options.valueRecords = false;
  return s;
}

// Runs p on the serial and the parallel executor; both must succeed and agree output by output.
std::pair<ProgramRun, ProgramRun> runSerialAndParallel(const lang::TracedProgram& p,
                                                       const std::string& variant = {}) {
  ProgramRun a = runProgram(p, settings(false, variant));
  ProgramRun b = runProgram(p, settings(true, variant));
  for (const ProgramRun* r : {&a, &b})
    for (const VariantRun& v : r->variants)
      if (!v.ok()) fail("variant " + v.name + " failed: " + v.error);
  std::vector<VariantRun> both = a.variants;
  for (VariantRun v : b.variants) {
    v.name += "/parallel";
    both.push_back(v);
  }
  for (const Agreement& ag : compareVariants(both))
    if (!ag.agree())
      fail("serial and parallel executors differ on " + ag.output + " (" + ag.reference + " vs " +
           ag.other + ") by " + std::to_string(ag.maxAbsDiff));
  return {std::move(a), std::move(b)};
}

// Eight independent [64,128] @ [128,128] products (a million multiply-adds each: worth a
// thread, too small to split well), concatenated, with the gradient of every weight.
const char* kIndependentLayers = R"(
tf.random.set_seed(1)
x = tf.random.normal([64, 128])
w = tf.Variable(tf.random.normal([8, 128, 128], stddev=0.1), name="w")
with tf.GradientTape() as tape:
    y = tf.concat([tf.matmul(x, w[i]) for i in range(8)], axis=1)
    loss = tf.reduce_sum(tf.square(y))
dw = tape.gradient(loss, w)
)";

// The same products one after another, forward only: nothing can run side by side. (Its
// gradient could: each layer's weight gradient and input gradient are independent products.)
// (Its inputs are constants: two random draws would be independent nodes of their own.)
const char* kChain = R"(
x = tf.ones([64, 128]) * 0.5
w = tf.Variable(tf.ones([8, 128, 128]) * 0.01, name="w")
y = x
for i in range(8):
    y = tf.tanh(tf.matmul(y, w[i]))
loss = tf.reduce_sum(tf.square(y))
)";

// The regions of p's first variant that get a dataflow plan on the parallel executor.
int regionsWorthADataflowPlan(const lang::TracedProgram& p) {
  std::vector<Value> fetches;
  for (const lang::Output& o : p.variants.at(0).outputs)
    for (const lang::OutputEntry& e : o.entries)
      if (e.value.valid()) fetches.push_back(e.value);
  const Graph& g = *p.graph;
  const ExecutionPlan plan(g, fetches);
  int worth = 0;
  for (int r = 0; r < g.numRegions(); ++r) {
    std::vector<std::vector<int>> units;
    for (int id : plan.region(r).order) units.push_back({id});
    worth += planDataflow(g, plan, r, units, plan.region(r).freeAfter)->worthIt ? 1 : 0;
  }
  return worth;
}

}  // namespace

class TestDataflow : public QObject {
  Q_OBJECT
 private slots:
  void independentLayersRunSideBySide() {
    const auto [serial, parallel] = runSerialAndParallel(traceScript(kIndependentLayers));
    const RunResult& s = serial.variants.at(0).run;
    const RunResult& p = parallel.variants.at(0).run;
    QCOMPARE(s.sideBySidePhases, int64_t(0));  // the serial executor keeps plan order
    QVERIFY2(p.sideBySidePhases >= 1, "the parallel executor never ran nodes side by side");
    // The 8 forward products and 8 weight-gradient products at least.
    QVERIFY2(p.sideBySideNodes >= 16, qPrintable(QString::number(p.sideBySideNodes)));
    QCOMPARE(p.primitiveOps, s.primitiveOps);  // every node ran once, counted once
  }

  // The fusing executor's units are nodes and fused groups: the layers' products (and each
  // layer's fused elementwise tail) run side by side there too, with the serial values.
  void theFusingExecutorRunsThemSideBySideToo() {
    const lang::TracedProgram p = traceScript(kIndependentLayers);
    const ProgramRun serial = runProgram(p, settings(false));
    RunRequest s = settings(false);
    s.options.executor = ExecutorKind::Fused;
    const ProgramRun fused = runProgram(p, s);
    QVERIFY2(fused.variants.at(0).ok(), fused.variants.at(0).error.c_str());
    std::vector<VariantRun> both{serial.variants.at(0), fused.variants.at(0)};
    both[1].name += "/fused";
    for (const Agreement& ag : compareVariants(both)) QVERIFY2(ag.agree(), ag.output.c_str());
    QVERIFY(fused.variants[0].run.sideBySideNodes >= 16);
    QCOMPARE(fused.variants[0].run.primitiveOps, serial.variants[0].run.primitiveOps);
  }

  // Traced as one function: eagerly, the variable's initial value (tf.ones * 0.01) is an op that
  // ran too, and a replay may run it beside the chain.
  void aChainNeverRunsSideBySide() {
    lang::TraceOptions traced;
    traced.model = lang::ExecutionModel::WholeScriptFunction;
    const auto [serial, parallel] =
        runSerialAndParallel(lang::traceProgram(kChain, "test.gls", traced));
    QCOMPARE(parallel.variants.at(0).run.sideBySidePhases, int64_t(0));
    QCOMPARE(parallel.variants.at(0).run.primitiveOps, serial.variants.at(0).run.primitiveOps);
  }

  // A region whose nodes worth a thread all lie on one path gets no dataflow plan: it runs in
  // plan order, as on the serial executor, without the bookkeeping. kChain's forward has eight
  // such products in a row; the ODE's vectorized steps are chains of [10, 5000] elementwise
  // ops. Independent products do get one.
  void onlyRegionsWithIndependentWorkGetADataflowPlan() {
    const std::string forwardOnlyChain =
        std::string(kChain).substr(0, std::string(kChain).find("loss"));
    QCOMPARE(regionsWorthADataflowPlan(traceScript(forwardOnlyChain)), 0);
    QVERIFY(regionsWorthADataflowPlan(traceScript(kIndependentLayers)) >= 1);
    lang::TracedProgram ode = traceLesson("ode_while_loop.gls");
    const auto vectorized =
        std::find_if(ode.variants.begin(), ode.variants.end(),
                     [](const lang::Variant& v) { return v.name == "vectorized"; });
    QVERIFY(vectorized != ode.variants.end());
    std::rotate(ode.variants.begin(), vectorized, vectorized + 1);
    QCOMPARE(regionsWorthADataflowPlan(ode), 0);
  }

  void printsKeepTheScriptsOrder() {
    const std::string script = std::string(kIndependentLayers) + R"(
a = tf.reduce_sum(tf.matmul(x, w[0]))
b = tf.reduce_sum(tf.matmul(x, w[1]))
c = tf.reduce_sum(tf.matmul(x, w[2]))
tf.print("c", c)
tf.print("a", a)
tf.print("b", b)
)";
    // Traced as one tf.function, so that the tf.prints are print nodes the executors order
    // (eagerly they print while the script is traced).
    lang::TraceOptions traced;
    traced.model = lang::ExecutionModel::WholeScriptFunction;
    const auto [serial, parallel] =
        runSerialAndParallel(lang::traceProgram(script, "test.gls", traced));
    const std::vector<std::string>& log = parallel.variants.at(0).run.log;
    QCOMPARE(log, serial.variants.at(0).run.log);
    QCOMPARE(log.size(), size_t(3));
    QVERIFY(log[0].rfind("c ", 0) == 0 && log[1].rfind("a ", 0) == 0 && log[2].rfind("b ", 0) == 0);
  }

  // A kernel error inside a side-by-side phase reaches the user as on the serial executor:
  // same message, same line.
  void anErrorInsideAPhaseIsReportedAsOnTheSerialExecutor() {
    const std::string script = std::string(kIndependentLayers) + R"(
bad = tf.gather(w, tf.constant([0, 9]))
)";
    const lang::TracedProgram p = traceScript(script);
    const ProgramRun serial = runProgram(p, settings(false));
    const ProgramRun parallel = runProgram(p, settings(true));
    const VariantRun& s = serial.variants.at(0);
    const VariantRun& q = parallel.variants.at(0);
    QVERIFY(!s.ok());
    QVERIFY2(s.error.find("test.gls:10:") != std::string::npos, s.error.c_str());
    QCOMPARE(q.error, s.error);
  }

  void theParallelLayersLessonAgreesAndRunsItsListSideBySide() {
    const auto [serial, parallel] =
        runSerialAndParallel(traceLesson("parallel_layers.gls"), "python_list");
    QCOMPARE(parallel.variants.size(), size_t(1));
    // 64 layers: their products forward and backward at least.
    QVERIFY2(parallel.variants[0].run.sideBySideNodes >= 128,
             qPrintable(QString::number(parallel.variants[0].run.sideBySideNodes)));
    QCOMPARE(parallel.variants[0].run.primitiveOps, serial.variants[0].run.primitiveOps);
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestDataflow)
#include "test_dataflow.moc"
