# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter4-3.md (rule 2.3, "cannot modify ... Python list")
# topic: appending tensors to an outside Python list: eagerly both values land; under tf.function only the symbolic placeholder from the single trace lands
# mode: mixed
# tf-answer: eager: [5.0, 6.0] as eager tensors; tf.function: one symbolic tensor 'x:0' (tutorial output)
# changed: the tutorial's two code blocks (without and with the decorator) are joined in order.
# expect: [<tf.Tensor: shape=(), dtype=float32, numpy=5.0>, <tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
# expect: [<tf.Tensor 'x:0' shape=() dtype=float32>]
import tensorflow as tf

tensor_list = []

#@tf.function # Autograph will result in something unexpected if executing this line
def append_tensor(x):
    tensor_list.append(x)
    return tensor_list

append_tensor(tf.constant(5.0))
append_tensor(tf.constant(6.0))
print(tensor_list)

tensor_list = []

@tf.function # Autograph will result in something unexpected if executing this line
def append_tensor(x):
    tensor_list.append(x)
    return tensor_list

append_tensor(tf.constant(5.0))
append_tensor(tf.constant(6.0))
print(tensor_list)
