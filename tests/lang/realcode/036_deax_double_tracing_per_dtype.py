# source: https://github.com/deaxparadox/ArtOfAI/blob/main/code/tensorflowl/tf-function.ipynb (cells 12-15; a 2025 run of the TF guide "Better performance with tf.function", "Rules of tracing")
# topic: one trace per input dtype; print of a symbolic tensor during tracing; string tensors
# mode: tf.function
# tf-answer: a "Tracing with Tensor("a:0", ...)" line for int32, float32 and string, none for the second string call (notebook output)
# changed: the notebook's `import contextlib, traceback` helper cells are left out.
# expect: Tracing with Tensor("a:0", shape=(), dtype=int32)
# expect: tf.Tensor(2, shape=(), dtype=int32)
# expect:
# expect: Tracing with Tensor("a:0", shape=(), dtype=float32)
# expect: tf.Tensor(2.2, shape=(), dtype=float32)
# expect:
# expect: Tracing with Tensor("a:0", shape=(), dtype=string)
# expect: tf.Tensor(b'aa', shape=(), dtype=string)
# expect:
# expect: tf.Tensor(b'bb', shape=(), dtype=string)
import tensorflow as tf

@tf.function
def double(a):
    print("Tracing with", a)
    return a + a

print(double(tf.constant(1)))
print()
print(double(tf.constant(1.1)))
print()
print(double(tf.constant('a')))
print()

# This doesn't print 'Tracing with ...'
print(double(tf.constant("b")))
