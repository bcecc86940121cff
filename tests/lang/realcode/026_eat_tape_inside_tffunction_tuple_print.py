# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter2-3.md (section 1, "Use it in the autograph")
# topic: GradientTape inside @tf.function, tf.cast, returning a tuple, tf.print of a tuple
# mode: tf.function
# tf-answer: (-2, 1) at x = 0 and (0, 0) at x = 1 (tutorial output; tf.print formats a tuple in parentheses)
# expect: (-2, 1)
# expect: (0, 0)
import tensorflow as tf

@tf.function
def f(x):   
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)
    
    # Convert the type of the variable to tf.float32
    x = tf.cast(x,tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = a*tf.pow(x,2)+b*x+c
    dy_dx = tape.gradient(y,x) 
    
    return((dy_dx,y))

tf.print(f(tf.constant(0.0)))
tf.print(f(tf.constant(1.0)))
