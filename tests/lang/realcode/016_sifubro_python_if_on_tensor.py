# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cells 26-27)
# topic: eager Python `if` on a tensor value picks one branch; the untaken variable and the condition get None
# mode: eager
# tf-answer: dv0 = 1.0, dv1 = None, dx = None (notebook output)
# changed: import added at the top; cells joined.
# expect: tf.Tensor(1.0, shape=(), dtype=float32)
# expect: None
# expect: None
import tensorflow as tf

x = tf.constant(1.0)

v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)

with tf.GradientTape(persistent=True) as tape:
  tape.watch(x)
  if x > 0.0:
    result = v0
  else:
    result = v1**2 

dv0, dv1 = tape.gradient(result, [v0, v1])

print(dv0)
print(dv1)

dx = tape.gradient(result, x)

print(dx) # None + 1.0 = None
