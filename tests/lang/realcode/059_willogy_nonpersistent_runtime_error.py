# source: https://insights.willogy.io/tensorflow-part-3-automatic-differentiation/ "Tensorflow - part 3: Automatic differentiation"
# topic: calling gradient() twice on a non-persistent tape (uncaught)
# mode: eager
# tf-answer: first gradient 4.0; the second call raises RuntimeError: A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians) (tutorial output)
# changed: the tutorial's `import matplotlib.pyplot as plt` is left out (unused); its code blocks are joined.
# expect: tf.Tensor(4.0, shape=(), dtype=float32)
# expect-error: RuntimeError: A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)
import numpy as np
import tensorflow as tf

tensor_x = tf.Variable(2.0) # x: a Tensorflow variable of scalar

with tf.GradientTape() as tape: # Tensorflow remembers all the executed operations in ```tf.GradientTape``` by storing them into a ```tape```
    tensor_y1 = tensor_x**2 # y1
    tensor_y2 = tensor_x**3 # y2

tensor_dy1_dx = tape.gradient(tensor_y1, tensor_x) # dy = 2x dx
print(tensor_dy1_dx)

tensor_dy2_dx = tape.gradient(tensor_y2, tensor_x) # dy = 3x^2 dx
print(tensor_dy2_dx)
