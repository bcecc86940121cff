# source: https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 93-94; TF guide "Better performance with tf.function", "Depending on Python global and free variables")
# topic: a Python global read inside tf.function is frozen at trace time; passing it as an argument retraces
# mode: tf.function
# tf-answer: Buggy stays 2 after foo = 100; Correct becomes 101 (notebook output)
# changed: import added at the top.
# expect: Buggy: tf.Tensor(2, shape=(), dtype=int32)
# expect: Correct: tf.Tensor(2, shape=(), dtype=int32)
# expect: Updating the value of `foo` to 100!
# expect: Buggy: tf.Tensor(2, shape=(), dtype=int32)
# expect: Correct: tf.Tensor(101, shape=(), dtype=int32)
import tensorflow as tf

@tf.function
def buggy_add():
  return 1 + foo

@tf.function
def recommended_add(foo):
  return 1 + foo

foo = 1
print("Buggy:", buggy_add())
print("Correct:", recommended_add(foo))

print("Updating the value of `foo` to 100!")
foo = 100
print("Buggy:", buggy_add())  # Did not change!
print("Correct:", recommended_add(foo))
