# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cells 20, 22, 23)
# topic: persistent tape with two targets; a dict of targets is summed; a non-scalar target is summed; .numpy() on the result
# mode: eager
# tf-answer: 4.0 and -0.25; dict target 3.75; x * [3., 4.] gives 7.0 (notebook output)
# changed: notebook cells joined; import added at the top.
# expect: 4.0
# expect: -0.25
# expect: 3.75
# expect: 7.0
import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
  y0 = x**2
  y1 = 1 / x

print(tape.gradient(y0, x).numpy())
print(tape.gradient(y1, x).numpy())

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
  y0 = x**2
  y1 = 1 / x

print(tape.gradient({'y0': y0, 'y1': y1}, x).numpy())

#'Similarly, if the target(s) are not scalar the gradient of the sum is calculated:'
x = tf.Variable(2.)

with tf.GradientTape() as tape:
  y = x * [3., 4.]

print(tape.gradient(y, x).numpy())
