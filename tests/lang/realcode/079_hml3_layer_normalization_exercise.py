# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (exercise 12, cells 312-319: a custom LayerNormalization layer)
# topic: Layer subclass with build(batch_input_shape) and add_weight(initializer="ones"/"zeros"), tf.nn.moments with keepdims, get_config with {**base_config}; set_weights with NumPy arrays; compare against keras.layers.LayerNormalization
# mode: eager
# tf-answer: the mean absolute difference is tiny (notebook: 3.9782837e-08, then 1.764704e-08 with random alpha/beta); the exact value depends on the data
# changed: X_train (California housing, 8 features) is replaced by random NumPy data of shape (64, 8); the displayed reduce_mean values are wrapped in print().
# expect-re: tf\.Tensor\((\d\.\d+e-0\d|0\.0), shape=\(\), dtype=float32\)
# expect-re: tf\.Tensor\((\d\.\d+e-0\d|0\.0), shape=\(\), dtype=float32\)
import numpy as np
import tensorflow as tf

X_train = np.random.randn(64, 8) * 3.0 + 1.0

class LayerNormalization(tf.keras.layers.Layer):
    def __init__(self, eps=0.001, **kwargs):
        super().__init__(**kwargs)
        self.eps = eps

    def build(self, batch_input_shape):
        self.alpha = self.add_weight(
            name="alpha", shape=batch_input_shape[-1:],
            initializer="ones")
        self.beta = self.add_weight(
            name="beta", shape=batch_input_shape[-1:],
            initializer="zeros")

    def call(self, X):
        mean, variance = tf.nn.moments(X, axes=-1, keepdims=True)
        return self.alpha * (X - mean) / (tf.sqrt(variance + self.eps)) + self.beta

    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "eps": self.eps}

X = X_train.astype(np.float32)

custom_layer_norm = LayerNormalization()
keras_layer_norm = tf.keras.layers.LayerNormalization()

print(tf.reduce_mean(tf.keras.losses.MeanAbsoluteError()(
    keras_layer_norm(X), custom_layer_norm(X))))

tf.keras.utils.set_random_seed(42)
random_alpha = np.random.rand(X.shape[-1])
random_beta = np.random.rand(X.shape[-1])

custom_layer_norm.set_weights([random_alpha, random_beta])
keras_layer_norm.set_weights([random_alpha, random_beta])

print(tf.reduce_mean(tf.keras.losses.MeanAbsoluteError()(
    keras_layer_norm(X), custom_layer_norm(X))))
