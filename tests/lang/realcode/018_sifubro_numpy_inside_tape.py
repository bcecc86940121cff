# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cells 38, 46)
# topic: why is my gradient None: np.mean inside the tape leaves TensorFlow; the same code with tf.reduce_mean works
# mode: eager
# tf-answer: None with np.mean; [[1, 2], [3, 4]] with tf.reduce_mean (notebook output)
# derivation: y = reduce_mean(x**2, axis=0) is a 2-vector; the gradient of its sum is 2x/2 = x = [[1, 2], [3, 4]]
# changed: notebook cells joined; imports added at the top.
# expect: None
# expect: tf.Tensor(
# expect: [[1. 2.]
# expect:  [3. 4.]], shape=(2, 2), dtype=float32)
import numpy as np
import tensorflow as tf

x = tf.Variable([[1.0, 2.0],
                 [3.0, 4.0]], dtype=tf.float32)

with tf.GradientTape() as tape:
    x2 = x**2 # x2 is a tensor

    # This step is calculated with NumPy
    y = np.mean(x2, axis=0)

    # Like most ops, reduce_mean will cast the NumPy array to a constant tensor
    # using `tf.convert_to_tensor`.
    y = tf.reduce_mean(y, axis=0)

print(tape.gradient(y, x))

x = tf.Variable([[1.0, 2.0],
                 [3.0, 4.0]], dtype=tf.float32)

with tf.GradientTape() as tape:
    x2 = x**2 # x2 is a tensor

    # This step is calculated with NumPy
    #y = np.mean(x, axis=0)

    # Like most ops, reduce_mean will cast the NumPy array to a constant tensor
    # using `tf.convert_to_tensor`.
    y = tf.reduce_mean(x2, axis=0)

print(tape.gradient(y, x))
