# source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (cells 173-177, "Custom Layers": MyMultiLayer)
# topic: Keras Layer subclass taking a tuple (X1, X2 = X), called on symbolic Inputs (functional API) and on NumPy float64 arrays; Python print inside call
# mode: eager
# tf-answer: the print shows (None, 2) shapes on the symbolic call and (2, 2) on the real call; outputs X1+X2, X1*X2, X1/X2 cast to float32 (notebook output)
# changed: `import numpy as np` and `import tensorflow as tf` from the notebook's setup cells added; the real call's displayed tuple is wrapped in print() (the symbolic call's display, KerasTensor reprs, is not printed).
# expect: X1.shape:  (None, 2)  X2.shape:  (None, 2)
# expect: X1.shape:  (2, 2)  X2.shape:  (2, 2)
# expect: (<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
# expect: array([[ 9., 18.],
# expect:        [ 6., 10.]], dtype=float32)>, <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
# expect: array([[18., 72.],
# expect:        [ 8., 21.]], dtype=float32)>, <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
# expect: array([[0.5      , 0.5      ],
# expect:        [0.5      , 2.3333333]], dtype=float32)>)
import numpy as np
import tensorflow as tf

class MyMultiLayer(tf.keras.layers.Layer):
    def call(self, X):
        X1, X2 = X
        print("X1.shape: ", X1.shape ," X2.shape: ", X2.shape)  # extra code
        return X1 + X2, X1 * X2, X1 / X2

# extra code – tests MyMultiLayer with symbolic inputs
inputs1 = tf.keras.layers.Input(shape=[2])
inputs2 = tf.keras.layers.Input(shape=[2])
MyMultiLayer()((inputs1, inputs2))

# extra code – tests MyMultiLayer with actual data 
X1, X2 = np.array([[3., 6.], [2., 7.]]), np.array([[6., 12.], [4., 3.]]) 
print(MyMultiLayer()((X1, X2)))
