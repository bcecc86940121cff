# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (cells 211, 214, 225-227)
# topic: nested tapes: first derivatives then second derivatives with a list comprehension; unconnected second derivative is None
# mode: eager
# tf-answer: jacobians [36.0, 10.0]; hessians [[6.0, 2.0], [2.0, None]]
# changed: notebook cells joined; the displayed `jacobians` and `hessians` are wrapped in print().
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=36.0>, <tf.Tensor: shape=(), dtype=float32, numpy=10.0>]
# expect: [[<tf.Tensor: shape=(), dtype=float32, numpy=6.0>, <tf.Tensor: shape=(), dtype=float32, numpy=2.0>], [<tf.Tensor: shape=(), dtype=float32, numpy=2.0>, None]]
import tensorflow as tf

def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2

w1, w2 = tf.Variable(5.), tf.Variable(3.)

with tf.GradientTape(persistent=True) as hessian_tape:
    with tf.GradientTape() as jacobian_tape:
        z = f(w1, w2)
    jacobians = jacobian_tape.gradient(z, [w1, w2])
hessians = [hessian_tape.gradient(jacobian, [w1, w2])
            for jacobian in jacobians]
del hessian_tape

print(jacobians)
print(hessians)
