# source: https://tensorflow.org/api_docs/python/tf/scan (docstring example, also copied at https://www.cnblogs.com/luoganttcc/p/16604748.html)
# topic: tf.scan with a lambda accumulator over a NumPy int64 array (no initializer: the first element starts the scan)
# mode: eager
# tf-answer: [1, 3, 6, 10, 15, 21] (the docstring's comment), int64 because NumPy's default integer is int64
# changed: the docstring leaves `sum` in a comment; a final print(sum) is added.
# expect: tf.Tensor([ 1  3  6 10 15 21], shape=(6,), dtype=int64)
import tensorflow as tf
import numpy as np
elems = np.array([1, 2, 3, 4, 5, 6])
sum = tf.scan(lambda a, x: a + x, elems)
# sum == [1, 3, 6, 10, 15, 21]
print(sum)
