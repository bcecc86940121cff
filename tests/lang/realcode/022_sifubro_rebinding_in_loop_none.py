# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 85)
# topic: why is my gradient None (second epoch only): x1 rebound to a plain tensor before the tape opens is no longer watched
# mode: eager
# tf-answer: epoch 0: 1.0, 2.598076, 1.0; epoch 1: 1.0, None, 1.0 (notebook output)
# derivation: y = x1**1.5 + x2 with x1 = 3 in epoch 0: dy/dx1 = 1.5*sqrt(3) = 2.598076; in epoch 1 x1 derives from an unwatched tensor
# changed: import added at the top.
# expect:
# expect: Epoch: 0
# expect: type(x0)=ResourceVariable
# expect: type(x1)=EagerTensor
# expect: type(x1)=EagerTensor
# expect: type(y)=EagerTensor
# expect: tf.Tensor(1.0, shape=(), dtype=float32)
# expect: tf.Tensor(2.598076, shape=(), dtype=float32)
# expect: tf.Tensor(1.0, shape=(), dtype=float32)
# expect:
# expect: Epoch: 1
# expect: type(x0)=ResourceVariable
# expect: type(x1)=EagerTensor
# expect: type(x1)=EagerTensor
# expect: type(y)=EagerTensor
# expect: tf.Tensor(1.0, shape=(), dtype=float32)
# expect: None
# expect: tf.Tensor(1.0, shape=(), dtype=float32)
import tensorflow as tf

x0 = tf.Variable(3.0)
x1 = tf.Variable(2.0)

for epoch in range(2):
    print('')
    print(f'Epoch: {epoch}')
    with tf.GradientTape(persistent=True) as tape:
        # Update x1 = x1 + x0.
        x2 = x1 + x0 + 1
        
        x1 = x1 + 1  ## If you change x1 then on second iteration will get an error

        y = x1**1.5 + x2  # y = (x1 + x0)**2

        print(f'type(x0)={type(x0).__name__}')
        print(f'type(x1)={type(x1).__name__}')
        print(f'type(x1)={type(x2).__name__}')
        print(f'type(y)={type(y).__name__}')

    # This doesn't work.
    print(tape.gradient(y, x0))   #x0 remains a variable thats fine
    print(tape.gradient(y, x1))   #x1 is a tensor though. This should get error
    print(tape.gradient(y, x2))   #x1 is a tensor though. This should get error
