# source: https://github.com/tensorflow/docs/blob/master/site/en/tutorials/customization/custom_layers.ipynb ("Custom layers": MyDenseLayer and ResnetIdentityBlock); rendered at https://www.tensorflow.org/tutorials/customization/custom_layers
# topic: Layer subclass with add_weight in build (super(Class, self).__init__() style); Model subclass of Conv2D + BatchNormalization with a training= flag and `x += input_tensor`; variable names and counts
# mode: eager
# tf-answer: as the tutorial ran (TF <= 2.15, Keras 2): no GPU on this machine -> []; ['my_dense_layer/kernel:0']; the block has 18 variables (3 conv kernels + 3 conv biases + 3 x 4 batch-norm variables). With Keras 3 (TF >= 2.16) add_weight's first positional parameter is `shape`, so add_weight("kernel", shape=...) raises TypeError (... got multiple values for argument 'shape') when the layer is first called.
# changed: the cells that only display layer objects/variables/summaries are left out; len(block.variables), displayed in the tutorial, is wrapped in print().
# expect: []
# expect: ['my_dense_layer/kernel:0']
# expect: 18
import tensorflow as tf

print(tf.config.list_physical_devices('GPU'))

class MyDenseLayer(tf.keras.layers.Layer):
  def __init__(self, num_outputs):
    super(MyDenseLayer, self).__init__()
    self.num_outputs = num_outputs

  def build(self, input_shape):
    self.kernel = self.add_weight("kernel",
                                  shape=[int(input_shape[-1]),
                                         self.num_outputs])

  def call(self, inputs):
    return tf.matmul(inputs, self.kernel)

layer = MyDenseLayer(10)

_ = layer(tf.zeros([10, 5])) # Calling the layer `.builds` it.

print([var.name for var in layer.trainable_variables])

class ResnetIdentityBlock(tf.keras.Model):
  def __init__(self, kernel_size, filters):
    super(ResnetIdentityBlock, self).__init__(name='')
    filters1, filters2, filters3 = filters

    self.conv2a = tf.keras.layers.Conv2D(filters1, (1, 1))
    self.bn2a = tf.keras.layers.BatchNormalization()

    self.conv2b = tf.keras.layers.Conv2D(filters2, kernel_size, padding='same')
    self.bn2b = tf.keras.layers.BatchNormalization()

    self.conv2c = tf.keras.layers.Conv2D(filters3, (1, 1))
    self.bn2c = tf.keras.layers.BatchNormalization()

  def call(self, input_tensor, training=False):
    x = self.conv2a(input_tensor)
    x = self.bn2a(x, training=training)
    x = tf.nn.relu(x)

    x = self.conv2b(x)
    x = self.bn2b(x, training=training)
    x = tf.nn.relu(x)

    x = self.conv2c(x)
    x = self.bn2c(x, training=training)

    x += input_tensor
    return tf.nn.relu(x)


block = ResnetIdentityBlock(1, [1, 2, 3])

_ = block(tf.zeros([1, 2, 3, 3])) 

print(len(block.variables))
