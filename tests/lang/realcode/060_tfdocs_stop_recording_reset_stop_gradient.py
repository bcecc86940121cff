# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/advanced_autodiff.ipynb (section "Controlling gradient recording"); rendered output at https://www.tensorflow.org/guide/advanced_autodiff
# topic: tape.stop_recording(), tape.reset() under a Python `if reset:`, tf.stop_gradient; dict of sources
# mode: eager
# tf-answer: dz/dx = 4.0 and dz/dy = None in all three cells (the rendered guide shows the first two)
# changed: the guide's setup imports of matplotlib are left out; its three cells are joined.
# expect: dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)
# expect: dz/dy: None
# expect: dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)
# expect: dz/dy: None
# expect: dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)
# expect: dz/dy: None
import tensorflow as tf

x = tf.Variable(2.0)
y = tf.Variable(3.0)

with tf.GradientTape() as t:
  x_sq = x * x
  with t.stop_recording():
    y_sq = y * y
  z = x_sq + y_sq

grad = t.gradient(z, {'x': x, 'y': y})

print('dz/dx:', grad['x'])  # 2*x => 4
print('dz/dy:', grad['y'])

x = tf.Variable(2.0)
y = tf.Variable(3.0)
reset = True

with tf.GradientTape() as t:
  y_sq = y * y
  if reset:
    # Throw out all the tape recorded so far.
    t.reset()
  z = x * x + y_sq

grad = t.gradient(z, {'x': x, 'y': y})

print('dz/dx:', grad['x'])  # 2*x => 4
print('dz/dy:', grad['y'])

x = tf.Variable(2.0)
y = tf.Variable(3.0)

with tf.GradientTape() as t:
  y_sq = y**2
  z = x**2 + tf.stop_gradient(y_sq)

grad = t.gradient(z, {'x': x, 'y': y})

print('dz/dx:', grad['x'])  # 2*x => 4
print('dz/dy:', grad['y'])
