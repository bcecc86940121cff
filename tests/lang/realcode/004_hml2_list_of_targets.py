# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (cells 211, 214, 223-224)
# topic: gradient of a list of targets (sums them); per-target gradients stacked with a list comprehension
# mode: eager
# tf-answer: [136.0, 30.0]
# derivation: dz/dw1 = 6*w1 + 2*w2' summed over w2' = 5, 8, 10 -> 3*30 + 2*23 = 136; dz/dw2 = 2*w1 * 3 = 30
# changed: notebook cells joined; the first cell's displayed value is wrapped in print(), and so is the reduce_sum the second cell computes (the notebook discards it).
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=136.0>, <tf.Tensor: shape=(), dtype=float32, numpy=30.0>]
# expect: tf.Tensor([136.  30.], shape=(2,), dtype=float32)
import tensorflow as tf

def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2

w1, w2 = tf.Variable(5.), tf.Variable(3.)

with tf.GradientTape() as tape:
    z1 = f(w1, w2 + 2.)
    z2 = f(w1, w2 + 5.)
    z3 = f(w1, w2 + 7.)

print(tape.gradient([z1, z2, z3], [w1, w2]))

with tf.GradientTape(persistent=True) as tape:
    z1 = f(w1, w2 + 2.)
    z2 = f(w1, w2 + 5.)
    z3 = f(w1, w2 + 7.)

print(tf.reduce_sum(tf.stack([tape.gradient(z, [w1, w2]) for z in (z1, z2, z3)]), axis=0))
del tape
