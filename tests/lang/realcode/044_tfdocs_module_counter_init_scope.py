# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Changing Python global and free variables", the two `class Model(tf.Module)` cells); rendered at https://www.tensorflow.org/guide/function
# topic: tf.Module subclass whose __call__ is a tf.function with a Python counter: the Python if is decided at trace time; tf.init_scope lifts the update out
# mode: tf.function
# tf-answer: 1, 2, 3 for the first class (per the guide's comment "prints 1, 2, 3"); 1, 1, 1 with tf.init_scope ("prints 1, 1, 1")
# expect: 1
# expect: 2
# expect: 3
# expect: 1
# expect: 1
# expect: 1
import tensorflow as tf

class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    if self.counter == 0:
      # A python side-effect
      self.counter += 1
      self.v.assign_add(1)

    return self.v

m = Model()
for n in range(3):
  print(m().numpy()) # prints 1, 2, 3

class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    if self.counter == 0:
      # Lifts ops out of function-building graphs
      with tf.init_scope():
        self.counter += 1
        self.v.assign_add(1)

    return self.v

m = Model()
for n in range(3):
  print(m().numpy()) # prints 1, 1, 1
