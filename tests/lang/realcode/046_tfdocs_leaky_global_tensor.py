# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Leaking tf.Tensors out of tf.function"); rendered at https://www.tensorflow.org/guide/function
# topic: `global x` assigned a graph tensor inside tf.function; using it outside (x.numpy()) fails; try/except AttributeError
# mode: mixed
# tf-answer: prints 3, then the caught AttributeError's message. Recent TF (2.13+) names the leaked class SymbolicTensor; older TF says 'Tensor' object has no attribute 'numpy'.
# expect: 3
# expect: 'SymbolicTensor' object has no attribute 'numpy'
import tensorflow as tf

x = None

@tf.function
def leaky_function(a):
  global x
  x = a + 1  # Bad - leaks local tensor
  return a + 2

correct_a = leaky_function(tf.constant(1))

print(correct_a.numpy())  # Good - value obtained from function's returns
try:
  x.numpy()  # Bad - tensor leaked from inside the function, cannot be used here
except AttributeError as expected:
  print(expected)
