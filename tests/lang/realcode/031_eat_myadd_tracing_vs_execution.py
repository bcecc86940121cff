# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter4-4.md (section 1, "Mechanisms of Autograph")
# topic: when a tf.function traces (Python print) and when it only executes (tf.print in a tf.range loop); string tensors, int tensors and Python strings as arguments
# mode: tf.function
# tf-answer: "tracing" before 0 1 2 on the first call, only 0 1 2 on a same-signature call, "tracing" again for int32 tensors and for every new Python string (tutorial output)
# changed: the tutorial's separate calls are joined in order.
# expect: tracing
# expect: 0
# expect: 1
# expect: 2
# expect: 0
# expect: 1
# expect: 2
# expect: tracing
# expect: 0
# expect: 1
# expect: 2
# expect: tracing
# expect: 0
# expect: 1
# expect: 2
# expect: tracing
# expect: 0
# expect: 1
# expect: 2
import tensorflow as tf
import numpy as np 

@tf.function(autograph=True)
def myadd(a,b):
    for i in tf.range(3):
        tf.print(i)
    c = a+b
    print("tracing")
    return c

myadd(tf.constant("hello"),tf.constant("world"))

myadd(tf.constant("good"),tf.constant("morning"))

myadd(tf.constant(1),tf.constant(2))

myadd("hello","world")
myadd("good","morning")
