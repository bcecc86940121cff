# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (section "Using TF Functions with tf.keras (or Not)", cells 289-302)
# topic: Keras Layer and Model subclasses (build/add_weight/call, concatenate) with Python prints; compile(run_eagerly=True); fit + evaluate call the Python code on every batch
# mode: eager
# tf-answer: with run_eagerly=True and verbose=0, the six "Tracing ..." lines print once per batch: 2 training batches + 2 validation batches + 2 evaluation batches = 6 groups (the notebook's output)
# changed: the California-housing arrays (X_train_scaled etc., 8 features) are replaced by random NumPy arrays of the same width; only the first 64 rows were used, as in the notebook; the traced-fit cells 294-295 are left out. Keras 3 may add one more group for its symbolic build before the first batch -- see the README.
# expect: Tracing MyModel.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing loss my_mse()
# expect: Tracing metric my_mae()
# expect: Tracing MyModel.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing loss my_mse()
# expect: Tracing metric my_mae()
# expect: Tracing MyModel.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing loss my_mse()
# expect: Tracing metric my_mae()
# expect: Tracing MyModel.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing loss my_mse()
# expect: Tracing metric my_mae()
# expect: Tracing MyModel.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing loss my_mse()
# expect: Tracing metric my_mae()
# expect: Tracing MyModel.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing MyDense.call()
# expect: Tracing loss my_mse()
# expect: Tracing metric my_mae()
import numpy as np
import tensorflow as tf

X_train_scaled = np.random.randn(64, 8).astype(np.float32)
y_train = np.random.rand(64, 1).astype(np.float32)
X_valid_scaled = np.random.randn(64, 8).astype(np.float32)
y_valid = np.random.rand(64, 1).astype(np.float32)
X_test_scaled = np.random.randn(64, 8).astype(np.float32)
y_test = np.random.rand(64, 1).astype(np.float32)

# Custom loss function
def my_mse(y_true, y_pred):
    print("Tracing loss my_mse()")
    return tf.reduce_mean(tf.square(y_pred - y_true))

# Custom metric function
def my_mae(y_true, y_pred):
    print("Tracing metric my_mae()")
    return tf.reduce_mean(tf.abs(y_pred - y_true))

# Custom layer
class MyDense(tf.keras.layers.Layer):
    def __init__(self, units, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.activation = tf.keras.activations.get(activation)

    def build(self, input_shape):
        self.kernel = self.add_weight(name='kernel', 
                                      shape=(input_shape[1], self.units),
                                      initializer='uniform',
                                      trainable=True)
        self.biases = self.add_weight(name='bias', 
                                      shape=(self.units,),
                                      initializer='zeros',
                                      trainable=True)

    def call(self, X):
        print("Tracing MyDense.call()")
        return self.activation(X @ self.kernel + self.biases)

tf.keras.utils.set_random_seed(42)

# Custom model
class MyModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden1 = MyDense(30, activation="relu")
        self.hidden2 = MyDense(30, activation="relu")
        self.output_ = MyDense(1)

    def call(self, input):
        print("Tracing MyModel.call()")
        hidden1 = self.hidden1(input)
        hidden2 = self.hidden2(hidden1)
        concat = tf.keras.layers.concatenate([input, hidden2])
        output = self.output_(concat)
        return output

tf.keras.utils.set_random_seed(42)
model = MyModel()
model.compile(loss=my_mse, optimizer="nadam", metrics=[my_mae], run_eagerly=True)
model.fit(X_train_scaled[:64], y_train[:64], epochs=1,
          validation_data=(X_valid_scaled[:64], y_valid[:64]), verbose=0)
model.evaluate(X_test_scaled[:64], y_test[:64], verbose=0)
