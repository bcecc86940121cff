// What Python sees of a tensor (engine/lang/tracer_eager_values.cpp): an eager tensor's value
// through str()/float()/int()/bool()/len()/__index__/format, and TF's errors, located at the
// script's line and column, where a tensor has no value (a traced body, where TF's tensors are
// symbolic) or where numpy refuses the conversion.
#include "test_main.h"

#include "engine/lang/program.h"
#include "script_helpers.h"

using namespace gl;
using namespace gl::lang;

namespace {

using gl::test::traceError;

std::vector<std::string> printed(const std::string& src) {
  try {
    return traceProgram(src, "e.gls", {}).traceLog;
  } catch (const EngineError& e) {
    qWarning("trace failed: %s", e.what());
    throw;
  }
}

// The error starts with `located` (file:line:col: and TF's words).
void expectError(const std::string& src, const std::string& located) {
  const std::string got = traceError(src);
  QVERIFY2(got.rfind(located, 0) == 0,
           ("expected '" + located + "...', got '" + got + "'").c_str());
}

}  // namespace

class TestEagerValues : public QObject {
  Q_OBJECT
 private slots:
  // Eager values whose conversion numpy refuses: TF raises numpy's errors (ops.py
  // _EagerTensorBase.__bool__/__float__/__index__/__len__/__format__).
  void eagerConversionErrors() {
    expectError("x = tf.constant([1.0, 2.0])\nb = bool(x)\n",
                "e.gls:2:10: ValueError: The truth value of an array with more than one element "
                "is ambiguous. Use a.any() or a.all()");
    expectError("x = tf.constant([1.0, 2.0])\nb = not x\n",
                "e.gls:2:5: ValueError: The truth value of an array with more than one element");
    expectError("n = len(tf.constant(3.0))\n",
                "e.gls:1:9: TypeError: Scalar tensor has no `len()`");
    expectError("f = float(tf.constant([1.0, 2.0]))\n",
                "e.gls:1:11: TypeError: only length-1 arrays can be converted to Python scalars");
    expectError("s = ['a', 'b'][tf.constant(0.5)]\n",
                "e.gls:1:5: TypeError: only integer scalar arrays can be converted to a scalar "
                "index");
    expectError("r = range(tf.constant([1, 2]))\n",
                "e.gls:1:11: TypeError: only integer scalar arrays can be converted to a scalar "
                "index");
    expectError("s = f'{tf.constant([1.0, 2.0]):.2f}'\n",
                "e.gls:1:8: TypeError: unsupported format string passed to "
                "numpy.ndarray.__format__");
    expectError("x = tf.constant([1.0, 2.0])\nn = x.name\n",
                "e.gls:2:5: AttributeError: Tensor.name is undefined when eager execution is "
                "enabled");
  }

  // A tensor in a traced body is symbolic: TF's errors, located where the script asks for its
  // value (tensor.py's Tensor; BaseResourceVariable.numpy).
  void symbolicTensorErrors() {
    const std::string loop = "r = tf.while_loop(lambda i: i < 3, lambda i: (";
    const std::string init = ",), [tf.constant(0)])\n";
    expectError(loop + "i + int(bool(i > 0))" + init,
                "e.gls:1:60: OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a "
                "Python `bool` is not allowed");
    expectError(loop + "i + len('%d' % i)" + init,
                "e.gls:1:55: TypeError: %d format needs a real number, not 'SymbolicTensor'");
    expectError(loop + "i + i.numpy()" + init,
                "e.gls:1:51: AttributeError: 'SymbolicTensor' object has no attribute 'numpy'");
    expectError("import numpy as np\n" + loop + "i + int(np.array(i))" + init,
                "e.gls:2:64: NotImplementedError: Cannot convert a symbolic tf.Tensor to a numpy "
                "array");
    expectError(loop + "i + len(['a', 'b'][i])" + init,
                "e.gls:1:55: a Python list cannot be indexed by a tensor");
    expectError(
        "v = tf.Variable(1.0)\nr = tf.map_fn(lambda x: x * v.numpy(), tf.constant([1.0]))\n",
        "e.gls:2:29: NotImplementedError: numpy() is only available when eager execution "
        "is enabled");
    expectError("r = tf.map_fn(lambda x: tf.constant(f'{x:.2f}'), tf.constant([1.0]))\n",
                "e.gls:1:40: TypeError: unsupported format string passed to "
                "SymbolicTensor.__format__");
  }

  // int()/float() of a symbolic tensor are AutoGraph's int_/float_ (py_builtins.py): a cast.
  void symbolicIntFloatCast() {
    QCOMPARE(QString::fromStdString(traceError(
                 "r = tf.while_loop(lambda i: i < 3.0, lambda i: (i + float(int(i)) + 1.0,), "
                 "[tf.constant(0.5)])\n")),
             QString());
  }

  // A symbolic tensor prints as TF's graph tensor: its op's name made unique, shape, dtype
  // (tensor.py Tensor.__str__/__repr__).
  void symbolicTensorText() {
    const auto log = printed(
        "r = tf.map_fn(lambda x: print(x * 2.0, [x * 3.0]) or x, tf.constant([1.0, 2.0]))\n");
    QCOMPARE(log.size(), size_t(1));
    QCOMPARE(QString::fromStdString(log[0]),
             QString("Tensor(\"mul:0\", shape=(), dtype=float32) [<tf.Tensor 'mul_1:0' "
                     "shape=() dtype=float32>]"));
  }

  // Eagerly, print/str/repr show values and tf.print writes at once, in program order.
  void eagerText() {
    const auto log = printed(
        "x = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nprint('x:', x)\ntf.print(x)\n"
        "print(repr(x[0, 0]), f'{x[1, 1]:.1f}')\n");
    QCOMPARE(log.size(), size_t(3));
    QCOMPARE(QString::fromStdString(log[0]),
             QString("x: tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32)"));
    QCOMPARE(QString::fromStdString(log[1]), QString("[[1 2]\n [3 4]]"));
    QCOMPARE(QString::fromStdString(log[2]),
             QString("<tf.Tensor: shape=(), dtype=float32, numpy=1.0> 4.0"));
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestEagerValues)
#include "test_eager_values.moc"
