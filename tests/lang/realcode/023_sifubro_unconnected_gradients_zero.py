# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 92)
# topic: unconnected_gradients=tf.UnconnectedGradients.ZERO turns the None into zeros
# mode: eager
# tf-answer: [0. 0.] (notebook output)
# changed: import added at the top.
# expect: tf.Tensor([0. 0.], shape=(2,), dtype=float32)
import tensorflow as tf

x = tf.Variable([2., 2.])
y = tf.Variable(3.)

with tf.GradientTape() as tape:
  z = y**2
print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
