# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (cells 191-192, "Losses Based on Model Internals")
# topic: Model subclass that creates a layer in build() from the input shape, keeps a Python list of Dense layers, and calls self.add_loss inside call; compile/fit/predict
# mode: tf.function
# tf-answer: trains with the reconstruction loss added (losses random); predictions have shape (64, 1)
# changed: X_train_scaled/X_test_scaled (California housing) replaced by random NumPy arrays of 64 x 8; epochs 5 -> 2; fit/predict get verbose=0 (progress bars are timing-dependent); a final print of y_pred.shape is added.
# expect: (64, 1)
import numpy as np
import tensorflow as tf

X_train_scaled = np.random.randn(64, 8).astype(np.float32)
y_train = np.random.rand(64, 1).astype(np.float32)
X_test_scaled = np.random.randn(64, 8).astype(np.float32)

class ReconstructingRegressor(tf.keras.Model):
    def __init__(self, output_dim, **kwargs):
        super().__init__(**kwargs)
        self.hidden = [tf.keras.layers.Dense(30, activation="relu",
                                             kernel_initializer="he_normal")
                       for _ in range(5)]
        self.out = tf.keras.layers.Dense(output_dim)

    def build(self, batch_input_shape):
        n_inputs = batch_input_shape[-1]
        self.reconstruct = tf.keras.layers.Dense(n_inputs)

    def call(self, inputs, training=None):
        Z = inputs
        for layer in self.hidden:
            Z = layer(Z)
        reconstruction = self.reconstruct(Z)
        recon_loss = tf.reduce_mean(tf.square(reconstruction - inputs))
        self.add_loss(0.05 * recon_loss)
        return self.out(Z)

# extra code
tf.keras.utils.set_random_seed(42)
model = ReconstructingRegressor(1)
model.compile(loss="mse", optimizer="nadam")
history = model.fit(X_train_scaled, y_train, epochs=2, verbose=0)
y_pred = model.predict(X_test_scaled, verbose=0)
print(y_pred.shape)
