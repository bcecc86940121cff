# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 82)
# topic: the fix for 017: compute x1 = x + 1 inside the tape and keep x a Variable; gradient w.r.t. the variable and w.r.t. the intermediate tensor
# mode: eager
# tf-answer: 8.0 and 8.0 in both epochs (notebook output)
# derivation: y = (x+1)^2 at x = 3 -> dy/dx = dy/dx1 = 2*4 = 8
# changed: import added at the top.
# expect: [Epoch: 0]
# expect: type(x)=ResourceVariable
# expect: type(y)=EagerTensor
# expect: type(x)=ResourceVariable
# expect: gradient dy/dx= 8.0
# expect: gradient dy/dx= 8.0
# expect: [Epoch: 1]
# expect: type(x)=ResourceVariable
# expect: type(y)=EagerTensor
# expect: type(x)=ResourceVariable
# expect: gradient dy/dx= 8.0
# expect: gradient dy/dx= 8.0
import tensorflow as tf

x = tf.Variable(3.0)

for epoch in range(2):
    print(f'[Epoch: {epoch}]')
    with tf.GradientTape(persistent=True) as tape:
        print(f'type(x)={type(x).__name__}')
        x1 = x + 1
        y = x1**2
        print(f'type(y)={type(y).__name__}')

    print(f'type(x)={type(x).__name__}')
    dy_dx = tape.gradient(y, x)
    print('gradient dy/dx=', dy_dx.numpy())
    dy_dx1 = tape.gradient(y, x1)
    print('gradient dy/dx=', dy_dx1.numpy())
