# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Controlling retracing", "Pass tensors instead of python literals"); rendered at https://www.tensorflow.org/guide/function
# topic: a Python int argument retraces per value, a tensor argument traces once; print vs tf.print; tf.range loop calling a Python no-op
# mode: tf.function
# tf-answer: two traces for num_steps=10 and 20; one trace (printing the symbolic tensor) for the two tensor calls; tf.print runs every call
# derivation: print("a", x) separates with one space, and the literal already ends with a space, hence two spaces before the value
# expect: Retracing occurs for different Python arguments.
# expect: Tracing with num_steps =  10
# expect: Executing with num_steps =  10
# expect: Tracing with num_steps =  20
# expect: Executing with num_steps =  20
# expect:
# expect: Traces are reused for Tensor arguments.
# expect: Tracing with num_steps =  Tensor("num_steps:0", shape=(), dtype=int32)
# expect: Executing with num_steps =  10
# expect: Executing with num_steps =  20
import tensorflow as tf

def train_one_step():
  pass

@tf.function
def train(num_steps):
  print("Tracing with num_steps = ", num_steps)
  tf.print("Executing with num_steps = ", num_steps)
  for _ in tf.range(num_steps):
    train_one_step()

print("Retracing occurs for different Python arguments.")
train(num_steps=10)
train(num_steps=20)

print()
print("Traces are reused for Tensor arguments.")
train(num_steps=tf.constant(10))
train(num_steps=tf.constant(20))
