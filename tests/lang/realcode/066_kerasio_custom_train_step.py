# source: https://github.com/keras-team/keras-io/blob/master/guides/custom_train_step_in_tensorflow.py ("Customizing what happens in fit() with TensorFlow", "A first simple example"); rendered at https://keras.io/guides/custom_train_step_in_tensorflow/
# topic: keras.Model subclass overriding train_step with a GradientTape, self.compute_loss, self.optimizer.apply, metric loop; functional inputs/outputs passed to the subclass; fit on NumPy arrays
# mode: tf.function
# tf-answer: training runs (fit wraps train_step in a tf.function); the model's two trainable variables are the Dense kernel (32, 1) and bias (1,)
# changed: 1000 samples -> 64 and epochs 3 -> 1; fit(..., verbose=0) so the progress bar (timings, random losses) is not printed; a final print of the trainable variables' shapes is added.
# expect: [(32, 1), (1,)]
import os

# This guide can only be run with the TF backend.
os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
from keras import layers
import numpy as np


class CustomModel(keras.Model):
    def train_step(self, data):
        # Unpack the data. Its structure depends on your model and
        # on what you pass to `fit()`.
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute the loss value
            # (the loss function is configured in `compile()`)
            loss = self.compute_loss(y=y, y_pred=y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply(gradients, trainable_vars)

        # Update metrics (includes the metric that tracks the loss)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)

        # Return a dict mapping metric names to current value
        return {m.name: m.result() for m in self.metrics}


# Construct and compile an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
model.compile(optimizer="adam", loss="mse", metrics=["mae"])

# Just use `fit` as usual
x = np.random.random((64, 32))
y = np.random.random((64, 1))
model.fit(x, y, epochs=1, verbose=0)
print([v.shape for v in model.trainable_variables])
