// The tracer: AutoGraph rules visible in the graph, Python semantics at trace time, params and
// variants, and closed-form gradients through scripts, run on both executors.
#include "test_main.h"

#include <cmath>

#include "../engine/helpers.h"
#include "engine/lang/program.h"
#include "engine/ops/registry.h"

using namespace gl;
using namespace gl::lang;

namespace {

// This file tests AutoGraph's rules, which apply inside a tf.function: each script is traced as
// one (test_function.cpp tests eager code and tf.function calls).
TraceOptions autograph() {
  TraceOptions o;
  o.model = ExecutionModel::WholeScriptFunction;
  return o;
}

// The same script run as TF 2 runs it: eagerly outside tf.function.
TraceOptions eagerly() { return {}; }

TracedProgram trace(const std::string& src, const TraceOptions& opt = autograph()) {
  try {
    return traceProgram(src, "test.gls", opt);
  } catch (const EngineError& e) {
    qWarning("trace failed: %s", e.what());
    throw;
  }
}

const Output& output(const TracedProgram& p, const std::string& name,
                     const std::string& variant = "") {
  for (const Variant& v : p.variants)
    if (v.name == variant)
      for (const Output& o : v.outputs)
        if (o.name == name) return o;
  // Report and go on: the caller's checks then fail on the placeholder's missing value.
  QTest::qFail(("no output '" + name + "' in variant '" + variant + "'").c_str(), __FILE__,
               __LINE__);
  static const Output kMissing = [] {
    Output o;
    o.entries.resize(1);
    return o;
  }();
  return kMissing;
}

bool hasOutput(const TracedProgram& p, const std::string& name, const std::string& variant = "") {
  for (const Variant& v : p.variants)
    if (v.name == variant)
      for (const Output& o : v.outputs)
        if (o.name == name) return true;
  return false;
}

int countOp(const Graph& g, const std::string& op, Phase phase = Phase::Forward) {
  int n = 0;
  for (const Node& node : g.nodes()) n += node.opName() == op && node.phase == phase;
  return n;
}

// Runs the named outputs (first entry each) on both executors.
std::vector<Tensor> run(const TracedProgram& p, const std::vector<std::string>& names,
                        const std::string& variant = "", double tol = 1e-5) {
  std::vector<Value> fetches;
  for (const auto& n : names) fetches.push_back(output(p, n, variant).entries.at(0).value);
  return gltest::runEveryExecutor(*p.graph, fetches, tol);
}

std::string traceError(const std::string& src, const TraceOptions& opt = autograph()) {
  try {
    traceProgram(src, "test.gls", opt);
  } catch (const EngineError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class TestTracer : public QObject {
  Q_OBJECT
 private slots:
  // Seed-a, vectorized: d sum(x_N)/dx = (1-dt)^N through tf.while_loop.
  void odeWhileLoopClosedForm() {
    const char* src = R"(
param steps = 7 in 1..100
dt = 0.1
x = tf.random.normal([3, 4], mean=10.0, stddev=1.0, dtype=tf.float64, seed=1)

def ode_fn(x):
    return -x + 1.0

def integrate(x, nsteps, time_step):
    def cond(i, x_next):
        return tf.less(i, nsteps)
    def body(i, x_next):
        x_next = x_next + time_step * ode_fn(x_next)
        return i + 1, x_next
    _, final_x = tf.while_loop(cond, body, loop_vars=[tf.constant(0), x], parallel_iterations=5)
    return tf.reduce_sum(final_x)

with tf.GradientTape() as tape:
    tape.watch(x)
    lnp = integrate(x, steps, dt)
grads = tape.gradient(lnp, x)
)";
    for (int steps : {1, 7, 30}) {
      TraceOptions opt = autograph();
      opt.overrides["steps"] = steps;
      TracedProgram p = trace(src, opt);
      QCOMPARE(countOp(*p.graph, "while"), 1);
      QVERIFY(output(p, "grads").isGradient);
      auto vals = run(p, {"grads"}, "", 1e-12);
      QCOMPARE(vals[0].shape(), (Shape{3, 4}));
      for (double v : vals[0].toVector()) QVERIFY(std::abs(v - std::pow(0.9, steps)) < 1e-12);
    }
  }

  // Seed-a with `for i in tf.range(n)`: one while_loop, same closed form; a TensorArray of
  // every step written at the counter.
  void odeForTfRange() {
    const char* src = R"(
x = tf.random.normal([2, 5], mean=10.0, stddev=1.0, dtype=tf.float64, seed=3)
n = 12
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.TensorArray(tf.float64, size=n)
    x_next = x
    for i in tf.range(n):
        x_next = x_next + 0.1 * (-x_next + 1.0)
        y = y.write(i, x_next)
    ys = y.stack()
    lnp = tf.reduce_sum(x_next)
dx = tape.gradient(lnp, x)
)";
    TracedProgram p = trace(src, autograph());
    QCOMPARE(countOp(*p.graph, "while"), 1);
    auto vals = run(p, {"dx", "ys"}, "", 1e-12);
    for (double v : vals[0].toVector()) QVERIFY(std::abs(v - std::pow(0.9, 12)) < 1e-12);
    QCOMPARE(vals[1].shape(), (Shape{12, 2, 5}));
  }

  // for i in range(n) unrolls: n copies of the body; tf.range: one while node, one copy.
  void rangeUnrollsTfRangeLoops() {
    TracedProgram a = trace("x = tf.constant([1.0, 2.0])\nfor i in range(5):\n    x = x * 3.0\n");
    QCOMPARE(countOp(*a.graph, "mul"), 5);
    QCOMPARE(countOp(*a.graph, "while"), 0);
    QCOMPARE(a.unrolledCopies, 5);
    TracedProgram b =
        trace("x = tf.constant([1.0, 2.0])\nfor i in tf.range(5):\n    x = x * 3.0\n", autograph());
    QCOMPARE(countOp(*b.graph, "mul"), 1);
    QCOMPARE(countOp(*b.graph, "while"), 1);
    QCOMPARE(b.variants[0].loops.size(), size_t(1));
    auto va = run(a, {"x"}), vb = run(b, {"x"});
    QCOMPARE(va[0].toVector(), (std::vector<double>{243, 486}));
    QCOMPARE(vb[0].toVector(), (std::vector<double>{243, 486}));
    // A Python for over a tensor unrolls over its first axis.
    TracedProgram c = trace(
        "m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\ns = 0.0\nfor row in m:\n    s = s "
        "+ tf.reduce_sum(row)\n");
    QCOMPARE(countOp(*c.graph, "while"), 0);
    QCOMPARE(run(c, {"s"})[0].item(), 21.0);
  }

  // tf.range on Python ints counts its elements before building them: no stepping past int64's
  // ends (signed overflow), negative steps round like Python, and a range too large for a
  // constant still drives a for loop as one while_loop.
  void tfRangeCountsBeforeBuilding() {
    TracedProgram p = trace(
        "a = tf.range(5, 0, -2)\nb = tf.range(2, 9, 3)\nc = tf.range(3, 3)\n"
        "d = tf.range(2147483000, 2147483647, 300, dtype=tf.float64)\n");
    auto v = run(p, {"a", "b", "c", "d"});
    QCOMPARE(v[0].toVector(), (std::vector<double>{5, 3, 1}));
    QCOMPARE(v[1].toVector(), (std::vector<double>{2, 5, 8}));
    QCOMPARE(v[2].numel(), int64_t(0));
    QCOMPARE(v[3].toVector(), (std::vector<double>{2147483000, 2147483300, 2147483600}));
    for (const char* src : {"d = tf.range(9223372036854775000, 9223372036854775807, 400)\n",
                            "d = tf.range(-9223372036854775807, -9223372036854775000, 500)\n"}) {
      try {
        traceProgram(src, "r.gls");
        QFAIL("an int32 range past 2^31 traced");
      } catch (const EngineError& e) {
        QCOMPARE(std::string(e.what()),
                 std::string("r.gls:1:5: tf.range(): its values do not fit in int32; pass "
                             "dtype=tf.float64"));
      }
    }
    TracedProgram big =
        trace("x = tf.constant(0.0)\nfor i in tf.range(10**9):\n    x = x + 1.0\n", autograph());
    QCOMPARE(countOp(*big.graph, "while"), 1);
    QCOMPARE(countOp(*big.graph, "const") < 10, true);  // no 10^9-element constant
  }

  // A while statement on a tensor becomes one while_loop whose loop variables are the names
  // the body changes; on a Python value it runs while tracing.
  void whileStatements() {
    TracedProgram a = trace(
        "i = tf.constant(0)\nx = tf.constant(1.0)\nwhile i < 10:\n    x = x * 2.0\n    i += 1\n");
    QCOMPARE(countOp(*a.graph, "while"), 1);
    QCOMPARE(run(a, {"x"})[0].item(), 1024.0);
    TracedProgram b =
        trace("i = 0\nx = tf.constant(1.0)\nwhile i < 4:\n    x = x * 2.0\n    i += 1\n");
    QCOMPARE(countOp(*b.graph, "while"), 0);
    QCOMPARE(countOp(*b.graph, "mul"), 4);
    QCOMPARE(run(b, {"x"})[0].item(), 16.0);
  }

  // if on a tensor: a cond node; on a Python value: no node at all.
  void ifRules() {
    const char* src = R"(
x = tf.constant([1.0, -2.0, 3.0])
if tf.reduce_sum(x) > 0:
    y = x * 2.0
else:
    y = -x
flag = True
if flag:
    z = x + 1.0
else:
    z = x - 1.0
w = x * 10.0 if tf.reduce_max(x) > 5.0 else x / 10.0
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "cond"), 2);
    QCOMPARE(countOp(*p.graph, "sub"), 0);  // the Python if traced only one branch
    auto v = run(p, {"y", "z", "w"});
    QCOMPARE(v[0].toVector(), (std::vector<double>{2, -4, 6}));
    QCOMPARE(v[1].toVector(), (std::vector<double>{2, -1, 4}));
    QVERIFY(std::abs(v[2].at(0) - 0.1) < 1e-6);
    // The branch that assigns only in one branch leaves the name undefined after the if.
    QVERIFY(traceError("x = tf.constant(1.0)\nif x > 0:\n    t = x\nu = t\n")
                .find("'t' is assigned in only one branch") != std::string::npos);
  }

  void tensorIfGradients() {
    const char* src = R"(
w = tf.Variable([1.5, -0.5], dtype=tf.float64)
with tf.GradientTape() as tape:
    s = tf.reduce_sum(w)
    if s > 0:
        y = tf.reduce_sum(w * w)
    else:
        y = tf.reduce_sum(tf.sin(w))
g = tape.gradient(y, w)
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"g"}, "", 1e-12);
    QCOMPARE(v[0].toVector(), (std::vector<double>{3.0, -1.0}));
  }

  void pythonSemantics() {
    const char* src = R"(
def make_scale(k):
    def scale(x):
        return x * k
    return scale
triple = make_scale(3.0)
a, (b, c) = 1, (2, 3)
sq = [i * i for i in range(5) if i % 2 == 0]
pairs = [(i, j) for i in range(2) for j in range(2)]
n = len(sq) + sum([1, 2, 3]) + max(4, 9, 2) + min([5, 1])
f = lambda x, y=2: x ** y
total = 0
for i, v in enumerate([10, 20]):
    total += i * v
for p, q in zip([1, 2], [3, 4]):
    total += p * q
lst = []
lst.append(5)
lst += [6]
v = triple(tf.constant([1.0, 2.0]))
s = "ab" * 2
k = 7 // 2 + 7 % 3 + (-7) // 2
flt = float(3) / 2
)";
    TracedProgram p = trace(src);
    QVERIFY(hasOutput(p, "v"));
    QVERIFY(!hasOutput(p, "n"));  // Python numbers are not outputs
    QVERIFY(!hasOutput(p, "triple"));
    QCOMPARE(run(p, {"v"})[0].toVector(), (std::vector<double>{3, 6}));
    // Check the Python values through the trace log.
    TracedProgram q = trace(std::string(src) +
                            "print(a, b, c, sq, len(pairs), n, f(3), total, lst, s, k, flt)\n");
    QCOMPARE(q.traceLog.size(), size_t(1));
    QCOMPARE(QString::fromStdString(q.traceLog[0]),
             QString("1 2 3 [0, 4, 16] 4 19 9 31 [5, 6] abab 0 1.5"));
  }

  void subscripts() {
    const char* src = R"(
x = tf.reshape(tf.range(24), [2, 3, 4])
a = x[1]
b = x[:, 1:3]
c = x[..., -1]
d = x[0, ::2, 1]
i = tf.constant(1)
e = x[i]
f = x[:, None, 0]
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"a", "b", "c", "d", "e", "f"});
    QCOMPARE(v[0].shape(), (Shape{3, 4}));
    QCOMPARE(v[0].at(0), 12.0);
    QCOMPARE(v[1].shape(), (Shape{2, 2, 4}));
    QCOMPARE(v[1].at(0), 4.0);
    QCOMPARE(v[2].shape(), (Shape{2, 3}));
    QCOMPARE(v[2].toVector(), (std::vector<double>{3, 7, 11, 15, 19, 23}));
    QCOMPARE(v[3].toVector(), (std::vector<double>{1, 9}));
    QCOMPARE(v[4].at(0), 12.0);
    QCOMPARE(v[5].shape(), (Shape{2, 1, 4}));
  }

  // Sequence indexing: Python lists, tuples and strings, evaluated while tracing.
  void subscriptSequences() {
    const char* src = R"(
a = [10, 20, 30, 40, 50]
s = "hello"
t = (1, 2, 3)
print(a[-1], a[1:4], a[::2], a[::-1], a[-2:], a[4:1:-1], a[10:], a[-100:2], a[True])
print(s[-1], s[::-1], s[1:3], s[::2], t[1:], t[-3], t[::-2], t[5:])
l = [tf.ones([2]), tf.zeros([3])]
m = l[-1]
)";
    TracedProgram p = trace(src);
    QCOMPARE(p.traceLog.size(), size_t(2));
    QCOMPARE(QString::fromStdString(p.traceLog[0]),
             QString("50 [20, 30, 40] [10, 30, 50] [50, 40, 30, 20, 10] [40, 50] [50, 40, 30] [] "
                     "[10, 20] 20"));
    QCOMPARE(QString::fromStdString(p.traceLog[1]), QString("o olleh el hlo (2, 3) 1 (3, 1) ()"));
    // A list of tensors indexes to the tensor itself: no node is added.
    QCOMPARE(output(p, "m").entries[0].value, output(p, "l").entries[1].value);
    QCOMPARE(countOp(*p.graph, "slice") + countOp(*p.graph, "gather"), 0);
  }

  // Tensor indexing: negative ints, steps (negative too), empty ranges, ellipsis with new axes,
  // int tensors of rank 2, and x[i] on the stack of a dynamic TensorArray.
  void subscriptTensors() {
    const char* src = R"(
x = tf.reshape(tf.range(24), [2, 3, 4])
a = x[-1]
b = x[:, ::-1]
c = x[..., 1:3, None]
d = x[1, 2, 3]
e = x[0, -1]
f = x[::2, 1::2, ::3]
g = x[:, :, 3:1]
h = x[tf.constant([[0, 1], [1, 0]]), 1]
k = x[:]
w = x[()]
ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
for i in tf.range(3):
    ta = ta.write(i, tf.fill([2], tf.cast(i, tf.float32)))
st = ta.stack()
r = st[2, 1]
q = st[tf.constant(1)]
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"a", "b", "c", "d", "e", "f", "g", "h", "k", "r", "q"});
    QCOMPARE(v[0].shape(), (Shape{3, 4}));
    QCOMPARE(v[0].at(0), 12.0);
    QCOMPARE(v[1].shape(), (Shape{2, 3, 4}));
    QCOMPARE(v[1].at(0), 8.0);
    QCOMPARE(v[1].at(8), 0.0);
    QCOMPARE(v[2].shape(), (Shape{2, 3, 2, 1}));
    QCOMPARE(v[2].at(0), 1.0);
    QCOMPARE(v[2].at(1), 2.0);
    QCOMPARE(v[3].shape(), Shape{});
    QCOMPARE(v[3].item(), 23.0);
    QCOMPARE(v[4].toVector(), (std::vector<double>{8, 9, 10, 11}));
    QCOMPARE(v[5].shape(), (Shape{1, 1, 2}));
    QCOMPARE(v[5].toVector(), (std::vector<double>{4, 7}));
    QCOMPARE(v[6].shape(), (Shape{2, 3, 0}));
    QCOMPARE(v[7].shape(), (Shape{2, 2, 4}));
    QCOMPARE(v[7].at(0), 4.0);
    QCOMPARE(v[7].at(4), 16.0);
    QCOMPARE(v[8].at(23), 23.0);
    QCOMPARE(v[8].shape(), (Shape{2, 3, 4}));
    QCOMPARE(p.graph->node(output(p, "k").entries[0].value).opName(), std::string_view("identity"));
    QCOMPARE(v[9].item(), 2.0);
    QCOMPARE(v[10].toVector(), (std::vector<double>{1, 1}));
    // The dynamic stack is read through the TensorArray (no static size needed).
    QCOMPARE(countOp(*p.graph, "list_read"), 2);
    // x[()] indexes no axis: the whole tensor.
    QCOMPARE(run(p, {"w"})[0].shape(), (Shape{2, 3, 4}));
  }

  void paramsAndOverrides() {
    const char* src =
        "param steps = 5 in 1..100\nparam rate = 0.5 in 0.0..1.0\nx = tf.constant(1.0) * steps * "
        "rate\n";
    TracedProgram p = trace(src);
    QCOMPARE(p.params.size(), size_t(2));
    QCOMPARE(p.params[0].name, std::string("steps"));
    QVERIFY(p.params[0].isInt);
    QVERIFY(!p.params[1].isInt);
    QCOMPARE(run(p, {"x"})[0].item(), 2.5);
    TraceOptions o;
    o.overrides["steps"] = 10;
    TracedProgram q = trace(src, o);
    QCOMPARE(q.params[0].value, 10.0);
    QCOMPARE(run(q, {"x"})[0].item(), 5.0);
    o.overrides["stepz"] = 1;
    QVERIFY(traceError(src, o).find("unknown param 'stepz' (params: steps, rate)") !=
            std::string::npos);
    TraceOptions r;
    r.overrides["steps"] = 1000;
    QVERIFY(traceError(src, r).find(
                "test.gls:1:15: param 'steps' = 1000 is outside its range 1..100") !=
            std::string::npos);
    // Past int64's range the value is printed as a double (converting it was undefined).
    for (const auto& [value, text] : {std::pair{1e300, "1e+300"}, {INFINITY, "inf"}}) {
      TraceOptions huge;
      huge.overrides["steps"] = value;
      QCOMPARE(traceError(src, huge), "test.gls:1:15: param 'steps' = " + std::string(text) +
                                          " is outside its range 1..100");
    }
  }

  // `class N` is the value under the classroom preset; the seed's value stays the default, a
  // param without `class` keeps its value under both, and --set wins over either.
  void classroomPreset() {
    const char* src =
        "param steps = 500 in 1..1000 class 20\nparam rate = 0.5 in 0.0..1.0\n"
        "x = tf.constant(1.0) * steps * rate\n";
    TracedProgram seed = trace(src);
    QCOMPARE(seed.params[0].value, 500.0);
    QCOMPARE(seed.params[0].seedValue, 500.0);
    QCOMPARE(seed.params[0].classroom.value_or(-1), 20.0);
    QVERIFY(!seed.params[1].classroom);
    QCOMPARE(run(seed, {"x"})[0].item(), 250.0);
    TraceOptions o;
    o.preset = ParamPreset::Classroom;
    TracedProgram cls = trace(src, o);
    QCOMPARE(cls.params[0].value, 20.0);
    QCOMPARE(cls.params[0].seedValue, 500.0);
    QCOMPARE(cls.params[1].value, 0.5);
    QCOMPARE(run(cls, {"x"})[0].item(), 10.0);
    o.overrides["steps"] = 40;
    QCOMPARE(run(trace(src, o), {"x"})[0].item(), 20.0);
  }

  void variantsAndOutputs() {
    const char* src = R"(
x = tf.constant([1.0, 2.0, 3.0])
with variant("loop"):
    acc = tf.zeros([3])
    for i in tf.range(3):
        acc = acc + x
    y = acc
with variant("direct"):
    y = x * 3.0
    helper = 2
)";
    TracedProgram p = trace(src);
    QCOMPARE(p.variants.size(), size_t(2));
    QCOMPARE(p.variants[0].name, std::string("loop"));
    QCOMPARE(p.variants[0].loops.size(), size_t(1));
    QCOMPARE(p.variants[1].loops.size(), size_t(0));
    QVERIFY(hasOutput(p, "y", "loop"));
    QVERIFY(hasOutput(p, "acc", "loop"));
    QVERIFY(!hasOutput(p, "acc", "direct"));  // names do not leak between variants
    QVERIFY(!hasOutput(p, "helper", "direct"));
    QVERIFY(!hasOutput(p, "x", "loop"));  // shared top-level code is not a variant's output
    auto a = run(p, {"y"}, "loop"), b = run(p, {"y"}, "direct");
    QCOMPARE(a[0].toVector(), b[0].toVector());
    QCOMPARE(output(p, "y", "loop").loc.line, 7);
    // A variant's loop or tensor if treats top-level names as defined before it.
    const char* shared = R"(
x = tf.constant([1.0, 2.0])
with variant("a"):
    for i in tf.range(3):
        x = x * 2.0
    if tf.reduce_sum(x) > 100.0:
        x = x * 0.0
    y = x
with variant("b"):
    y = x * 8.0
)";
    TracedProgram q = trace(shared);
    QCOMPARE(run(q, {"y"}, "a")[0].toVector(), (std::vector<double>{8, 16}));
    QCOMPARE(run(q, {"y"}, "b")[0].toVector(), (std::vector<double>{8, 16}));
  }

  // Variables are state: each variant starts from the top level's state; a loop that assigns
  // a variable carries it (one while node, the variable among its loop variables); a read
  // after assign is a new leaf, and a variable's final value is its output.
  void variablesAsState() {
    const char* src = R"(
w = tf.Variable(1.0)
with variant("a"):
    for i in tf.range(3):
        w.assign_add(1.0)
    out = w * 1.0
with variant("b"):
    w.assign_sub(0.5)
    out = w * 1.0
)";
    TracedProgram p = trace(src);
    QCOMPARE(run(p, {"out"}, "a")[0].toVector(), (std::vector<double>{4}));
    QCOMPARE(run(p, {"out"}, "b")[0].toVector(), (std::vector<double>{0.5}));
    const Node& loop = p.graph->node(p.variants[0].loops.at(0));
    QCOMPARE(loop.inputs.size(), size_t(2));  // the counter and w
    const char* top = R"(
v = tf.Variable([1.0, 2.0])
x = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * 2.0
    v.assign(tf.stack([y, y]))
    z = tf.reduce_sum(v * v)
g = tape.gradient(z, x)
gv = tape.gradient(z, v)
)";
    // No TF run: state stops gradients (autodiff guide), so dz/dx is None, dz/dv = 2 v = 12.
    TracedProgram q = trace(top);
    const Output& g = output(q, "g");
    QVERIFY(!g.entries.at(0).value.valid());
    QVERIFY2(QString::fromStdString(g.entries.at(0).whyNone).contains("stop_gradient") ||
                 QString::fromStdString(g.entries.at(0).whyNone).contains("does not depend"),
             g.entries.at(0).whyNone.c_str());
    QCOMPARE(run(q, {"gv", "v"})[0].toVector(), (std::vector<double>{12, 12}));
    QCOMPARE(run(q, {"v"})[0].toVector(), (std::vector<double>{6, 6}));
  }

  // Seed-b: x_t = x_{t-1} * w_t, per-step weights as one [T] variable outside the loop:
  // d x_T / d w_k = x_T / w_k.
  void perStepProduct() {
    const char* src = R"(
T = 6
w = tf.Variable(tf.random.uniform([T], 0.5, 1.5, dtype=tf.float64, seed=4))
x0 = tf.constant(2.0, dtype=tf.float64)
with tf.GradientTape(persistent=True) as tape:
    xs = tf.TensorArray(tf.float64, size=T)
    x = x0
    for t in tf.range(T):
        x = x * w[t]
        xs = xs.write(t, x)
    outs = xs.stack()
    last = outs[T - 1]
dlast = tape.gradient(last, w)
J = tape.jacobian(outs, w)
rows = [tape.gradient(x, [w])[0] for _ in range(1)]
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"dlast", "J", "w", "outs"}, "", 1e-12);
    const int T = 6;
    const double xT = v[3].at(T - 1);
    for (int k = 0; k < T; ++k) QVERIFY(std::abs(v[0].at(k) - xT / v[2].at(k)) < 1e-12);
    for (int t = 0; t < T; ++t)
      for (int k = 0; k < T; ++k) {
        const double expect = k <= t ? v[3].at(t) / v[2].at(k) : 0.0;
        QVERIFY(std::abs(v[1].at(t * T + k) - expect) < 1e-12);
      }
    QVERIFY(output(p, "rows").isGradient);
    QVERIFY(output(p, "rows").isList);
  }

  // Seed-b's mistake: a variable created inside the loop body gets no gradient, with the reason.
  void variableInLoopBodyIsNone() {
    const char* src = R"(
x = tf.constant(2.0)
ws = []
with tf.GradientTape() as tape:
    for t in tf.range(3):
        w = tf.Variable(1.0)
        ws.append(w)
        x = x * w
g = tape.gradient(x, ws)
)";
    TracedProgram p = trace(src);
    const Output& g = output(p, "g");
    QVERIFY(g.isGradient);
    QVERIFY(!g.entries[0].value.valid());
    QVERIFY2(g.entries[0].whyNone.find("inside the body") != std::string::npos,
             g.entries[0].whyNone.c_str());
  }

  // Seed-d: the target indexed after the tape closed has no gradient; inside the tape it has,
  // whether the losses come from map_fn, a Python loop or a TensorArray + while_loop.
  void seedDGradientNone() {
    const char* src = R"(
tf.random.set_seed(0)
images = tf.random.uniform([2, 8, 8, 3])
labels = tf.one_hot([1, 3], 4)
heads = [tf.keras.Sequential([tf.keras.layers.Conv2D(4, 3), tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(4)]) for _ in range(3)]
def model(x):
    return tf.stack([h(x) for h in heads])
def loss_map(logits):
    return tf.map_fn(lambda i: tf.reduce_mean(tf.keras.losses.categorical_crossentropy(labels, tf.gather(logits, i), from_logits=True)), tf.range(3), fn_output_signature=tf.float32)
def loss_ta(logits):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=())
    for i in tf.range(3):
        ta = ta.write(i, tf.reduce_mean(tf.keras.losses.categorical_crossentropy(labels, tf.gather(logits, i), from_logits=True)))
    return ta.stack()
with tf.GradientTape(persistent=True) as tape:
    logits = model(images)
    loss_val = loss_map(logits)
    loss_ta_val = loss_ta(logits)
    loss_inside = loss_val[0]
    loss_ta_0 = loss_ta_val[0]
bad = tape.gradient(loss_val[0], heads[0].trainable_variables)
good = tape.gradient(loss_inside, heads[0].trainable_variables)
good_ta = tape.gradient(loss_ta_0, heads[0].trainable_variables)
)";
    TracedProgram p = trace(src);
    const Output& bad = output(p, "bad");
    QCOMPARE(bad.entries.size(), size_t(4));
    for (const auto& e : bad.entries) {
      QVERIFY(!e.value.valid());
      QVERIFY2(e.whyNone.find("after the tape stopped recording") != std::string::npos,
               e.whyNone.c_str());
    }
    const Output& good = output(p, "good");
    const Output& goodTa = output(p, "good_ta");
    std::vector<Value> fetch;
    for (int k = 0; k < 4; ++k) {
      QVERIFY(good.entries[size_t(k)].value.valid());
      fetch.push_back(good.entries[size_t(k)].value);
      fetch.push_back(goodTa.entries[size_t(k)].value);
    }
    auto v = gltest::runEveryExecutor(*p.graph, fetch, 1e-5);
    for (int k = 0; k < 4; ++k)
      QVERIFY(gltest::maxAbsDiff(v[size_t(2 * k)], v[size_t(2 * k + 1)]) < 1e-5);
    // 3 heads x (kernel, bias) x 2 layers with weights: 12 variables, made once.
    QCOMPARE(countOp(*p.graph, "variable"), 12);
  }

  void mapFnMatchesUnrolled() {
    const char* src = R"(
x = tf.Variable(tf.random.normal([5, 3], dtype=tf.float64, seed=5))
w = tf.Variable(tf.random.normal([3], dtype=tf.float64, seed=6))
with tf.GradientTape(persistent=True) as tape:
    m = tf.map_fn(lambda row: tf.reduce_sum(tf.sin(row) * w), x)
    y = tf.reduce_sum(tf.square(m))
    v = tf.vectorized_map(lambda row: tf.reduce_sum(tf.sin(row) * w), x)
    yv = tf.reduce_sum(tf.square(v))
    direct = tf.reduce_sum(tf.square(tf.reduce_sum(tf.sin(x) * w, axis=1)))
g1 = tape.gradient(y, [x, w])
g2 = tape.gradient(direct, [x, w])
g3 = tape.gradient(yv, [x, w])
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "map"), 2);
    const auto& g1 = output(p, "g1").entries;
    const auto& g2 = output(p, "g2").entries;
    const auto& g3 = output(p, "g3").entries;
    auto v = gltest::runEveryExecutor(
        *p.graph, {g1[0].value, g1[1].value, g2[0].value, g2[1].value, g3[0].value}, 1e-12);
    QVERIFY(gltest::maxAbsDiff(v[0], v[2]) < 1e-12);
    QVERIFY(gltest::maxAbsDiff(v[1], v[3]) < 1e-12);
    QVERIFY(gltest::maxAbsDiff(v[4], v[2]) < 1e-12);
  }

  void layersCreateVariablesOnce() {
    const char* src = R"(
tf.random.set_seed(1)
dense = tf.keras.layers.Dense(4, activation="relu")
x = tf.ones([2, 3])
a = dense(x)
b = dense(x * 2.0)
c = tf.map_fn(lambda row: tf.reduce_sum(dense(row[None, :])), x)
kernels = dense.trainable_variables
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "variable"), 2);
    QCOMPARE(output(p, "kernels").entries.size(), size_t(2));
    for (const Node& n : p.graph->nodes())
      if (n.is(NodeKind::Variable)) QCOMPARE(n.region, 0);
    auto v = run(p, {"a", "b"});
    QCOMPARE(v[0].shape(), (Shape{2, 4}));
    // Same seed, same weights: tracing twice gives the same numbers.
    TracedProgram q = trace(src);
    QCOMPARE(run(q, {"a"})[0].toVector(), v[0].toVector());
    // input_shape= and build() create the variables before the first call, as in Keras.
    TracedProgram r = trace(
        "d = tf.keras.layers.Dense(3, input_shape=(4,))\nv = d.trainable_variables\n"
        "c = tf.keras.layers.Conv2D(2, 3)\nc.build((None, 8, 8, 3))\nw = c.kernel\n"
        "f = tf.keras.layers.Flatten()(tf.ones([2, 3, 4]))\n");
    QCOMPARE(output(r, "v").entries.size(), size_t(2));
    QCOMPARE(r.graph->type(output(r, "w").entries[0].value).shape, (Shape{3, 3, 3, 2}));
    QCOMPARE(r.graph->type(output(r, "f").entries[0].value).shape, (Shape{2, 12}));
  }

  // print runs once, while tracing, even in a tf.range body; tf.print runs every iteration.
  void printVersusTfPrint() {
    const char* src = R"(
x = tf.constant(1.0)
for i in tf.range(3):
    print("tracing the body")
    tf.print("step", i)
    x = x + 1.0
)";
    TracedProgram p = trace(src);
    QCOMPARE(p.traceLog.size(), size_t(1));
    QCOMPARE(QString::fromStdString(p.traceLog[0]), QString("tracing the body"));
    Executor ex(*p.graph);
    RunResult r = ex.run({output(p, "x").entries[0].value});
    QCOMPARE(r.log.size(), size_t(3));
    QVERIFY(QString::fromStdString(r.log[2]).startsWith("step"));
    QCOMPARE(r.values[0].t.item(), 4.0);
  }

  // numpy's str() and repr() layouts, whitespace exact (numpy 1.26, arrayprint.py: floats
  // 'maxprec' with precision 8 and a trailing '.', common widths, 75 columns, "..." above 1000
  // items, a blank line between the blocks of a rank-3 array).
  void numpyPrintsAsNumpy() {
    const char* src = R"(import numpy as np
print(np.array([1., 2.]))
print(repr(np.array([1., 2.], np.float32)))
print(np.arange(6).reshape(2, 3))
print(np.array([1.5, -2.0]))
print(np.arange(12).reshape(2, 2, 3))
print(np.array([1e-5, 1.0]))
print(np.array([0.1, 0.25]))
print(np.arange(2000))
print(np.array([True, False]))
print(repr(np.zeros((2, 2))))
print(np.float32(0.1), np.float64(1.0), np.array(2.5), repr(np.array(1.0)))
print(np.arange(30))
print([np.array([1, 2])], np.int64(3) + 1, (np.float32(3) + 1.0).dtype)
)";
    TracedProgram p = trace(src);
    const std::vector<std::string> want = {
        "[1. 2.]",
        "array([1., 2.], dtype=float32)",
        "[[0 1 2]\n [3 4 5]]",
        "[ 1.5 -2. ]",
        "[[[ 0  1  2]\n  [ 3  4  5]]\n\n [[ 6  7  8]\n  [ 9 10 11]]]",
        "[1.e-05 1.e+00]",
        "[0.1  0.25]",
        "[   0    1    2 ... 1997 1998 1999]",
        "[ True False]",
        "array([[0., 0.],\n       [0., 0.]])",
        "0.1 1.0 2.5 array(1.)",
        "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 "
        "28 29]",
        "[array([1, 2])] 4 float64"};
    QCOMPARE(p.traceLog.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      QCOMPARE(QString::fromStdString(p.traceLog[i]), QString::fromStdString(want[i]));
  }

  // tf.print as TF's print_v2 (tensorflow/python/ops/logging_ops.py docstring: tf.range(10)
  // prints "[0 1 2 ... 7 8 9]"; tensor.cc PrintOneDimV2 for the layout): one line per call,
  // sep and end, summarize, Python values as str(), a blank line between rank-3 blocks.
  void tfPrintLayoutAsTf() {
    const char* src = R"(tf.print("a", 1, "b")
tf.print("x:", tf.constant([1, 2, 3]))
tf.print(tf.range(10))
tf.print(tf.reshape(tf.range(12), [2, 2, 3]))
tf.print(tf.ones([10], tf.int32), summarize=-1)
tf.print(tf.ones([10], tf.int32), summarize=1)
tf.print("a", "b", sep=", ")
tf.print("no newline", end="")
tf.print(" then this")
tf.print(tf.constant(1.0) / 3.0, tf.constant(1000000), [tf.constant(1), 2], None)
)";
    // Eagerly (TF 2 outside tf.function) tf.print prints at once, into the trace log; traced
    // (in a tf.function: here the whole script as one) it is a print node that prints when the
    // graph runs. Both lay the line out alike.
    TracedProgram eager = trace(src, eagerly());
    TraceOptions traced;
    traced.model = ExecutionModel::WholeScriptFunction;
    TracedProgram p = trace(src, traced);
    Executor ex(*p.graph);
    RunResult r = ex.run({});
    const std::vector<std::string> want = {"a 1 b",
                                           "x: [1 2 3]",
                                           "[0 1 2 ... 7 8 9]",
                                           "[[[0 1 2]\n  [3 4 5]]\n\n [[6 7 8]\n  [9 10 11]]]",
                                           "[1 1 1 1 1 1 1 1 1 1]",
                                           "[1 ... 1]",
                                           "a, b",
                                           "no newline then this",
                                           "0.333333343 1000000 [1, 2] None"};
    QCOMPARE(r.log.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      QCOMPARE(QString::fromStdString(r.log[i]), QString::fromStdString(want[i]));
    QCOMPARE(eager.traceLog.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      QCOMPARE(QString::fromStdString(eager.traceLog[i]), QString::fromStdString(want[i]));
  }

  // Every registered primitive is reachable by name, with keyword args as attributes.
  void primitivesByName() {
    const char* src = R"(
x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
a = tf.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([3, 3, 1, 2]), strides=[1, 1], padding="VALID")
b = global_avg_pool(tf.ones([1, 2, 2, 3]))
c = tf.math.softmax(x)
d = tf.raw_ops.fill(shape=[2], value=7.0, dtype="float32")
e = tf.nn.relu(x)
ta = list_new(dtype="float32", size=2)
ta = list_write(ta, 0, tf.constant([1.0]))
ta = list_write(ta, 1, tf.constant([2.0]))
f = list_stack(ta, size=2)
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"a", "b", "d", "e", "f"});
    QCOMPARE(v[0].shape(), (Shape{1, 2, 2, 2}));
    QCOMPARE(v[0].at(0), 9.0);
    QCOMPARE(v[2].toVector(), (std::vector<double>{7, 7}));
    QCOMPARE(v[3].toVector(), (std::vector<double>{1, 0, 3, 4}));
    QCOMPARE(v[4].toVector(), (std::vector<double>{1, 2}));
    // Every registered primitive, by name.
    std::string all;
    // (but "assert", a Python keyword: no attribute can be written with that name, in Python too)
    for (const auto& name : Registry::instance().names())
      if (name != "assert") all += "f = tf.raw_ops." + name + "\n";
    QCOMPARE(traceError(all), std::string());
  }

  void unconnectedZeroAndStopRecording() {
    const char* src = R"(
x = tf.Variable([1.0, 2.0])
u = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    y = tf.reduce_sum(x * x)
    with tape.stop_recording():
        z = y * 2.0
    s = tf.stop_gradient(y) * tf.reduce_sum(x)
gz = tape.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO)
gn = tape.gradient(y, u)
gstop = tape.gradient(z, x)
gs = tape.gradient(s, x)
)";
    TracedProgram p = trace(src);
    QCOMPARE(run(p, {"gz"})[0].toVector(), (std::vector<double>{0, 0, 0}));
    QVERIFY(!output(p, "gn").entries[0].value.valid());
    QVERIFY(output(p, "gn").entries[0].whyNone.find("does not depend") != std::string::npos);
    QVERIFY(output(p, "gstop").entries[0].whyNone.find("stop_recording") != std::string::npos);
    QCOMPARE(run(p, {"gs"})[0].toVector(), (std::vector<double>{5, 5}));
  }

  void tfCondAndWhileLoopBuiltins() {
    const char* src = R"(
x = tf.constant(3.0)
y = tf.cond(x > 2.0, lambda: x * 2.0, lambda: x - 1.0)
z = tf.cond(False, lambda: x * 2.0, lambda: x - 1.0)
i, acc = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a + x), [0, 0.0])
capped = tf.while_loop(lambda i: i < 100, lambda i: i + 1, [tf.constant(0)], maximum_iterations=7)[0]
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "cond"), 1);
    auto v = run(p, {"y", "z", "acc", "i", "capped"});
    QCOMPARE(v[0].item(), 6.0);
    QCOMPARE(v[1].item(), 2.0);
    QCOMPARE(v[2].item(), 12.0);
    QCOMPARE(v[3].item(), 4.0);
    QCOMPARE(v[4].item(), 7.0);
  }

  // Issue #10: the gradient of a TensorArray read inside a tf.cond inside a while_loop. The
  // read's index is saved per iteration only where the branch ran; the reverse pass read the
  // missing entry of iteration 0 and failed ("never written"). TF: d/dx sum_{i=1..3} x*i = 6.
  void tensorArrayReadInCondInWhileGradient() {
    const char* src = R"(
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    def body(i, ta, acc):
        ta = ta.write(i, x * tf.cast(i + 1, tf.float32))
        v = tf.cond(i > 0, lambda: ta.read(i - 1), lambda: tf.constant(0.0))
        return i + 1, ta, acc + v
    _, ta, total = tf.while_loop(lambda i, ta, acc: i < 4, body,
                                 [tf.constant(0), tf.TensorArray(tf.float32, size=4), tf.constant(0.0)])
g = tape.gradient(total, x)
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"total", "g"});
    QCOMPARE(v[0].item(), 12.0);  // x * (1 + 2 + 3)
    QCOMPARE(v[1].item(), 6.0);
  }

  // Seed-a, per sample: a tape inside a tf.range body writing each gradient to a TensorArray.
  void tapeInsideLoopBody() {
    const char* src = R"(
x = tf.random.normal([4, 6], mean=10.0, stddev=1.0, seed=2)
grads = tf.TensorArray(tf.float32, size=4)
for b in tf.range(4):
    xi = x[b]
    with tf.GradientTape() as tape:
        tape.watch(xi)
        x_next = xi
        for s in tf.range(30):
            x_next = x_next + 0.1 * (-x_next + 1.0)
        lnp = tf.reduce_sum(x_next)
    grads = grads.write(b, tape.gradient(lnp, xi))
g = grads.stack()
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "while"), 2);
    auto v = run(p, {"g"});
    QCOMPARE(v[0].shape(), (Shape{4, 6}));
    for (double x : v[0].toVector()) QVERIFY(std::abs(x - std::pow(0.9, 30)) < 1e-5);
  }

  // Seed-c: N parallel dense layers as a Python list, as one einsum, and as vectorized_map:
  // same outputs and gradients.
  void parallelLayersAgree() {
    const char* src = R"(
tf.random.set_seed(3)
N = 3
x = tf.random.normal([2, 5, 3], seed=1)
layers = [tf.keras.layers.Dense(4) for _ in range(N)]
for l in layers:
    l(x)
with variant("list"):
    with tf.GradientTape() as tape:
        y = tf.stack([l(x) for l in layers], axis=1)
        loss = tf.reduce_sum(y * y)
    g = tape.gradient(loss, layers[0].kernel)
with variant("einsum"):
    with tf.GradientTape() as tape:
        kernels = tf.stack([l.kernel for l in layers])
        biases = tf.stack([l.bias for l in layers])
        y = tf.einsum('bti, nic -> bntc', x, kernels) + biases[None, :, None, :]
        loss = tf.reduce_sum(y * y)
    g = tape.gradient(loss, layers[0].kernel)
with variant("vectorized"):
    with tf.GradientTape() as tape:
        kernels = tf.stack([l.kernel for l in layers])
        biases = tf.stack([l.bias for l in layers])
        per = tf.vectorized_map(lambda kb: tf.einsum('bti,ic->btc', x, kb[0]) + kb[1], (kernels, biases))
        y = tf.transpose(per, [1, 0, 2, 3])
        loss = tf.reduce_sum(y * y)
    g = tape.gradient(loss, layers[0].kernel)
)";
    TracedProgram p = trace(src);
    QCOMPARE(p.variants.size(), size_t(3));
    QCOMPARE(countOp(*p.graph, "variable"), 6);
    for (const Variant& v : p.variants) QCOMPARE(v.tapes.size(), size_t(1));
    auto a = run(p, {"y", "g"}, "list"), b = run(p, {"y", "g"}, "einsum"),
         c = run(p, {"y", "g"}, "vectorized");
    QCOMPARE(a[0].shape(), (Shape{2, 3, 5, 4}));
    QVERIFY(gltest::maxAbsDiff(a[0], b[0]) < 1e-5);
    QVERIFY(gltest::maxAbsDiff(a[0], c[0]) < 1e-5);
    QVERIFY(gltest::maxAbsDiff(a[1], b[1]) < 1e-4);
    QVERIFY(gltest::maxAbsDiff(a[1], c[1]) < 1e-4);
  }

  void batchJacobianAndTensorArrayMethods() {
    const char* src = R"(
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
bj = tape.batch_jacobian(y, x)
ta = tf.TensorArray(tf.float64, size=3)
ta = ta.unstack(x)
r = ta.read(2)
g = ta.gather([0, 0])
n = ta.size()
)";
    TracedProgram p = trace(src);
    auto v = run(p, {"bj", "r", "g", "n"}, "", 1e-12);
    QCOMPARE(v[0].shape(), (Shape{3, 2, 2}));
    QCOMPARE(v[0].at(0), 2.0);
    QCOMPARE(v[0].at(1), 0.0);
    QCOMPARE(v[0].at(3), 4.0);
    QCOMPARE(v[1].toVector(), (std::vector<double>{5, 6}));
    QCOMPARE(v[2].shape(), (Shape{2, 2}));
    QCOMPARE(v[3].item(), 3.0);
  }

  // State that builtins keep through their context: the random seed stream, Keras default
  // layer names (snake case, numbered as Keras numbers them: dense, dense_1), the trace log, and
  // where each tape starts recording.
  void builtinStateThroughContext() {
    const char* src = R"(
tf.random.set_seed(5)
a = tf.random.normal([3])
tf.random.set_seed(5)
b = tf.random.normal([3])
c = tf.random.normal([3])
d1 = tf.keras.layers.Dense(2)
d2 = tf.keras.layers.Dense(2)
k = tf.keras.layers.Conv2D(1, 1)
print(d1.name, d2.name, k.name)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(x * x)
g = tape.gradient(y, x)
)";
    TracedProgram p = trace(src);
    // set_seed restarts the stream of op seeds: a and b get the same one, c the next.
    auto seed = [&](const char* name) {
      return p.graph->node(output(p, name).entries[0].value).attrs.i("seed", -1);
    };
    QCOMPARE(seed("a"), seed("b"));
    QVERIFY(seed("c") != seed("a"));
    QCOMPARE(run(p, {"g"})[0].toVector(), (std::vector<double>{2, 4}));
    QCOMPARE(p.traceLog, (std::vector<std::string>{"dense dense_1 conv2d"}));
    QCOMPARE(p.variants.size(), size_t(1));
    QCOMPARE(p.variants[0].tapes.size(), size_t(1));
    QCOMPARE(p.graph->node(p.variants[0].tapes[0]).opName(), std::string_view("mul"));
  }

  // Names the script binds get onto the graph's nodes, for the graph view and explanations.
  void nodesTakeScriptNames() {
    TracedProgram p = trace("x = tf.constant([1.0])\nloss = tf.reduce_sum(x * 2.0)\n");
    const Output& o = output(p, "loss");
    QCOMPARE(p.graph->node(o.entries[0].value).name, std::string("loss"));
    QCOMPARE(o.loc.line, 2);
  }

  // Tensor if/elif inside a tf.range body, nested tensor whiles, Python ints becoming loop
  // variables, and // and % on int tensors with Python's floor semantics.
  void nestedControlFlow() {
    const char* src = R"(
x = tf.constant([1.0, 2.0])
acc = tf.zeros([2])
count = 0
for i in tf.range(6):
    if i % 2 == 0:
        acc = acc + x
    elif i == 3:
        acc = acc * 2.0
    else:
        acc = acc - 1.0
    count += 1
j = tf.constant(0)
y = tf.constant(1.0)
while j < 3:
    k = tf.constant(0)
    while k < 2:
        y = y * 2.0
        k += 1
    j += 1
q = tf.constant([7, -7, 7, -7]) // tf.constant([2, 2, -2, -2])
r = tf.constant([7, -7, 7, -7]) % tf.constant([2, 2, -2, -2])
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "while"), 3);
    QCOMPARE(countOp(*p.graph, "cond"), 2);
    auto v = run(p, {"acc", "count", "y", "q", "r"});
    // i: 0 +x, 1 -1, 2 +x, 3 *2, 4 +x, 5 -1
    QCOMPARE(v[0].toVector(),
             (std::vector<double>{(((1 - 1 + 1) * 2) + 1) - 1, (((2 - 1 + 2) * 2) + 2) - 1}));
    QCOMPARE(v[1].item(), 6.0);
    QCOMPARE(v[2].item(), 64.0);
    QCOMPARE(v[3].toVector(), (std::vector<double>{3, -4, -4, 3}));
    QCOMPARE(v[4].toVector(), (std::vector<double>{1, 1, -1, -1}));
  }

  void limits() {
    TraceOptions o;
    o.maxUnroll = 50;
    QVERIFY(traceError("x = 0\nfor i in range(100):\n    x += 1\n", o).find("maxUnroll") !=
            std::string::npos);
    TraceOptions n;
    n.maxNodes = 40;
    QVERIFY(traceError("x = tf.constant(1.0)\nfor i in range(100):\n    x = x * 2.0\n", n)
                .find("maxNodes") != std::string::npos);
    TraceOptions m;
    m.memoryBudget = 1 << 20;
    QVERIFY(traceError("x = tf.zeros([1000, 1000])\n", m).find("memory budget") !=
            std::string::npos);
    QVERIFY(traceError("def f(n):\n    return f(n + 1)\nf(0)\n").find("recursion depth") !=
            std::string::npos);
  }

  // TraceOptions::maxItems bounds every way a list or string grows, each error at its line and
  // naming the setting; the default (10^6) lets the same scripts through.
  void item_limit_is_an_option() {
    TraceOptions o;
    o.maxItems = 10;
    const std::string raise = " (the maxItems limit, --max-items or in Settings)";
    const struct {
      const char* src;
      const char* error;
    } cases[] = {
        {"xs = []\nfor i in range(12):\n    xs.append(i)\n",
         "test.gls:3:5: this list grew past 10 items"},
        {"s = 'abc' * 4\n", "test.gls:1:5: this repetition makes more than 10 items"},
        {"s = 'abcdef'\nt = s + s\n",
         "test.gls:2:5: this concatenation makes more than 10 characters"},
        {"xs = [1, 2, 3, 4, 5, 6]\nys = xs + xs\n",
         "test.gls:2:6: this concatenation makes more than 10 items"},
        {"xs = list(range(11))\n",
         "test.gls:1:11: this range has more than 10 items to make a list"},
    };
    for (const auto& c : cases) {
      QCOMPARE(QString::fromStdString(traceError(c.src, o)),
               QString::fromStdString(std::string(c.error) + raise));
      trace(c.src);  // fine under the default
    }
  }

  // Python as people write it (issue #26): imports, f-strings and formatting, *args/**kwargs,
  // del and assert. Values are checked through the trace log.
  // os.environ is a dict of str (os.py _Environ): scripts set TF_CPP_MIN_LOG_LEVEL or
  // KERAS_BACKEND before importing TF, which changes nothing GradLab computes; each trace starts
  // with an empty one (bad_scripts: reading a key the script did not set is an error).
  void os_environ_holds_what_the_script_set() {
    TracedProgram p = trace(R"(import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
os.environ["KERAS_BACKEND"] = "tensorflow"
import tensorflow as tf
print(os.environ["TF_CPP_MIN_LOG_LEVEL"], os.environ.get("KERAS_BACKEND"), len(os.environ))
print("KERAS_BACKEND" in os.environ, os.environ.pop("KERAS_BACKEND"), len(os.environ))
)");
    QCOMPARE(p.traceLog.size(), size_t(2));
    QCOMPARE(QString::fromStdString(p.traceLog[0]), QString("2 tensorflow 2"));
    QCOMPARE(QString::fromStdString(p.traceLog[1]), QString("True tensorflow 1"));
    TracedProgram q = trace("import os\nprint(len(os.environ))\n");
    QCOMPARE(QString::fromStdString(q.traceLog.at(0)), QString("0"));
  }

  void imports_bind_the_modules_gradlab_provides() {
    const char* src = R"(from __future__ import print_function
import tensorflow as tf
import tensorflow
import keras
import math, time, functools
from tensorflow import keras as K
from tensorflow.keras import layers
from tensorflow.keras.layers import Dense
import tensorflow.keras.layers as L
d = Dense(2, kernel_initializer="ones")
e = layers.Dense(2, kernel_initializer="ones")
f = K.layers.Dense(2, kernel_initializer="ones")
g = L.Dense(2, kernel_initializer="ones")
h = keras.layers.Dense(2, kernel_initializer="ones")
x = tensorflow.ones([1, 3])
y = d(x) + e(x) + f(x) + g(x) + h(x)
start = time.time()
p0 = time.perf_counter()
add = functools.partial(lambda a, b, c=0: a * 100 + b * 10 + c, 1)
print(tf.__version__ == tf.version.VERSION, tf.version.GIT_VERSION.startswith("gradlab"))
print(math.floor(math.pi), math.ceil(math.e), math.sqrt(16.0), math.exp(0.0), math.log(math.e))
print(math.log(8, 2), math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.1), math.tanh(0.0))
print(math.inf > 1e308, math.isnan(math.nan), math.sin(0.0), math.cos(0.0))
print(time.time() >= start, time.perf_counter() >= p0, add(2), add(2, c=3))
)";
    TracedProgram p = trace(src);
    QCOMPARE(run(p, {"y"})[0].toVector(), (std::vector<double>{15, 15}));
    QCOMPARE(p.traceLog.size(), size_t(6));
    QVERIFY2(QString::fromStdString(p.traceLog[0]).contains("times the trace, not a run"),
             p.traceLog[0].c_str());
    QCOMPARE(QString::fromStdString(p.traceLog[1]), QString("True True"));
    QCOMPARE(QString::fromStdString(p.traceLog[2]), QString("3 3 4.0 1.0 1.0"));
    QCOMPARE(QString::fromStdString(p.traceLog[3]), QString("3.0 True False 0.0"));
    QCOMPARE(QString::fromStdString(p.traceLog[4]), QString("True True 0.0 1.0"));
    QCOMPARE(QString::fromStdString(p.traceLog[5]), QString("True True 120 123"));
    // Without imports, tf, keras and math are the tf namespaces as before.
    TracedProgram q = trace("x = math.exp(tf.constant([0.0]))\nk = keras.layers.Dense\n");
    QCOMPARE(run(q, {"x"})[0].toVector(), (std::vector<double>{1}));
  }

  void fstrings_and_formatting_as_python_3() {
    // Plain literals: moc misreads a raw string holding these quotes.
    const char* src =
        "n = 7\n"
        "x = 3.14159\n"
        "s = \"hi\"\n"
        "w = 6\n"
        "print(f\"{n:5d}|{x:.3f}|{s:>4}|{s!r}|{n:,}|{1234567:,}|{{}}|{x=:.1f}|{'q'}|{n:08.3f}\")\n"
        "print(f'{0.5:%}|{255:#x}|{-3:+d}|{x:{w}.2f}|{s:*^6}|{n:<3}|{True}|{None}|{[1, "
        "\"a\"]}|{x:e}')\n"
        "print(f\"{1e16}|{2.0:.3}|{1234.5:.2}|{0.1:g}|{12:b}|{65:c}|{x!s:>8}|{1_000_000:_}|{n = "
        "}\")\n"
        "print(\"%d %.2f %s %5s|%-4d|%05.1f|%x|%r|%%\" % (3, 2.5, \"a\", \"b\", 7, 3.14159, 255, "
        "\"q\"))\n"
        "print(\"%(a)s-%(b)d\" % {\"a\": \"z\", \"b\": 4}, \"%s\" % 5, \"%.3s\" % \"abcdef\")\n"
        "print(\"{} {:.2f} {name}\".format(1, 2.0, name=\"z\"))\n"
        "print(\"{0}{1}{0}|{x[1]}|{d[k]}|{2:>{3}}\".format(\"a\", \"b\", 3, 4, x=[5, 6], d={\"k\": "
        "8}))\n"
        "print(\", \".join([\"a\", \"b\"]), \"A b\".lower(), \" p \".strip(), "
        "\"a,b\".split(\",\"), \"ab\".upper())\n"
        "t = tf.constant(1.0)\n"
        "print(f\"{t}\" == str(t), format(3.14159, \".2f\"), repr(\"x\"), f\"{n!r:>3}\")\n";
    TracedProgram p = trace(src, eagerly());
    const std::vector<std::string> want = {
        "    7|3.142|  hi|'hi'|7|1,234,567|{}|x=3.1|q|0007.000",
        "50.000000%|0xff|-3|  3.14|**hi**|7  |True|None|[1, 'a']|3.141590e+00",
        "1e+16|2.0|1.2e+03|0.1|1100|A| 3.14159|1_000_000|n = 7",
        "3 2.50 a     b|7   |003.1|ff|'q'|%",
        "z-4 5 abc",
        "1 2.00 z",
        "aba|6|8|   3",
        "a, b a b p ['a', 'b'] AB",
        // f"{t}" is EagerTensor.__format__, the numpy value's format ("1.0"), not str(t)
        // (ops.py _EagerTensorBase.__format__ / __str__).
        "False 3.14 'x'   7",
    };
    QCOMPARE(p.traceLog.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      QCOMPARE(QString::fromStdString(p.traceLog[i]), QString::fromStdString(want[i]));
  }

  void star_args_kwargs_and_keyword_only_parameters() {
    const char* src = R"(def f(a, *args, k=10, **kw):
    return a + sum(args) + k + len(kw)
def h(a, *, b, c=1):
    return a - b + c
g = lambda i, *_: i * 2
xs = [1, 2]
kw = {"k": 100, "z": 0}
print(f(1), f(1, 2, 3), f(1, *xs, **kw), g(5, 6, 7), f(*xs, k=1), h(5, b=2), h(*[5], **{"b": 1}))
def names(*args, **kwargs):
    return [len(args), list(kwargs.keys())]
print(names(), names(1, 2, a=1, b=2), max(*[3, 9, 4]))
i = tf.constant(0)
r = tf.while_loop(lambda i, *_: i < 3, lambda i, *_: [i + 1], [i])
)";
    TracedProgram p = trace(src);
    QCOMPARE(p.traceLog.size(), size_t(2));
    QCOMPARE(QString::fromStdString(p.traceLog[0]), QString("11 16 105 10 4 4 5"));
    QCOMPARE(QString::fromStdString(p.traceLog[1]), QString("[0, []] [2, ['a', 'b']] 9"));
    QCOMPARE(run(p, {"r"})[0].toVector(), (std::vector<double>{3}));
  }

  void del_and_assert() {
    const char* src = R"(xs = [1, 2, 3]
del xs[0]
d = {"a": 1, "b": 2}
del d["a"]
y = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(y)
    z = y * y
g = tape.gradient(z, y)
del tape, y
assert len(xs) == 2, "two items"
assert xs
print(xs, list(d.keys()))
)";
    TracedProgram p = trace(src);
    QCOMPARE(p.traceLog.size(), size_t(1));
    QCOMPARE(QString::fromStdString(p.traceLog[0]), QString("[2, 3] ['b']"));
    QVERIFY(!hasOutput(p, "y"));  // deleted names are no results
    QCOMPARE(run(p, {"g"})[0].toVector(), (std::vector<double>{4}));
  }

  // Trace-time constants are checked against the budget before they are allocated (a Dense
  // kernel of 30000000 units took 12 GB first); the error names the line and the setting.
  void trace_time_constants_fit_the_budget_before_allocating() {
    TraceOptions small;
    small.memoryBudget = size_t(64) << 20;
    const std::string raise = "(set a larger one with --memory-budget or in Settings)";
    const struct {
      const char* src;
      const char* where;
    } cases[] = {
        {"x = tf.ones([2, 4])\nlayer = tf.keras.layers.Dense(30000000)\ny = layer(x)\n",
         "test.gls:3:5: Dense kernel: this needs 457.8 MiB, over the memory budget of 64.0 MiB "},
        {"x = tf.ones([6000])\nwith tf.GradientTape() as tape:\n    tape.watch(x)\n    y = x * "
         "2.0\nj = tape.jacobian(y, x)\n",
         "test.gls:5:5: jacobian: this needs 137.3 MiB, over the memory budget of 64.0 MiB "},
        {"e = tf.eye(5000)\n",
         "test.gls:1:5: tf.eye: this needs 95.4 MiB, over the memory budget of 64.0 MiB "},
        {"r = tf.range(2**25)\n",
         "test.gls:1:5: tf.range: this needs 128.0 MiB, over the memory budget of 64.0 MiB "},
    };
    for (const auto& c : cases) {
      resetPeakMemory();
      QCOMPARE(traceError(c.src, small), std::string(c.where) + raise);
      // Refused before the allocation: tensor memory never came near the constant's size.
      QVERIFY2(memoryStats().peak < size_t(16) << 20, c.src);
    }
  }
  // Issue #26: methods called in tensor loops and conds trace like function calls; a method
  // that assigns an instance's tf.Variable is carried by the loop as a function would be.
  void classMethodsInTensorControlFlow() {
    const char* src = R"(
class Acc:
    def __init__(self):
        self.v = tf.Variable(0.0)
    def add(self, x):
        self.v.assign_add(x)
    def pick(self, x):
        y = x
        if x > 1.0:
            y = x * 10.0
        return y
a = Acc()
for i in tf.range(4):
    a.add(tf.cast(i, tf.float32))
total = a.v + 0.0
picked = a.pick(tf.constant(2.0)) + a.pick(tf.constant(0.5))
)";
    TracedProgram p = trace(src);
    QCOMPARE(countOp(*p.graph, "while"), 1);
    auto vals = run(p, {"total", "picked"});
    QCOMPARE(vals[0].toVector()[0], 6.0);
    QCOMPARE(vals[1].toVector()[0], 20.5);
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestTracer)
#include "test_tracer.moc"
