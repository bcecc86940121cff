# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (section "Using Autograph To Capture Control Flow", cells 281-289)
# topic: static Python range loop (unrolled) vs explicit tf.while_loop with lambdas vs tf.range loop inside tf.function
# mode: tf.function
# tf-answer: both calls return 15 (int32)
# changed: the values the notebook displays are wrapped in print(); the get_concrete_function(...).graph.get_operations() cells (graph op listings) are left out.
# expect: tf.Tensor(15, shape=(), dtype=int32)
# expect: tf.Tensor(15, shape=(), dtype=int32)
import tensorflow as tf

@tf.function
def add_10(x):
    for i in range(10):
        x += 1
    return x

print(add_10(tf.constant(5)))

@tf.function
def add_10(x):
    condition = lambda i, x: tf.less(i, 10)
    body = lambda i, x: (tf.add(i, 1), tf.add(x, 1))
    final_i, final_x = tf.while_loop(condition, body, [tf.constant(0), x])
    return final_x

print(add_10(tf.constant(5)))

@tf.function
def add_10(x):
    for i in tf.range(10):
        x = x + 1
    return x
