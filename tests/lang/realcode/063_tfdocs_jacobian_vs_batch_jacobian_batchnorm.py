# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/advanced_autodiff.ipynb (section "Batch Jacobian", the BatchNormalization cells); rendered at https://www.tensorflow.org/guide/advanced_autodiff
# topic: full jacobian vs batch_jacobian through Keras Dense + BatchNormalization(training=True) layers; persistent tape with watch_accessed_variables=False; f-strings
# mode: eager
# tf-answer: j.shape (7, 6, 7, 5); jb.shape (7, 6, 5) (batch_jacobian runs even though batch norm mixes examples; the guide warns its result is then wrong, not that it fails)
# changed: the plot_as_patches/matplotlib cell between the two is left out.
# expect: j.shape: (7, 6, 7, 5)
# expect: jb.shape: (7, 6, 5)
import tensorflow as tf

x = tf.random.normal([7, 5])

layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
bn = tf.keras.layers.BatchNormalization()
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)

with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
  tape.watch(x)
  y = layer1(x)
  y = bn(y, training=True)
  y = layer2(y)

j = tape.jacobian(y, x)
print(f'j.shape: {j.shape}')

jb = tape.batch_jacobian(y, x)
print(f'jb.shape: {jb.shape}')
