# source: https://github.com/tensorflow/docs/blob/master/site/en/guide/function.ipynb (section "AutoGraph transformations", "Conditionals"); rendered at https://www.tensorflow.org/guide/function
# topic: for i in tf.range with if/elif/else on tensor values: every branch is traced once (Python prints), tf.print runs per iteration; a second call with the same signature does not retrace
# mode: tf.function
# tf-answer: the five trace lines once, then fizzbuzz output for 1..5 and for 1..20
# derivation: AutoGraph turns the if/elif chain into nested tf.cond, tracing the true branch then the else branch at each level; n is an int32 scalar tensor both times, so no retrace
# expect: Tracing for loop
# expect: Tracing fizzbuzz branch
# expect: Tracing fizz branch
# expect: Tracing buzz branch
# expect: Tracing default branch
# expect: 1
# expect: 2
# expect: fizz
# expect: 4
# expect: buzz
# expect: 1
# expect: 2
# expect: fizz
# expect: 4
# expect: buzz
# expect: fizz
# expect: 7
# expect: 8
# expect: fizz
# expect: buzz
# expect: 11
# expect: fizz
# expect: 13
# expect: 14
# expect: fizzbuzz
# expect: 16
# expect: 17
# expect: fizz
# expect: 19
# expect: buzz
import tensorflow as tf

@tf.function
def fizzbuzz(n):
  for i in tf.range(1, n + 1):
    print('Tracing for loop')
    if i % 15 == 0:
      print('Tracing fizzbuzz branch')
      tf.print('fizzbuzz')
    elif i % 3 == 0:
      print('Tracing fizz branch')
      tf.print('fizz')
    elif i % 5 == 0:
      print('Tracing buzz branch')
      tf.print('buzz')
    else:
      print('Tracing default branch')
      tf.print(i)

fizzbuzz(tf.constant(5))
fizzbuzz(tf.constant(20))
