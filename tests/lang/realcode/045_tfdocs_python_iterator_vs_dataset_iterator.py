# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Using Python iterators and generators"); buggy half run with output in https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 81, 83)
# topic: next() on a Python iterator inside tf.function is frozen at trace time; next() on a tf.data iterator advances every call
# mode: tf.function
# tf-answer: Value: 1 three times for the Python iterator (notebook output); Value: 1, 2, 3 for the tf.data iterator
# expect: Value: 1
# expect: Value: 1
# expect: Value: 1
# expect: Value: 1
# expect: Value: 2
# expect: Value: 3
import tensorflow as tf

@tf.function
def buggy_consume_next(iterator):
  tf.print("Value:", next(iterator))

iterator = iter([1, 2, 3])
buggy_consume_next(iterator)
# This reuses the first value from the iterator, rather than consuming the next value.
buggy_consume_next(iterator)
buggy_consume_next(iterator)

@tf.function
def good_consume_next(iterator):
  # This is ok, iterator is a tf.data.Iterator
  tf.print("Value:", next(iterator))

ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
iterator = iter(ds)
good_consume_next(iterator)
good_consume_next(iterator)
good_consume_next(iterator)
