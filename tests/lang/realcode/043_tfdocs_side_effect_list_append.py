# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "Changing Python global and free variables"); run with output in https://github.com/sifubro/tensorflow/blob/master/GRAPHS_TF.FUNCTION.ipynb (cells 77-78)
# topic: appending to an outside Python list from tf.function happens once (at trace time); assert on len()
# mode: tf.function
# tf-answer: "Python side effect" printed once; the assert holds (external_list has one element)
# changed: the notebook's display of external_list is wrapped in print(); its element is the Python int 1.
# expect: Python side effect
# expect: [1]
import tensorflow as tf

external_list = []

@tf.function
def side_effect(x):
  print('Python side effect')
  external_list.append(x)

side_effect(1)
side_effect(1)
side_effect(1)
# The list append only happened once!
assert len(external_list) == 1
print(external_list)
