# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/intro_to_modules.ipynb ("Introduction to modules, layers, and models", "Defining models and layers in TensorFlow"); rendered at https://www.tensorflow.org/guide/intro_to_modules
# topic: tf.Module subclass with a trainable and a non-trainable Variable; trainable_variables vs variables; the Module is callable
# mode: eager
# tf-answer: 5*5 + 5 = 30; trainable_variables holds only train_me, variables holds both (attribute-name order: a_variable, non_trainable_variable)
# changed: the guide's `import keras`, datetime and %load_ext tensorboard lines are left out; the module call the guide displays is wrapped in print().
# expect: tf.Tensor(30.0, shape=(), dtype=float32)
# expect: trainable variables: (<tf.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>,)
# expect: all variables: (<tf.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>, <tf.Variable 'do_not_train_me:0' shape=() dtype=float32, numpy=5.0>)
import tensorflow as tf

class SimpleModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.a_variable = tf.Variable(5.0, name="train_me")
    self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")
  def __call__(self, x):
    return self.a_variable * x + self.non_trainable_variable

simple_module = SimpleModule(name="simple")

print(simple_module(tf.constant(5.0)))

# All trainable variables
print("trainable variables:", simple_module.trainable_variables)
# Every variable
print("all variables:", simple_module.variables)
