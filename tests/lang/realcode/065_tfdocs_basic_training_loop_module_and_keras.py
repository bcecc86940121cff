# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/basic_training_loops.ipynb ("Basic training loops": tf.Module model, train(), training_loop(), then the same loop with a tf.keras.Model subclass); rendered at https://www.tensorflow.org/guide/basic_training_loops
# topic: tf.Module and keras.Model subclasses holding tf.Variables; hand-written SGD with tape.gradient and assign_sub; f-string format specs on tensors; list appends of .numpy() values
# mode: eager
# tf-answer: deterministic once the noise is zero (see changed): W/b/loss per epoch as below, identical for the Module and the Keras model
# derivation: x = linspace(-2, 2, 201), y = 3x + 2, model w = 5, b = 0, lr = 0.1: loss0 = 4*(1 + mean x^2) = 9.386667; the epochs follow w -= 0.1*mean(-2x r), b -= 0.1*mean(-2r) (computed in float32 and float64, same digits)
# changed: noise = tf.random.normal(...) replaced by tf.zeros of the same shape so the numbers are fixed; matplotlib import and plotting lines left out; keras_model.save_weights (a file write) and the compile/fit cells left out.
# expect: Variables: (<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>, <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=5.0>)
# expect-re: Current loss: 9\.38666[67]
# expect: Starting:
# expect:      W = 5.00, b = 0.00, loss=9.38667
# expect: Epoch  0:
# expect:      W = 4.46, b = 0.40, loss=5.43580
# expect: Epoch  1:
# expect:      W = 4.07, b = 0.72, loss=3.17371
# expect: Epoch  2:
# expect:      W = 3.78, b = 0.98, loss=1.86824
# expect: Epoch  3:
# expect:      W = 3.57, b = 1.18, loss=1.10869
# expect: Epoch  4:
# expect:      W = 3.42, b = 1.34, loss=0.66312
# expect: Epoch  5:
# expect:      W = 3.30, b = 1.48, loss=0.39960
# expect: Epoch  6:
# expect:      W = 3.22, b = 1.58, loss=0.24251
# expect: Epoch  7:
# expect:      W = 3.16, b = 1.66, loss=0.14814
# expect: Epoch  8:
# expect:      W = 3.12, b = 1.73, loss=0.09104
# expect: Epoch  9:
# expect:      W = 3.09, b = 1.79, loss=0.05625
# expect: Epoch  0:
# expect:      W = 4.46, b = 0.40, loss=5.43580
# expect: Epoch  1:
# expect:      W = 4.07, b = 0.72, loss=3.17371
# expect: Epoch  2:
# expect:      W = 3.78, b = 0.98, loss=1.86824
# expect: Epoch  3:
# expect:      W = 3.57, b = 1.18, loss=1.10869
# expect: Epoch  4:
# expect:      W = 3.42, b = 1.34, loss=0.66312
# expect: Epoch  5:
# expect:      W = 3.30, b = 1.48, loss=0.39960
# expect: Epoch  6:
# expect:      W = 3.22, b = 1.58, loss=0.24251
# expect: Epoch  7:
# expect:      W = 3.16, b = 1.66, loss=0.14814
# expect: Epoch  8:
# expect:      W = 3.12, b = 1.73, loss=0.09104
# expect: Epoch  9:
# expect:      W = 3.09, b = 1.79, loss=0.05625
import tensorflow as tf

# The actual line
TRUE_W = 3.0
TRUE_B = 2.0

NUM_EXAMPLES = 201

# A vector of random x values
x = tf.linspace(-2,2, NUM_EXAMPLES)
x = tf.cast(x, tf.float32)

def f(x):
  return x * TRUE_W + TRUE_B

# Generate some noise
noise = tf.zeros(shape=[NUM_EXAMPLES])

# Calculate y
y = f(x) + noise

class MyModel(tf.Module):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    # Initialize the weights to `5.0` and the bias to `0.0`
    # In practice, these should be randomly initialized
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def __call__(self, x):
    return self.w * x + self.b

model = MyModel()

# List the variables tf.modules's built-in variable aggregation.
print("Variables:", model.variables)

# Verify the model works
assert model(3.0).numpy() == 15.0

# This computes a single loss value for an entire batch
def loss(target_y, predicted_y):
  return tf.reduce_mean(tf.square(target_y - predicted_y))

print("Current loss: %1.6f" % loss(y, model(x)).numpy())

# Given a callable model, inputs, outputs, and a learning rate...
def train(model, x, y, learning_rate):

  with tf.GradientTape() as t:
    # Trainable variables are automatically tracked by GradientTape
    current_loss = loss(y, model(x))

  # Use GradientTape to calculate the gradients with respect to W and b
  dw, db = t.gradient(current_loss, [model.w, model.b])

  # Subtract the gradient scaled by the learning rate
  model.w.assign_sub(learning_rate * dw)
  model.b.assign_sub(learning_rate * db)

model = MyModel()

# Collect the history of W-values and b-values to plot later
weights = []
biases = []
epochs = range(10)

# Define a training loop
def report(model, loss):
  return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"


def training_loop(model, x, y):

  for epoch in epochs:
    # Update the model with the single giant batch
    train(model, x, y, learning_rate=0.1)

    # Track this before I update
    weights.append(model.w.numpy())
    biases.append(model.b.numpy())
    current_loss = loss(y, model(x))

    print(f"Epoch {epoch:2d}:")
    print("    ", report(model, current_loss))

current_loss = loss(y, model(x))

print(f"Starting:")
print("    ", report(model, current_loss))

training_loop(model, x, y)

class MyModelKeras(tf.keras.Model):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    # Initialize the weights to `5.0` and the bias to `0.0`
    # In practice, these should be randomly initialized
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def call(self, x):
    return self.w * x + self.b

keras_model = MyModelKeras()

# Reuse the training loop with a Keras model
training_loop(keras_model, x, y)
