# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (cells 211, 219-222)
# topic: why is my gradient None: tf.constant sources are not watched; tape.watch fixes it
# mode: eager
# tf-answer: [None, None] without watch; [36.0, 10.0] with tape.watch(c1), tape.watch(c2)
# changed: notebook cells joined; the `gradients` values the notebook displays are wrapped in print().
# expect: [None, None]
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=36.0>, <tf.Tensor: shape=(), dtype=float32, numpy=10.0>]
import tensorflow as tf

def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2

c1, c2 = tf.constant(5.), tf.constant(3.)
with tf.GradientTape() as tape:
    z = f(c1, c2)

gradients = tape.gradient(z, [c1, c2])
print(gradients)

with tf.GradientTape() as tape:
    tape.watch(c1)
    tape.watch(c2)
    z = f(c1, c2)

gradients = tape.gradient(z, [c1, c2])
print(gradients)
