# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Creating tf.Variables", the Count module); rendered at https://www.tensorflow.org/guide/function
# topic: the allowed pattern: a tf.Module creates its Variable lazily on the first call of its tf.function __call__, guarded by `is None`
# mode: tf.function
# tf-answer: 1 then 2
# expect: tf.Tensor(1, shape=(), dtype=int32)
# expect: tf.Tensor(2, shape=(), dtype=int32)
import tensorflow as tf

class Count(tf.Module):
  def __init__(self):
    self.count = None

  @tf.function
  def __call__(self):
    if self.count is None:
      self.count = tf.Variable(0)
    return self.count.assign_add(1)

c = Count()
print(c())
print(c())
