# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter2-3.md (section 2, "Use optimizer.apply_gradients")
# topic: eager training loop: tape, gradient, optimizer.apply_gradients(grads_and_vars=[(g, x)]), tf.print with several arguments
# mode: eager
# tf-answer: y = 0 ; x = 0.999998569 after 1000 SGD steps with learning rate 0.01 (tutorial output, TF 2.1)
# derivation: x_{k+1} = x_k - 0.01*(2x_k - 2), so 1 - x_k = 0.98^k; 0.98^1000 ~ 1.7e-9, below float32 resolution near 1 -- the tutorial's float32 run stalls at 0.999998569 where the step rounds to zero
# expect: y = 0 ; x = 0.999998569
import tensorflow as tf

# Calculate the minimal value of f(x) = a*x**2 + b*x + c
# Use optimizer.apply_gradients

x = tf.Variable(0.0,name = "x",dtype = tf.float32)
a = tf.constant(1.0)
b = tf.constant(-2.0)
c = tf.constant(1.0)

optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
for _ in range(1000):
    with tf.GradientTape() as tape:
        y = a*tf.pow(x,2) + b*x + c
    dy_dx = tape.gradient(y,x)
    optimizer.apply_gradients(grads_and_vars=[(dy_dx,x)])
    
tf.print("y =",y,"; x =",x)
