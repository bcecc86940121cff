# source: https://github.com/ageron/handson-ml2/blob/master/12_custom_models_and_training_with_tensorflow.ipynb (section "Handling Variables and Other Resources in TF Functions", cells 292-299)
# topic: tf.Variable passed in, captured as a global, and held by a class whose method is a tf.function; assign_add with a default argument
# mode: tf.function
# tf-answer: each pair of calls ends at 2
# changed: the value each notebook cell displays (its last call) is wrapped in print(); the function_def.signature cells are left out.
# expect: tf.Tensor(2, shape=(), dtype=int32)
# expect: tf.Tensor(2, shape=(), dtype=int32)
# expect: tf.Tensor(2, shape=(), dtype=int32)
import tensorflow as tf

counter = tf.Variable(0)

@tf.function
def increment(counter, c=1):
    return counter.assign_add(c)

increment(counter)
print(increment(counter))

counter = tf.Variable(0)

@tf.function
def increment(c=1):
    return counter.assign_add(c)

increment()
print(increment())

class Counter:
    def __init__(self):
        self.counter = tf.Variable(0)

    @tf.function
    def increment(self, c=1):
        return self.counter.assign_add(c)

c = Counter()
c.increment()
print(c.increment())
