# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 18; a user's notebook working through the TF autodiff guide)
# topic: why is my gradient None: non-trainable Variable, Variable+1.0 is a Tensor, tf.constant is not watched
# mode: eager
# tf-answer: 6.0 for the trainable variable, None for the other three (notebook output)
# changed: the notebook's setup imports (numpy, tensorflow; matplotlib left out) are put at the top.
# expect: tf.Tensor(6.0, shape=(), dtype=float32)
# expect: None
# expect: None
# expect: None
import numpy as np
import tensorflow as tf

# A trainable variable
x0 = tf.Variable(3.0, name='x0')
# Not trainable
x1 = tf.Variable(3.0, name='x1', trainable=False)
# Not a Variable: A variable + tensor returns a tensor.
x2 = tf.Variable(2.0, name='x2') + 1.0
# Not a variable
x3 = tf.constant(3.0, name='x3')

with tf.GradientTape() as tape:
  y = (x0**2) + (x1**2) + (x2**2)

grad = tape.gradient(y, [x0, x1, x2, x3])

for g in grad:
  print(g)
