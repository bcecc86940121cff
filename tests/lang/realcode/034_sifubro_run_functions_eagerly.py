# source: https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 15-27; TF guide "Introduction to graphs and tf.function", "Executing Python functions eagerly")
# topic: tf.config.run_functions_eagerly(True/False): the Python print runs once when traced, every call when run eagerly
# mode: mixed
# tf-answer: MSE = 20 both ways; "Calculating MSE!" once under tf.function, three times with run_functions_eagerly(True) (notebook output)
# derivation: differences -7, -1, -4, 3, -5 -> squares sum 100, integer mean 20
# changed: tf.random.uniform([5], maxval=10, dtype=tf.int32) for y_true and y_pred replaced by the values the notebook printed, so the output is deterministic; the displayed get_MSE results are wrapped in print(); import added at the top.
# expect: tf.Tensor([1 3 1 3 4], shape=(5,), dtype=int32)
# expect: tf.Tensor([8 4 5 0 9], shape=(5,), dtype=int32)
# expect: tf.Tensor(20, shape=(), dtype=int32)
# expect: tf.Tensor(20, shape=(), dtype=int32)
# expect: Calculating MSE!
# expect: Calculating MSE!
# expect: Calculating MSE!
# expect: Calculating MSE!
import tensorflow as tf

@tf.function
def get_MSE(y_true, y_pred):
  sq_diff = tf.pow(y_true - y_pred, 2)
  return tf.reduce_mean(sq_diff)

y_true = tf.constant([1, 3, 1, 3, 4])
y_pred = tf.constant([8, 4, 5, 0, 9])
print(y_true)
print(y_pred)

print(get_MSE(y_true, y_pred))

tf.config.run_functions_eagerly(True)

print(get_MSE(y_true, y_pred))

# Don't forget to set it back when you are done.
tf.config.run_functions_eagerly(False)

@tf.function
def get_MSE(y_true, y_pred):
  print("Calculating MSE!")
  sq_diff = tf.pow(y_true - y_pred, 2)
  return tf.reduce_mean(sq_diff)

error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)

# Now, globally set everything to run eagerly to force eager execution.
tf.config.run_functions_eagerly(True)

# Observe what is printed below.
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)

tf.config.run_functions_eagerly(False)
