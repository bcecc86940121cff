# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (section "How TF Functions Trace Python Functions", cells 251-258)
# topic: tf.function retracing: a Python print with an f-string runs only while tracing; Python ints and new shapes retrace
# mode: tf.function
# tf-answer: one "x = ..." line per trace: the float32 scalar, the ints 2 and 3, shapes (1, 2) and (2, 2); the last call reuses the (2, 2) trace. (TF also logs a retracing WARNING on stderr.)
# changed: notebook cells joined.
# expect: x = Tensor("x:0", shape=(), dtype=float32)
# expect: x = 2
# expect: x = 3
# expect: x = Tensor("x:0", shape=(1, 2), dtype=float32)
# expect: x = Tensor("x:0", shape=(2, 2), dtype=float32)
import tensorflow as tf

@tf.function
def tf_cube(x):
    print(f"x = {x}")
    return x ** 3

result = tf_cube(tf.constant(2.0))
result = tf_cube(2)
result = tf_cube(3)
result = tf_cube(tf.constant([[1., 2.]]))  # New shape: trace!
result = tf_cube(tf.constant([[3., 4.], [5., 6.]]))  # New shape: trace!
result = tf_cube(tf.constant([[7., 8.], [9., 10.]]))  # Same shape: no trace
