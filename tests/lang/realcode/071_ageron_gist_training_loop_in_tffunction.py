# source: https://gist.github.com/ageron/12eeb990192205b04f7c65820bf4a885 "Test of a custom training loop"
# topic: a whole training loop over a tf.data dataset inside @tf.function, calling a plain Python step function with a tape and apply_gradients; Sequential model; float64 NumPy data
# mode: tf.function
# tf-answer: runs without error (the gist's point: the loop works inside tf.function); nothing is printed by the gist
# changed: 1000 samples -> 64 and repeat(5) -> repeat(2); a final print of the Dense kernel's shape is added to show the run finished.
# expect: (5, 1)
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.models.Sequential([keras.layers.Dense(1, input_shape=[5])])
optimizer = keras.optimizers.SGD()

def step(model, optimizer, X_batch, y_batch):
    with tf.GradientTape() as tape:
        y_pred = model(X_batch)
    grads = tape.gradient(y_pred, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))

@tf.function
def train(model, optimizer, dataset):
    for X_batch, y_batch in dataset:
        step(model, optimizer, X_batch, y_batch)

X = np.random.rand(64, 5)
y = np.random.rand(64, 1)
dataset = tf.data.Dataset.from_tensor_slices((X, y)).batch(32).repeat(2)
train(model, optimizer, dataset)
print(model.layers[0].kernel.shape)
