# source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/master/english/Chapter3-1.md ("Low-level API: Demonstration", 1. Linear Regression Model, dynamic-graph version)
# topic: Python generator with np.random.shuffle + tf.gather for batches; a plain class with __call__ and loss_func over global Variables; tape, manual w.assign(w - lr*grad); `for epoch in tf.range(...)` in eager code; a tf.function timestamp banner with a nested Python function and tf.strings
# mode: mixed
# tf-answer: trains toward w = [2, -3], b = 3; every 50 epochs prints the banner line, the loss, w and b (tutorial output: "epoch = 50 loss =  1.78806472", "w = [[1.97554708]", " [-2.97719598]]", "b = [[2.60692883]]"); values random
# changed: pandas and matplotlib imports and the plotting/pipeline-test cells are left out; n = 400 -> 40 samples and epochs 200 -> 50; the one-batch test call's displayed loss is left out.
# expect-re: =+\d\d:\d\d:\d\d
# expect-re: epoch = 50 loss =  -?\d+(\.\d+)?(e[-+]\d+)?
# expect-re: w = \[\[-?\d+(\.\d+)?(e[-+]\d+)?\]
# expect-re:  \[-?\d+(\.\d+)?(e[-+]\d+)?\]\]
# expect-re: b = \[\[-?\d+(\.\d+)?(e[-+]\d+)?\]\]
import numpy as np 
import tensorflow as tf

# Time Stamp
@tf.function
def printbar():
    today_ts = tf.timestamp()%(24*60*60)

    hour = tf.cast(today_ts//3600+8,tf.int32)%tf.constant(24)
    minite = tf.cast((today_ts%3600)//60,tf.int32)
    second = tf.cast(tf.floor(today_ts%60),tf.int32)
    
    def timeformat(m):
        if tf.strings.length(tf.strings.format("{}",m))==1:
            return(tf.strings.format("0{}",m))
        else:
            return(tf.strings.format("{}",m))
    
    timestring = tf.strings.join([timeformat(hour),timeformat(minite),
                timeformat(second)],separator = ":")
    tf.print("=========="*8+timestring)

# Number of samples
n = 40

# Generating the datasets
X = tf.random.uniform([n,2],minval=-10,maxval=10) 
w0 = tf.constant([[2.0],[-3.0]])
b0 = tf.constant([[3.0]])
Y = X@w0 + b0 + tf.random.normal([n,1],mean = 0.0,stddev= 2.0)  # @ is matrix multiplication; adding Gaussian noise

# Creating generator of data pipeline
def data_iter(features, labels, batch_size=8):
    num_examples = len(features)
    indices = list(range(num_examples))
    np.random.shuffle(indices)  # Randomized reading order of the samples
    for i in range(0, num_examples, batch_size):
        indexs = indices[i: min(i + batch_size, num_examples)]
        yield tf.gather(features,indexs), tf.gather(labels,indexs)

w = tf.Variable(tf.random.normal(w0.shape))
b = tf.Variable(tf.zeros_like(b0,dtype = tf.float32))

# Defining Model
class LinearRegression:     
    # Forward propagation
    def __call__(self,x): 
        return x@w + b

    # Loss function
    def loss_func(self,y_true,y_pred):  
        return tf.reduce_mean((y_true - y_pred)**2/2)

model = LinearRegression()

# Debug in dynamic graph
def train_step(model, features, labels):
    with tf.GradientTape() as tape:
        predictions = model(features)
        loss = model.loss_func(labels, predictions)
    # Back propagation to calculate the gradients
    dloss_dw,dloss_db = tape.gradient(loss,[w,b])
    # Updating parameters using gradient descending method
    w.assign(w - 0.001*dloss_dw)
    b.assign(b - 0.001*dloss_db)
    
    return loss

def train_model(model,epochs):
    for epoch in tf.range(1,epochs+1):
        for features, labels in data_iter(X,Y,10):
            loss = train_step(model,features,labels)
        if epoch%50==0:
            printbar()
            tf.print("epoch =",epoch,"loss = ",loss)
            tf.print("w =",w)
            tf.print("b =",b)

train_model(model,epochs = 50)
