# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 80)
# topic: why is my gradient None: `x = x + 1` turns the tf.Variable into an EagerTensor, so epoch 1 gets None and .numpy() fails; f-strings with type(x).__name__
# mode: eager
# tf-answer: epoch 0 prints 6.0; epoch 1 raises AttributeError: 'NoneType' object has no attribute 'numpy' (notebook output)
# changed: import added at the top.
# expect: [Epoch: 0]
# expect: type(x)=ResourceVariable
# expect: type(y)=EagerTensor
# expect: gradient dy/dx= 6.0
# expect: After addition...
# expect: type(x)=EagerTensor
# expect: ==============================
# expect: [Epoch: 1]
# expect: type(x)=EagerTensor
# expect: type(y)=EagerTensor
# expect-error: AttributeError: 'NoneType' object has no attribute 'numpy'
import tensorflow as tf

x = tf.Variable(3.0)

for epoch in range(2):
    print(f'[Epoch: {epoch}]')
    with tf.GradientTape() as tape:
        print(f'type(x)={type(x).__name__}')
        y = x**2
        print(f'type(y)={type(y).__name__}')

    # dy = 2x * dx
    dy_dx = tape.gradient(y, x)
    print('gradient dy/dx=', dy_dx.numpy())
    
    # problem with second epoch is that x in a tensor now not a variable
    x = x + 1  
    print(f'After addition...')
    print(f'type(x)={type(x).__name__}')
    print('='*30)
