# source: https://github.com/tensorflow/tensorflow/issues/56968 "tape.gradient is returning none"
# topic: why is my gradient None: target is a constant unrelated to the (unwatched) source; gradient() called inside the `with` block
# mode: eager
# tf-answer: grads is None (reported; the maintainer's answer: the target does not depend on the source)
# derivation: print("grads: ", None) separates the two arguments with a space, so two spaces
# expect: grads:  None
import tensorflow as tf
ones = tf.ones([ 1, 128, 128, 1], tf.float32)
with tf.GradientTape() as tape:

    
    class_channel = tf.constant([4.4328732],  dtype=tf.float32)
    grads = tape.gradient(class_channel, ones)

    print("grads: ",grads)
