# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/advanced_autodiff.ipynb (section "Custom gradients"); rendered at https://www.tensorflow.org/guide/advanced_autodiff
# topic: @tf.custom_gradient identity whose backward clips the incoming gradient with tf.clip_by_norm; nested backward function
# mode: eager
# tf-answer: 2.0 (the guide's comment: "calls backward, which clips 4 to 2")
# derivation: d(v*v)/dv = 2v = 4 at v = 2, but the upstream 1.0 is clipped to norm 0.5 first: 0.5 * 4 = 2
# expect: tf.Tensor(2.0, shape=(), dtype=float32)
import tensorflow as tf

# Establish an identity operation, but clip during the gradient pass.
@tf.custom_gradient
def clip_gradients(y):
  def backward(dy):
    return tf.clip_by_norm(dy, 0.5)
  return y, backward

v = tf.Variable(2.0)
with tf.GradientTape() as t:
  output = clip_gradients(v * v)
print(t.gradient(output, v))  # calls "backward", which clips 4 to 2
