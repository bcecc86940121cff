# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/intro_to_modules.ipynb ("Keras layers": FlexibleDense with build(), the shape-mismatch try/except, and MySequentialModel); rendered at https://www.tensorflow.org/guide/intro_to_modules
# topic: Keras Layer creating tf.Variables in build(input_shape) on first call; a second call with a different input width fails in matmul (caught with try/except tf.errors.InvalidArgumentError); a decorated Model subclass of two such layers
# mode: eager
# tf-answer: a (2, 3) result, then "Failed: ... Matrix size-incompatible: In[0]: [1,4], In[1]: [3,3] ..."; the model returns a (1, 2) result. Values are random (tf.random.normal weights).
# changed: the cells that only display .variables are left out; `import keras` moved up with the other import.
# expect: Model results: tf.Tensor(
# expect-re: \[\[ *-?\d+\.\d* +-?\d+\.\d* +-?\d+\.\d*\]
# expect-re:  \[ *-?\d+\.\d* +-?\d+\.\d* +-?\d+\.\d*\]\], shape=\(2, 3\), dtype=float32\)
# expect-re: Failed: .*Matrix size-incompatible: In\[0\]: \[1,4\], In\[1\]: \[3,3\].*
# expect-re: Model results: tf\.Tensor\(\[\[ *-?\d+\.\d* +-?\d+\.\d*\]\], shape=\(1, 2\), dtype=float32\)
import tensorflow as tf
import keras

class FlexibleDense(tf.keras.layers.Layer):
  # Note the added `**kwargs`, as Keras supports many arguments
  def __init__(self, out_features, **kwargs):
    super().__init__(**kwargs)
    self.out_features = out_features

  def build(self, input_shape):  # Create the state of the layer (weights)
    self.w = tf.Variable(
      tf.random.normal([input_shape[-1], self.out_features]), name='w')
    self.b = tf.Variable(tf.zeros([self.out_features]), name='b')

  def call(self, inputs):  # Defines the computation from inputs to outputs
    return tf.matmul(inputs, self.w) + self.b

# Create the instance of the layer
flexible_dense = FlexibleDense(out_features=3)

# Call it, with predictably random results
print("Model results:", flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])))

try:
  print("Model results:", flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]])))
except tf.errors.InvalidArgumentError as e:
  print("Failed:", e)

@keras.saving.register_keras_serializable()
class MySequentialModel(tf.keras.Model):
  def __init__(self, name=None, **kwargs):
    super().__init__(**kwargs)

    self.dense_1 = FlexibleDense(out_features=3)
    self.dense_2 = FlexibleDense(out_features=2)
  def call(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

# You have made a Keras model!
my_sequential_model = MySequentialModel(name="the_model")

# Call it on a tensor, with random results
print("Model results:", my_sequential_model(tf.constant([[2.0, 2.0, 2.0]])))
