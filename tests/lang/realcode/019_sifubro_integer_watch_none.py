# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cells 53-55)
# topic: why is my gradient None: an int32 constant is watched (TF warns on stderr) and its gradient is None; float constants work
# mode: eager
# tf-answer: None for tf.constant(10); 20.0 for tf.constant(10.0) and tf.constant(10, dtype=tf.float32). TF also logs three "WARNING:tensorflow:The dtype of the ... tensor must be floating" lines to stderr.
# changed: notebook cells joined; import added at the top.
# expect: None
# expect: tf.Tensor(20.0, shape=(), dtype=float32)
# expect: tf.Tensor(20.0, shape=(), dtype=float32)
import tensorflow as tf

x = tf.constant(10)

with tf.GradientTape() as g:
  g.watch(x)
  y = x * x

print(g.gradient(y, x))

x = tf.constant(10.0)

with tf.GradientTape() as g:
  g.watch(x)
  y = x * x

print(g.gradient(y, x))

x = tf.constant(10, dtype=tf.float32)

with tf.GradientTape() as g:
  g.watch(x)
  y = x * x

print(g.gradient(y, x))
