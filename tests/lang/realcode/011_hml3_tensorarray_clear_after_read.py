# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (section "Tensor Arrays", cells 80-83)
# topic: eager TensorArray: read() zeroes the slot unless clear_after_read=False; dynamic_size
# mode: eager
# tf-answer: stack() after read(1) shows row 1 as zeros; with clear_after_read=False it keeps [3, 10]; the dynamic-size array behaves like the first
# changed: the stacked arrays the notebook displays are wrapped in print().
# expect: tf.Tensor(
# expect: [[1. 2.]
# expect:  [0. 0.]
# expect:  [5. 7.]], shape=(3, 2), dtype=float32)
# expect: tf.Tensor(
# expect: [[ 1.  2.]
# expect:  [ 3. 10.]
# expect:  [ 5.  7.]], shape=(3, 2), dtype=float32)
# expect: tf.Tensor(
# expect: [[1. 2.]
# expect:  [0. 0.]
# expect:  [5. 7.]], shape=(3, 2), dtype=float32)
import tensorflow as tf

array = tf.TensorArray(dtype=tf.float32, size=3)
array = array.write(0, tf.constant([1., 2.]))
array = array.write(1, tf.constant([3., 10.]))
array = array.write(2, tf.constant([5., 7.]))
tensor1 = array.read(1)  # returns (and zeros out!) tf.constant([3., 10.])
print(array.stack())

# extra code – shows how to disable clear_after_read
array2 = tf.TensorArray(dtype=tf.float32, size=3, clear_after_read=False)
array2 = array2.write(0, tf.constant([1., 2.]))
array2 = array2.write(1, tf.constant([3., 10.]))
array2 = array2.write(2, tf.constant([5., 7.]))
tensor2 = array2.read(1)  # returns tf.constant([3., 10.])
print(array2.stack())

# extra code – shows how to create and use a tensor array with a dynamic size
array3 = tf.TensorArray(dtype=tf.float32, size=0, dynamic_size=True)
array3 = array3.write(0, tf.constant([1., 2.]))
array3 = array3.write(1, tf.constant([3., 10.]))
array3 = array3.write(2, tf.constant([5., 7.]))
tensor3 = array3.read(1)
print(array3.stack())
