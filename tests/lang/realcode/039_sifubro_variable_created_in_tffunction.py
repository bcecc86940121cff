# source: https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cell 108; TF guide "Better performance with tf.function", "Creating tf.Variables")
# topic: creating a tf.Variable inside a tf.function body (the mistake seed-b warns about)
# mode: tf.function
# tf-answer: ValueError. The notebook's TF 2.4-era message: "tf.function-decorated function tried to create variables on non-first call."; newer TF says "tf.function only supports singleton tf.Variables created on the first call." Both contain "first call".
# changed: import added at the top.
# expect-error: ValueError: tf.function only supports singleton tf.Variables created on the first call
import tensorflow as tf

@tf.function
def f(x):
  v = tf.Variable(1.0)
  return v


f(1.0)
