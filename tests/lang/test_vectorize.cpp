// tf.vectorized_map builds one batched graph: on scripts covering each primitive family and
// control flow (while_loop, cond, map_fn, scan) inside the mapped function, it gives map_fn's
// values and gradients, and its fallback report names the op and line of each part that could not
// be batched.
#include "test_main.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "engine/lab/session.h"

using namespace gl;
using namespace gl::lang;
using namespace gl::lab;

namespace {

// x [4, 3, 5] and w [5, 2] as variables; f(e) maps one example e [3, 5]. Variant "loop" maps
// with map_fn, "vmap" with vectorized_map; both take the gradient of sum(y^2).
std::string script(const std::string& body, const std::string& vmapArgs = "") {
  return "tf.random.set_seed(3)\n"
         "x = tf.Variable(tf.random.normal([4, 3, 5]), name=\"x\")\n"
         "w = tf.Variable(tf.random.normal([5, 2]), name=\"w\")\n"
         "def f(e):\n" +
         body +
         "with variant(\"loop\"):\n"
         "    with tf.GradientTape() as tape:\n"
         "        y = tf.map_fn(f, x)\n"
         "        loss = tf.reduce_sum(y * y)\n"
         "    g_x, g_w = tape.gradient(loss, [x, w], unconnected_gradients='zero')\n"
         "with variant(\"vmap\"):\n"
         "    with tf.GradientTape() as tape:\n"
         "        y = tf.vectorized_map(f, x" +
         vmapArgs +
         ")\n"
         "        loss = tf.reduce_sum(y * y)\n"
         "    g_x, g_w = tape.gradient(loss, [x, w], unconnected_gradients='zero')\n";
}
// 1-based line of the first line of src containing text.
int lineOf(const std::string& src, const std::string& text) {
  int line = 1;
  for (size_t i = 0; i < src.find(text); ++i) line += src[i] == '\n';
  return line;
}

const VariantRun& variantOf(const ProgramRun& r, const std::string& name) {
  for (const VariantRun& v : r.variants)
    if (v.name == name) return v;
  throw std::runtime_error("no variant " + name);
}

// Runs on both executors; the variants must agree. Returns the serial run.
ProgramRun runAgreeing(const std::string& src) {
  TracedProgram p = traceProgram(src, "vmap.gls");
  ProgramRun serial = runProgram(p, RunRequest{});
  RunRequest par;
  par.options.executor = ExecutorKind::Parallel;
  par.options.threads = 2;
  ProgramRun parallel = runProgram(p, par);
  for (const ProgramRun* r : {&serial, &parallel}) {
    for (const VariantRun& v : r->variants)
      if (!v.ok()) QTest::qFail(("variant failed: " + v.error).c_str(), __FILE__, __LINE__);
    if (r->agreement.size() != 4)
      QTest::qFail("expected y, loss and two gradients compared", __FILE__, __LINE__);
    for (const Agreement& a : r->agreement)
      if (!a.agree())
        QTest::qFail(("vectorized_map differs from map_fn on " + a.output + " by " +
                      std::to_string(a.maxAbsDiff))
                         .c_str(),
                     __FILE__, __LINE__);
  }
  return serial;
}

std::vector<BatchFallback> fallbacksOf(const ProgramRun& r) {
  const VariantRun& v = variantOf(r, "vmap");
  if (v.vectorized.empty()) throw std::runtime_error("expected a vectorized_map record");
  std::vector<BatchFallback> all;  // of every vectorized_map in the variant (nested ones too)
  for (const VectorizedMapRecord& m : v.vectorized)
    all.insert(all.end(), m.fallbacks.begin(), m.fallbacks.end());
  return all;
}

QString describe(const std::vector<BatchFallback>& fs) {
  QStringList l;
  for (const BatchFallback& f : fs)
    l << QString::fromStdString(f.op + " line " + std::to_string(f.loc.line) + ": " + f.reason);
  return l.join("; ");
}

}  // namespace

class TestVectorize : public QObject {
  Q_OBJECT
 private slots:
  void batchedEqualsMapFn_data() {
    QTest::addColumn<QString>("body");
    QTest::newRow("elementwise and reductions")
        << "    a = tf.where(e > 0.0, tf.exp(e) * 2.0, tf.sin(e) - 1.0)\n"
           "    b = tf.reduce_max(tf.abs(e), axis=0) + tf.reduce_mean(tf.square(e))\n"
           "    return tf.reduce_sum(a, axis=-1, keepdims=True) * b[0:2] - tf.sqrt(b[2:4] + 1.0)\n";
    QTest::newRow("shape ops")
        << "    t = tf.transpose(tf.reshape(e, [5, 3]))\n"
           "    s = tf.concat([t, tf.squeeze(tf.expand_dims(e, 0), axis=0)], axis=1)\n"
           "    u = tf.stack([s, s * 2.0], axis=1)\n"
           "    v = tf.tile(tf.slice(u, [0, 0, 0], [3, 2, 2]), [1, 1, 3])\n"
           "    return tf.reduce_sum(v, axis=1) + tf.broadcast_to(e[0, 0:1], [3, 6])\n";
    QTest::newRow("matmul, einsum, gather")
        << "    m = tf.matmul(e, w) + tf.einsum('ij,jk->ik', e, w)\n"
           "    g = tf.gather(e, tf.constant([4, 0]), axis=1)\n"
           "    return m * g + tf.gather(w, tf.constant([1, 3, 2]))[0:3, :]\n";
    QTest::newRow("nn")
        << "    p = tf.nn.softmax(e) * tf.nn.log_softmax(e, axis=0)\n"
           "    l = tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(e * 2.0), "
           "logits=e)\n"
           "    i = tf.cast(tf.argmax(e, axis=1), tf.float32)\n"
           "    return tf.reduce_sum(p, axis=1) + l * i\n";
  }

  void batchedEqualsMapFn() {
    QFETCH(QString, body);
    ProgramRun r = runAgreeing(script(body.toStdString()));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // A @tf.custom_gradient function's grad_fn is traced against its own element, so the mapped
  // function runs as traced, in a loop, and the custom gradient (3v instead of 2v) is the one
  // map_fn gives (TF's vectorized_map applies grad_fn too).
  void aCustomGradientInsideRunsTheFunctionInALoop() {
    ProgramRun r =
        runAgreeing(script("    @tf.custom_gradient\n"
                           "    def sq(v):\n"
                           "        def grad(dy):\n"
                           "            return dy * 3.0 * v\n"
                           "        return v * v, grad\n"
                           "    return tf.matmul(sq(e), w)\n"));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QCOMPARE(int(f.size()), 1);
    QVERIFY2(QString::fromStdString(f[0].reason).contains("custom_gradient"),
             qPrintable(describe(f)));
  }

  // An element whose leading dimension is 1 is broadcast to every example (TF's
  // _broadcasting_gather in control_flow_ops.py); its gradient sums over the examples.
  void aLeadingDimensionOfOneBroadcasts() {
    const char* src = R"(
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
w = tf.constant([[10.0, 20.0]])
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    t.watch(w)
    y = tf.vectorized_map(lambda a: a[0] * a[1], (x, w))
    s = tf.reduce_sum(y)
gx = t.gradient(s, x)
gw = t.gradient(s, w)
)";
    TracedProgram p = traceProgram(src, "b.gls");
    ProgramRun run = runProgram(p, RunRequest{});
    const VariantRun& v = run.variants.at(0);
    QVERIFY2(v.ok(), v.error.c_str());
    auto values = [&](const char* name) {
      for (const OutputResult& o : v.outputs)
        if (o.name == name && !o.entries.empty() && !o.entries[0].none())
          return o.entries[0].value.t.toVector();
      return std::vector<double>{};
    };
    QCOMPARE(values("y"), (std::vector<double>{10, 40, 30, 80, 50, 120}));
    QCOMPARE(values("gx"), (std::vector<double>{10, 20, 10, 20, 10, 20}));
    QCOMPARE(values("gw"), (std::vector<double>{9, 12}));
  }

  // one_hot has no batching rule: it alone runs in a loop, and the report says where.
  void aNodeWithoutARuleFallsBackAlone() {
    ProgramRun r =
        runAgreeing(script("    h = tf.one_hot(tf.argmax(e, axis=1), 5)\n"  // line 5
                           "    return tf.reduce_sum(e * h * 2.0, axis=1)\n"));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(QString::fromStdString(f[0].op), QString("one_hot"));
    QCOMPARE(f[0].loc.line, 5);
    QVERIFY(QString::fromStdString(f[0].reason).contains("no batching rule"));
  }

  // A random draw must differ per example: it is stateful, so it loops; the report and the
  // JSON name it, and fallback_to_while_loop=False makes it an error at its line.
  void aStatefulOpIsReportedAndCanBeAnError() {
    const std::string body =
        "    n = tf.random.normal([5])\n"  // line 5
        "    return tf.reduce_sum(e * n, axis=1)\n";
    TracedProgram p = traceProgram(script(body), "vmap.gls");
    ProgramRun r = runProgram(p, RunRequest{});
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(QString::fromStdString(f[0].op), QString("random_normal"));
    QCOMPARE(f[0].loc.line, 5);
    const Tensor& y = variantOf(r, "vmap").outputs.at(0).entries.at(0).value.t;
    QCOMPARE(y.shape(), (Shape{4, 3}));
    const std::string text = reportText(p, r, RunRequest{});
    const std::string expect = "vectorized_map at line " +
                               std::to_string(lineOf(script(body), "tf.vectorized_map")) +
                               ": fallback: random_normal at line 5";
    QVERIFY2(text.find(expect) != std::string::npos, text.c_str());
    const std::string json = reportJson(p, r, RunRequest{});
    QVERIFY2(QString::fromStdString(json).contains(
                 "\"fallbacks\":[{\"op\":\"random_normal\",\"line\":5"),
             json.c_str());
    try {
      traceProgram(script(body, ", fallback_to_while_loop=False"), "vmap.gls");
      QFAIL("expected an error");
    } catch (const EngineError& e) {
      const QString m = e.what();
      QVERIFY2(m.contains("vmap.gls:5:") && m.contains("random_normal") && m.contains("at line 5"),
               e.what());
    }
  }

  void aFullyBatchedMapReportsNoFallback() {
    const std::string src = script("    return tf.sin(e) * 3.0\n");
    TracedProgram p = traceProgram(src, "vmap.gls");
    ProgramRun r = runProgram(p, RunRequest{});
    const std::string text = reportText(p, r, RunRequest{});
    QVERIFY2(QString::fromStdString(text).contains(
                 "vectorized_map at line " + QString::number(lineOf(src, "tf.vectorized_map")) +
                 ": one batched graph, no fallback"),
             text.c_str());
  }

  // Per-example trip counts: each lane stops on its own.
  void whileLoopWithPerLaneTripCounts() {
    ProgramRun r = runAgreeing(
        script("    _, v = tf.while_loop(lambda i, v: tf.reduce_sum(tf.abs(v)) < 40.0,\n"
               "                         lambda i, v: (i + 1, v * 1.5 + 0.1), [0, e])\n"
               "    return v\n"));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // tf.scan, tf.foldl and tf.foldr inside the mapped function: one batched scan (its carried
  // values per lane where the start or the body makes them differ), no fallback.
  void scanInsideTheFunction_data() {
    QTest::addColumn<QString>("body");
    QTest::newRow("scan over the example's rows")
        << "    return tf.scan(lambda a, r: tf.tanh(a * 0.5 + tf.linalg.matvec(w, r, "
           "transpose_a=True)),\n"
           "                   e, initializer=tf.zeros([2]))\n";
    QTest::newRow("foldl over shared rows from the example")
        << "    return tf.foldl(lambda a, r: a * r + 1.0, tf.ones([4, 5]) * 0.5, "
           "initializer=e[0])\n";
    QTest::newRow("foldr without initializer, tuple")
        << "    u, v = tf.foldr(lambda a, r: (tf.sin(a[0]) + r[0], a[1] * r[1]), (e, e * 0.5))\n"
           "    return u + v\n";
    QTest::newRow("scan reversed, shared carry")
        << "    s = tf.scan(lambda a, r: a + 1.0, e, initializer=0.0, reverse=True)\n"
           "    return e * s[:, None]\n";
    QTest::newRow("a tape around a fold")
        << "    with tf.GradientTape() as t:\n"
           "        t.watch(e)\n"
           "        s = tf.foldl(lambda a, r: a * tf.sin(r), e, initializer=tf.ones([5]))\n"
           "        l = tf.reduce_sum(s)\n"
           "    return t.gradient(l, e)\n";
  }

  void scanInsideTheFunction() {
    QFETCH(QString, body);
    ProgramRun r = runAgreeing(script(body.toStdString()));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // A fold that prints is stateful: it runs in a loop over the batch, whole, named as written
  // in the report, and still gives map_fn's values and gradients.
  void aFoldThatPrintsFallsBackWhole() {
    ProgramRun r =
        runAgreeing(script("    def step(a, r):\n"
                           "        tf.print(a)\n"
                           "        return a * 0.5 + tf.sin(r)\n"
                           "    return tf.foldr(step, e)\n"));  // line 8
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(QString::fromStdString(f[0].op), QString("foldr"));
    QCOMPARE(f[0].loc.line, 8);
    QVERIFY2(QString::fromStdString(f[0].reason).contains("stateful"), f[0].reason.c_str());
  }

  void condWithBatchedPredicate() {
    ProgramRun r =
        runAgreeing(script("    return tf.cond(tf.reduce_sum(e) > 0.0, lambda: e * 2.0, "
                           "lambda: tf.exp(e) - 1.0)\n"));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // Seed-c: the lesson's vectorized_map variant is one batched graph equal to its einsum one.
  void parallelLayersLessonIsFullyBatched() {
    std::ifstream in(std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/parallel_layers.gls");
    std::stringstream src;
    src << in.rdbuf();
    TraceOptions opt;
    opt.overrides = {{"batch", 3}, {"time", 4}, {"n_in", 5}, {"n_out", 2}, {"layers", 6}};
    TracedProgram p = traceProgram(src.str(), "parallel_layers.gls", opt);
    ProgramRun r = runProgram(p, RunRequest{});
    const VariantRun& v = variantOf(r, "vectorized_map");
    QVERIFY2(v.ok(), v.error.c_str());
    QCOMPARE(int(v.vectorized.size()), 1);
    QVERIFY2(v.vectorized[0].fallbacks.empty(), qPrintable(describe(v.vectorized[0].fallbacks)));
    int compared = 0;
    for (const Agreement& a : r.agreement)
      if (a.other == "vectorized_map" || a.reference == "vectorized_map") {
        QVERIFY2(a.agree(), a.output.c_str());
        ++compared;
      }
    QCOMPARE(compared, 4);  // y, loss, d_kernels, d_biases
  }

  void nestedMapFnAndVectorizedMap() {
    ProgramRun r =
        runAgreeing(script("    a = tf.map_fn(lambda row: tf.reduce_sum(row * w[:, 0]), e)\n"
                           "    b = tf.vectorized_map(lambda row: tf.sin(row) * 2.0, e)\n"
                           "    return tf.reduce_sum(b, axis=1) + a\n"));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // A per-example gradient through map_fn over a captured w: the batched reverse map reads
  // what the batched forward map saved (it failed with "not in scope" before) and sums w's
  // adjoint per lane; the outer tape differentiates that again.
  void perExampleGradientThroughMapFn() {
    ProgramRun r = runAgreeing(script(
        "    with tf.GradientTape() as inner:\n"
        "        m = tf.map_fn(lambda row: tf.sin(tf.matmul(tf.expand_dims(row, 0), w)), e)\n"
        "        l = tf.reduce_sum(m * m)\n"
        "    return inner.gradient(l, w)\n"));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // tape.jacobian / batch_jacobian with experimental_use_pfor (the default) batch one reverse
  // pass over the identity's rows; experimental_use_pfor=False loops over them. Same numbers.
  void jacobianPforEqualsRowLoop_data() {
    QTest::addColumn<QString>("forward");
    QTest::newRow("dense") << "        y = tf.matmul(tf.sin(x), w) * tf.reduce_sum(x)\n";
    QTest::newRow("while_loop")
        << "        _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, "
           "tf.tanh(tf.matmul(v, w[:, 0:1] * tf.ones([1, 4])))), [0, x])\n";
    // The reverse pass reads the list twice (list_zeros + list_write, list_scatter, summed by
    // list_add) and unstacks: every list op's rule runs on the batched cotangents.
    QTest::newRow("TensorArray")
        << "        ta = tf.TensorArray(tf.float32, size=3).unstack(tf.sin(x))\n"
           "        y = tf.matmul(ta.gather([2, 0, 1]) * ta.read(0), w)\n";
    // A reverse loop that carries the TensorArray's adjoint and reads w by rows.
    QTest::newRow("TensorArray in a while_loop")
        << "        ta = tf.TensorArray(tf.float32, size=3)\n"
           "        v = x[0]\n"
           "        for t in tf.range(3):\n"
           "            v = v * w[t, 0] + x[t]\n"
           "            ta = ta.write(t, v)\n"
           "        y = ta.stack()\n";
  }

  void jacobianPforEqualsRowLoop() {
    QFETCH(QString, forward);
    auto variantText = [&](const char* name, const char* pfor) {
      return std::string("with variant(\"") + name +
             "\"):\n"
             "    with tf.GradientTape(persistent=True) as tape:\n" +
             forward.toStdString() + "    j_x, j_w = tape.jacobian(y, [x, w]" + pfor +
             ")\n"
             "    bj = tape.batch_jacobian(y, x" +
             pfor + ")\n";
    };
    const std::string src =
        "tf.random.set_seed(3)\n"
        "x = tf.Variable(tf.random.normal([3, 4]), name=\"x\")\n"
        "w = tf.Variable(tf.random.normal([4, 2]) * 0.5, name=\"w\")\n" +
        variantText("pfor", "") + variantText("rows", ", experimental_use_pfor=False");
    TracedProgram p = traceProgram(src, "jac.gls");
    ProgramRun r = runProgram(p, RunRequest{});
    for (const VariantRun& v : r.variants) QVERIFY2(v.ok(), v.error.c_str());
    int compared = 0;
    for (const Agreement& a : r.agreement) {
      QVERIFY2(a.agree(), a.output.c_str());
      compared += a.output == "j_x" || a.output == "j_w" || a.output == "bj";
    }
    QCOMPARE(compared, 3);
    const VariantRun& pfor = variantOf(r, "pfor");
    QCOMPARE(int(pfor.vectorized.size()), 2);
    for (const VectorizedMapRecord& m : pfor.vectorized) {
      QVERIFY(m.what == "jacobian" || m.what == "batch_jacobian");
      QVERIFY2(m.fallbacks.empty(), qPrintable(describe(m.fallbacks)));
    }
    QVERIFY(variantOf(r, "rows").vectorized.empty());
  }

  // TensorArray ops batch as lists whose entries carry the lane axis: each body gives map_fn's
  // values and gradients with no fallback.
  void tensorArraysBatch_data() {
    QTest::addColumn<QString>("body");
    QTest::newRow("write in a loop, stack")
        << "    ta = tf.TensorArray(tf.float32, size=3)\n"
           "    for i in tf.range(3):\n"
           "        ta = ta.write(i, tf.reduce_sum(e[i]) * 2.0 + e[i] * e[i])\n"
           "    return ta.stack()\n";
    QTest::newRow("unstack, read, gather, size")
        << "    ta = tf.TensorArray(tf.float32, size=3).unstack(e * 1.5)\n"
           "    n = tf.cast(ta.size(), tf.float32)\n"
           "    return ta.read(2) * n + tf.reduce_sum(ta.gather([2, 0]) * ta.read(1), axis=0)\n";
    // A list made from shared values, then written with per-lane ones: it becomes per-lane.
    QTest::newRow("shared list read at a per-lane index")
        << "    ta = tf.TensorArray(tf.float32, size=2).write(0, w[:, 0]).write(1, w[:, 1])\n"
           "    k = tf.cast(tf.reduce_sum(e) > 0.0, tf.int32)\n"
           "    return e * ta.read(k)\n";
    QTest::newRow("shared list, per-lane writes")
        << "    ta = tf.TensorArray(tf.float32, size=3).write(0, w[:, 0] * 3.0)\n"
           "    ta = ta.write(1, e[0]).write(2, e[1] * w[:, 1])\n"
           "    return ta.stack() + ta.read(0)\n";
  }

  void tensorArraysBatch() {
    QFETCH(QString, body);
    ProgramRun r = runAgreeing(script(body.toStdString()));
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QVERIFY2(f.empty(), qPrintable(describe(f)));
  }

  // A write at an index that differs per lane has no rule, and a loop over the batch cannot
  // stack the list it makes: the whole function loops, and the report names the op and line.
  void aTensorArrayWriteAtAPerLaneIndexLoopsTheWholeMap() {
    const std::string src = script(
        "    k = tf.cast(tf.reduce_sum(e) > 0.0, tf.int32)\n"
        "    ta = tf.TensorArray(tf.float32, size=2).write(k, e[0])\n"  // line 6
        "    return ta.write(1 - k, e[1] * 2.0).stack()\n");
    ProgramRun r = runAgreeing(src);
    const std::vector<BatchFallback> f = fallbacksOf(r);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(f[0].loc.line, lineOf(src, "tf.vectorized_map"));
    QVERIFY2(QString::fromStdString(f[0].reason).contains("list_write at line 6") ||
                 QString::fromStdString(f[0].reason).contains("write at line 6"),
             qPrintable(describe(f)));
    QVERIFY2(QString::fromStdString(f[0].reason).contains("index that differs per lane"),
             qPrintable(describe(f)));
  }

  // Seed-b: the jacobian of every step output with respect to every step weight is one
  // batched reverse pass (the reverse loop carries a batched adjoint list), equal to the T
  // backward passes and to the closed form d x_t / d w_k = x_t / w_k for k <= t, else 0.
  void perStepJacobianIsOneBatchedPass() {
    std::ifstream in(std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/per_step_gradients.gls");
    std::stringstream src;
    src << in.rdbuf();
    const int steps = 6;
    const double w = 1.25, x0 = 2.0;
    TraceOptions opt;
    opt.overrides = {{"steps", steps}, {"w", w}, {"x0", x0}};
    TracedProgram p = traceProgram(src.str(), "per_step_gradients.gls", opt);
    ProgramRun r = runProgram(p, RunRequest{});
    const VariantRun& jac = variantOf(r, "jacobian");
    QVERIFY2(jac.ok(), jac.error.c_str());
    QCOMPARE(int(jac.vectorized.size()), 1);
    QVERIFY2(jac.vectorized[0].fallbacks.empty(),
             qPrintable(describe(jac.vectorized[0].fallbacks)));
    bool compared = false;
    for (const Agreement& a : r.agreement)
      if (a.output == "dx_dw" && (a.other == "jacobian" || a.reference == "jacobian")) {
        QVERIFY2(a.agree(), std::to_string(a.maxAbsDiff).c_str());
        compared = true;
      }
    QVERIFY(compared);
    const Tensor* j = nullptr;
    for (const OutputResult& o : jac.outputs)
      if (o.name == "dx_dw") j = &o.entries.at(0).value.t;
    QVERIFY(j);
    QCOMPARE(j->shape(), (Shape{steps, steps}));
    for (int t = 0; t < steps; ++t)
      for (int k = 0; k < steps; ++k) {
        const double xt = x0 * std::pow(w, t + 1);
        const double want = k <= t ? xt / w : 0.0;
        QVERIFY2(
            std::abs(j->at(t * steps + k) - want) < 1e-5 * std::max(1.0, std::abs(want)),
            qPrintable(
                QString("t %1 k %2: %3 vs %4").arg(t).arg(k).arg(j->at(t * steps + k)).arg(want)));
      }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestVectorize)
#include "test_vectorize.moc"
