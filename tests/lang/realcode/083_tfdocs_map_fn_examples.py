# source: https://tensorflow.org/api_docs/python/tf/map_fn (docstring examples "Mapping functions with single-Tensor inputs and outputs"); the NumPy squares example as run at https://www.cnblogs.com/luoganttcc/p/16604800.html
# topic: tf.map_fn with lambdas: a per-element tf.range (output rank grows), and squares of a NumPy int64 array
# mode: eager
# tf-answer: [[3, 4, 5], [5, 6, 7], [2, 3, 4]] (int32) and [1, 4, 9, 16, 25, 36] (int64) (docstring/page outputs)
# changed: the two examples' displayed results are wrapped in print().
# expect: tf.Tensor(
# expect: [[3 4 5]
# expect:  [5 6 7]
# expect:  [2 3 4]], shape=(3, 3), dtype=int32)
# expect: tf.Tensor([ 1  4  9 16 25 36], shape=(6,), dtype=int64)
import numpy as np
import tensorflow as tf

print(tf.map_fn(fn=lambda t: tf.range(t, t + 3), elems=tf.constant([3, 5, 2])))

elems = np.array([1, 2, 3, 4, 5, 6])
print(tf.map_fn(lambda x: x * x, elems))
