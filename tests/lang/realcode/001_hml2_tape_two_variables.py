# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (section "Computing Gradients with Autodiff", cells 211-215)
# topic: finite differences vs GradientTape on two tf.Variables, list of sources
# mode: eager
# tf-answer: finite differences 36.000003007075065 and 10.000000003174137 (plain Python floats); tape.gradient gives [36.0, 10.0]
# changed: notebook cells joined; the imports are the notebook's setup cell minus sys/sklearn/os; values the notebook displays as a cell's result are wrapped in print().
# expect: 36.000003007075065
# expect: 10.000000003174137
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=36.0>, <tf.Tensor: shape=(), dtype=float32, numpy=10.0>]
import tensorflow as tf
from tensorflow import keras
import numpy as np

def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2

w1, w2 = 5, 3
eps = 1e-6
print((f(w1 + eps, w2) - f(w1, w2)) / eps)
print((f(w1, w2 + eps) - f(w1, w2)) / eps)

w1, w2 = tf.Variable(5.), tf.Variable(3.)
with tf.GradientTape() as tape:
    z = f(w1, w2)

gradients = tape.gradient(z, [w1, w2])
print(gradients)
