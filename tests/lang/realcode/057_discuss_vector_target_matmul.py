# source: https://discuss.tensorflow.org/t/question-about-how-gradients-are-computed/15499 "Question about how gradients are computed"
# topic: gradient of a vector target (x @ w) w.r.t. x: TF returns the gradient of the sum, not the Jacobian the asker expected
# mode: eager
# tf-answer: [[3., 7.]] -- the row sums of w
# derivation: y = [x1 + 3 x2, 2 x1 + 4 x2]; d(y1 + y2)/dx = [1 + 2, 3 + 4] = [3, 7]
# changed: the question computes `grad` without printing it; a final print(grad) is added.
# expect: [<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 7.]], dtype=float32)>]
import numpy as np
import tensorflow as tf
w = tf.Variable( [[1. , 2. ],[ 3., 4.]] , name='w')
x = tf.Variable( [[1., 2.]] , name='x')
with tf.GradientTape(persistent=True) as tape:
    y = x @ w
    loss = y
grad = tape.gradient( loss, [x])
print(grad)
