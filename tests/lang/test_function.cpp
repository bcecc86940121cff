// TF 2's execution model (issue #27): code outside tf.function runs eagerly, Python control
// flow reads tensor values; a tf.function body is traced with AutoGraph's rules once per input
// signature (engine/lang/tracer_function.cpp). Each answer cites TF's guide or source.
#include "test_main.h"

#include "../engine/helpers.h"
#include "engine/exec/executor.h"
#include "engine/lab/session.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

TracedProgram trace(const std::string& src) { return traceProgram(src, "f.gls"); }

int countOp(const Graph& g, std::string_view op) {
  int n = 0;
  for (const Node& node : g.nodes()) n += node.opName() == op;
  return n;
}

const Output& output(const TracedProgram& p, const std::string& name) {
  for (const Output& o : p.variants.at(0).outputs)
    if (o.name == name) return o;
  throw std::runtime_error("no output " + name);
}

std::vector<double> valueOf(const TracedProgram& p, const std::string& name) {
  return evaluate(*p.graph, {output(p, name).entries.at(0).value}).at(0).toVector();
}

std::string errorOf(const std::string& src) {
  try {
    trace(src);
  } catch (const EngineError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

class TestFunction : public QObject {
  Q_OBJECT
 private slots:
  // Eager: `if x > 2` is bool(x > 2), read now (guide "Introduction to graphs and tf.function":
  // outside tf.function, Python control flow runs on the tensors' values). No tf.cond.
  void eagerIfReadsTheValue() {
    const TracedProgram p = trace(
        "x = tf.constant(3.0)\nif x > 2:\n    y = x * 2\nelse:\n    y = x\n"
        "z = x * 10 if x < 0 else x + 1\n");
    QCOMPARE(countOp(*p.graph, "cond"), 0);
    QCOMPARE(valueOf(p, "y"), (std::vector<double>{6}));
    QCOMPARE(valueOf(p, "z"), (std::vector<double>{4}));
  }

  // TF issue #29504: appending to a Python list in `for i in tf.range(n)` works eagerly
  // (the undecorated version returns tf.Tensor(10, ...)).
  void eagerTfRangeLoopIsAPythonLoop() {
    const TracedProgram p =
        trace("l = []\nfor i in tf.range(5):\n    l.append(i)\ns = tf.add_n(l)\n");
    QCOMPARE(countOp(*p.graph, "while"), 0);
    QCOMPARE(valueOf(p, "s"), (std::vector<double>{10}));
    const TracedProgram w = trace("y = tf.constant(1.0)\nwhile y < 10:\n    y = y * 2\n");
    QCOMPARE(countOp(*w.graph, "while"), 0);
    QCOMPARE(valueOf(w, "y"), (std::vector<double>{16}));
  }

  // Seed-d's cause: ops after the tape's `with` block are not recorded, so each gradient of
  // tf.gather(loss, i) taken there is None, once per eager iteration (three lists of None).
  void eagerGradientsOutsideTheTapeAreNone() {
    const TracedProgram p = trace(
        "w = tf.Variable([1.0, 2.0, 3.0])\nwith tf.GradientTape(persistent=True) as tape:\n"
        "    loss = w * w\ngrads = []\nfor i in tf.range(3):\n"
        "    grads.append(tape.gradient(tf.gather(loss, i), [w]))\n"
        "print(grads)\n");
    QCOMPARE(p.traceLog.at(0), std::string("[[None], [None], [None]]"));
  }

  // In a tf.function the same loop becomes one tf.while_loop (AutoGraph).
  void functionBodyIsTracedByAutograph() {
    const TracedProgram p = trace(
        "@tf.function\ndef f(x):\n    for i in tf.range(3):\n        x = x * 2.0\n    return x\n"
        "y = f(tf.constant([1.0, 3.0]))\n");
    QCOMPARE(countOp(*p.graph, "while"), 1);
    QCOMPARE(valueOf(p, "y"), (std::vector<double>{8, 24}));
  }

  // tf.config.run_functions_eagerly(True): tf.function bodies run as eager code.
  void runFunctionsEagerly() {
    const TracedProgram p = trace(
        "tf.config.run_functions_eagerly(True)\n@tf.function\ndef f(x):\n"
        "    for i in tf.range(3):\n        x = x * 2.0\n    return x\n"
        "y = f(tf.constant(1.0))\nflag = tf.config.functions_run_eagerly()\nprint(flag)\n");
    QCOMPARE(countOp(*p.graph, "while"), 0);
    QCOMPARE(valueOf(p, "y"), (std::vector<double>{8}));
    QCOMPARE(p.traceLog.at(0), std::string("True"));
  }

  // A tf.function's outputs are tensors (func_graph.py converts each with
  // convert_to_tensor_or_composite): a returned variable, or the variable assign_add returns,
  // comes back as the tensor of its value at the return, on the traced call and on later ones.
  void returnedVariablesAreTensors() {
    const TracedProgram p = trace(
        "counter = tf.Variable(0)\n@tf.function\ndef increment(c=1):\n"
        "    return counter.assign_add(c)\n"
        "print(increment())\nprint(increment())\n"
        "@tf.function\ndef get():\n    return [counter]\nprint(get()[0])\n");
    std::vector<std::string> printed;
    for (const std::string& l : p.traceLog)
      if (l.rfind("note: ", 0) != 0) printed.push_back(l);
    QCOMPARE(printed, (std::vector<std::string>{"tf.Tensor(1, shape=(), dtype=int32)",
                                                "tf.Tensor(2, shape=(), dtype=int32)",
                                                "tf.Tensor(2, shape=(), dtype=int32)"}));
  }

  // Python numbers returned become constant tensors (TF's guide: a global Python value is
  // captured as a constant when the function is traced, so a later change is not seen).
  void returnedNumbersAreTensors() {
    const TracedProgram p = trace(
        "foo = 1\n@tf.function\ndef buggy():\n    return 1 + foo, 2.5, True\n"
        "print(buggy())\nfoo = 100\nprint(buggy()[0])\n");
    QCOMPARE(p.traceLog.at(0), std::string("(<tf.Tensor: shape=(), dtype=int32, numpy=2>, "
                                           "<tf.Tensor: shape=(), dtype=float32, numpy=2.5>, "
                                           "<tf.Tensor: shape=(), dtype=bool, numpy=True>)"));
    QCOMPARE(p.traceLog.at(1), std::string("tf.Tensor(2, shape=(), dtype=int32)"));
  }

  // Each trace is a FuncGraph of its own, so its op names start over while Python runs
  // (TF's guide prints Tensor("x:0", ...) on every retrace, not x_1).
  void eachTraceNamesItsOwnOps() {
    const TracedProgram p = trace(
        "@tf.function\ndef f(x):\n    y = x * 2.0\n    print(x, y)\n    return y\n"
        "a = f(tf.constant(1.0))\nb = f(tf.constant([1.0, 2.0]))\n");
    std::vector<std::string> printed;
    for (const std::string& l : p.traceLog)
      if (l.rfind("note: ", 0) != 0) printed.push_back(l);
    QCOMPARE(printed,
             (std::vector<std::string>{
                 "Tensor(\"x:0\", shape=(), dtype=float32) Tensor(\"mul:0\", shape=(), "
                 "dtype=float32)",
                 "Tensor(\"x:0\", shape=(2,), dtype=float32) Tensor(\"mul:0\", shape=(2,), "
                 "dtype=float32)"}));
  }

  // tf.config.list_physical_devices (config.py): GradLab computes on the CPU, as TF on a
  // machine without accelerators, so a script's GPU check finds none.
  void physicalDevicesAreOneCpu() {
    const TracedProgram p = trace(
        "print(tf.config.list_physical_devices('GPU'), len(tf.config.list_physical_devices()))\n"
        "d = tf.config.list_physical_devices('CPU')[0]\nprint(d, d.name, d.device_type)\n");
    QCOMPARE(p.traceLog.at(0), std::string("[] 1"));
    QCOMPARE(p.traceLog.at(1), std::string("PhysicalDevice(name='/physical_device:CPU:0', "
                                           "device_type='CPU') /physical_device:CPU:0 CPU"));
    QVERIFY(errorOf("d = tf.config.list_physical_devices('XPU')\n")
                .find("must be 'CPU', 'GPU' or 'TPU'") != std::string::npos);
  }

  // Truth of a tensor with more than one element: numpy's ValueError, as EagerTensor.__bool__
  // raises it; `not x` in eager code is Python's not of bool(x).
  void eagerTruthValues() {
    const std::string err = errorOf("x = tf.ones([3])\nif x > 0:\n    y = 1\n");
    QVERIFY2(has(err, "f.gls:2:4: ValueError: The truth value of an array with more than one"),
             err.c_str());
    const TracedProgram p = trace("x = tf.constant(0.0)\nb = not x\nprint(b, type(b).__name__)\n");
    QCOMPARE(p.traceLog.at(0), std::string("True bool"));
  }

  // TF (def_function.py): only a Function's first trace may create variables. A new input
  // signature traces again, and creating one then is TF's ValueError, located at the creation.
  void variablesOnlyOnTheFirstTrace() {
    const std::string err = errorOf(
        "@tf.function\ndef f(x):\n    v = tf.Variable(1.0)\n    return v * x\n"
        "a = f(tf.constant(1.0))\n");
    QVERIFY2(has(err,
                 "f.gls:3:9: ValueError: tf.function only supports singleton tf.Variables "
                 "created on the first call"),
             err.c_str());
    // The Keras idiom: create once, behind a check; later traces find it.
    const TracedProgram p = trace(
        "class M(tf.Module):\n    def __init__(self):\n        self.v = None\n"
        "    @tf.function\n    def __call__(self, x):\n        if self.v is None:\n"
        "            self.v = tf.Variable(2.0)\n        self.v.assign_add(1.0)\n"
        "        return self.v * x\n"
        "m = M()\na = m(tf.constant(3.0))\nb = m(tf.constant(3.0))\n"
        "c = m(tf.constant([1.0, 2.0]))\n");
    QCOMPARE(valueOf(p, "a"), (std::vector<double>{9}));
    QCOMPARE(valueOf(p, "b"), (std::vector<double>{12}));
    QCOMPARE(valueOf(p, "c"), (std::vector<double>{5, 10}));
  }

  // input_signature fixes the one concrete function: arguments must match its specs.
  void inputSignatureIsChecked() {
    const std::string err = errorOf(
        "@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])\ndef f(x):\n"
        "    return x * 2.0\na = f(tf.constant([1.0, 2.0]))\nb = f(tf.constant([[1.0]]))\n");
    QVERIFY2(has(err, "f.gls:5:7: TypeError: argument 1 of 'f' is float32[1,1]"), err.c_str());
    const TracedProgram p = trace(
        "@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])\ndef f(x):\n"
        "    return x * 2.0\na = f(tf.constant([1.0, 2.0]))\nb = f(tf.constant([5.0]))\n"
        "n = f.experimental_get_tracing_count()\nprint(n)\n");
    QCOMPARE(valueOf(p, "b"), (std::vector<double>{10}));
    QCOMPARE(p.traceLog.back(), std::string("1"));
  }
  // TF's guide ("Controlling retracing", input_signature): the trace sees the spec's shape,
  // None dims unknown, so it prints shape=(None,) and serves every length; x.shape[0] is None
  // while tracing, as in TF.
  void inputSignatureTracesTheSpecShape() {
    const TracedProgram p =
        trace(R"(@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print('Tracing with', x)
    print(x.shape[0])
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)
a = next_collatz(tf.constant([1, 2]))
b = next_collatz(tf.constant([3, 4, 5]))
print(a)
print(b)
print(b.shape)
)");
    std::vector<std::string> printed;
    for (const std::string& l : p.traceLog)
      if (l.rfind("note: ", 0) != 0) printed.push_back(l);
    QCOMPARE(printed,
             (std::vector<std::string>{"Tracing with Tensor(\"x:0\", shape=(None,), dtype=int32)",
                                       "None", "tf.Tensor([4 1], shape=(2,), dtype=int32)",
                                       "tf.Tensor([10  2 16], shape=(3,), dtype=int32)", "(3,)"}));
    // A fully given spec traces with it as it is (no relaxed node).
    const TracedProgram q = trace(R"(@tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
def f(x):
    return tf.reduce_sum(x * x)
y = f(tf.constant([3.0, 4.0]))
)");
    QCOMPARE(valueOf(q, "y"), (std::vector<double>{25}));
    QCOMPARE(countOp(*q.graph, "relax_shape"), 0);
  }
  // Guide "Better performance with tf.function", "Executing Python side effects": print runs
  // when tracing, tf.print every call, in call order; f(1), f(1), f(2) prints the guide's five
  // lines.
  void pythonSideEffectsOnlyWhileTracing() {
    const TracedProgram p = trace(
        "@tf.function\ndef f(x):\n    print('Traced with', x)\n    tf.print('Executed with', x)\n"
        "f(1)\nf(1)\nf(2)\n");
    std::vector<std::string> printed;
    for (const std::string& l : p.traceLog)
      if (l.rfind("note: ", 0) != 0) printed.push_back(l);
    QCOMPARE(printed,
             (std::vector<std::string>{"Traced with 1", "Executed with 1", "Executed with 1",
                                       "Traced with 2", "Executed with 2"}));
    QCOMPARE(countOp(*p.graph, "print"), 3);
    // The same guide: a list appended to inside a tf.function grows once, at the trace.
    const TracedProgram q = trace(
        "external_list = []\n@tf.function\ndef side_effect(x):\n    external_list.append(x)\n"
        "side_effect(1)\nside_effect(1)\nside_effect(1)\nn = len(external_list)\nprint(n)\n");
    QCOMPARE(q.traceLog.back(), std::string("1"));
  }

  // A concrete function keeps what it captured at its trace (a Python value is a constant of
  // the graph), but reads a tf.Variable's value at each call (guide: "Depending on Python
  // global and free variables").
  void capturesAndVariablesAcrossCalls() {
    const TracedProgram p = trace(
        "a = 1.0\n@tf.function\ndef f():\n    return tf.constant(a) * 2.0\n"
        "r1 = f()\na = 5.0\nr2 = f()\n"
        "v = tf.Variable(1.0)\n@tf.function\ndef g(x):\n    return v * x\n"
        "s1 = g(tf.constant(2.0))\nv.assign(3.0)\ns2 = g(tf.constant(2.0))\n");
    QCOMPARE(valueOf(p, "r1"), (std::vector<double>{2}));
    QCOMPARE(valueOf(p, "r2"), (std::vector<double>{2}));
    QCOMPARE(valueOf(p, "s1"), (std::vector<double>{2}));
    QCOMPARE(valueOf(p, "s2"), (std::vector<double>{6}));
  }

  // A later call is recorded by a tape like the first: d(v * x^2)/dx = 2 v x, d/dv = x^2, at
  // this call's x and v. One tensor passed twice and then two different ones.
  void laterCallsHaveGradients() {
    const TracedProgram p = trace(
        "v = tf.Variable(2.0)\n@tf.function\ndef g(x, y):\n    return v * x * y\n"
        "first = g(tf.constant(1.0), tf.constant(1.0))\n"
        "x = tf.constant(3.0)\nv.assign(5.0)\n"
        "with tf.GradientTape() as tape:\n    tape.watch(x)\n    z = g(x, x)\n"
        "dx, dv = tape.gradient(z, [x, v])\n"
        "w = g(tf.constant(2.0), tf.constant(7.0))\n");
    QCOMPARE(valueOf(p, "z"), (std::vector<double>{45}));
    QCOMPARE(valueOf(p, "dx"), (std::vector<double>{30}));
    QCOMPARE(valueOf(p, "dv"), (std::vector<double>{9}));
    QCOMPARE(valueOf(p, "w"), (std::vector<double>{70}));
  }
  // A run of an eager program replays every op it ran (TF ran each one), not only what its
  // outputs need: the printed sum's two ops count in the run, and in its time.
  void eagerRunsReplayEveryOp() {
    const std::string src =
        "a = tf.constant([1.0, 2.0])\nprint(tf.reduce_sum(a * 3.0))\nb = a + 1.0\n";
    const TracedProgram eager = trace(src);
    QCOMPARE(eager.traceLog.at(0), std::string("tf.Tensor(9.0, shape=(), dtype=float32)"));
    TraceOptions opt;
    opt.model = ExecutionModel::WholeScriptFunction;
    const TracedProgram traced = traceProgram(src, "f.gls", opt);
    const lab::ProgramRun e = lab::runProgram(eager, {}), t = lab::runProgram(traced, {});
    QCOMPARE(e.variants.at(0).run.primitiveOps, int64_t(3));  // mul, reduce_sum, add
    QCOMPARE(t.variants.at(0).run.primitiveOps, int64_t(1));  // add: the print is Python's
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestFunction)
#include "test_function.moc"
