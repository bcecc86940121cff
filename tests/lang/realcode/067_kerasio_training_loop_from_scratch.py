# source: https://github.com/keras-team/keras-io/blob/master/guides/writing_a_custom_training_loop_in_tensorflow.py ("Writing a training loop from scratch in TensorFlow": the first end-to-end loop and the tf.function train_step/test_step loop); rendered at https://keras.io/guides/writing_a_custom_training_loop_in_tensorflow/
# topic: functional Keras model, tf.data from_tensor_slices/shuffle/batch, enumerate over a dataset, GradientTape per batch, optimizer.apply, metrics, @tf.function train_step, f-strings with float(tensor), time.time()
# mode: mixed
# tf-answer: the loop runs; losses/accuracies/timings are random (regex lines); sample counts are fixed
# changed: keras.datasets.mnist.load_data() replaced by random uint8 arrays of the same per-image shape (96 train, 32 test images); the validation split 10000 -> 32 so 64 images train (2 batches of 32); the metrics-only eager loop section between the two loops is left out except the metric objects it creates.
# expect:
# expect: Start of epoch 0
# expect-re: Training loss \(for 1 batch\) at step 0: \d+\.\d{4}
# expect: Seen so far: 32 samples
# expect:
# expect: Start of epoch 1
# expect-re: Training loss \(for 1 batch\) at step 0: \d+\.\d{4}
# expect: Seen so far: 32 samples
# expect:
# expect: Start of epoch 2
# expect-re: Training loss \(for 1 batch\) at step 0: \d+\.\d{4}
# expect: Seen so far: 32 samples
# expect:
# expect: Start of epoch 0
# expect-re: Training loss \(for 1 batch\) at step 0: \d+\.\d{4}
# expect: Seen so far: 32 samples
# expect-re: Training acc over epoch: [01]\.\d{4}
# expect-re: Validation acc: [01]\.\d{4}
# expect-re: Time taken: \d+\.\d\ds
# expect:
# expect: Start of epoch 1
# expect-re: Training loss \(for 1 batch\) at step 0: \d+\.\d{4}
# expect: Seen so far: 32 samples
# expect-re: Training acc over epoch: [01]\.\d{4}
# expect-re: Validation acc: [01]\.\d{4}
# expect-re: Time taken: \d+\.\d\ds
import time
import os

# This guide can only be run with the TensorFlow backend.
os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
import numpy as np


def get_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x1 = keras.layers.Dense(64, activation="relu")(inputs)
    x2 = keras.layers.Dense(64, activation="relu")(x1)
    outputs = keras.layers.Dense(10, name="predictions")(x2)
    model = keras.Model(inputs=inputs, outputs=outputs)
    return model


model = get_model()

# Instantiate an optimizer.
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
# Instantiate a loss function.
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

# Prepare the training dataset.
batch_size = 32
x_train = np.random.randint(0, 256, size=(96, 28, 28)).astype("uint8")
y_train = np.random.randint(0, 10, size=(96,)).astype("uint8")
x_test = np.random.randint(0, 256, size=(32, 28, 28)).astype("uint8")
y_test = np.random.randint(0, 10, size=(32,)).astype("uint8")
x_train = np.reshape(x_train, (-1, 784))
x_test = np.reshape(x_test, (-1, 784))

# Reserve 10,000 samples for validation.
x_val = x_train[-32:]
y_val = y_train[-32:]
x_train = x_train[:-32]
y_train = y_train[:-32]

# Prepare the training dataset.
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(batch_size)

# Prepare the validation dataset.
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
val_dataset = val_dataset.batch(batch_size)

epochs = 3
for epoch in range(epochs):
    print(f"\nStart of epoch {epoch}")

    # Iterate over the batches of the dataset.
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        # Open a GradientTape to record the operations run
        # during the forward pass, which enables auto-differentiation.
        with tf.GradientTape() as tape:
            # Run the forward pass of the layer.
            # The operations that the layer applies
            # to its inputs are going to be recorded
            # on the GradientTape.
            logits = model(x_batch_train, training=True)  # Logits for this minibatch

            # Compute the loss value for this minibatch.
            loss_value = loss_fn(y_batch_train, logits)

        # Use the gradient tape to automatically retrieve
        # the gradients of the trainable variables with respect to the loss.
        grads = tape.gradient(loss_value, model.trainable_weights)

        # Run one step of gradient descent by updating
        # the value of the variables to minimize the loss.
        optimizer.apply(grads, model.trainable_weights)

        # Log every 100 batches.
        if step % 100 == 0:
            print(
                f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}"
            )
            print(f"Seen so far: {(step + 1) * batch_size} samples")

# Get a fresh model
model = get_model()

# Instantiate an optimizer to train the model.
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
# Instantiate a loss function.
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

# Prepare the metrics.
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = keras.metrics.SparseCategoricalAccuracy()


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    train_acc_metric.update_state(y, logits)
    return loss_value


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


epochs = 2
for epoch in range(epochs):
    print(f"\nStart of epoch {epoch}")
    start_time = time.time()

    # Iterate over the batches of the dataset.
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        loss_value = train_step(x_batch_train, y_batch_train)

        # Log every 100 batches.
        if step % 100 == 0:
            print(
                f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}"
            )
            print(f"Seen so far: {(step + 1) * batch_size} samples")

    # Display metrics at the end of each epoch.
    train_acc = train_acc_metric.result()
    print(f"Training acc over epoch: {float(train_acc):.4f}")

    # Reset training metrics at the end of each epoch
    train_acc_metric.reset_state()

    # Run a validation loop at the end of each epoch.
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)

    val_acc = val_acc_metric.result()
    val_acc_metric.reset_state()
    print(f"Validation acc: {float(val_acc):.4f}")
    print(f"Time taken: {time.time() - start_time:.2f}s")
