# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter2-3.md (section 2, "Calculate minimal value in Autograph")
# topic: the whole 1000-step training loop inside @tf.function with `for _ in tf.range(1000)`, tape and apply_gradients in the loop body
# mode: tf.function
# tf-answer: 0 then 0.999998569 (tutorial output, TF 2.1)
# expect: 0
# expect: 0.999998569
import tensorflow as tf

# Calculate minimal value in Autograph
# Use optimizer.apply_gradients

x = tf.Variable(0.0,name = "x",dtype = tf.float32)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

@tf.function
def minimizef():
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)
    
    for _ in tf.range(1000): #Note that we should use tf.range(1000) instead of range(1000) when using Autograph
        with tf.GradientTape() as tape:
            y = a*tf.pow(x,2) + b*x + c
        dy_dx = tape.gradient(y,x)
        optimizer.apply_gradients(grads_and_vars=[(dy_dx,x)])
        
    y = a*tf.pow(x,2) + b*x + c
    return y

tf.print(minimizef())
tf.print(x)
