# source: https://github.com/tensorflow/tensorflow/issues/29504 "tf.function fails to parse for-loop in some circumstances"
# topic: appending loop tensors to a Python list inside `for i in tf.range(n)` under tf.function, then tf.add_n on the list
# mode: mixed
# tf-answer: the tf.function call raises; reported (TF 2.0 beta) as "ValueError: Trying to capture a tensor f[rom an inner function]"; recent TF raises InaccessibleTensorError (a ValueError subclass) "... cannot be accessed here: it is defined in another function or code block". The undecorated version returns tf.Tensor(10, shape=(), dtype=int32) but is never reached, because the failing call comes first as written.
# changed: `import tensorflow as tf` added; the prose lines between the calls are left out.
# expect-error: ValueError:
import tensorflow as tf

@tf.function
def tf_function_with_loop(num_iter):
  digit_list = []
  for i in tf.range(num_iter):
    digit_list.append(i)
  return tf.add_n(digit_list)

tf_function_with_loop(5)

def function_with_loop(num_iter):
  digit_list = []
  for i in tf.range(num_iter):
    digit_list.append(i)
  return tf.add_n(digit_list)

print(function_with_loop(5))  # samething without @tf.function
