# source: https://github.com/keras-team/keras-io/blob/master/guides/custom_train_step_in_tensorflow.py ("Customizing what happens in fit() with TensorFlow", "Going lower-level")
# topic: keras.Model subclass with *args/**kwargs __init__, metric and loss objects as attributes, train_step with its own loss, @property metrics so fit resets them; fit on NumPy
# mode: tf.function
# tf-answer: trains (losses random); the model's metrics are the two the property lists
# changed: 1000 samples -> 64 and epochs 5 -> 1; fit(..., verbose=0) (progress bar is timing-dependent); a final print of the metric names is added.
# expect: ['loss', 'mae']
import os

# This guide can only be run with the TF backend.
os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
from keras import layers
import numpy as np


class CustomModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
        self.loss_fn = keras.losses.MeanSquaredError()

    def train_step(self, data):
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute our own loss
            loss = self.loss_fn(y, y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply(gradients, trainable_vars)

        # Compute our own metrics
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {
            "loss": self.loss_tracker.result(),
            "mae": self.mae_metric.result(),
        }

    @property
    def metrics(self):
        # We list our `Metric` objects here so that `reset_states()` can be
        # called automatically at the start of each epoch
        # or at the start of `evaluate()`.
        return [self.loss_tracker, self.mae_metric]


# Construct an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)

# We don't pass a loss or metrics here.
model.compile(optimizer="adam")

# Just use `fit` as usual -- you can use callbacks, etc.
x = np.random.random((64, 32))
y = np.random.random((64, 1))
model.fit(x, y, epochs=1, verbose=0)
print([m.name for m in model.metrics])
