# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/advanced_autodiff.ipynb (section "Multiple tapes"); rendered at https://www.tensorflow.org/guide/advanced_autodiff
# topic: two tapes opened in one `with` statement, each watching its own constant
# mode: eager
# tf-answer: cos(0) = 1.0 and sigmoid'(0) = 0.25 (the guide's comments)
# changed: the two cells that display `.numpy()` values are wrapped in print().
# expect: 1.0
# expect: 0.25
import tensorflow as tf

x0 = tf.constant(0.0)
x1 = tf.constant(0.0)

with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
  tape0.watch(x0)
  tape1.watch(x1)

  y0 = tf.math.sin(x0)
  y1 = tf.nn.sigmoid(x1)

  y = y0 + y1

  ys = tf.reduce_sum(y)

print(tape0.gradient(ys, x0).numpy())   # cos(x) => 1.0
print(tape1.gradient(ys, x1).numpy())   # sigmoid(x1)*(1-sigmoid(x1)) => 0.25
