# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 77)
# topic: why is my gradient None: Variable.assign_add inside the tape; the tape sees x1's new value, not its history
# mode: eager
# tf-answer: dy/dx1 = 10.0 (x1 = 2 + 3 = 5), dy/dx0 = None (notebook output)
# changed: import added at the top.
# expect: tf.Tensor(10.0, shape=(), dtype=float32)
# expect: None
import tensorflow as tf

x0 = tf.Variable(3.0)
x1 = tf.Variable(2.0)

with tf.GradientTape(persistent=True) as tape:
    # Update x1 = x1 + x0.
#     print('Before assign')
#     print([var.name for var in tape.watched_variables()])
    x1.assign_add(x0)
#     print('After assign')
#     print([var.name for var in tape.watched_variables()])
    # The tape starts recording from x1.
    y = x1**2   # y = (x1 + x0)**2

# This doesn't work.
print(tape.gradient(y, x1))
print(tape.gradient(y, x0))   #dy/dx0 = 2*(x1 + x0)
