# source: https://github.com/sifubro/tensorflow/blob/master/GradientTape_Autodiff.ipynb (cell 69)
# topic: persistent tape, gradients with respect to intermediate tensors (y, w), a Python epoch loop that rebinds x
# mode: eager
# tf-answer: epoch 0 (x=3): 8, 32, 262, 536, 17152; epoch 1 (x=4): 10, 50, 508, 1288, 64400 (notebook output)
# derivation: y = (x+1)^2, dy/dx = 2x+2; w = y^2 + x^2 + 3, dw/dy = 2y, dw/dx = 2y*dy/dx + 2x; z = w^2, dz/dw = 2w, dz/dy = 2w*2y
# changed: import added at the top.
# expect: [Epoch: 0]
# expect: 8.0
# expect: 32.0
# expect: 262.0
# expect: 536.0
# expect: 17152.0
# expect: [Epoch: 1]
# expect: 10.0
# expect: 50.0
# expect: 508.0
# expect: 1288.0
# expect: 64400.0
import tensorflow as tf

x = tf.constant(3.0)

for epoch in range(2):
    print(f'[Epoch: {epoch}]')
    with tf.GradientTape(persistent=True) as tape:
        #x = x + 1  # or here instead of the end of tape.gradient
        tape.watch(x)
        y = x * x + 2*x +1 
        w = y * y + x**2 + 3
        z = w * w 
        
    # Use the tape to compute the gradient of z with respect to the
    # intermediate value y.
    # dz_dy = 2 * y and y = x ** 2 = 9
    print(tape.gradient(y, x).numpy())
    print(tape.gradient(w, y).numpy())
    print(tape.gradient(w, x).numpy())
    print(tape.gradient(z, w).numpy())
    print(tape.gradient(z, y).numpy())
    
    x = x + 1
