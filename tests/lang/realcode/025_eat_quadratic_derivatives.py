# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter2-3.md (section 1, "Calculate the Derivative Using the Gradient Tape")
# topic: derivative of a*x**2 + b*x + c; tape.watch on a list of constants; nested tapes for the second derivative
# mode: eager
# tf-answer: dy/dx = -2.0 at x = 0; dy/da = 0.0, dy/dc = 1.0; d2y/dx2 = 2.0 (tutorial output)
# changed: the tutorial's separate code blocks are joined.
# expect: tf.Tensor(-2.0, shape=(), dtype=float32)
# expect: tf.Tensor(0.0, shape=(), dtype=float32)
# expect: tf.Tensor(1.0, shape=(), dtype=float32)
# expect: tf.Tensor(2.0, shape=(), dtype=float32)
import tensorflow as tf
import numpy as np 

# Calculate the derivative of f(x) = a*x**2 + b*x + c

x = tf.Variable(0.0,name = "x",dtype = tf.float32)
a = tf.constant(1.0)
b = tf.constant(-2.0)
c = tf.constant(1.0)

with tf.GradientTape() as tape:
    y = a*tf.pow(x,2) + b*x + c
    
dy_dx = tape.gradient(y,x)
print(dy_dx)

# Use watch to calculate derivatives of the constant tensor

with tf.GradientTape() as tape:
    tape.watch([a,b,c])
    y = a*tf.pow(x,2) + b*x + c
    
dy_dx,dy_da,dy_db,dy_dc = tape.gradient(y,[x,a,b,c])
print(dy_da)
print(dy_dc)

# Calculate the second order derivative
with tf.GradientTape() as tape2:
    with tf.GradientTape() as tape1:   
        y = a*tf.pow(x,2) + b*x + c
    dy_dx = tape1.gradient(y,x)   
dy2_dx2 = tape2.gradient(dy_dx,x)

print(dy2_dx2)
