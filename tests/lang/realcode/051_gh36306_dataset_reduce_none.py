# source: https://github.com/tensorflow/tensorflow/issues/36306 "Gradients do not propagate when iterating over dataset in graph mode"
# topic: why is my gradient None: Dataset.reduce with a lambda that reads a tf.Variable vs a list comprehension over as_numpy_iterator()
# mode: eager
# tf-answer: None for ds.reduce (reported "returns None"); the list-comprehension loss gives the correct gradient -70
# derivation: loss2 = sum_{y=0..9} (y - u)^2, d/du = -2 * sum(y - u) = -2 * (45 - 10) = -70 at u = 1
# changed: `import tensorflow as tf` added (the snippet starts without imports).
# expect: None
# expect: tf.Tensor(-70.0, shape=(), dtype=float32)
import tensorflow as tf

data = tf.range(10, dtype=tf.float32)
ds = tf.data.Dataset.from_tensor_slices(data)
u = tf.Variable(1., dtype=tf.float32)

with tf.GradientTape(persistent=True) as g:
    loss1 = ds.reduce(tf.constant(0.), lambda x, y: x + (y - u) ** 2)
    loss2 = tf.reduce_sum([(y - u) ** 2 for y in ds.as_numpy_iterator()])
print(g.gradient(loss1, u))  # returns None
print(g.gradient(loss2, u))  # returns correct gradient
