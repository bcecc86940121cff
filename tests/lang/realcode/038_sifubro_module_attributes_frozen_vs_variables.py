# source: https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 96, 98, 105, 106; TF guide "Better performance with tf.function", "Depending on Python objects")
# topic: tf.Module subclass with Python float attributes captured at trace time; a plain class with tf.Variable attributes updates with assign_add
# mode: tf.function
# tf-answer: 20, 22, 24 with one "Tracing!"; still 24 after bias += 5; with Variables 24 then 29 after assign_add (notebook output)
# changed: import added at the top; the hex(id(...)) display cells are left out.
# expect: Tracing!
# expect: tf.Tensor(20.0, shape=(), dtype=float32)
# expect: tf.Tensor(22.0, shape=(), dtype=float32)
# expect: tf.Tensor(24.0, shape=(), dtype=float32)
# expect: Adding bias!
# expect: tf.Tensor(24.0, shape=(), dtype=float32)
# expect: tf.Tensor(24.0, shape=(), dtype=float32)
# expect: Adding bias!
# expect: tf.Tensor(29.0, shape=(), dtype=float32)
import tensorflow as tf

class SimpleModel(tf.Module):
    def __init__(self):
        # These values are *not* tf.Variables.
        self.bias = 0.
        self.weight = 2.

@tf.function
def evaluate(model, x):
    print('Tracing!')
    return model.weight * x + model.bias

simple_model = SimpleModel()
x = tf.constant(10.)
print(evaluate(simple_model, x))
x = tf.constant(11.)
print(evaluate(simple_model, x))
x = tf.constant(12.)
print(evaluate(simple_model, x))

print("Adding bias!")
simple_model.bias += 5.0
print(evaluate(simple_model, x))  # Didn't change :(

class BetterModel:

  def __init__(self):
    self.bias = tf.Variable(0.)
    self.weight = tf.Variable(2.)

@tf.function
def evaluate(model, x):
  return model.weight * x + model.bias

better_model = BetterModel()
print(evaluate(better_model, x))

print("Adding bias!")
better_model.bias.assign_add(5.0)  # Note: instead of better_model.bias += 5
print(evaluate(better_model, x))  # This works!
