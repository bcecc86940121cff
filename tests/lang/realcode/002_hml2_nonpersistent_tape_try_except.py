# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (cells 211, 214, 216-218)
# topic: second gradient() call on a non-persistent tape, caught with try/except; persistent tape and del
# mode: eager
# tf-answer: RuntimeError "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)" (caught and printed); the persistent tape gives 36.0 and 10.0
# changed: notebook cells joined; the tuple the notebook displays (dz_dw1, dz_dw2) is wrapped in print().
# expect: A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)
# expect: (<tf.Tensor: shape=(), dtype=float32, numpy=36.0>, <tf.Tensor: shape=(), dtype=float32, numpy=10.0>)
import tensorflow as tf
from tensorflow import keras

def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2

w1, w2 = tf.Variable(5.), tf.Variable(3.)

with tf.GradientTape() as tape:
    z = f(w1, w2)

dz_dw1 = tape.gradient(z, w1)
try:
    dz_dw2 = tape.gradient(z, w2)
except RuntimeError as ex:
    print(ex)

with tf.GradientTape(persistent=True) as tape:
    z = f(w1, w2)

dz_dw1 = tape.gradient(z, w1)
dz_dw2 = tape.gradient(z, w2) # works now!
del tape

print((dz_dw1, dz_dw2))
