# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter4-5.md (section 2, "Packaging Autograph Using tf.Module")
# topic: tf.function with input_signature on a global Variable; tf.Module subclass with name_scope, a Variable made in __init__ and a tf.function method
# mode: tf.function
# tf-answer: add_print prints 4; demo.addprint prints 6; variables and trainable_variables are the same one-element tuple (tutorial output, TF 2.1)
# changed: the tutorial's saved_model/tensorboard cells are left out.
# expect: 4
# expect: 6
# expect: (<tf.Variable 'demo_module/Variable:0' shape=() dtype=float32, numpy=6.0>,)
# expect: (<tf.Variable 'demo_module/Variable:0' shape=() dtype=float32, numpy=6.0>,)
import tensorflow as tf 

x = tf.Variable(1.0,dtype=tf.float32)

# Use input_signature to limit the signature type of the input tensors with shape and dtype inside the decorator tf.function
@tf.function(input_signature=[tf.TensorSpec(shape = [], dtype = tf.float32)])    
def add_print(a):
    x.assign_add(a)
    tf.print(x)
    return(x)

add_print(tf.constant(3.0))
#add_print(tf.constant(3)) # Error: argument inconsistent with the tensor signature.

class DemoModule(tf.Module):
    def __init__(self,init_value = tf.constant(0.0),name=None):
        super(DemoModule, self).__init__(name=name)
        with self.name_scope:  # Identical to: with tf.name_scope("demo_module")
            self.x = tf.Variable(init_value,dtype = tf.float32,trainable=True)
     
    @tf.function(input_signature=[tf.TensorSpec(shape = [], dtype = tf.float32)])  
    def addprint(self,a):
        with self.name_scope:
            self.x.assign_add(a)
            tf.print(self.x)
            return(self.x)

# Execute
demo = DemoModule(init_value = tf.constant(1.0))
result = demo.addprint(tf.constant(5.0))

# Browse all variables and trainable variables in the module
print(demo.variables)
print(demo.trainable_variables)
