# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "AutoGraph transformations", "Accumulating values in a loop"); rendered at https://www.tensorflow.org/guide/function
# topic: TensorArray written in a tf.range loop inside tf.function, a Python function passed as an argument, transpose to [time, batch, features] and back
# mode: tf.function
# tf-answer: result shape (2, 3, 4); each step adds the input to the running state, so the result is the cumulative sum over time
# changed: the guide displays the returned tensor (random values); a final print of its shape is added instead.
# expect: (2, 3, 4)
import tensorflow as tf

batch_size = 2
seq_len = 3
feature_size = 4

def rnn_step(inp, state):
  return inp + state

@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
  # [batch, time, features] -> [time, batch, features]
  input_data = tf.transpose(input_data, [1, 0, 2])
  max_seq_len = input_data.shape[0]

  states = tf.TensorArray(tf.float32, size=max_seq_len)
  state = initial_state
  for i in tf.range(max_seq_len):
    state = rnn_step(input_data[i], state)
    states = states.write(i, state)
  return tf.transpose(states.stack(), [1, 0, 2])

print(dynamic_rnn(rnn_step,
            tf.random.uniform([batch_size, seq_len, feature_size]),
            tf.zeros([batch_size, feature_size])).shape)
