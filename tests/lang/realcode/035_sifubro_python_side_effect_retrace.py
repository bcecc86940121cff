# source: https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 38-39; TF guide "Introduction to graphs and tf.function", "tf.function best practices")
# topic: Python print is a trace-time side effect; tensor arguments reuse the trace, Python int arguments retrace per value
# mode: tf.function
# tf-answer: Tracing! once for the two tensor calls; Tracing! before each Python-int call (notebook output)
# changed: import added at the top.
# expect: Tracing!
# expect: tf.Tensor(6, shape=(), dtype=int32)
# expect: tf.Tensor(11, shape=(), dtype=int32)
# expect: Tracing!
# expect: tf.Tensor(6, shape=(), dtype=int32)
# expect: Tracing!
# expect: tf.Tensor(11, shape=(), dtype=int32)
import tensorflow as tf

@tf.function
def a_function_with_python_side_effect(x):
  print("Tracing!") # An eager-only side effect.
  return x * x + tf.constant(2)

# This is traced the first time.
print(a_function_with_python_side_effect(tf.constant(2)))
# The second time through, you won't see the side effect.
print(a_function_with_python_side_effect(tf.constant(3)))

# This retraces each time the Python argument changes,
# as a Python argument could be an epoch count or other
# hyperparameter.
print(a_function_with_python_side_effect(2))
print(a_function_with_python_side_effect(3))
