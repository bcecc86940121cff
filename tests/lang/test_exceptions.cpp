// Python's try/except/else/finally and raise (engine/lang/tracer_exceptions.cpp): the built-in
// exception classes, GradLab's errors that mirror a Python or TF error caught as that class,
// and GradLab's own errors (unsupported constructs) that no handler hides.
// Python: https://docs.python.org/3/reference/compound_stmts.html#the-try-statement and
// https://docs.python.org/3/reference/simple_stmts.html#the-raise-statement
#include "test_main.h"

#include "engine/lang/program.h"
#include "script_helpers.h"

using namespace gl;
using namespace gl::lang;

namespace {

using gl::test::traceError;

QStringList printed(const std::string& src) {
  QStringList out;
  try {
    for (const std::string& line : traceProgram(src, "e.gls", {}).traceLog)
      if (line.rfind("note: ", 0) != 0) out << QString::fromStdString(line);
  } catch (const EngineError& e) {
    out << QString("error: ") + e.what();
  }
  return out;
}

// The error starts with `located` (file:line:col: and the message).
void expectError(const std::string& src, const std::string& located) {
  const std::string got = traceError(src);
  QVERIFY2(got.rfind(located, 0) == 0,
           ("expected '" + located + "...', got '" + got + "'").c_str());
}

}  // namespace

class TestExceptions : public QObject {
  Q_OBJECT
 private slots:
  // The first matching clause runs with the exception bound to its name; classes match their
  // subclasses (Python's hierarchy: KeyError is a LookupError); a tuple names several.
  // str(e) is the argument, repr(e) the call, e.args the arguments (BaseException).
  void exceptClausesMatchByClass() {
    const QStringList got = printed(R"(
try:
    raise KeyError("k")
except ValueError:
    print("wrong")
except LookupError as err:
    print("lookup", err, repr(err), err.args, type(err))
try:
    raise ValueError("bad value", 3)
except (TypeError, ValueError) as e:
    print("tuple", e, isinstance(e, Exception), isinstance(e, TypeError))
try:
    raise TypeError
except Exception as e:
    print("class alone", repr(e), "[" + str(e) + "]")
try:
    raise tf.errors.InvalidArgumentError(None, None, "Requires delta != 0")
except tf.errors.OpError as e:
    print("tf", e, e.message)
print(ValueError, tf.errors.InvalidArgumentError)
)");
    QCOMPARE(got, QStringList({
                      "lookup 'k' KeyError('k') ('k',) <class 'KeyError'>",
                      "tuple ('bad value', 3) True False",
                      "class alone TypeError() []",
                      "tf Requires delta != 0 Requires delta != 0",
                      "<class 'ValueError'> <class "
                      "'tensorflow.python.framework.errors_impl.InvalidArgumentError'>",
                  }));
  }

  // else runs when the body raised nothing (its own errors are not caught by the same try);
  // finally runs on every way out: return, continue, an exception; a return in finally wins.
  void elseAndFinally() {
    const QStringList got = printed(R"(
def f(n):
    try:
        if n > 1:
            return "big"
        raise KeyError("k")
    except LookupError:
        return "small"
    finally:
        print("finally", n)
print(f(2), f(0))
for i in range(3):
    try:
        if i == 1:
            continue
        print("i", i)
    finally:
        print("f", i)
def g():
    try:
        return 1
    finally:
        return 2
print(g())
try:
    try:
        x = 1
    except ValueError:
        print("not here")
    else:
        raise ValueError("from else")
except ValueError as e:
    print("outer", e)
try:
    try:
        assert False, "nope"
    except AssertionError:
        print("inner")
        raise
except Exception as e:
    print("reraised", e)
else:
    print("no")
try:
    print("body")
except Exception:
    print("no")
else:
    print("else")
)");
    QCOMPARE(got,
             QStringList({"finally 2", "finally 0", "big small", "i 0", "f 0", "f 1", "i 2", "f 2",
                          "2", "outer from else", "inner", "reraised nope", "body", "else"}));
  }

  // GradLab's errors that mirror a Python or TF error say so ("ZeroDivisionError: ...",
  // "RuntimeError: ..."), and an except clause for that class catches them. TF: a second
  // gradient() of a non-persistent tape is a RuntimeError (backprop.py).
  void mirroredErrorsAreCaught() {
    const QStringList got = printed(R"(
try:
    x = 1 / 0
except ZeroDivisionError as e:
    print("zero", e)
try:
    x = [1][0] + float(tf.constant([1.0, 2.0]))
except TypeError as e:
    print("type", e)
w = tf.Variable(5.0)
with tf.GradientTape() as tape:
    z = w * w
g = tape.gradient(z, w)
try:
    g = tape.gradient(z, w)
except RuntimeError as ex:
    print(ex)
)");
    QCOMPARE(got, QStringList({"zero division by zero",
                               "type only length-1 arrays can be converted to Python scalars",
                               "A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)"}));
  }

  // None has no attributes but Python's dunders: reading one is Python's AttributeError, so a
  // gradient that is None (the tape did not watch x) fails at .numpy() as in TF, catchably.
  void attributeOfNoneIsAttributeError() {
    expectError(
        "x = tf.constant(1.0)\nwith tf.GradientTape() as tape:\n    y = x * x\n"
        "g = tape.gradient(y, x)\nv = g.numpy()\n",
        "e.gls:5:5: AttributeError: 'NoneType' object has no attribute 'numpy'");
    const QStringList got =
        printed("g = None\ntry:\n    v = g.numpy()\nexcept AttributeError as e:\n    print(e)\n");
    QCOMPARE(got, QStringList({"'NoneType' object has no attribute 'numpy'"}));
  }

  // GradLab's own errors (something it does not provide, a limit) name no Python class: no
  // handler catches them, not even a bare except, so no script silently takes a path TF would
  // not take. They stay located errors at the construct.
  void gradlabErrorsAreNotCaught() {
    expectError("try:\n    x = tf.not_a_function(1)\nexcept Exception:\n    pass\n",
                "e.gls:2:9: module 'tf' has no attribute 'not_a_function'");
    expectError("try:\n    import os2\nexcept:\n    pass\n",
                "e.gls:2:12: GradLab does not provide module 'os2'");
  }

  // Uncaught exceptions are located errors: a raise at its statement, a re-raise (bare or of
  // the bound name) where the exception was first raised. Python's TypeErrors for a raise or an
  // except of something that is not an exception class.
  void uncaughtAndInvalidRaises() {
    expectError("x = 1\nraise ValueError(f'bad {x}')\n", "e.gls:2:1: ValueError: bad 1");
    expectError("raise NotImplementedError\n", "e.gls:1:1: NotImplementedError");
    expectError("try:\n    x = 1 / 0\nexcept ZeroDivisionError:\n    raise\n",
                "e.gls:2:9: ZeroDivisionError: division by zero");
    expectError("try:\n    x = 1 / 0\nexcept ArithmeticError as e:\n    y = e\nraise y\n",
                "e.gls:2:9: ZeroDivisionError: division by zero");
    expectError("raise\n", "e.gls:1:1: RuntimeError: No active exception to reraise");
    expectError("raise 5\n", "e.gls:1:7: TypeError: exceptions must derive from BaseException");
    expectError("try:\n    raise ValueError('v')\nexcept int:\n    pass\n",
                "e.gls:3:8: TypeError: catching classes that do not inherit from BaseException");
    expectError("try:\n    raise ValueError('v')\nexcept TypeError:\n    pass\n",
                "e.gls:2:5: ValueError: v");
    expectError("class E(Exception):\n    pass\n", "e.gls:1:");
  }

  // The name bound by `except ... as e` is deleted at the end of the clause (Python 3).
  void exceptNameIsUnbound() {
    expectError("try:\n    raise ValueError('v')\nexcept ValueError as e:\n    pass\nprint(e)\n",
                "e.gls:5:7: unknown name 'e'");
  }

  // A with statement's contexts exit when an exception leaves its body, as __exit__ runs:
  // the tape stops recording, so what follows the handler is not on it (TF: None).
  void withExitsOnException() {
    const QStringList got = printed(R"(
x = tf.Variable(2.0)
try:
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        raise ValueError("stop")
except ValueError:
    pass
z = x * 3.0
print(tape.gradient(y, x), tape.gradient(z, x))
)");
    QCOMPARE(got, QStringList({"tf.Tensor(4.0, shape=(), dtype=float32) None"}));
  }

  // Inside a tf.function the try runs while tracing, as Python code does; an error raised
  // while a tensor loop's body was being traced cannot be caught outside it (GradLab cannot
  // resume the unfinished trace), and a jump inside a try in a tensor loop is refused.
  void tryWhileTracing() {
    const QStringList got = printed(R"(
@tf.function
def f(x):
    try:
        y = x.numpy()
    except AttributeError:
        y = x * 2.0
    return y
print(f(tf.constant(1.5)))
)");
    QCOMPARE(got, QStringList({"tf.Tensor(3.0, shape=(), dtype=float32)"}));
    expectError(R"(
def body(i):
    raise ValueError("in body")
try:
    r = tf.while_loop(lambda i: i < 3, body, [tf.constant(0)])
except ValueError:
    pass
)",
                "e.gls:3:5: GradLab cannot catch this error: it was raised while a tensor loop");
    expectError(
        R"(
@tf.function
def f(n):
    for i in tf.range(n):
        try:
            break
        finally:
            pass
    return n
f(tf.constant(3))
)",
        "e.gls:6:13: 'break' inside a try statement is not supported in a loop on a tensor");
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestExceptions)
#include "test_exceptions.moc"
