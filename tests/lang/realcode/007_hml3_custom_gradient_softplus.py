# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (cells 123, 213-219)
# topic: inf/nan gradients from sqrt and log(1+exp) and the @tf.custom_gradient fix
# mode: eager
# tf-answer: d sqrt(x)/dx at 1e-50 is inf; log(exp(30)+1) = 30.0; naive softplus gradient at 1e30 is nan; the custom-gradient softplus gives value 1000 and gradient 1 at x=1000
# changed: notebook cells joined (my_softplus from cell 123 first); the values the notebook displays are wrapped in print().
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=inf>]
# expect: tf.Tensor(30.0, shape=(), dtype=float32)
# expect: [<tf.Tensor: shape=(1,), dtype=float32, numpy=array([nan], dtype=float32)>]
# expect: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1000.], dtype=float32)>, [<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>])
import tensorflow as tf

def my_softplus(z):
    return tf.math.log(1.0 + tf.exp(z))

x = tf.Variable(1e-50)
with tf.GradientTape() as tape:
    z = tf.sqrt(x)

print(tape.gradient(z, [x]))

print(tf.math.log(tf.exp(tf.constant(30., dtype=tf.float32)) + 1.))

x = tf.Variable([1.0e30])
with tf.GradientTape() as tape:
    z = my_softplus(x)

print(tape.gradient(z, [x]))

def my_softplus(z):
    return tf.math.log(1 + tf.exp(-tf.abs(z))) + tf.maximum(0., z)

@tf.custom_gradient
def my_softplus(z):
    def my_softplus_gradients(grads):  # grads = backprop'ed from upper layers
        return grads * (1 - 1 / (1 + tf.exp(z)))  # stable grads of softplus

    result = tf.math.log(1 + tf.exp(-tf.abs(z))) + tf.maximum(0., z)
    return result, my_softplus_gradients

# extra code – shows that the function is now stable, as well as its gradients
x = tf.Variable([1000.])
with tf.GradientTape() as tape:
    z = my_softplus(x)

print((z, tape.gradient(z, [x])))
