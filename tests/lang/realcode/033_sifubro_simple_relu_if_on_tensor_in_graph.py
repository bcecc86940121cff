# source: https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 8-10; a user's run of the TF guide "Introduction to graphs and tf.function")
# topic: a Python if on tf.greater(x, 0) inside tf.function becomes tf.cond; both branches traced, one runs; .numpy() on the result
# mode: tf.function
# tf-answer: 1 for x = 1, 0 for x = -1 (notebook output)
# changed: import added at the top.
# expect: First branch, with graph: 1
# expect: Second branch, with graph: 0
import tensorflow as tf

def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0

# `tf_simple_relu` is a TensorFlow `Function` that wraps `simple_relu`.
tf_simple_relu = tf.function(simple_relu)

print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
