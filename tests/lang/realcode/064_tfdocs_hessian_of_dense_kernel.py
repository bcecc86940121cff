# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/advanced_autodiff.ipynb (section "Example: Hessian"); rendered at https://www.tensorflow.org/guide/advanced_autodiff
# topic: Hessian of a loss w.r.t. a Dense kernel: nested tapes, inner gradient, outer jacobian; Python name x rebound to layer outputs
# mode: eager
# tf-answer: kernel (5, 8), Hessian (5, 8, 5, 8)
# expect: layer.kernel.shape: (5, 8)
# expect: h.shape: (5, 8, 5, 8)
import tensorflow as tf

x = tf.random.normal([7, 5])
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)

with tf.GradientTape() as t2:
  with tf.GradientTape() as t1:
    x = layer1(x)
    x = layer2(x)
    loss = tf.reduce_mean(x**2)

  g = t1.gradient(loss, layer1.kernel)

h = t2.jacobian(g, layer1.kernel)

print(f'layer.kernel.shape: {layer1.kernel.shape}')
print(f'h.shape: {h.shape}')
