# source: https://neveropen.tech/python-tensorflow-gradienttape-batch-jacobian "Python – tensorflow.GradientTape.batch_jacobian()" (Example 1)
# topic: batch_jacobian of an elementwise cube: per-example diagonal 3x^2
# mode: eager
# tf-answer: [[[48, 0], [0, 12]], [[3, 0], [0, 27]]] with shape (2, 2, 2) (page output)
# expect: res:  tf.Tensor(
# expect: [[[48.  0.]
# expect:   [ 0. 12.]]
# expect:
# expect:  [[ 3.  0.]
# expect:   [ 0. 27.]]], shape=(2, 2, 2), dtype=float32)
# Importing the library
import tensorflow as tf
  
x = tf.constant([[4, 2],[1, 3]], dtype=tf.dtypes.float32)
  
# Using GradientTape
with tf.GradientTape() as gfg:
  gfg.watch(x)
  y = x * x * x
  
# Computing jacobian
res  = gfg.batch_jacobian(y, x) 
  
# Printing result
print("res: ",res)
