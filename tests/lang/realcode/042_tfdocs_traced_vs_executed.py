# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Executing Python side effects"); rendered at https://www.tensorflow.org/guide/function
# topic: print runs at trace time only, tf.print at every execution; same Python value reuses the trace
# mode: tf.function
# tf-answer: Traced/Executed for 1, Executed for the repeated 1, Traced/Executed for 2
# expect: Traced with 1
# expect: Executed with 1
# expect: Executed with 1
# expect: Traced with 2
# expect: Executed with 2
import tensorflow as tf

@tf.function
def f(x):
  print("Traced with", x)
  tf.print("Executed with", x)

f(1)
f(1)
f(2)
