# source: https://github.com/tensorflow/tensorflow/issues/46518 "Very slow tf.TensorArray and a possible bug when used with range()" (maintainer comment by mdanatg)
# topic: Python list + range (unrolled at trace time) vs TensorArray + tf.range (a graph loop) inside tf.function
# mode: tf.function
# tf-answer: both return [0 1 2] for n = 3
# changed: the comment only defines the two functions; the two calls with n = 3 and their prints are added to show the result.
# expect: tf.Tensor([0 1 2], shape=(3,), dtype=int32)
# expect: tf.Tensor([0 1 2], shape=(3,), dtype=int32)
import tensorflow as tf

@tf.function
def list_appends_tff(n):
    l = []
    for i in range(n):
        l.append(i)
    return tf.stack(l)

@tf.function
def t_array_tff_tfr(n):
    t = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        t = t.write(i, i)
    return t.stack()

print(list_appends_tff(3))
print(t_array_tff_tfr(3))
