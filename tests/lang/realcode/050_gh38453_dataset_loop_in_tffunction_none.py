# source: https://github.com/tensorflow/tensorflow/issues/38453 "Gradient not registered in autograph mode with tf.data.Dataset loop"
# topic: why is my gradient None: a for loop over a tf.data.Dataset inside tf.function becomes a dataset reduce, which stops gradients; the same loop eagerly gives 6
# mode: mixed
# tf-answer: 6.0 for the eager function, None for the tf.function (reported in TF 2.1, issue labelled up to TF 2.12; the autodiff guide documents that tf.data iterators stop gradients)
# changed: the issue text is cut at the second print; its comment "# prints None" is restored from the description ("propagates None").
# expect: tf.Tensor(6.0, shape=(), dtype=float32)
# expect: None
import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices([2., 3.])

def fun(x):
    for data in dataset:
        x = x * data
    return x

decorated_fun = tf.function(fun)

a = tf.constant(1.)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(a)
    b = fun(a)
    c = decorated_fun(a)
print(tape.gradient(b, a)) # prints 6. as expected
print(tape.gradient(c, a)) # prints None
