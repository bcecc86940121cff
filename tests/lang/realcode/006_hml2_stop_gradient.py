# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (cells 214, 228)
# topic: tf.stop_gradient inside a Python function; the blocked source gets None
# mode: eager
# tf-answer: [30.0, None]
# changed: w1, w2 from the notebook's earlier cell 214 added at the top; the displayed value is wrapped in print().
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=30.0>, None]
import tensorflow as tf

w1, w2 = tf.Variable(5.), tf.Variable(3.)

def f(w1, w2):
    return 3 * w1 ** 2 + tf.stop_gradient(2 * w1 * w2)

with tf.GradientTape() as tape:
    z = f(w1, w2)

print(tape.gradient(z, [w1, w2]))
