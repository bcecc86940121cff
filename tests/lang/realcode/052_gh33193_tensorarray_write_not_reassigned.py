# source: https://github.com/tensorflow/tensorflow/issues/33193 "AutoGraph returns an empty array when I use a for-loop and TensorArray"
# topic: TensorArray.write without `b = b.write(...)`: works eagerly (the issue says "works without the decorator"), returns empty strings under tf.function; numpy array indexed by a tensor in a tf.range loop
# mode: tf.function
# tf-answer: tf.Tensor([b'' b'' b'' b''], shape=(4,), dtype=string) (reported, TF 2.0; the maintainer's fix reassigns b = b.write(...)). Without @tf.function it prints [b'test' b'fuzz' b'buzz' b''].
# changed: imports added (the snippet starts at `a = np.array(...)`).
# expect: tf.Tensor([b'' b'' b'' b''], shape=(4,), dtype=string)
import tensorflow as tf
import numpy as np

a = np.array([1, 2, 3], np.int32)

@tf.function  # works without the decorator
def foo(a):
  b = tf.TensorArray(tf.string, 4)
  b.write(0, "test")
  for i in tf.range(3):
    if a[i] == 2:
      b.write(i, "fuzz")
    elif a[i] == 3:
      b.write(i, "buzz")
  return b.stack()

print(foo(a))
