# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (cells 183-185, "Custom Models": ResidualBlock, ResidualRegressor)
# topic: Layer holding a Python list of Dense layers (list comprehension), Model subclass reusing one block in a Python loop, **kwargs and get_config with dict unpacking; compile/fit/evaluate
# mode: tf.function
# tf-answer: trains (fit runs the model in a tf.function); losses random. Deterministic: 12 trainable variables (hidden1 2 + block1 4 + block2 4 + out 2 -- block1 is reused, not copied), prediction shape (3, 1)
# changed: the California-housing arrays are replaced by random NumPy arrays (64 x 8); fit/evaluate get verbose=0 (progress bars are timing-dependent); model.save (a file write) is left out; a final print of the variable count and a prediction shape is added.
# expect: 12
# expect: (3, 1)
import numpy as np
import tensorflow as tf

X_train_scaled = np.random.randn(64, 8).astype(np.float32)
y_train = np.random.rand(64, 1).astype(np.float32)
X_test_scaled = np.random.randn(64, 8).astype(np.float32)
y_test = np.random.rand(64, 1).astype(np.float32)

class ResidualBlock(tf.keras.layers.Layer):
    def __init__(self, n_layers, n_neurons, **kwargs):
        super().__init__(**kwargs)
        self.hidden = [tf.keras.layers.Dense(n_neurons, activation="relu",
                                             kernel_initializer="he_normal")
                       for _ in range(n_layers)]

    def call(self, inputs):
        Z = inputs
        for layer in self.hidden:
            Z = layer(Z)
        return inputs + Z

class ResidualRegressor(tf.keras.Model):
    def __init__(self, output_dim, **kwargs):
        super().__init__(**kwargs)
        self.output_dim = output_dim
        self.hidden1 = tf.keras.layers.Dense(30, activation="relu",
                                             kernel_initializer="he_normal")
        self.block1 = ResidualBlock(2, 30)
        self.block2 = ResidualBlock(2, 30)
        self.out = tf.keras.layers.Dense(output_dim)

    def call(self, inputs):
        Z = self.hidden1(inputs)
        for _ in range(1 + 3):
            Z = self.block1(Z)
        Z = self.block2(Z)
        return self.out(Z)

    # extra code - to be able to save and load the model below
    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "output_dim": self.output_dim}

# extra code – shows that the model can be used normally
tf.keras.utils.set_random_seed(42)
model = ResidualRegressor(1)
model.compile(loss="mse", optimizer="nadam")
history = model.fit(X_train_scaled, y_train, epochs=2, verbose=0)
score = model.evaluate(X_test_scaled, y_test, verbose=0)
print(len(model.trainable_variables))
print(model(X_test_scaled[:3]).shape)
