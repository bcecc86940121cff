# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter4-3.md (rule 2.2, "Avoid defining tf.Variable inside the decorator @tf.function")
# topic: a global tf.Variable updated with assign_add inside tf.function; the variant that creates the Variable inside is defined but its calls are commented out, as written
# mode: tf.function
# tf-answer: 2 then 3. (Uncommenting inner_var() raises ValueError: tf.function-decorated function tried to create variables on non-first call -- see 038.)
# expect: 2
# expect: 3
import numpy as np
import tensorflow as tf

# Avoid defining tf.Variable inside the decorator @tf.function.

x = tf.Variable(1.0,dtype=tf.float32)
@tf.function
def outer_var():
    x.assign_add(1.0)
    tf.print(x)
    return(x)

outer_var() 
outer_var()

@tf.function
def inner_var():
    x = tf.Variable(1.0,dtype = tf.float32)
    x.assign_add(1.0)
    tf.print(x)
    return(x)

# Error after execution
#inner_var()
#inner_var()
