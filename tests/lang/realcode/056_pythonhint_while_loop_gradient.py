# source: https://pythonhint.com/post/1066012494479258/compute-gradients-for-each-time-step-of-tfwhile_loop "Compute gradients for each time step of tf.while_loop"
# topic: tf.while_loop with nested cond/body closures reading x[i], inside a persistent tape in a helper function
# mode: eager
# tf-answer: [1., 1., 1., 1., 1.] (the page: "Running this code will output ... [1., 1., 1., 1., 1.]")
# expect: tf.Tensor([1. 1. 1. 1. 1.], shape=(5,), dtype=float32)
import tensorflow as tf

def compute_grads(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.constant(0, dtype=tf.float32)
        i = tf.constant(0, dtype=tf.int32)

        def condition(y, i):
            return i < 5

        def body(y, i):
            y += x[i]
            return y, i + 1

        final_y, _ = tf.while_loop(condition, body, loop_vars=(y, i))

    grads = tape.gradient(final_y, x)
    return grads


x = tf.constant([1, 2, 3, 4, 5], dtype=tf.float32)
gradients = compute_grads(x)
print(gradients)
