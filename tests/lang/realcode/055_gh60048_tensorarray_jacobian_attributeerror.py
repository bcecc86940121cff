# source: https://github.com/tensorflow/tensorflow/issues/60048 "TensorArray throws AttributeError in gradient computation"
# topic: tape.jacobian with a TensorArray (not a tensor) as the target; helper function returning a TensorArray
# mode: eager
# tf-answer: AttributeError: 'TensorArray' object has no attribute 'shape' (reported, TF 2.11 and nightly)
# expect-error: AttributeError: 'TensorArray' object has no attribute 'shape'
import tensorflow as tf

elems = tf.ones(shape=[2])

def init_tensor_array(elems):

    ta = tf.TensorArray(dtype=tf.float32, size=4, dynamic_size=True)
    ta = ta.write(0, elems)
    return ta

ta = init_tensor_array(elems)
with tf.GradientTape() as tape:
    tape.watch(elems)
    t = init_tensor_array(elems)

gradient = tape.jacobian(t, elems)
