// Bad scripts: each must fail with a located, readable error (message substring and exact
// line:col), never a crash. Then every prefix and some byte mutations of each script must give
// either a program or an EngineError, nothing else.
#include "test_main.h"

#include <pthread.h>

#include <random>

#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

struct BadScript {
  const char* source;
  const char* message;  // a substring of the error message
  int line, col;
  // AutoGraph's errors are traced as inside a tf.function (the whole script as one); the rest
  // run as TF 2 runs a script, eagerly.
  ExecutionModel model = ExecutionModel::Eager;
};
constexpr ExecutionModel kInFunction = ExecutionModel::WholeScriptFunction;

// clang-format off
const BadScript kBad[] = {
    {"s = 'ab'\nfor i in range(40):\n    s = s + s\n",
     "this concatenation makes more than 1000000 characters", 3, 9},
    {"s = [1]\nfor i in range(40):\n    s = s + s\n",
     "this concatenation makes more than 1000000 items", 3, 9},
    {"with variant(''):\n    x = 1\n",
     "a variant needs a name, got ''", 1, 14},
    {"if True:\n\tx = 1\n        y = 2\n",
     "inconsistent use of tabs and spaces in indentation", 3, 9},
    {"if True:\n        x = 1\n\ty = 2\n",
     "inconsistent use of tabs and spaces in indentation", 3, 2},
    {"if True:\n    if True:\n\tx = 1\n",
     "inconsistent use of tabs and spaces in indentation", 3, 2},
    {"x = tf.ones([2])\ny = tf.reduce_sum(x, 0, False, None, 5)\n",
     "tf.reduce_sum() takes at most 4 positional arguments (5 given)", 2, 38},
    {"ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\nn = len(ta)\n",
     "len(): argument 'obj' is a dynamically sized TensorArray; use ta.size()", 2, 9},
    {"i = tf.constant(0)\nx = tf.ones([2, 2])\ni, x = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x[0]), [i, x])\n",
     "the while_loop body changes the shape of loop variable 1 ('x') from [2,2] to [2]", 3, 8},
    {"x = tf.ones([2])\nwith tf.GradientTape() as tape:\n    with tape:\n        pass\n",
     "this GradientTape is already recording", 3, 10},
    {"x = tf.ones([2])\ny = x // 2\n",
     "the operator '//' is not supported on float32 tensors", 2, 5},
    {"t = tf.TensorArray(tf.float32, size=2)\nfor i in tf.range(2):\n    t.write(i, 1.0)\n",
     "the TensorArray this call returns is thrown away", 3, 5},
    {"x = tf.constant([1.0])\nwith tf.GradientTape() as tape:\n    y = x * 2\ng = tape2.gradient(y, x)\n",
     "unknown name 'tape2' (did you mean 'tape'?)", 4, 5},
    {"y = tf.reduce_sum(tf.ones([2]), axes=1)\n",
     "tf.reduce_sum() got an unexpected keyword argument 'axes' (did you", 1, 33},
    {"x = tf.ones([10, 5000])\nfor i in tf.range(3):\n    x = x[0]\n",
     "the tf.range loop body changes the shape of 'x' from [10,5000] to", 3, 5, kInFunction},
    {"x = 5\nx()\n",
     "'x' is an int, not a function; it cannot be called", 2, 1},
    {"a = [1, 2]\nb = a[5]\n",
     "index 5 is out of range for a list of size 2", 2, 5},
    {"x = tf.ones([2, 3]) @ tf.ones([2, 3])\n",
     "bad.gls:1:5: matmul inner dimensions do not match: [2,3] @ [2,3] (3 != 2)", 1, 5},  // op named once
    {"x = foo + 1\n",
     "unknown name 'foo'", 1, 5},
    {"x = tf.ones([3])\ny = x[3]\n",
     "index 3 is out of range for axis 0 of size 3", 2, 5},
    {"x = tf.ones([3])\nif x > 0:\n    y = 1\n",
     "ValueError: The truth value of an array with more than one element is ambiguous", 2, 4},
    {"x = tf.ones([3])\nif x > 0:\n    y = 1\n",
     "an if on a tensor needs a scalar bool condition, got bool[3]; reduce", 2, 4, kInFunction},
    {"def f():\n    for i in tf.range(3):\n        if i > 1:\n            return i\n    return 0\nf()\n",
     "'return' is not supported in a tf.range loop (its body becomes one", 4, 13, kInFunction},
    {"y = tf.reduce_summ(1)\n",
     "module 'tf' has no attribute 'reduce_summ' (did you mean", 1, 5},
    {"t = tf.GradientTape()\nt.gradients(1, 2)\n",
     "'GradientTape' object has no attribute 'gradients' (did you mean", 2, 1},
    {"x = 1 + \"a\"\n",
     "unsupported operand types for +: 'int' and 'str'", 1, 5},
    {"x = tf.ones([2]) + tf.ones([3])\n",
     "add: shapes [2] and [3] cannot be broadcast together", 1, 5},
    // An eager tensor indexes a list by its value (EagerTensor.__index__), a float one not;
    // a symbolic one (in a traced body) cannot.
    {"x = [1, 2][tf.constant(0.5)]\n",
     "TypeError: only integer scalar arrays can be converted to a scalar index", 1, 5},
    {"y = tf.while_loop(lambda i: i < 3, lambda i: ([1, 2][i] + i,), [tf.constant(0)])\n",
     "a Python list cannot be indexed by a tensor: the index is known only", 1, 47},
    {"def f(n):\n    return f(n + 1)\ny = f(0)\n",
     "exceeded calling 'f'", 2, 12},
    {"x = tf.ones([2], dtype=tf.float64) + tf.ones([2])\n",
     "cannot combine a float64 tensor and a float32 tensor with '+'; use", 1, 5},
    {"i = tf.constant(0)\nwhile i < 3:\n    i = i + 1.0\n",
     "cannot mix the Python float 1.0 with an int32 tensor; use tf.cast", 3, 9},
    {"def f(a, b):\n    return a\ny = f(1, 2, 3)\n",
     "f() takes 2 positional arguments but 3 were given", 3, 5},
    {"def f(a, b):\n    return a\ny = f(1)\n",
     "f() missing required argument 'b'", 3, 5},
    {"def f(a):\n    return a\ny = f(1, c=2)\n",
     "f() got an unexpected keyword argument 'c' (did you mean 'a'?)", 3, 10},
    {"x = tf.ones([2])\ny = x[0, 0]\n",
     "too many indices for a tensor of rank 1 (shape [2])", 2, 5},
    {"t = tf.TensorArray(tf.float32, size=2)\nt.write(0, tf.ones([]))\n",
     "the TensorArray this call returns is thrown away: TensorArrays are", 2, 1},
    {"t = tf.TensorArray(tf.float32, size=2)\nt = t.write(5, 1.0)\n",
     "TensorArray.write(): argument 'index' 5 is out of range for a", 2, 13},
    {"a, b = [1, 2, 3]\n",
     "too many values to unpack (expected 2, got 3)", 1, 1},
    {"x = 10 / 0\n",
     "division by zero", 1, 5},
    {"x = tf.ones([2])\nwith tf.GradientTape() as tape:\n    y = x * 2\n"
     "g = tape.gradient([y, y], x, output_gradients=[x])\n",
     "GradientTape.gradient(): argument 'output_gradients' must be a list with one tensor (or "
     "None) per target, 2 here", 4, 30},
    {"with tf.GradientTape() as tape:\n    pass\ng = tape.gradient(None, [])\n",
     "GradientTape.gradient(): argument 'target' must be one tensor, got a", 3, 19},
    {"x = tf.zeros([100000, 100000])\n",
     "fill: this needs 37.3 GiB, over the memory budget of 8.0 GiB", 1, 5},
    {"y = tf.matmul(tf.ones([2, 2]))\n",
     "tf.matmul() missing required argument 'b'", 1, 5},
    {"x = tf.ones([3])\nx[0] = 2.0\n",
     "tensors are immutable: assigning to an element or slice of a tensor", 2, 1},
    {"v = tf.Variable([True, False])\n",
     "tf.Variable(): argument 'initial_value' must be float32, float64 or int32", 1, 17},
    {"y = tf.cast(tf.ones([2]), tf.float16)\n",
     "module 'tf' has no attribute 'float16' (did you mean 'float'?)", 1, 27},
    {"x = tf.ones([2])\nz = int(x)\n",
     "TypeError: only length-1 arrays can be converted to Python scalars", 2, 9},
    {"x = len(5)\n",
     "len(): argument 'obj' of type 'int' has no len()", 1, 9},
    {"y = tf.while_loop(lambda i: i < 3, lambda i: (i + len(range(i)),), [tf.constant(0)])\n",
     "range() needs Python ints known while tracing; for a tensor bound use", 1, 61},
    {"y = tf.while_loop(lambda i: i < 3, lambda i: (i + 1, i), [0])\n",
     "the while_loop body returns 2 values for 1 loop variables", 1, 5},
    {"y = tf.cond(tf.constant(True), lambda: tf.ones([2]), lambda: tf.ones([2, 3]))\n",
     "cond: the branches return different types for result 0: float32[2]", 1, 5},
    {"y = tf.while_loop(lambda i: i < 3, lambda i: (i + i.numpy(),), [tf.constant(0)])\n",
     "AttributeError: 'SymbolicTensor' object has no attribute 'numpy'", 1, 51},
    {"y = \"abc\".uper()\n",
     "'str' object has no attribute 'uper' (did you mean 'upper'?)", 1, 5},
    // Imports (issue #26): the modules GradLab provides, and a located error for any other.
    {"import pandas as pd\n",
     "GradLab does not provide module 'pandas' yet (it provides tensorflow, keras, math, time, "
     "functools, numpy, itertools, os)", 1, 8},
    // An activation Keras has and GradLab lacks is not Keras's (catchable) ValueError.
    {"f = tf.keras.activations.get('selu')\n",
     "GradLab does not provide the 'selu' activation yet", 1, 30},
    // os.environ holds what the script set: GradLab runs without the process's environment.
    {"import os\nhome = os.environ['HOME']\n",
     "os.environ['HOME']: GradLab runs scripts without the process's environment", 2, 8},
    {"import os\nv = os.environ.get('TF_CPP_MIN_LOG_LEVEL', '0')\n",
     "os.environ['TF_CPP_MIN_LOG_LEVEL']: GradLab runs scripts without", 2, 20},
    {"import os\nb = 'CUDA_VISIBLE_DEVICES' in os.environ\n",
     "os.environ['CUDA_VISIBLE_DEVICES']: GradLab runs scripts without", 2, 5},
    {"import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = 2\n", "TypeError: str expected, not int", 2,
     1},
    {"import os\np = os.path.join('a', 'b')\n", "module 'os' has no attribute 'path'", 2, 5},
    // numpy (#26 item 5): what it does not provide, and numpy's own errors, located.
    {"import numpy as np\na = np.fft.fft(np.ones(4))\n", "numpy.fft is not supported by GradLab",
     2, 5},
    {"import numpy as np\na = np.zeros((2, 3)) + np.ones(4)\n",
     "operands could not be broadcast together with shapes (2,3) (4,)", 2, 5},
    {"import numpy as np\na = np.array([1.5, 2.0])\nb = tf.constant([1, 2]) + a\n",
     "Cannot convert array([1.5, 2. ]) to EagerTensor of dtype int32", 3, 5},
    {"import numpy as np\na = np.arange(6).reshape(4, 2)\n",
     "cannot reshape array of size 6 into shape (4, 2)", 2, 5},
    {"import tensorflow as tf\nfrom torch import nn\n",
     "GradLab does not provide module 'torch' yet", 2, 6},
    {"import tensorflow.kera\n",
     "GradLab does not provide module 'tensorflow.kera' (did you mean 'keras'?)", 1, 8},
    {"from tensorflow import kerass\n",
     "cannot import name 'kerass' from 'tensorflow' (did you mean 'keras'?)", 1, 24},
    {"from tensorflow.keras.layers import Dense, Dens\n",
     "cannot import name 'Dens' from 'tensorflow.keras.layers' (did you mean 'Dense'?)", 1, 44},
    {"from tensorflow import *\n",
     "'from tensorflow import *' is not supported in GradLab script; import the names you use",
     1, 1},
    {"import tensorflow as tf\ny = tf.reduce_summ(1)\n",
     "module 'tensorflow' has no attribute 'reduce_summ' (did you mean", 2, 5},
    {"import math\nx = math.exp(tf.constant(1.0))\n",
     "math.exp(): argument 'x' is a tensor; math.exp() works on Python numbers while tracing: "
     "use tf.math.exp", 2, 14},
    {"import math\nx = math.sqrt(-1.0)\n",
     "ValueError: math domain error", 2, 5},
    {"import math\nx = math.sqrtt(2.0)\n",
     "module 'math' has no attribute 'sqrtt' (did you mean 'sqrt'?)", 2, 5},
    {"import time\nt = time.time()\nassert t < 0, 'clock'\n",
     "AssertionError: clock", 3, 1},
    // f-strings and formatting.
    {"x = tf.constant([1.5, 2.5])\ns = f\"loss {x:.2f}\"\n",
     "TypeError: unsupported format string passed to numpy.ndarray.__format__", 2, 13},
    {"r = tf.map_fn(lambda x: x * len(f\"{x:.2f}\"), tf.constant([1.0]))\n",
     "TypeError: unsupported format string passed to SymbolicTensor.__format__", 1, 36},
    {"s = f\"{foo}\"\n",
     "unknown name 'foo'", 1, 8},
    {"s = f\"{'a':d}\"\n",
     "Unknown format code 'd' for object of type 'str'", 1, 8},
    {"s = f\"{3:.2d}\"\n",
     "Precision not allowed in integer format specifier", 1, 8},
    {"s = f\"{[1]:>5}\"\n",
     "unsupported format string passed to list.__format__", 1, 8},
    {"x = '%d' % 'a'\n",
     "%d format: a real number is required, not str", 1, 5},
    {"x = '%d %d' % (1,)\n",
     "not enough arguments for format string", 1, 5},
    {"x = '%d' % (1, 2)\n",
     "not all arguments converted during string formatting", 1, 5},
    {"x = '%.2f' % tf.constant([1.0, 2.0])\n",
     "TypeError: only length-1 arrays can be converted to Python scalars", 1, 5},
    {"x = '{} {}'.format(1)\n",
     "Replacement index 1 out of range for positional args tuple", 1, 5},
    {"x = '{0} {}'.format(1, 2)\n",
     "cannot switch from manual field specification to automatic field numbering", 1, 5},
    // *args, **kwargs, keyword-only parameters.
    {"def f(a, *, b):\n    return a\nf(1, 2)\n",
     "f() takes 1 positional argument but 2 were given", 3, 1},
    {"def f(*, b):\n    return b\nf()\n",
     "f() missing required keyword-only argument 'b'", 3, 1},
    {"def f(a):\n    return a\nf(**{'b': 1})\n",
     "f() got an unexpected keyword argument 'b'", 3, 5},
    {"def f(a, b):\n    return a\nf(*[1, 2, 3])\n",
     "f() takes 2 positional arguments but 3 were given", 3, 1},
    {"def f(**kw):\n    return kw\nf(a=1, **{'a': 2})\n",
     "f() got multiple values for keyword argument 'a'", 3, 10},
    {"def f(*a):\n    return a\nf(*5)\n",
     "'int' object is not iterable", 3, 4},
    {"def f(**k):\n    return k\nf(**[1])\n",
     "f() argument after ** must be a mapping, not list", 3, 5},
    {"x = tf.ones([2])\ny = tf.add(*x)\n",
     "'*' cannot unpack a tensor into arguments while tracing", 2, 13},
    // del and assert.
    {"y = 1\ndel y\nz = y\n",
     "unknown name 'y'", 3, 5},
    {"del x\n",
     "name 'x' is not defined", 1, 5},
    {"x = 1\ndef f():\n    del x\nf()\n",
     "cannot delete 'x' here: it is bound outside this function", 3, 9},
    {"x = tf.ones([2])\ndel x[0]\n",
     "tensors are immutable: deleting an element of a tensor is not supported", 2, 5},
    {"d = {'a': 1}\ndel d['b']\n",
     "KeyError: 'b'", 2, 7},
    {"x = [1]\ndel x[3]\n",
     "list assignment index 3 is out of range (length 1)", 2, 7},
    {"x = 1\nassert x == 2\n",
     "AssertionError", 2, 1},
    {"x = 1\nassert x == 2, f\"x is {x}\"\n",
     "AssertionError: x is 1", 2, 1},
    {"x = tf.constant(1.0)\nassert x > 0, 'positive'\n",
     "assert on a tensor: its value exists only when the graph runs, so a Python assert cannot "
     "check it while GradLab traces; use tf.debugging.assert_equal", 2, 8},
    {"x = tf.ones([2])\nfor i in tf.range(2):\n    t = x * 2\ny = t + 1\n",
     "'t' is assigned only inside the body of the tf.range loop at line 2,", 4, 5, kInFunction},
    {"l = []\nx = tf.ones([2])\nfor i in tf.range(3):\n    l.append(x * 2)\ny = tf.stack(l)\n",
     "mul#9 from line 4 was computed inside the body of the while at line", 5, 14, kInFunction},
    {"y = tf.random.normal([2, -1])\n",
     "tf.random.normal(): argument 'shape' has a negative dimension -1", 1, 22},
    {"d = tf.keras.layers.Dense(3)\ny = d(tf.ones([2]))\nz = d(tf.ones([2, 5]))\n",
     "this Dense layer was built for inputs of size 2, got 5", 3, 5},
    {"y = tf.einsum(\"ij,jk->ik\", tf.ones([2, 3]), tf.ones([4, 5]))\n",
     "bad.gls:1:5: einsum 'ij,jk->ik': label 'j' has size 3 in operand 0 [2,3]", 1, 5},
    {"x = tf.ones([2])\ny = x.shapee\n",
     "'Tensor' object has no attribute 'shapee' (did you mean 'shape'?)", 2, 5},
    {"with variant(\"a\"):\n    x = 1\nwith variant(\"a\"):\n    y = 2\n",
     "variant 'a' is defined twice", 3, 14},
    {"def g():\n    with variant(\"a\"):\n        pass\ng()\n",
     "variant blocks must be at the top level of the script, not inside", 2, 5},
    {"x = 2 ** 100\n",
     "integer overflow: GradLab script integers are 64-bit", 1, 5},
    {"y = tf.reshape(tf.ones([6]), [4, -1])\n",
     "reshape: cannot reshape [6] (6 elements) to [4,-1]", 1, 5},
    {"x = tf.ones([2])\ny = tf.gather(x, 1.5)\n",
     "cannot mix the Python float 1.5 with an int32 tensor; use tf.cast", 2, 18},
    {"with 5:\n    pass\n",
     "an int cannot be used in a with statement (GradLab knows", 1, 6},
    {"y = tf.GradientTape(persistant=True)\n",
     "tf.GradientTape() got an unexpected keyword argument 'persistant'", 1, 21},
    {"x = tf.ones([2])\nwith tf.GradientTape() as tape:\n    y = x * 2\ng = tape.gradient(y, x)\nh = tape.gradient(y, x)\n",
     "gradient: RuntimeError: A non-persistent GradientTape can only be used to compute one set "
     "of gradients (or jacobians)",
     5, 5},
    {"y = print(undefined_thing)\n",
     "unknown name 'undefined_thing'", 1, 11},
    {"y = [1, 2] * 100000000\n",
     "this repetition makes more than 1000000 items", 1, 5},
    {"x = tf.ones([2, 2])\nif tf.reduce_sum(x) > 0:\n    y = x\nelse:\n    y = tf.ones([3])\n",
     "the if branch makes 'y' float32[2,2] but the else branch makes it", 5, 5, kInFunction},
    {"def f(x):\n    while x < 10.0:\n        return x\n    return x\nf(tf.constant(1.0))\n",
     "'return' is not supported in a while loop on a tensor (it becomes one", 3, 9, kInFunction},
    {"v = tf.Variable(1.0)\nfor i in tf.range(3):\n    v.assign(tf.ones([2]))\n",
     "argument 'value' has shape [2] but the variable's shape is []", 3, 14},
    {"v = tf.Variable(1.0)\nx = tf.cond(v > 0.0, lambda: v.assign(2.0), lambda: v)\n",
     "v.assign() assigns 'v' inside a loop body or branch that does not carry it", 2, 30},
    {"x = tf.constant(1.0)\nx.assign(2.0)\n",
     "v.assign() needs a tf.Variable; this is a tensor, which is immutable", 2, 1},
    {"opt = tf.keras.optimizers.SGD(learning_rate=0.1)\nopt.apply_gradients([(1.0, tf.constant(1.0))])\n",
     "apply_gradients needs (gradient, tf.Variable) pairs", 2, 21},
    {"x = tf.ones([2])\nwith tf.GradientTape() as t:\n    t.watch(5)\n",
     "GradientTape.watch(): argument 'tensor' must be tensors or variables,", 3, 13},
    {"f = lambda: g()\ny = f()\n",
     "unknown name 'g' (did you mean 'f'?)", 1, 13},
    {"f = lambda n: f(n)\ny = f(1)\n",
     "exceeded calling '<lambda>'", 1, 15},
    {"y = tf.ones([4])[1:3:0]\n",
     "slice step cannot be zero", 1, 5},
    {"x = tf.TensorArray(tf.float32, size=2)\ny = x[0]\n",
     "a TensorArray is read with ta.read(i), not ta[i]", 2, 5},
    {"y = tf.nn.softmax_cross_entropy_with_logits(tf.ones([2, 3]), tf.ones([2, 4]))\n",
     "bad.gls:1:5: softmax_cross_entropy: labels [2,3] and logits", 1, 5},
    {"y = tf.while_loop(lambda i: i, lambda i: i + 1, [0])\n",
     "the while_loop cond must return a scalar bool tensor, got int32[]", 1, 5},
    {"x = tf.ones([3])\nfor i in range(2):\n    x = x[None]\ny = x @ x\n",
     "bad.gls:4:5: matmul inner dimensions do not match: [1,1,3] @ [1,1,3] (3 !=", 4, 5},
    {"t = tf.GradientTape()\nt.watch(tf.ones([2]))\n",
     "GradientTape.watch(): use the tape inside `with tf.GradientTape() as", 2, 1},
    {"x = tf.ones([2])\nwith tf.GradientTape() as tape:\n    y = x * 2.0\ng = tape.gradient(y, x)\nh = g * 2.0\n",
     "an operand of '*' is None: it is a gradient that does not exist,", 5, 5},
    {"y = tf.map_fn(lambda r: r, tf.ones([]))\n",
     "bad.gls:1:5: map_fn maps over the first axis of tensors; got float32[]", 1, 5},
    {"y = tf.reduce_sum(tf.ones([2, 3]), axis=2)\n",
     "sum: axis 2 is out of range for rank 2", 1, 5},
    {"y = tf.one_hot([1, 2], depth=-3)\n",
     "bad.gls:1:5: one_hot depth -3 < 0", 1, 5},
    {"x = [1, 2]\nx.push(3)\n",
     "'list' object has no attribute 'push'", 2, 1},
    {"y = tf.concat([tf.ones([2]), tf.ones([2, 2])], axis=0)\n",
     "concat: cannot concat float32[2] and float32[2,2] along axis 0", 1, 5},
    {"i = 0\nwhile i < 3:\n    i = tf.constant(5)\n",
     "this while condition became a tensor after 1 Python iterations; make", 2, 7, kInFunction},
    // Subscripts: sequences and tensors fail apart, each with its own text.
    {"s = \"abc\"\nc = s[-4]\n",
     "index -4 is out of range for a str of size 3", 2, 5},
    {"t = (1, 2)\nc = t[2]\n",
     "index 2 is out of range for a tuple of size 2", 2, 5},
    {"a = [1, 2, 3]\nb = a[1:2:0]\n",
     "slice step cannot be zero", 2, 5},
    {"a = [1]\nb = a[0.5]\n",
     "list indices must be integers or slices, not float", 2, 5},
    {"a = [1, 2]\nb = a[1:tf.constant(2)]\n",
     "slice bound must be a Python int known while tracing, got a tensor", 2, 5},
    {"x = tf.ones([3, 4])\ny = x[:, -5]\n",
     "index -5 is out of range for axis 1 of size 4", 2, 5},
    {"x = tf.ones([3, 4])\ny = x[..., 0, ...]\n",
     "an index can only have a single ellipsis ('...')", 2, 5},
    {"x = tf.ones([3])\ny = x[1.0]\n",
     "tensor indices must be ints, slices, tensors, None or ..., not float", 2, 5},
    {"x = tf.ones([3])\ny = x[tf.constant(1.0)]\n",
     "tensor indices must be integers, got float32[]; use tf.cast(i, tf.int32)", 2, 5},
    {"x = tf.ones([3])\ny = x[::tf.constant(2)]\n",
     "slice step must be a Python int known while tracing, got a tensor", 2, 5},
    {"x = tf.ones([3])\ny = x[0][0]\n",
     "too many indices for a tensor of rank 0 (shape [])", 2, 5},
    {"y = 5[0]\n",
     "'int' object is not subscriptable", 1, 5},
    {"ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\nfor i in tf.range(3):\n    ta = ta.write(i, 1.0)\ns = ta.stack()\nz = s[-1]\n",
     "a negative index needs a known dimension", 5, 5},
    {"ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\nfor i in tf.range(3):\n    ta = ta.write(i, 1.0)\ns = ta.stack()\nz = s[0:2]\n",
     "slicing an axis of unknown size is not supported", 5, 5},
    {"@tf.custom_gradient\ndef f(x):\n    return x * 2.0\n\ny = f(tf.constant(1.0))\n",
     "tf.custom_gradient: the function must return (y, grad_fn), got a Tensor", 5, 5},
    {"@tf.custom_gradient\ndef f(x):\n    def grad(dy, variables=None):\n        return [dy], [dy]\n    return x * 2.0, grad\n\nx = tf.constant(1.0)\nwith tf.GradientTape() as tape:\n    tape.watch(x)\n    y = f(x)\ng = tape.gradient(y, x)\n",
     "grad_fn returned 2 tensor input gradient(s) for 1 tensor input(s)", 10, 9},
    // Issue #28: an argument TF honours that GradLab does not is refused at the argument.
    {"x = tf.ones([2])\ny = tf.shape(x, out_type=tf.int64)\n",
     "tf.shape(): argument 'out_type' is not supported by GradLab yet", 2, 17},
    {"x = tf.ones([2])\ntf.print(x, output_stream=\"stdout\")\n",
     "argument 'output_stream' is not supported: GradLab's tf.print writes to the run log", 2, 13},
    {"x = tf.constant([1.0, 2.0])\ny = tf.map_fn(lambda v: v * v, x, fn_output_signature=tf.int32)\n",
     "argument 'fn_output_signature' declares int32 for result 0, fn returns float32", 2, 35},
    {"y = tf.keras.layers.Dense(2, kernel_initializer=\"lecun_normal\")\n",
     "argument 'kernel_initializer' names no initializer GradLab knows: 'lecun_normal'", 1, 30},
    // Issue #26: script classes; what they do not support is refused where it is written.
    {"class A(metaclass=M):\n    pass\n", "metaclasses are not supported in GradLab script (class 'A')", 1, 9},
    {"class B:\n    pass\nclass C:\n    pass\nclass A(B, C):\n    pass\n",
     "multiple inheritance is not supported in GradLab script", 5, 12},
    {"it = iter([1])\na = next(it)\nb = next(it)\n", "StopIteration", 3, 5},
    {"a = next([1, 2])\n", "'list' object is not an iterator (call iter() on it first)", 1, 10},
    {"import itertools\nfor i in itertools.count():\n    pass\n",
     "itertools.count() never ends", 2, 10},
    {"nonlocal x\n", "nonlocal declaration not allowed at module level", 1, 1},
    {"def f():\n    nonlocal q\n    q = 1\n\nf()\n", "no binding for nonlocal 'q' found", 2, 5},
    // Issue #26 item 3: Keras subclasses fail where Keras fails, located at the construct.
    {"class M(tf.keras.Model):\n    def __init__(self):\n        self.d = tf.keras.layers.Dense(2)\n\nm = M()\n",
     "you forgot to call `super().__init__()`", 3, 9},
    {"class M(tf.keras.Model):\n    pass\n\nm = M()\ny = m(tf.ones([1, 2]))\n",
     "you should implement a `call()` method (M has none)", 5, 5},
    {"class L(tf.keras.layers.Layer):\n    def build(self, s):\n        self.w = self.add_weight(shape=(2,), regularizer=\"l2\")\n\ny = L()(tf.ones([2]))\n",
     "add_weight(): argument 'regularizer' is not supported yet", 3, 46},
    {"class L(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__(units=3)\n\nl = L()\n",
     "Keyword argument not understood: 'units'", 3, 26},
    {"class L(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n        self.name = \"x\"\n\nl = L()\n",
     "Can't set the attribute \"name\" of L", 4, 9},
    {"class M(tf.keras.Model):\n    def call(self, x):\n        return x\n\nm = M()\nh = m.fit(tf.ones([4, 1]), tf.ones([4, 1]))\n",
     "You must compile your model before training/testing", 6, 5},
    {"class M(tf.keras.Model):\n    def call(self, x):\n        return x\n\nm = M()\nm.compile(optimizer=\"adamax\", loss=\"mse\")\n",
     "names an optimizer GradLab does not provide yet: 'adamax'", 6, 11},
    {"class M(tf.keras.Model):\n    def call(self, x):\n        return x\n\nm = M()\nm.compile(loss=\"mse\")\nh = m.fit(tf.ones([4, 1]), tf.ones([4, 1]), sample_weight=tf.ones([4]))\n",
     "argument 'sample_weight' is not supported yet by GradLab's Model training loop", 7, 45},
    {"class A:\n    def __getattr__(self, n):\n        return 1\n",
     "attribute hooks (__getattr__) are not supported in GradLab script classes", 2, 5},
    {"class A:\n    def __add__(self, o):\n        return 1\n",
     "special method __add__ (operator overloading, protocols) is not supported", 2, 5},
    {"class A:\n    pass\na = A()\nb = a.x\n", "'A' object has no attribute 'x'", 4, 5},
    {"class A:\n    def f(self):\n        return super().g()\nA().f()\n",
     "'super' object has no attribute 'g'", 3, 16},
    {"x = super()\n", "super() without arguments works only inside a method of a class", 1, 5},
    {"class A(5):\n    pass\n", "class 'A' cannot derive from an int", 1, 9},
    {"class A:\n    @property\n    def p(self):\n        return 1\na = A()\na.p = 2\n",
     "can't set attribute 'p': property of 'A' has no setter", 6, 1},
    {"class A:\n    pass\na = A(1)\n", "A() takes no arguments (the class has no __init__)", 3, 5},
    {"class A:\n    def __init__(self):\n        return 1\nA()\n",
     "__init__() should return None, not an int", 4, 1},
    {"class A:\n    def f(self):\n        return self.f()\nA().f()\n",
     "maximum recursion depth (200) exceeded calling 'f'", 3, 16},
    {"class A:\n    def f(self, x):\n        return x\nA().f()\n",
     "f() missing required argument 'x'", 4, 1},
    {"x = isinstance(1, 3)\n", "isinstance(): argument 'classinfo' must be a script class", 1, 19},
};
// clang-format on

// Traces; returns "" on success, the error text on EngineError, "CRASH: ..." on anything else.
std::string outcome(const std::string& src, const TraceOptions& opt = {}) {
  try {
    traceProgram(src, "bad.gls", opt);
    return "";
  } catch (const EngineError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("CRASH: ") + e.what();
  } catch (...) {
    return "CRASH: unknown exception";
  }
}

}  // namespace

class TestBadScripts : public QObject {
  Q_OBJECT
 private slots:
  void table_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kBad)); ++i)
      QTest::newRow(QByteArray::number(i + 1).constData()) << i;
  }

  void table() {
    QFETCH(int, index);
    const BadScript& b = kBad[index];
    try {
      TraceOptions opt;
      opt.model = b.model;
      traceProgram(b.source, "bad.gls", opt);
      QFAIL(qPrintable(QString("no error for:\n%1").arg(b.source)));
    } catch (const EngineError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find(b.message) != std::string::npos, what.c_str());
      QCOMPARE(e.loc().file, std::string("bad.gls"));
      QCOMPARE(e.loc().line, b.line);
      QCOMPARE(e.loc().col, b.col);
      // what() reads like a compiler: "bad.gls:line:col: message".
      const std::string prefix =
          "bad.gls:" + std::to_string(b.line) + ":" + std::to_string(b.col) + ": ";
      QVERIFY2(what.rfind(prefix, 0) == 0, what.c_str());
    }
  }

  void atLeastFortyScripts() { QVERIFY(std::size(kBad) >= 40); }

  // Every prefix of every bad script: an error or a program, never a crash.
  void prefixesNeverCrash() {
    TraceOptions opt;
    opt.maxUnroll = 1000;
    opt.memoryBudget = size_t(64) << 20;
    for (const BadScript& b : kBad) {
      const std::string s = b.source;
      for (size_t n = 0; n <= s.size(); ++n) {
        const std::string r = outcome(s.substr(0, n), opt);
        QVERIFY2(r.rfind("CRASH", 0) != 0, (r + "\n" + s.substr(0, n)).c_str());
      }
    }
  }

  void mutationsNeverCrash() {
    TraceOptions opt;
    opt.maxUnroll = 1000;
    opt.memoryBudget = size_t(64) << 20;
    std::mt19937 rng(7);
    const std::string alphabet = "()[]{}:,.=+-*/@<>!01 \n\t'\"xyzif";
    for (const BadScript& b : kBad) {
      for (int k = 0; k < 20; ++k) {
        std::string s = b.source;
        const int edits = 1 + int(rng() % 3);
        for (int e = 0; e < edits && !s.empty(); ++e) {
          const size_t at = rng() % s.size();
          switch (rng() % 3) {
            case 0:
              s[at] = alphabet[rng() % alphabet.size()];
              break;
            case 1:
              s.erase(at, 1);
              break;
            default:
              s.insert(at, 1, alphabet[rng() % alphabet.size()]);
              break;
          }
        }
        const std::string r = outcome(s, opt);
        QVERIFY2(r.rfind("CRASH", 0) != 0, (r + "\n" + s).c_str());
      }
    }
  }

  // Deep nesting and runaway loops stop with an error, not a stack overflow or a hang.
  void deepAndRunaway() {
    std::string deep = "x = 1\n";
    for (int i = 0; i < 150; ++i)
      deep += "def f" + std::to_string(i) + "(x):\n    return f" +
              std::to_string(i - 1 < 0 ? 0 : i - 1) + "(x)\n";
    deep += "y = f149(1)\n";
    QVERIFY(outcome(deep).find("recursion depth") != std::string::npos);
    std::string expr = "x = " + std::string(900, '(') + "1" + std::string(900, ')') + "\n";
    QVERIFY(outcome(expr).rfind("CRASH", 0) != 0);
    std::string neg = "x = 1\ny = " + std::string(900, '-') + "x\n";
    QVERIFY(outcome(neg).rfind("CRASH", 0) != 0);
    QVERIFY(outcome("while True:\n    pass\n").find("maxUnroll") != std::string::npos);
    QVERIFY(outcome("for i in range(10**12):\n    pass\n").find("maxUnroll") != std::string::npos);
    QVERIFY(outcome("x = list(range(10**12))\n").find("more than 1000000 items") !=
            std::string::npos);
    QVERIFY(outcome("x = 'a' * 10**9\n").find("more than") != std::string::npos);
    QVERIFY(outcome("x = tf.zeros([10**6, 10**6, 10**6])\n").find("memory budget") !=
            std::string::npos);
    QVERIFY(outcome("f = lambda f: f(f)\ny = f(f)\n").find("recursion depth") != std::string::npos);
    // Cyclic and deeply nested lists: printed, compared and converted without recursing forever.
    QCOMPARE(outcome("x = []\nx.append(x)\nprint(x)\ny = x == x\nz = x + [x]\n"), std::string());
    QVERIFY(outcome("x = []\nx.append(x)\nz = tf.constant(x)\n")
                .find("bad.gls:3:17: the list is nested too deeply") == 0);
    QVERIFY(outcome("x = []\nfor i in range(200):\n    x = [x]\n")
                .find("bad.gls:3:9: lists are nested more than 100 deep") == 0);
    QVERIFY(outcome("x = [1]\nfor i in range(40):\n    x += x\n").find("grew past") !=
            std::string::npos);
  }

  // A worker thread with a small stack (the GUI traces off the main thread): deep scripts still
  // end in an error, because the tracer sizes its stack guard to the thread.
  void smallStackThread() {
    struct Job {
      std::string src, result;
    } job;
    job.src = "def f(n):\n    return -(-(-(-(-(-(-(-(-(-f(n + 1))))))))))\ny = f(0)\n";
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(512) << 10);
    pthread_t th;
    auto run = [](void* p) -> void* {
      auto* j = static_cast<Job*>(p);
      j->result = outcome(j->src);
      return nullptr;
    };
    QCOMPARE(pthread_create(&th, &attr, run, &job), 0);
    pthread_join(th, nullptr);
    pthread_attr_destroy(&attr);
    QVERIFY2(job.result.find("too deeply") != std::string::npos ||
                 job.result.find("recursion depth") != std::string::npos,
             job.result.c_str());
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestBadScripts)
#include "test_bad_scripts.moc"
