// tf.scan, tf.foldl and tf.foldr as scripts (engine/control/scan.cpp, the builtins in
// tracer_builtins_control.cpp): TF's documented values (the docstrings of functional_ops.py and
// the values of its functional_ops_test.py), nested structures, reverse, no initializer, empty
// elems, gradients w.r.t. elems, initializer and a captured tf.Variable against central
// differences in float64, a scan inside a while_loop and a tf.function, and located errors.
#include "test_main.h"

#include <cmath>
#include <sstream>

#include "../engine/helpers.h"
#include "engine/control/kind.h"
#include "engine/lab/session.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

const Output* findOutput(const TracedProgram& p, const std::string& name) {
  for (const Output& o : p.variants.at(0).outputs)
    if (o.name == name) return &o;
  return nullptr;
}

// The named outputs of a script (a list output gives its entries in order), run on the serial
// and the parallel executor, which must agree.
std::vector<Tensor> run(const std::string& src, const std::vector<std::string>& names) {
  const TracedProgram p = traceProgram(src, "scan.gls");
  std::vector<Value> fetches;
  for (const std::string& n : names) {
    const Output* o = findOutput(p, n);
    if (!o) throw EngineError("no output " + n);
    for (const OutputEntry& e : o->entries) {
      if (!e.value.valid()) throw EngineError(n + " is None: " + e.whyNone);
      fetches.push_back(e.value);
    }
  }
  return gltest::runEveryExecutor(*p.graph, fetches, 1e-12);
}

std::string list(const std::vector<double>& v) {
  std::ostringstream os;
  os.precision(17);
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  return os.str() + "]";
}

// The text of the error tracing src gives, and its line ("" and 0 when it traces).
std::pair<std::string, int> traceError(const std::string& src) {
  try {
    traceProgram(src, "scan.gls");
  } catch (const EngineError& e) {
    return {e.what(), e.loc().line};
  }
  return {"", 0};
}

// x = [1, 3, 5], its length unknown while tracing (a dynamic TensorArray's stack).
const char* const kUnknownLength =
    "def fill(i, ta):\n"
    "    return i + 1, ta.write(i, tf.cast(i, tf.float32) * 2.0 + 1.0)\n"
    "_, ta = tf.while_loop(lambda i, ta: i < 3, fill, [0, tf.TensorArray(tf.float32, size=0, "
    "dynamic_size=True)])\n"
    "x = ta.stack()\n";

// A gradient case: `out` computed from x (elements), c (an initial value) and the tf.Variable
// w, in float64; L = sum(sin(out)) differentiated w.r.t. all three.
struct GradCase {
  const char* name;
  const char* body;  // defines `out` (indented by 4, inside the tape)
  std::vector<double> x, c, w;
  const char* shapes = "";  // lines before the tape (reshapes of x, c, w)
};

// clang-format off
const GradCase kGradCases[] = {
    {"scan", "    out = tf.scan(lambda a, e: tf.tanh(a * w + e), x, initializer=c)\n",
     {0.3, -0.7, 1.1, 0.2, -0.4}, {0.25}, {0.8}},
    {"scan reverse", "    out = tf.scan(lambda a, e: tf.tanh(a * w + e), x, initializer=c, reverse=True)\n",
     {0.3, -0.7, 1.1, 0.2, -0.4}, {0.25}, {0.8}},
    {"scan without initializer", "    out = tf.scan(lambda a, e: a * tf.sin(e * w) + c, x)\n",
     {0.3, -0.7, 1.1, 0.2}, {0.5}, {0.8}},
    {"scan reverse without initializer",
     "    out = tf.scan(lambda a, e: a * tf.sin(e * w) + c, x, reverse=True)\n",
     {0.3, -0.7, 1.1, 0.2}, {0.5}, {0.8}},
    {"foldl", "    out = tf.foldl(lambda a, e: a * w + e * e, x, initializer=c)\n",
     {0.3, -0.7, 1.1}, {0.25}, {0.8}},
    {"foldr", "    out = tf.foldr(lambda a, e: a * w + e * e, x, initializer=c)\n",
     {0.3, -0.7, 1.1}, {0.25}, {0.8}},
    {"foldl without initializer", "    out = tf.foldl(lambda a, e: a * w - e * c, x)\n",
     {0.3, -0.7, 1.1}, {0.25}, {0.8}},
    {"foldr without initializer", "    out = tf.foldr(lambda a, e: a * w - e * c, x)\n",
     {0.3, -0.7, 1.1}, {0.25}, {0.8}},
    {"scan of vectors, a matrix variable",
     "    out = tf.scan(lambda a, e: tf.tanh(tf.linalg.matvec(w, a) + e), x, initializer=c)\n",
     {0.3, -0.7, 1.1, 0.2, -0.4, 0.9}, {0.1, -0.2}, {0.5, -0.3, 0.2, 0.7},
     "x = tf.reshape(x, [3, 2])\nw = tf.Variable(tf.reshape(w, [2, 2]))\n"},
    {"nested structures",
     "    s, p = tf.scan(lambda a, e: (a[0] + e[0] * w, [a[1][0] * tf.cos(e[1][0] + e[1][1])]),\n"
     "                   (x, [x * 2.0, x * x]), initializer=(c, [c * c]))\n"
     "    out = tf.concat([s, p[0]], 0)\n",
     {0.3, -0.7, 1.1, 0.2}, {0.6}, {0.8}},
    {"foldr of a tuple",
     "    u, v = tf.foldr(lambda a, e: (a[0] * e + a[1], a[1] * w), x, initializer=(c, c + 1.0))\n"
     "    out = tf.stack([u, v])\n",
     {0.3, -0.7, 1.1, 0.2}, {0.6}, {0.9}},
    {"inside a while_loop",
     "    def step(i, acc):\n"
     "        return i + 1, acc + tf.reduce_sum(tf.scan(lambda a, e: a * w + e * acc, x, initializer=c))\n"
     "    _, out = tf.while_loop(lambda i, acc: i < 3, step, [0, tf.constant(0.5, tf.float64)])\n",
     {0.3, -0.7, 1.1}, {0.25}, {0.8}},
    {"inside a tf.function",
     "    out = f(x, c)\n",
     {0.3, -0.7, 1.1, 0.2}, {0.25}, {0.8},
     "@tf.function\n"
     "def f(x, c):\n"
     "    return tf.foldl(lambda a, e: tf.sin(a) * w + e, tf.scan(lambda a, e: a + e, x), initializer=c)\n"},
    {"a foldl inside a scan's fn",
     "    out = tf.scan(lambda a, e: a * w + tf.foldl(lambda b, f: b * e + f, x, initializer=c), x,\n"
     "                  initializer=c)\n",
     {0.3, -0.7, 1.1, 0.2}, {0.25}, {0.8}},
    {"scan of a map_fn's rows",
     "    out = tf.scan(lambda a, e: a * w + tf.reduce_sum(e), tf.map_fn(lambda r: r * r, x), initializer=c)\n",
     {0.3, -0.7, 1.1, 0.2, -0.4, 0.9}, {0.25}, {0.8}, "x = tf.reshape(x, [3, 2])\n"},
};
// clang-format on

std::string gradScript(const GradCase& k, const std::vector<double>& x,
                       const std::vector<double>& c, const std::vector<double>& w) {
  std::string s = "x = tf.constant(" + list(x) + ", dtype=tf.float64)\n";
  s += c.size() == 1
           ? "c = tf.constant(" + list(c).substr(1, list(c).size() - 2) + ", dtype=tf.float64)\n"
           : "c = tf.constant(" + list(c) + ", dtype=tf.float64)\n";
  // (tf.Variable(0.8, dtype=tf.float64) would go through float32 first in GradLab.)
  s += w.size() == 1 ? "w = tf.Variable(tf.constant(" + list(w).substr(1, list(w).size() - 2) +
                           ", dtype=tf.float64))\n"
                     : "w = tf.Variable(tf.constant(" + list(w) + ", dtype=tf.float64))\n";
  s += k.shapes;
  s += "with tf.GradientTape(persistent=True) as tape:\n    tape.watch(x)\n    tape.watch(c)\n";
  s += k.body;
  s += "    loss = tf.reduce_sum(tf.sin(out))\n";
  s += "gx = tape.gradient(loss, x)\ngc = tape.gradient(loss, c)\ngw = tape.gradient(loss, w)\n";
  return s;
}

}  // namespace

class TestScan : public QObject {
  Q_OBJECT
 private slots:
  // functional_ops.py's docstring examples, with tf.constant for np.array.
  void docstringValues() {
    const char* src = R"(
elems = tf.constant([1, 2, 3, 4, 5, 6])
s = tf.scan(lambda a, x: a + x, elems)
s_rev = tf.scan(lambda a, x: a + x, elems, reverse=True)
s_rev0 = tf.scan(lambda a, x: a + x, elems, initializer=0, reverse=True)
sum_one = tf.scan(lambda a, x: x[0] - x[1] + a, (elems + 1, elems), tf.constant(0))
fib = tf.scan(lambda a, _: (a[1], a[0] + a[1]), tf.constant([1, 0, 0, 0, 0, 0]),
              (tf.constant(0), tf.constant(1)))
fib_numbers = tf.scan(lambda a, _: (a[1], a[0] + a[1]), tf.constant([1, 0, 0, 0, 0, 0]), (0, 1))
l = tf.foldl(lambda a, x: a + x, elems)
r = tf.foldr(lambda a, x: a + x, elems)
)";
    const std::vector<Tensor> v =
        run(src, {"s", "s_rev", "s_rev0", "sum_one", "fib", "fib_numbers", "l", "r"});
    auto expect = [](const Tensor& t, const std::vector<double>& want, const char* what) {
      QVERIFY2(t.numel() == int64_t(want.size()), what);
      QCOMPARE(t.dtype(), DType::I32);
      for (size_t i = 0; i < want.size(); ++i)
        QVERIFY2(t.at(int64_t(i)) == want[i], qPrintable(QString("%1[%2] = %3, TF: %4")
                                                             .arg(what)
                                                             .arg(i)
                                                             .arg(t.at(int64_t(i)))
                                                             .arg(want[i])));
    };
    expect(v[0], {1, 3, 6, 10, 15, 21}, "scan");
    expect(v[1], {21, 20, 18, 15, 11, 6}, "scan reverse");
    expect(v[2], {21, 20, 18, 15, 11, 6}, "scan reverse, initializer 0");
    expect(v[3], {1, 2, 3, 4, 5, 6}, "sum_one");
    expect(v[4], {1, 1, 2, 3, 5, 8}, "fibonaccis[0]");
    expect(v[5], {1, 2, 3, 5, 8, 13}, "fibonaccis[1]");
    expect(v[6], {1, 1, 2, 3, 5, 8}, "fibonaccis[0], numbers");
    expect(v[7], {1, 2, 3, 5, 8, 13}, "fibonaccis[1], numbers");
    expect(v[8], {21}, "foldl");
    expect(v[9], {21}, "foldr");
  }

  // The values of functional_ops_test.py (foldl/foldr of (a + x) * 2, scan of a * x, a scan of
  // two accumulators), and subtraction, whose order shows: foldl 1-2-3-4-5-6, foldr 6-5-...-1.
  void orderAndTfTestValues() {
    const char* src = R"(
elems = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
l = tf.foldl(lambda a, x: (a + x) * 2.0, elems)
l10 = tf.foldl(lambda a, x: (a + x) * 2.0, elems, initializer=10.0)
r = tf.foldr(lambda a, x: (a + x) * 2.0, elems)
r10 = tf.foldr(lambda a, x: (a + x) * 2.0, elems, initializer=10.0)
p = tf.scan(lambda a, x: a * x, elems)
p_rev = tf.scan(lambda a, x: a * x, elems, reverse=True)
two = tf.scan(lambda a, x: (a[0] * x, -a[1] * x), elems, (1.0, 1.0))
ls = tf.foldl(lambda a, x: a - x, elems)
rs = tf.foldr(lambda a, x: a - x, elems)
)";
    const std::vector<Tensor> v =
        run(src, {"l", "l10", "r", "r10", "p", "p_rev", "two", "ls", "rs"});
    QCOMPARE(v[0].item(), 208.0);
    QCOMPARE(v[1].item(), 880.0);
    QCOMPARE(v[2].item(), 450.0);
    QCOMPARE(v[3].item(), 1282.0);
    const std::vector<double> prod{1, 2, 6, 24, 120, 720}, rprod{720, 720, 360, 120, 30, 6},
        alt{-1, 2, -6, 24, -120, 720};
    for (int i = 0; i < 6; ++i) {
      QCOMPARE(v[4].at(i), prod[size_t(i)]);
      QCOMPARE(v[5].at(i), rprod[size_t(i)]);
      QCOMPARE(v[6].at(i), prod[size_t(i)]);
      QCOMPARE(v[7].at(i), alt[size_t(i)]);
    }
    QCOMPARE(v[8].item(), -19.0);
    QCOMPARE(v[9].item(), -9.0);
  }

  // Nested structures as the docstring describes them: elems (t1, [t2, t3]) and an initializer
  // [i1, i2]; fn returns a list, each accumulator stacked in the initializer's structure.
  void nestedStructures() {
    const char* src = R"(
t1 = tf.constant([1.0, 2.0, 3.0])
t2 = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
t3 = tf.constant([10, 20, 30])
acc = tf.scan(lambda a, e: [a[0] + e[0] * tf.reduce_sum(e[1][0]), a[1] + e[1][1]], (t1, [t2, t3]),
              [tf.zeros([]), tf.constant(0)])
a0 = acc[0]
a1 = acc[1]
pair = tf.foldr(lambda a, e: (a[0], [a[1][0] + e[1][0], a[1][1] * 2 + e[1][1]]), (t1, [t2, t3]))
p0 = pair[0]
p1 = pair[1][0]
p2 = pair[1][1]
)";
    const std::vector<Tensor> v = run(src, {"a0", "a1", "p0", "p1", "p2"});
    // a0: 1*1, + 2*1, + 3*2; a1: 10, 30, 60.
    QCOMPARE(v[0].shape(), (Shape{3}));
    QCOMPARE(v[0].at(0), 1.0);
    QCOMPARE(v[0].at(1), 3.0);
    QCOMPARE(v[0].at(2), 9.0);
    QCOMPARE(v[1].dtype(), DType::I32);
    QCOMPARE(v[1].at(2), 60.0);
    // foldr without an initializer: the last element is the accumulator, then elements 1 and
    // 0: (t1[2], [t2[2] + t2[1] + t2[0], (30 * 2 + 20) * 2 + 10]).
    QCOMPARE(v[2].item(), 3.0);
    QCOMPARE(v[3].shape(), (Shape{2}));
    QCOMPARE(v[3].at(0), 2.0);
    QCOMPARE(v[3].at(1), 2.0);
    QCOMPARE(v[4].dtype(), DType::I32);
    QCOMPARE(v[4].item(), 170.0);
  }

  // Empty elems: with an initializer, scan gives no rows and a fold the initializer (TF's
  // loops run zero times); without one, there is no first element (TF fails reading it).
  void emptyElems() {
    const char* src = R"(
e = tf.zeros([0, 2])
s = tf.scan(lambda a, x: a + x, e, initializer=tf.ones([2]))
l = tf.foldl(lambda a, x: a + x, e, initializer=tf.ones([2]))
r = tf.foldr(lambda a, x: a + x, e, initializer=tf.ones([2]))
)";
    const std::vector<Tensor> v = run(src, {"s", "l", "r"});
    QCOMPARE(v[0].shape(), (Shape{0, 2}));
    QCOMPARE(v[1].shape(), (Shape{2}));
    QCOMPARE(v[1].at(1), 1.0);
    QCOMPARE(v[2].at(0), 1.0);
    for (const char* fn : {"tf.scan", "tf.foldl", "tf.foldr"}) {
      const auto [err, line] =
          traceError(std::string("e = tf.zeros([0])\n\ny = ") + fn + "(lambda a, x: a + x, e)\n");
      QVERIFY2(err.find("is empty") != std::string::npos && line == 3, err.c_str());
    }
    // A length known only when running: the first element, then the others.
    const std::vector<Tensor> dynamic =
        run(std::string(kUnknownLength) +
                "s = tf.scan(lambda a, e: a + e, x)\n"
                "r = tf.foldr(lambda a, e: a * 2.0 + e, x, initializer=0.0)\n",
            {"s", "r"});
    QCOMPARE(dynamic[0].shape(), (Shape{3}));
    QCOMPARE(dynamic[0].at(2), 9.0);
    QCOMPARE(dynamic[1].item(), 27.0);  // ((0 * 2 + 5) * 2 + 3) * 2 + 1
    // One element: it is the whole result.
    const std::vector<Tensor> one =
        run("s = tf.scan(lambda a, x: a * x, tf.constant([4.0]), reverse=True)\n"
            "l = tf.foldr(lambda a, x: a * x, tf.constant([4.0]))\n",
            {"s", "l"});
    QCOMPARE(one[0].shape(), (Shape{1}));
    QCOMPARE(one[0].at(0), 4.0);
    QCOMPARE(one[1].item(), 4.0);
  }

  void gradients_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kGradCases)); ++i) QTest::newRow(kGradCases[i].name) << i;
  }

  // d sum(sin(out)) / d(x, c, w) against central differences of the same script.
  void gradients() {
    QFETCH(int, index);
    const GradCase& k = kGradCases[index];
    std::vector<Tensor> g;
    try {
      g = run(gradScript(k, k.x, k.c, k.w), {"gx", "gc", "gw"});
    } catch (const EngineError& e) {
      QFAIL(e.what());
    }
    const double h = 1e-6;
    for (int side = 0; side < 3; ++side) {
      const std::vector<double>& base = side == 0 ? k.x : side == 1 ? k.c : k.w;
      QCOMPARE(g[size_t(side)].numel(), int64_t(base.size()));
      for (size_t i = 0; i < base.size(); ++i) {
        std::vector<double> up = base, down = base;
        up[i] += h;
        down[i] -= h;
        auto loss = [&](const std::vector<double>& p) {
          const std::string s =
              gradScript(k, side == 0 ? p : k.x, side == 1 ? p : k.c, side == 2 ? p : k.w);
          return run(s, {"loss"}).at(0).item();
        };
        const double fd = (loss(up) - loss(down)) / (2 * h);
        const double got = g[size_t(side)].at(int64_t(i));
        QVERIFY2(std::abs(got - fd) <= 1e-6 * std::max(1.0, std::abs(fd)),
                 qPrintable(QString("%1: d loss / d %2[%3] = %4, finite differences %5")
                                .arg(k.name)
                                .arg("xcw"[side])
                                .arg(i)
                                .arg(got, 0, 'g', 10)
                                .arg(fd, 0, 'g', 10)));
      }
    }
  }

  // back_prop=False: no gradient flows back through the scan (TF: tf.stop_gradient).
  void backPropFalse() {
    const char* src = R"(
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    s = tf.scan(lambda a, e: a * e, x, initializer=2.0, back_prop=False)
    l = tf.foldl(lambda a, e: a * e, x, back_prop=False)
    both = tf.reduce_sum(s) + l + tf.reduce_sum(x)
g = tape.gradient(both, x)
)";
    const std::vector<Tensor> v = run(src, {"s", "l", "g"});
    QCOMPARE(v[0].at(2), 12.0);
    QCOMPARE(v[1].item(), 6.0);
    for (int i = 0; i < 3; ++i) QCOMPARE(v[2].at(i), 1.0);  // the sum's only
  }

  // A tf.Variable fn assigns is carried through the scan, as through a while_loop.
  void variableAssignedInFn() {
    const char* src = R"(
v = tf.Variable(0.0)
def f(a, x):
    v.assign_add(x * 2.0)
    return a + x
s = tf.foldl(f, tf.constant([1.0, 2.0, 3.0]), initializer=0.0)
after = v + 0.0
)";
    const std::vector<Tensor> r = run(src, {"s", "after"});
    QCOMPARE(r[0].item(), 6.0);
    QCOMPARE(r[1].item(), 12.0);
  }

  // Hints are accepted; parallel_iterations must be at least 1, as TF checks.
  void options() {
    const std::vector<Tensor> v =
        run("s = tf.scan(lambda a, x: a + x, tf.constant([1.0, 2.0]), parallel_iterations=1,\n"
            "            swap_memory=True, infer_shape=False, name='cumulative')\n",
            {"s"});
    QCOMPARE(v[0].at(1), 3.0);
    const TracedProgram p = traceProgram(
        "s = tf.foldl(lambda a, x: a + x, tf.constant([1.0, 2.0]), name='total')\n", "scan.gls");
    int scans = 0;
    for (const Node& n : p.graph->nodes())
      if (n.is(NodeKind::Scan)) {
        ++scans;
        QCOMPARE(n.name, std::string("total"));
        QCOMPARE(displayName(n), std::string_view("foldl"));
      }
    QCOMPARE(scans, 1);
    const auto [err, line] = traceError(
        "x = tf.constant([1.0])\ns = tf.scan(lambda a, x: a, x, parallel_iterations=0)\n");
    QVERIFY2(err.find("parallel_iterations") != std::string::npos && line == 2, err.c_str());
  }

  // fn must return the accumulator's structure (TF: nest.assert_same_structure), dtype and
  // shape; elems must be tensors with a first axis. Each error names the call's line.
  void badScriptsGiveLocatedErrors_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("tuple for a tensor")
        << "x = tf.constant([1.0, 2.0])\n\ns = tf.scan(lambda a, e: (a, e), x)\n"
        << 3 << "tf.scan's fn returns a tuple of 2 as the accumulator, which is a tensor";
    QTest::newRow("list for a tuple")
        << "x = tf.constant([1, 0, 0])\ns = tf.scan(lambda a, _: [a[1], a[0] + a[1]], x, (0, 1))\n"
        << 2 << "returns a list of 2 as the accumulator, which is a tuple of 2";
    QTest::newRow("too few")
        << "x = tf.constant([1.0, 2.0])\ns = tf.foldl(lambda a, e: (a[0],), x, (1.0, 2.0))\n"
        << 2 << "tf.foldl's fn returns a tuple of 1 as the accumulator, which is a tuple of 2";
    QTest::newRow("nested")
        << "x = tf.constant([1.0, 2.0])\ns = tf.foldr(lambda a, e: (a[0], e), x, (1.0, [2.0]))\n"
        << 2 << "returns a tensor as the accumulator[1], which is a list of 1";
    QTest::newRow("None") << "x = tf.constant([1.0, 2.0])\ns = tf.scan(lambda a, e: None, x)\n"
                          << 2 << "returns a NoneType as the accumulator";
    QTest::newRow("dtype")
        << "x = tf.constant([1, 2])\ns = tf.foldl(lambda a, e: tf.cast(a, tf.float32), x)\n"
        << 2 << "changes the dtype of the accumulator from int32 to float32";
    QTest::newRow("shape")
        << "x = tf.constant([1.0, 2.0])\ns = tf.scan(lambda a, e: tf.stack([a, e]), x, 0.0)\n"
        << 2 << "changes the shape of the accumulator from [] to [2]";
    QTest::newRow("python list of numbers") << "s = tf.foldr(lambda a, x: a + x, [1, 2, 3])\n"
                                            << 1 << "holds a scalar, which has no first axis";
    QTest::newRow("different lengths")
        << "s = tf.scan(lambda a, e: a, (tf.ones([2]), tf.ones([3])), 0.0)\n"
        << 1 << "different first dimensions: 2 and 3";
    QTest::newRow("not callable") << "s = tf.scan(3, tf.ones([2]))\n" << 1 << "must be callable";
    QTest::newRow("no initializer, reversed, unknown length")
        << QString(kUnknownLength) + "y = tf.foldr(lambda a, e: a + e, x)\n"
        << 5 << "unknown while tracing";
  }

  void badScriptsGiveLocatedErrors() {
    QFETCH(QString, src);
    QFETCH(int, line);
    QFETCH(QString, message);
    const auto [err, at] = traceError(src.toStdString());
    QVERIFY2(!err.empty(), "expected an error");
    QVERIFY2(QString::fromStdString(err).contains(message), err.c_str());
    QCOMPARE(at, line);
  }

  // The scan node keeps loop records the window steps through, and the run report and the
  // check summary name the kind.
  void recordsAndSummary() {
    const char* src = R"(
x = tf.constant([1.0, 2.0, 3.0, 4.0])
w = tf.Variable(0.5)
with tf.GradientTape() as tape:
    s = tf.foldr(lambda a, e: a * w + e, x, initializer=1.0)
g = tape.gradient(s, w)
)";
    const TracedProgram p = traceProgram(src, "scan.gls");
    const lab::ProgramRun r = lab::runProgram(p, lab::RunRequest{});
    QVERIFY2(r.ok(), r.variants.at(0).error.c_str());
    int scanId = -1;
    for (const Node& n : p.graph->nodes())
      if (n.is(NodeKind::Scan) && n.forwardNode < 0) scanId = n.id;
    QVERIFY(scanId >= 0);
    const RunResult& run = r.variants.at(0).run;
    QVERIFY(run.loops.count(scanId));
    const LoopRecord& rec = run.loops.at(scanId);
    QCOMPARE(rec.iterations, int64_t(4));
    // Elements 3, 2, 1, 0: 1 -> 4.5 -> 5.25 -> 4.625 -> 3.3125.
    const std::vector<double> carried{1, 4.5, 5.25, 4.625, 3.3125};
    QCOMPARE(rec.carried.size(), carried.size());
    for (size_t s = 0; s < carried.size(); ++s) QCOMPARE(rec.carried[s][0].head.at(0), carried[s]);
    // d s / d a at each step boundary: w^(4 - s).
    QCOMPARE(rec.adjoints.size(), size_t(5));
    for (size_t s = 0; s < 5; ++s)
      QVERIFY(std::abs(rec.adjoints[s][0].l2 - std::pow(0.5, 4.0 - double(s))) < 1e-7);
    const std::string summary = lab::checkSummary(p, "scan.gls");
    // The forward foldr and its reverse.
    QVERIFY2(summary.find("scans: 2") != std::string::npos, summary.c_str());
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestScan)
#include "test_scan.moc"
