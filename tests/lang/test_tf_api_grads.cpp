// The tf functions GradLab builds from primitives (tracer_builtins_math.cpp and friends),
// checked as scripts: each value against TF's documented answer where the docstring gives one,
// and each gradient against central finite differences in float64 of the same script
// (L = sum(sin(out)), so every output element weighs differently).
#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "../engine/helpers.h"
#include "engine/lang/program.h"

using namespace gl;
using namespace gl::lang;

namespace {

struct Case {
  const char* name;
  const char* expr;  // in terms of x and y
  std::vector<double> x, y;
  std::vector<double> want;  // TF's values (empty: none documented)
  const char* source;        // where TF documents them
  // Where finite differences apply, when x, y hold a point where the function jumps or TF
  // defines the gradient by convention (0 at x == 0 for xdivy): empty = x, y.
  std::vector<double> fdx = {}, fdy = {};
  double tol = 1e-6;  // relative, on the values: docstrings print a few digits
};

// clang-format off
const Case kCases[] = {
    {"divide_no_nan", "tf.math.divide_no_nan(x, y)", {3, -2, 5}, {0.5, 0, -2}, {6, 0, -2.5},
     "math_ops.py, div_no_nan: 0 where y is 0", {3, -2, 5}, {0.5, 0.7, -2}},
    {"multiply_no_nan", "tf.math.multiply_no_nan(x, y)", {3, 2, 5}, {0.5, 0, -2}, {1.5, 0, -10},
     "math_ops.py, multiply_no_nan: 0 where y is 0"},
    {"xdivy", "tf.math.xdivy(x, y)", {0, 2, -3}, {0.5, 4, 2}, {0, 0.5, -1.5},
     "gen_math_ops Xdivy: 0 if x == 0, else x / y", {0.3, 2, -3}, {0.5, 4, 2}},
    {"xlogy", "tf.math.xlogy(x, y)", {0, 2, -3}, {0.5, 4, 2}, {0, 2 * std::log(4.0), -3 * std::log(2.0)},
     "gen_math_ops Xlogy: 0 if x == 0, else x * log(y)", {0.3, 2, -3}, {0.5, 4, 2}},
    {"squared_difference", "tf.math.squared_difference(x, y)", {1, 2, 3}, {3, 2, -1}, {4, 0, 16},
     "gen_math_ops SquaredDifference: (x - y)(x - y)"},
    {"floormod", "tf.math.floormod(x, y)", {7.5, -7.5, 7.5}, {2, 2, -2}, {1.5, 0.5, -0.5},
     "gen_math_ops FloorMod: the result has the sign of y"},
    {"atan2", "tf.math.atan2(y, x)", {1, -1, 2}, {1, 1, -0.5}, {M_PI / 4, 3 * M_PI / 4, std::atan2(-0.5, 2)},
     "gen_math_ops Atan2: the angle of (x, y)"},
    {"reduce_logsumexp", "tf.reduce_logsumexp(tf.reshape(x, [2, 3]), 1)", {0, 0, 0, 1, 2, 3}, {},
     {std::log(3.0), 3 + std::log(1 + std::exp(-1.0) + std::exp(-2.0))},
     "math_ops.py, reduce_logsumexp docstring: log(3) along a row of zeros"},
    {"reduce_logsumexp keepdims", "tf.reduce_logsumexp(x * 800.0, keepdims=True)", {1, 0.5, -1}, {},
     {800}, "math_ops.py, reduce_logsumexp: stable where exp(800) overflows float64"},
    {"reduce_variance", "tf.math.reduce_variance(tf.reshape(x, [2, 2]), 0)", {1, 2, 3, 4}, {},
     {1, 1}, "math_ops.py, reduce_variance docstring: [[1, 2], [3, 4]], axis 0 gives [1, 1]"},
    {"reduce_std", "tf.math.reduce_std(tf.reshape(x, [2, 2]), 1)", {1, 2, 3, 4}, {}, {0.5, 0.5},
     "math_ops.py, reduce_std docstring: [[1, 2], [3, 4]], axis 1 gives [0.5, 0.5]"},
    {"reduce_euclidean_norm", "tf.math.reduce_euclidean_norm(tf.reshape(x, [2, 3]), 1)",
     {1, 2, 3, 1, 1, 1}, {}, {std::sqrt(14.0), std::sqrt(3.0)},
     "math_ops.py, reduce_euclidean_norm docstring: [[1, 2, 3], [1, 1, 1]], axis 1"},
    {"relu6", "tf.nn.relu6(x)", {-1, 3, 7.5}, {}, {0, 3, 6}, "nn_ops.py, relu6: min(max(x, 0), 6)"},
    {"leaky_relu", "tf.nn.leaky_relu(x)", {-1, 3, -0.5}, {}, {-0.2, 3, -0.1},
     "nn_ops.py, leaky_relu docstring: alpha 0.2"},
    {"leaky_relu alpha", "tf.nn.leaky_relu(x, alpha=0.01)", {-1, 3}, {}, {-0.01, 3},
     "nn_ops.py, leaky_relu(alpha=0.01)"},
    {"selu", "tf.nn.selu(x)", {-1, 0.5, 2}, {},
     {1.0507009873554805 * 1.6732632423543772 * (std::exp(-1.0) - 1), 0.5 * 1.0507009873554805,
      2 * 1.0507009873554805},
     "nn_ops.py, selu: scale * (x if x > 0 else alpha * (exp(x) - 1))"},
    {"silu", "tf.nn.silu(x)", {-1, 0.5, 2}, {}, {-1 / (1 + std::exp(1.0)), 0.5 / (1 + std::exp(-0.5)),
     2 / (1 + std::exp(-2.0))}, "nn_impl.py, swish/silu: x * sigmoid(x)"},
    {"gelu", "tf.nn.gelu(x)", {-3, -1, 0, 1, 3}, {},
     {-0.00404951, -0.15865529, 0, 0.8413447, 2.9959507}, "nn_ops.py, gelu docstring"},
    {"gelu approximate", "tf.nn.gelu(x, approximate=True)", {-3, -1, 0, 1, 3}, {},
     {-0.00363752, -0.15880796, 0, 0.841192, 2.9963627}, "nn_ops.py, gelu docstring"},
    {"keras gelu", "tf.keras.activations.gelu(x)", {-1, 1}, {}, {-0.15865529, 0.8413447},
     "keras/activations.py, gelu"},
    {"reverse", "tf.reverse(tf.reshape(x, [2, 3]), [1])", {1, 2, 3, 4, 5, 6}, {}, {3, 2, 1, 6, 5, 4},
     "array_ops.py, reverse: the entries of an axis in reverse order"},
    {"roll", "tf.roll(x, shift=2, axis=0)", {0, 1, 2, 3, 4}, {}, {3, 4, 0, 1, 2},
     "manip_ops.py, roll docstring: roll([0, 1, 2, 3, 4], 2, 0) = [3, 4, 0, 1, 2]"},
    {"repeat", "tf.repeat(tf.reshape(x, [2, 2]), repeats=[2, 3], axis=0)", {1, 2, 3, 4}, {},
     {1, 2, 1, 2, 3, 4, 3, 4, 3, 4}, "array_ops.py, repeat docstring ([[1, 2], [3, 4]], [2, 3], 0)"},
    {"repeat flat", "tf.repeat(tf.reshape(x, [2, 2]), repeats=2)", {1, 2, 3, 4}, {},
     {1, 1, 2, 2, 3, 3, 4, 4}, "array_ops.py, repeat docstring (axis None flattens)"},
    {"split", "tf.split(x, [1, -1, 2])[1] * 10.0", {1, 2, 3, 4, 5, 6}, {}, {20, 30, 40},
     "array_ops.py, split: sizes [1, -1, 2] of 6 are 1, 3, 2"},
    {"meshgrid", "tf.reshape(tf.stack(tf.meshgrid(x, y)), [-1])", {1, 2, 3}, {4, 5, 6},
     {1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6},
     "array_ops.py, meshgrid docstring: X = [[1, 2, 3]] * 3, Y = [[4, 4, 4], [5, 5, 5], [6, 6, 6]]"},
    {"cumsum", "tf.cumsum(x)", {2, 4, 6, 8}, {}, {2, 6, 12, 20}, "math_ops.py, cumsum docstring"},
    {"cumsum exclusive", "tf.cumsum(x, exclusive=True)", {2, 4, 6, 8}, {}, {0, 2, 6, 12},
     "math_ops.py, cumsum docstring"},
    {"cumsum reverse", "tf.math.cumsum(x, reverse=True)", {2, 4, 6, 8}, {}, {20, 18, 14, 8},
     "math_ops.py, cumsum docstring"},
    {"cumsum both axis 1", "tf.cumsum(tf.reshape(x, [2, 2]), axis=1, exclusive=True, reverse=True)",
     {2, 4, 6, 8}, {}, {4, 0, 8, 0}, "math_ops.py, cumsum docstring (exclusive and reverse)"},
    {"polyval", "tf.math.polyval([1.0, 2.5, -4.2], x)", {5, -1}, {}, {33.3, -5.7},
     "math_ops.py, polyval docstring: [1.0, 2.5, -4.2] at 5.0 is 33.3"},
    {"trace", "tf.linalg.trace(tf.reshape(x, [3, 3]))", {1, 2, 3, 4, 5, 6, 7, 8, 9}, {}, {15},
     "linalg_impl.py, trace docstring: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] gives 15"},
    {"diag_part", "tf.linalg.diag_part(tf.reshape(x, [2, 3]))", {1, 2, 3, 4, 5, 6}, {}, {1, 5},
     "array_ops.py, matrix_diag_part: x[i, i] for i < min(m, n)"},
    {"band_part", "tf.reshape(tf.linalg.band_part(tf.reshape(x, [4, 4]), 1, -1), [-1])",
     {0, 1, 2, 3, -1, 0, 1, 2, -2, -1, 0, 1, -3, -2, -1, 0}, {},
     {0, 1, 2, 3, -1, 0, 1, 2, 0, -1, 0, 1, 0, 0, -1, 0},
     "array_ops.py, matrix_band_part docstring: band_part(input, 1, -1)"},
    {"band_part 2 1", "tf.reshape(tf.linalg.band_part(tf.reshape(x, [4, 4]), 2, 1), [-1])",
     {0, 1, 2, 3, -1, 0, 1, 2, -2, -1, 0, 1, -3, -2, -1, 0}, {},
     {0, 1, 0, 0, -1, 0, 1, 0, -2, -1, 0, 1, 0, -2, -1, 0},
     "array_ops.py, matrix_band_part docstring: band_part(input, 2, 1)"},
    {"matvec", "tf.linalg.matvec(tf.reshape(x, [2, 3]), y)", {1, 2, 3, 4, 5, 6}, {7, 9, 11},
     {58, 139}, "linalg_impl.py, matvec docstring: [[1, 2, 3], [4, 5, 6]] times [7, 9, 11]"},
    {"MeanSquaredError", "tf.keras.losses.MeanSquaredError()(tf.reshape(y, [2, 2]), tf.reshape(x, [2, 2]))",
     {1, 1, 1, 0}, {0, 1, 0, 0}, {0.5}, "keras/losses.py, MeanSquaredError docstring: 0.5"},
    {"MeanSquaredError sum", "tf.keras.losses.MeanSquaredError(reduction='sum')(tf.reshape(y, [2, 2]), tf.reshape(x, [2, 2]))",
     {1, 1, 1, 0}, {0, 1, 0, 0}, {1.0}, "keras/losses.py, MeanSquaredError docstring: sum gives 1.0"},
    {"MeanAbsoluteError none", "tf.keras.losses.MeanAbsoluteError(reduction='none')(tf.reshape(y, [2, 2]), tf.reshape(x, [2, 2]))",
     {1, 1, 1, 0}, {0, 1, 0, 0}, {0.5, 0.5}, "keras/losses.py, MeanAbsoluteError docstring: none gives [0.5, 0.5]"},
    {"BinaryCrossentropy", "tf.keras.losses.BinaryCrossentropy()(tf.reshape(y, [2, 2]), tf.reshape(x, [2, 2]))",
     {0.6, 0.4, 0.4, 0.6}, {0, 1, 0, 0}, {0.81492424}, "keras/losses.py, BinaryCrossentropy docstring: 0.815"},
    {"BinaryCrossentropy logits", "tf.keras.losses.BinaryCrossentropy(from_logits=True)(y, x)",
     {-18.6, 0.51, 2.94, -12.8}, {0, 1, 0, 0}, {0.865},
     "keras/losses.py, BinaryCrossentropy docstring: from_logits gives 0.865", {}, {}, 1e-3},
    {"binary_crossentropy", "tf.keras.losses.binary_crossentropy(tf.reshape(y, [2, 2]), tf.reshape(x, [2, 2]))",
     {0.6, 0.4, 0.4, 0.6}, {0, 1, 0, 0}, {0.91629076, 0.71355818},
     "keras/losses.py, binary_crossentropy docstring: [0.916, 0.714]"},
    {"CategoricalCrossentropy", "tf.keras.losses.CategoricalCrossentropy()(tf.reshape(y, [2, 3]), tf.reshape(x, [2, 3]))",
     {0.05, 0.95, 0, 0.1, 0.8, 0.1}, {0, 1, 0, 0, 0, 1}, {1.1769392},
     "keras/losses.py, CategoricalCrossentropy docstring: 1.177 (p = 0 clipped to 1e-7)",
     {0.05, 0.9, 0.05, 0.1, 0.8, 0.1}},
    {"SparseCategoricalCrossentropy", "tf.keras.losses.SparseCategoricalCrossentropy()([1, 2], tf.reshape(x, [2, 3]))",
     {0.05, 0.95, 0, 0.1, 0.8, 0.1}, {}, {1.1769392},
     "keras/losses.py, SparseCategoricalCrossentropy docstring: 1.177", {0.05, 0.9, 0.05, 0.1, 0.8, 0.1}},
    {"sparse_categorical_crossentropy logits", "tf.keras.losses.sparse_categorical_crossentropy([0, 2], tf.reshape(x, [2, 3]), from_logits=True)",
     {2, -1, 0.5, 0, 1, 3}, {}, {0.24131129665715711, 0.16984601955628564}, "keras/losses.py: -log softmax(logits)[label]"},
    {"Huber", "tf.keras.losses.Huber()(tf.reshape(y, [2, 2]), tf.reshape(x, [2, 2]))",
     {0.6, 0.4, 0.4, 0.6}, {0, 1, 0, 0}, {0.155}, "keras/losses.py, Huber docstring: 0.155", {}, {}, 1e-3},
    {"huber delta", "tf.keras.losses.huber(y, x, delta=0.5)", {0.6, 2, -1}, {0, 1, 0}, {(0.175 + 0.375 + 0.375) / 3},
     "keras/losses.py, huber: 0.5 e^2 inside delta, delta (|e| - delta / 2) outside"},
    {"sigmoid_cross_entropy_with_logits", "tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x)",
     {1, -1, 0, 1, -1, 0, 0}, {0, 0, 0, 1, 1, 1, 0.5},
     {1.3132616, 0.3132617, 0.6931472, 0.3132617, 1.3132616, 0.6931472, 0.6931472},
     "nn_impl.py, sigmoid_cross_entropy_with_logits docstring"},
    {"sparse_softmax_cross_entropy_with_logits",
     "tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3, 1], logits=tf.reshape(x, [3, 4]))",
     {2, -5, 0.5, -0.1, 0, 0, 1.9, 1.4, -100, 100, -100, -100}, {}, {0.29750752, 1.1448325, 0},
     "nn_ops.py, sparse_softmax_cross_entropy_with_logits docstring"},
    {"l2_normalize", "tf.math.l2_normalize(x)", {3, 4}, {}, {0.6, 0.8},
     "nn_impl.py, l2_normalize docstring: [3, 4] gives [0.6, 0.8]"},
    {"l2_normalize axis", "tf.reshape(tf.nn.l2_normalize(tf.reshape(x, [2, 2]), axis=1), [-1])",
     {3, 4, 0, 2}, {}, {0.6, 0.8, 0, 1}, "nn_impl.py, l2_normalize along axis 1"},
    {"bias_add", "tf.nn.bias_add(tf.reshape(x, [2, 2]), y)", {1, 2, 3, 4}, {10, 20},
     {11, 22, 13, 24}, "nn_ops.py, bias_add: value + bias over the last axis"},
    {"moments", "tf.concat(tf.nn.moments(tf.reshape(x, [2, 2]), [0]), 0)", {1, 2, 3, 5}, {},
     {2, 3.5, 1, 2.25}, "nn_impl.py, moments: mean and variance over axes"},
    {"batch_normalization", "tf.nn.batch_normalization(x, 1.5, 0.25, 0.1, y, 0.0)", {1, 2},
     {2, 2}, {-1.9, 2.1}, "nn_impl.py, batch_normalization: scale (x - mean) / sqrt(var + eps) + offset"},
    {"embedding_lookup", "tf.reshape(tf.nn.embedding_lookup(tf.reshape(x, [3, 2]), [2, 0, 2]), [-1])",
     {1, 2, 3, 4, 5, 6}, {}, {5, 6, 1, 2, 5, 6}, "embedding_ops.py, embedding_lookup: rows of params"},
    {"det", "tf.linalg.det(tf.reshape(x, [2, 2]))", {1, 2, 3, 4}, {}, {-2},
     "linalg_ops: matrix_determinant of [[1, 2], [3, 4]]"},
    {"inv", "tf.reshape(tf.linalg.inv(tf.reshape(x, [2, 2])), [-1])", {1, 2, 3, 4}, {},
     {-2, 1, 1.5, -0.5}, "linalg_ops: matrix_inverse of [[1, 2], [3, 4]]"},
    {"slogdet", "tf.stack(tf.linalg.slogdet(tf.reshape(x, [2, 2])))", {1, 2, 3, 4}, {},
     {-1, std::log(2.0)}, "linalg_ops.py, slogdet: (sign, log |det|)"},
    {"logdet", "tf.linalg.logdet(tf.reshape(x, [2, 2]))", {4, 2, 2, 3}, {}, {std::log(8.0)},
     "linalg_impl.py, logdet of a positive definite matrix"},
    {"solve", "tf.reshape(tf.linalg.solve(tf.reshape(x, [2, 2]), tf.reshape(y, [2, 1])), [-1])",
     {3, 1, 1, 2}, {9, 8}, {2, 3}, "linalg_ops: matrix_solve, [[3, 1], [1, 2]] x = [9, 8]"},
    {"triangular_solve",
     "tf.reshape(tf.linalg.triangular_solve(tf.reshape(x, [4, 4]), tf.reshape(y, [4, 1])), [-1])",
     {3, 0, 0, 0, 2, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1}, {4, 2, 4, 2},
     {4.0 / 3, -2.0 / 3, 8.0 / 3, -4.0 / 3}, "linalg_ops.py, matrix_triangular_solve docstring"},
    {"triangular_solve upper ignores the lower triangle",
     "tf.reshape(tf.linalg.triangular_solve(tf.reshape(x, [2, 2]), tf.reshape(y, [2, 1]), lower=False), [-1])",
     {2, 1, 7, 4}, {4, 8}, {1, 2}, "linalg_ops.py, matrix_triangular_solve: the other triangle is ignored"},
    {"cholesky", "tf.reshape(tf.linalg.cholesky((tf.reshape(x, [2, 2]) + tf.transpose(tf.reshape(x, [2, 2]))) / 2.0), [-1])",
     {4, 2, 2, 3}, {}, {2, 0, 1, std::sqrt(2.0)}, "linalg_ops: cholesky of [[4, 2], [2, 3]]"},
    // qr, svd, eigh run the Eigen decompositions TF's CPU kernels run, so their signs are TF's;
    // rows that read singular or eigen vectors read sign-free functions of them (v * v, u s v^T).
    {"qr", "tf.reshape(tf.stack(tf.linalg.qr(tf.reshape(x, [2, 2]))), [-1])", {1, 2, 3, 4}, {},
     {-1 / std::sqrt(10.0), -3 / std::sqrt(10.0), -3 / std::sqrt(10.0), 1 / std::sqrt(10.0),
      -std::sqrt(10.0), -14 / std::sqrt(10.0), 0, -2 / std::sqrt(10.0)},
     "qr_ops (LAPACK geqrf signs, as numpy.linalg.qr): [[1, 2], [3, 4]], r00 = -sqrt(10)"},
    {"qr deep r", "tf.reshape(tf.linalg.qr(tf.reshape(x, [3, 2]))[1], [-1])", {1, 4, 2, 5, 3, 6}, {},
     {-std::sqrt(14.0), -32 / std::sqrt(14.0), 0, std::sqrt(77.0 - 32.0 * 32.0 / 14)},
     "qr of [[1, 4], [2, 5], [3, 6]]: r00 = -|a0|, r01 = q0 . a1, r11 = |a1 - r01 q0| (geqrf signs)"},
    {"qr wide q r", "tf.reshape(tf.matmul(tf.linalg.qr(tf.reshape(x, [2, 3]))[0], tf.linalg.qr(tf.reshape(x, [2, 3]))[1]), [-1])",
     {1, 2, 3, 4, 5, 7}, {}, {1, 2, 3, 4, 5, 7}, "linalg_ops.py, qr: a = q r"},
    {"qr wide r", "tf.reshape(tf.linalg.qr(tf.reshape(x, [2, 3]))[1], [-1])", {1, 2, 3, 4, 5, 7}, {}, {-std::sqrt(17.0), -22 / std::sqrt(17.0), -31 / std::sqrt(17.0), 0, -0.727606875108999, -1.212678125181666},
     "qr of [[1, 2, 3], [4, 5, 7]], one geqrf reflector (r0j = -a0 . aj / |a0|); gradient: linalg_grad.py, _QrGrad m < n (newer TF)"},
    {"qr full wide", "tf.reshape(tf.matmul(tf.linalg.qr(tf.reshape(x, [2, 3]), full_matrices=True)[0], tf.linalg.qr(tf.reshape(x, [2, 3]), full_matrices=True)[1]), [-1])",
     {1, 2, 3, 4, 5, 7}, {}, {1, 2, 3, 4, 5, 7}, "linalg_ops.py, qr: full_matrices with m <= n is the reduced qr"},
    {"svd s", "tf.linalg.svd(tf.reshape(x, [2, 2]), compute_uv=False)", {3, 0, 4, 5}, {},
     {std::sqrt(45.0), std::sqrt(5.0)}, "svd of [[3, 0], [4, 5]]: s^2 = eig(A^T A) = 45, 5, descending"},
    {"svd s u v", "tf.reshape(tf.stack([tf.linalg.svd(tf.reshape(x, [2, 2]))[0] ** 2, tf.reshape(tf.linalg.svd(tf.reshape(x, [2, 2]))[1] ** 2, [-1])[:2], tf.reshape(tf.linalg.svd(tf.reshape(x, [2, 2]))[2] ** 2, [-1])[:2]]), [-1])",
     {3, 0, 4, 5}, {}, {45, 5, 0.1, 0.9, 0.5, 0.5},
     "svd of [[3, 0], [4, 5]]: u's columns (1, 3)/sqrt(10), (3, -1)/sqrt(10), v's (1, 1)/sqrt(2), (1, -1)/sqrt(2), up to sign"},
    {"svd u s v^T", "tf.reshape(tf.matmul(tf.linalg.svd(tf.reshape(x, [2, 3]))[1] * tf.linalg.svd(tf.reshape(x, [2, 3]))[0], tf.linalg.svd(tf.reshape(x, [2, 3]))[2], transpose_b=True), [-1])",
     {1, 2, 3, 4, 5, 7}, {}, {1, 2, 3, 4, 5, 7}, "linalg_ops.py, svd docstring: a = u diag(s) v^H"},
    {"svd batched u*u", "tf.reshape(tf.linalg.svd(tf.reshape(x, [2, 3, 3]))[1] ** 2, [-1])",
     {2, 1, 0, 1, 3, 1, 0, 1, 4, 1, -2, 0.5, 0.3, 2, 1, -1, 0.7, 3}, {}, {0.0446581987385205, 0.333333333333333, 0.622008467928146, 0.333333333333334, 0.333333333333333, 0.333333333333333, 0.622008467928146, 0.333333333333334, 0.0446581987385205,
      0.0840630885559827, 0.60483346721796, 0.311103444226058, 0.261005567380133, 0.134722109479604, 0.604272323140264, 0.654931344063885, 0.260444423302437, 0.0846242326336787},
     "u = eigenvectors of a a^T (Jacobi rotations, float64), s descending; gradient: linalg_grad.py, _SvdGrad, a batch of [2, 3, 3]"},
    {"svd deep v*v", "tf.reshape(tf.linalg.svd(tf.reshape(x, [3, 2]))[2] ** 2, [-1])", {1, 4, 2, 5, 3, 7}, {}, {0.132227447420457, 0.867772552579543, 0.867772552579543, 0.132227447420457},
     "v = eigenvectors of a^T a (Jacobi rotations, float64); gradient: linalg_grad.py, _SvdGrad, m > n (computed on a^T in TF)"},
    {"svd nuclear norm batched", "tf.reduce_sum(tf.linalg.svd(tf.reshape(x, [2, 3, 3]), compute_uv=False), -1)",
     {2, 1, 0, 1, 3, 1, 0, 1, 4, 1, -2, 0.5, 0.3, 2, 1, -1, 0.7, 3}, {}, {9, 7.26690488948725},
     "the first matrix is symmetric with eigenvalues 3 - sqrt(3), 3, 3 + sqrt(3) (sum 9); gradient: linalg_grad.py, _SvdGrad, compute_uv=False: u diag(gs) v^T"},
    {"eigh", "tf.linalg.eigh(tf.reshape(x, [2, 2]))[0]", {2, 1, 1, 2}, {}, {1, 3},
     "linalg_ops.py, eigh: eigenvalues of [[2, 1], [1, 2]], ascending"},
    {"eigh v*v", "tf.reshape(tf.linalg.eigh(tf.reshape(x, [2, 2]))[1] ** 2, [-1])", {2, 1, 1, 2}, {},
     {0.5, 0.5, 0.5, 0.5}, "eigh of [[2, 1], [1, 2]]: v = (1, -1)/sqrt(2), (1, 1)/sqrt(2), up to sign"},
    {"eigh reads the lower triangle", "tf.linalg.eigvalsh(tf.reshape(x, [2, 2]))", {2, 7, 1, 2}, {}, {1, 3},
     "linalg_ops.py, self_adjoint_eig: only the lower triangle of the input is read"},
    {"eigh batched", "tf.reshape(tf.linalg.eigh(tf.reshape(x, [2, 3, 3]))[1] ** 2 * [1.0, 2.0, 3.0], [-1])",
     {2, 1, 0, 1, 3, 1, 0, 1, 4, 1, -2, 0.5, -2, 2, 1, 0.5, 1, 3}, {}, {0.622008467928146, 0.666666666666666, 0.133974596215561, 0.333333333333333, 0.666666666666667, 0.999999999999999, 0.0446581987385204, 0.666666666666666, 1.86602540378444,
      0.553278645975913, 0.581841023741376, 0.467402526460197, 0.380155060571024, 0.212248632710257, 1.54116186922155, 0.0665662934530636, 1.20591034354837, 0.991435604318259},
     "v = eigenvectors of the lower triangle's symmetric matrix (Jacobi rotations, float64); gradient: linalg_grad.py, _SelfAdjointEigV2Grad, a batch of [2, 3, 3], weighted v * v"},
    {"keras ReLU", "tf.keras.layers.ReLU()(x)", {-3, -1, 0.5, 2}, {}, {0, 0, 0.5, 2},
     "keras/layers/activation/relu.py docstring"},
    {"keras ReLU max_value", "tf.keras.layers.ReLU(max_value=1.0)(x)", {-3, -1, 0.5, 2}, {},
     {0, 0, 0.5, 1}, "keras/layers/activation/relu.py docstring: max_value=1.0"},
    {"keras ReLU negative_slope", "tf.keras.layers.ReLU(negative_slope=1.0)(x)", {-3, -1, 0.5, 2},
     {}, {-3, -1, 0.5, 2}, "keras/layers/activation/relu.py docstring: negative_slope=1.0"},
    {"keras ReLU threshold", "tf.keras.layers.ReLU(threshold=1.5)(x)", {-3, -1, 0.5, 2}, {},
     {0, 0, 0, 2}, "keras/layers/activation/relu.py docstring: threshold=1.5"},
    {"keras Activation", "tf.keras.layers.Activation('tanh')(x)", {-1, 0.5}, {},
     {std::tanh(-1.0), std::tanh(0.5)}, "keras/layers/core/activation.py"},
    {"keras Dropout at inference", "tf.keras.layers.Dropout(0.5)(x)", {-1, 0.5}, {}, {-1, 0.5},
     "keras/layers/regularization/dropout.py: identity unless training=True"},
    {"keras Reshape", "tf.reshape(tf.keras.layers.Reshape((3, 2))(tf.reshape(x, [1, 6])), [-1])",
     {1, 2, 3, 4, 5, 6}, {}, {1, 2, 3, 4, 5, 6}, "keras/layers/reshaping/reshape.py"},
    {"keras Lambda", "tf.keras.layers.Lambda(lambda v: v * v)(x)", {-1, 3}, {}, {1, 9},
     "keras/layers/core/lambda_layer.py"},
    {"keras Add", "tf.keras.layers.Add()([x, y, x])", {1, 2}, {10, 20}, {12, 24},
     "keras/layers/merging/add.py"},
    {"keras Concatenate", "tf.reshape(tf.keras.layers.Concatenate(axis=1)([tf.reshape(x, [2, 1]), tf.reshape(y, [2, 1])]), [-1])",
     {1, 2}, {10, 20}, {1, 10, 2, 20}, "keras/layers/merging/concatenate.py"},
    {"keras LayerNormalization", "tf.reshape(tf.keras.layers.LayerNormalization()(tf.reshape(x, [2, 2])), [-1])",
     {0, 10, 20, 30}, {}, {-0.99998, 0.99998, -0.99998, 0.99998},
     "keras/layers/normalization/layer_normalization.py docstring: arange(10) * 10 rows", {1, 2.5, -1, 0.5},
     {}, 1e-5},
    {"gather_nd", "tf.gather_nd(tf.reshape(x, [2, 2]), [[0, 0], [1, 1]])", {1, 2, 3, 4}, {},
     {1, 4}, "array_ops.py, gather_nd docstring: [[0, 0], [1, 1]] picks 'a' and 'd'"},
    {"gather_nd rows", "tf.reshape(tf.gather_nd(tf.reshape(x, [2, 2]), [[1], [0]]), [-1])",
     {1, 2, 3, 4}, {}, {3, 4, 1, 2}, "array_ops.py, gather_nd docstring: [[1], [0]] swaps rows"},
    {"scatter_nd", "tf.scatter_nd([[4], [3], [1], [7]], x, [8])", {9, 10, 11, 12}, {},
     {0, 11, 0, 10, 9, 0, 0, 12}, "array_ops.py, scatter_nd docstring"},
    {"tensor_scatter_nd_add", "tf.tensor_scatter_nd_add(y, [[4], [3], [1], [7]], x)",
     {9, 10, 11, 12}, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 12, 1, 11, 10, 1, 1, 13},
     "array_ops.py, tensor_scatter_nd_add docstring (on ones)"},
    {"tensor_scatter_nd_update", "tf.tensor_scatter_nd_update(y, [[4], [3], [1], [7]], x)",
     {9, 10, 11, 12}, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 11, 1, 10, 9, 1, 1, 12},
     "array_ops.py, tensor_scatter_nd_update docstring (on ones)"},
    {"boolean_mask", "tf.reshape(tf.boolean_mask(tf.reshape(x, [3, 2]), [True, False, True]), [-1])",
     {1, 2, 3, 4, 5, 6}, {}, {1, 2, 5, 6}, "array_ops.py, boolean_mask docstring"},
    {"unsorted_segment_sum",
     "tf.reshape(tf.math.unsorted_segment_sum(tf.reshape(x, [3, 4]), [0, 1, 0], num_segments=2), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1}, {}, {5, 5, 5, 5, 5, 6, 7, 8},
     "math_ops.py, unsorted_segment_sum docstring"},
    {"segment_sum", "tf.reshape(tf.math.segment_sum(tf.reshape(x, [3, 4]), [0, 0, 1]), [-1])",
     {1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8}, {}, {5, 5, 5, 5, 5, 6, 7, 8},
     "math_ops.py, segment_sum docstring"},
    {"segment_mean", "tf.reshape(tf.math.segment_mean(tf.reshape(x, [3, 4]), [0, 0, 1]), [-1])",
     {1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8}, {}, {2.5, 2.5, 2.5, 2.5, 5, 6, 7, 8},
     "math_ops.py, segment_mean docstring"},
    {"unsorted_segment_mean",
     "tf.reshape(tf.math.unsorted_segment_mean(tf.reshape(x, [3, 4]), [0, 1, 0], 3), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1}, {}, {2.5, 2.5, 2.5, 2.5, 5, 6, 7, 8, 0, 0, 0, 0},
     "math_ops.py, unsorted_segment_mean: an empty segment is 0"},
    {"unsorted_segment_max",
     "tf.reshape(tf.math.unsorted_segment_max(tf.reshape(x, [3, 4]), [0, 1, 0], 2), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1}, {}, {4, 3, 3, 4, 5, 6, 7, 8},
     "math_ops.py, unsorted_segment_max docstring"},
    {"segment_max", "tf.reshape(tf.math.segment_max(tf.reshape(x, [3, 2]), [0, 0, 1]), [-1])",
     {1, 4, 3, 2, 5, 6}, {}, {3, 4, 5, 6}, "math_ops.py, segment_max"},
    {"check_numerics", "tf.debugging.check_numerics(x * 2.0, 'x doubled')", {1, -2}, {}, {2, -4},
     "check_ops: check_numerics passes a finite tensor through"},
    {"cumulative_logsumexp", "tf.math.cumulative_logsumexp(x)", {1, 2, 3}, {},
     {1, std::log(std::exp(1.0) + std::exp(2.0)), std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0))},
     "math_ops.py, cumulative_logsumexp: log(cumsum(exp(x)))"},
    {"conv1d", "tf.reshape(tf.nn.conv1d(tf.reshape(x, [1, 4, 1]), tf.reshape(y, [2, 1, 1]), 1, 'VALID'), [-1])",
     {1, 2, 3, 4}, {1, -1}, {-1, -1, -1}, "nn_ops.py, conv1d: y[i] = x[i] f[0] + x[i + 1] f[1]"},
    {"keras Conv1D", "tf.reshape(tf.keras.layers.Conv1D(1, 2, kernel_initializer='ones')(tf.reshape(x, [1, 3, 2])), [-1])",
     {1, 2, 3, 4, 5, 6}, {}, {10, 18}, "keras/layers/convolutional/conv1d.py"},
    {"keras GlobalMaxPooling2D", "tf.reshape(tf.keras.layers.GlobalMaxPooling2D()(tf.reshape(x, [1, 2, 2, 1])), [-1])",
     {1, 5, 3, 2}, {}, {5}, "keras/layers/pooling/global_max_pooling2d.py"},
    {"switch_case", "tf.switch_case(tf.constant(1), [lambda: x * 2.0, lambda: x * x, lambda: -x])",
     {1.5, -2}, {}, {2.25, 4}, "control_flow_switch_case.py, switch_case: branch 1"},
    {"switch_case default", "tf.switch_case(tf.constant(7), [lambda: x * 2.0, lambda: x * x])",
     {1.5, -2}, {}, {2.25, 4}, "switch_case: an index out of range runs the last branch"},
    {"switch_case python int", "tf.switch_case(0, [lambda: x * 2.0, lambda: x * x], default=lambda: -x)",
     {1.5, -2}, {}, {3, -4}, "switch_case: a Python index picks the branch"},
    {"cumprod", "tf.math.cumprod(x)", {2, 3, 0, 4}, {}, {2, 6, 0, 0},
     "math_ops.py, cumprod docstring: [a, a * b, a * b * c]"},
    {"cumprod exclusive reverse", "tf.math.cumprod(x, exclusive=True, reverse=True)", {2, 3, 5},
     {}, {15, 5, 1}, "math_ops.py, cumprod docstring: exclusive and reverse"},
    {"avg_pool2d valid", "tf.reshape(tf.nn.avg_pool2d(tf.reshape(x, [1, 2, 3, 1]), 2, 1, 'VALID'), [-1])",
     {1, 2, 3, 4, 5, 6}, {}, {3, 4}, "nn_ops.py, avg_pool2d: 2x2 windows"},
    {"avg_pool2d same", "tf.reshape(tf.nn.avg_pool2d(tf.reshape(x, [1, 2, 2, 1]), 2, 1, 'SAME'), [-1])",
     {1, 2, 3, 4}, {}, {2.5, 3, 3.5, 4}, "nn_ops.py, avg_pool2d: SAME does not count the padding"},
    {"avg_pool1d", "tf.reshape(tf.nn.avg_pool1d(tf.reshape(x, [1, 4, 1]), 2, 2, 'VALID'), [-1])",
     {1, 3, 5, 9}, {}, {2, 7}, "nn_ops.py, avg_pool1d"},
    {"keras AveragePooling2D", "tf.reshape(tf.keras.layers.AveragePooling2D()(tf.reshape(x, [1, 2, 4, 1])), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8}, {}, {3.5, 5.5}, "keras/layers/pooling/average_pooling2d.py: pool and stride 2"},
    // conv2d_transpose: each output counts the windows of the matching conv2d that cover it
    // (nn_ops.py, conv2d_transpose: the gradient of conv2d with respect to its input).
    {"conv2d_transpose same stride 2", "tf.reshape(tf.nn.conv2d_transpose(tf.reshape(x, [1, 2, 2, 1]), tf.reshape(y, [3, 3, 1, 1]), [1, 4, 4, 1], 2), [-1])",
     {1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 2, 1, 1, 1, 2, 1, 2, 2, 4, 2, 1, 1, 2, 1},
     "nn_ops.py, conv2d_transpose of ones: SAME, stride 2, rows 0..2 and 2..4 (padded) of a 3-window overlap at row 2",
     {0.5, -1, 2, 0.3}, {1, -0.5, 0.2, 0.7, 1.1, -0.3, 0.4, 0.9, -1.2}},
    {"conv2d_transpose valid", "tf.reshape(tf.nn.conv2d_transpose(tf.reshape(x, [1, 2, 2, 1]), tf.reshape(y, [2, 2, 1, 1]), [1, 3, 3, 1], [1, 1, 1, 1], 'VALID'), [-1])",
     {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 2, 1, 2, 4, 2, 1, 2, 1},
     "nn_ops.py, conv2d_transpose of ones: VALID, stride 1, 2x2 windows", {0.5, -1, 2, 0.3}, {1, -0.5, 0.2, 0.7}},
    {"conv2d_transpose channels", "tf.reshape(tf.nn.conv2d_transpose(tf.reshape(x, [1, 1, 1, 2]), tf.reshape(y, [1, 1, 3, 2]), [1, 1, 1, 3], 1, 'VALID'), [-1])",
     {1, 2}, {1, 2, 3, 4, 5, 6}, {5, 11, 17},
     "nn_ops.py, conv2d_transpose: filters [h, w, output_channels, in_channels], out[o] = sum_c f[o, c] x[c]"},
    // depthwise_conv2d: output channel c * multiplier + m is input channel c convolved with
    // filter[:, :, c, m] (nn_impl.py, depthwise_conv2d).
    {"depthwise_conv2d", "tf.reshape(tf.nn.depthwise_conv2d(tf.reshape(x, [1, 2, 2, 2]), tf.reshape(y, [2, 2, 2, 2]), [1, 1, 1, 1], 'VALID'), [-1])",
     {1, 10, 2, 20, 3, 30, 4, 40}, {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, -1}, {5, 3, 20, -30},
     "nn_impl.py, depthwise_conv2d: out[c * 2 + m] = sum_{i, j} x[i, j, c] f[i, j, c, m]; taps (0,0)+(1,1), (1,0), (0,1), (0,0)-(1,1)"},
    {"depthwise_conv2d same stride 2", "tf.reshape(tf.nn.depthwise_conv2d(tf.reshape(x, [1, 3, 3, 2]), tf.reshape(y, [2, 2, 2, 3]), [1, 2, 2, 1], 'SAME'), [-1])",
     {0.1, 1, 0.2, -1, 0.3, 2, 0.4, 0.5, -0.5, 0.6, 0.7, -0.7, 0.8, 0.9, -0.9, 1.2, 1.3, 0.2}, {0.3, -1, 0.5, 2, 0.1, -0.4, 0.7, 0.2, -0.3, 1.1, 0.6, -0.8, 0.9, 0.4, -0.2, 0.5, 1.3, -0.6, 0.8, 0.25, -0.7, 0.35, 1.4, -0.9}, {0.13, -0.025, 0.26, 1.36, 0.99, -0.44, 0.72, -0.02, 0.01, 3.65, -0.71, -0.38, -0.39, -0.98, 0.67, 3.12, 0.81, -1.32, 0.39, -1.3, 0.65, 0.4, 0.02, -0.08},
     "nn_impl.py, depthwise_conv2d, multiplier 3, SAME, stride 2 (pad bottom/right 1): a direct sum, float64"},
    {"sort", "tf.sort(x)", {1, 10, 26.9, 2.8, 166.32, 62.3}, {}, {1, 2.8, 10, 26.9, 62.3, 166.32},
     "sort_ops.py, sort docstring: [1, 10, 26.9, 2.8, 166.32, 62.3]"},
    {"sort descending axis 0", "tf.reshape(tf.sort(tf.reshape(x, [2, 2]), axis=0, direction='DESCENDING'), [-1])",
     {1, 4, 3, 2}, {}, {3, 4, 1, 2}, "sort_ops.py, sort along axis 0, descending"},
    {"top_k values", "tf.math.top_k(x, k=2)[0]", {1, 10, 26.9, 2.8}, {}, {26.9, 10},
     "nn_ops.py, top_k: the k largest, largest first"},
    {"keras MaxPooling2D valid", "tf.reshape(tf.keras.layers.MaxPooling2D(pool_size=(2, 2), strides=(1, 1))(tf.reshape(x, [1, 3, 3, 1])), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 9}, {}, {5, 6, 8, 9},
     "keras/layers/pooling/max_pooling2d.py docstring: strides (1, 1), valid"},
    {"keras MaxPooling2D same", "tf.reshape(tf.keras.layers.MaxPooling2D(pool_size=(2, 2), strides=(1, 1), padding='same')(tf.reshape(x, [1, 3, 3, 1])), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 9}, {}, {5, 6, 6, 8, 9, 9, 8, 9, 9},
     "keras/layers/pooling/max_pooling2d.py docstring: padding 'same'"},
    {"max_pool2d strides 2", "tf.reshape(tf.nn.max_pool2d(tf.reshape(x, [1, 3, 4, 1]), 2, 2, 'VALID'), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {}, {6, 8},
     "keras/layers/pooling/max_pooling2d.py docstring: a 3x4 input, strides (2, 2)"},
    {"max_pool1d", "tf.reshape(tf.nn.max_pool1d(tf.reshape(x, [1, 5, 1]), 2, 1, 'VALID'), [-1])",
     {1, 2, 3, 4, 5}, {}, {2, 3, 4, 5}, "keras/layers/pooling/max_pooling1d.py docstring"},
    {"dynamic_partition", "tf.concat(tf.dynamic_partition(x, [0, 0, 1, 1, 0], 2), 0)",
     {10, 20, 30, 40, 50}, {}, {10, 20, 50, 30, 40},
     "data_flow_ops: dynamic_partition docstring ([[10, 20, 50], [30, 40]])"},
    {"dynamic_stitch",
     "tf.dynamic_stitch([[6], [4, 1], [[5, 2], [0, 3]]], [x[0:1], x[1:3], tf.reshape(x[3:7], [2, 2])])",
     {61, 41, 11, 51, 21, 1, 31}, {}, {1, 11, 21, 31, 41, 51, 61},
     "data_flow_ops: dynamic_stitch docstring"},
    {"lgamma", "tf.math.lgamma(x)", {0.5, 1, 4.5, -5.6}, {}, {0.5723649, 0, 2.4537368, -4.6477685},
     "math_ops: lgamma docstring ([0, 0.5, 1, 4.5, -4, -5.6], finite entries)", {}, {}, 1e-6},
    {"digamma", "tf.math.digamma(x)", {0.5, 1, 2}, {}, {-1.9635100260214235, -0.5772156649015329, 0.42278433509846713},
     "gen_math_ops Digamma: the derivative of lgamma"},
    {"strided_slice", "tf.reshape(tf.strided_slice(tf.reshape(x, [3, 2, 3]), [1, 0, 0], [2, 2, 3], [1, 1, 1]), [-1])",
     {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6}, {}, {3, 3, 3, 4, 4, 4},
     "array_ops.py, strided_slice docstring: [1, 0, 0] to [2, 2, 3]", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}},
    {"strided_slice negative stride", "tf.reshape(tf.strided_slice(tf.reshape(x, [3, 2, 3]), [1, -1, 0], [2, -3, 3], [1, -1, 1]), [-1])",
     {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6}, {}, {4, 4, 4, 3, 3, 3},
     "array_ops.py, strided_slice docstring: [1, -1, 0] to [2, -3, 3] by [1, -1, 1]", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}},
    {"strided_slice masks", "tf.strided_slice(tf.reshape(x, [2, 3]), [0, 1], [0, 0], [1, 1], end_mask=2, shrink_axis_mask=1)",
     {1, 2, 3, 4, 5, 6}, {}, {2, 3}, "array_ops.py, strided_slice: x[0, 1:]"},
    // Arguments GradLab refused before although TF takes them (#28).
    {"eye batch_shape", "x * tf.reshape(tf.eye(2, batch_shape=[2], dtype=tf.float64), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8}, {}, {1, 0, 0, 4, 5, 0, 0, 8},
     "linalg_ops.py, eye docstring: batch_shape=[3] gives [3, 2, 2] identities"},
    {"gather batch_dims", "tf.reshape(tf.gather(tf.reshape(x, [3, 5]), [[2, 4], [0, 4], [1, 3]], axis=1, batch_dims=1), [-1])",
     {0, 0, 1, 0, 2, 3, 0, 0, 0, 4, 0, 5, 0, 6, 0}, {}, {1, 2, 3, 4, 5, 6},
     "array_ops.py, gather docstring: batch_dims=1 picks [[1, 2], [3, 4], [5, 6]]",
     {0.1, 0.2, 1, 0.3, 2, 3, 0.4, 0.5, 0.6, 4, 0.7, 5, 0.8, 6, 0.9}},
    {"gather batch_dims axis 2", "tf.reshape(tf.gather(tf.reshape(x, [2, 3, 4]), [[0, 3], [1, 2]], axis=2, batch_dims=1), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}, {},
     {1, 4, 5, 8, 9, 12, 14, 15, 18, 19, 22, 23},
     "array_ops.py, gather: out[b, a, j] = params[b, a, indices[b, j]] with batch_dims=1"},
    {"one_hot axis 0", "x * tf.reshape(tf.one_hot([0, 2, 1], 3, axis=0, dtype=tf.float64), [-1])",
     {1, 2, 3, 4, 5, 6, 7, 8, 9}, {}, {1, 0, 0, 0, 0, 6, 0, 8, 0},
     "array_ops.py, one_hot docstring: axis=0 puts the depth axis first"},
    {"one_hot tensor values", "x * tf.reshape(tf.one_hot([0, 2, -1, 1], 3, on_value=tf.constant(5.0, tf.float64), off_value=tf.constant(0.5, tf.float64)), [-1])",
     {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {}, {5, 0.5, 0.5, 0.5, 0.5, 5, 0.5, 0.5, 0.5, 0.5, 5, 0.5},
     "array_ops.py, one_hot docstring: on_value=5.0 (a -1 index is all off_value)"},
    {"linspace batched", "tf.reshape(tf.linspace(x, y, 5, axis=-1), [-1])", {0, 5}, {10, 40},
     {0, 2.5, 5, 7.5, 10, 5, 13.75, 22.5, 31.25, 40},
     "math_ops.py, linspace docstring: start [0, 5], stop [10, 40], axis=-1"},
    {"linspace batched axis 0", "tf.reshape(tf.linspace(x, y, 3), [-1])", {0, 5}, {10, 40},
     {0, 5, 5, 22.5, 10, 40}, "math_ops.py, linspace docstring: axis=0 stacks the points first"},
    {"norm ord 1", "tf.norm(x, ord=1)", {1, -2, 3}, {}, {6}, "linalg_ops.py, norm: sum |x|"},
    {"norm ord 3", "tf.norm(x, ord=3)", {1, -2, 3}, {}, {std::cbrt(36.0)},
     "linalg_ops.py, norm: (sum |x|^p)^(1/p)"},
    {"norm ord inf", "tf.norm(tf.reshape(x, [2, 2]), ord=float('inf'), axis=1)", {1, -2, 3, 4}, {}, {2, 4},
     "linalg_ops.py, norm: max |x| for vectors"},
    {"norm matrix ord 1", "tf.norm(tf.reshape(x, [2, 2]), ord=1, axis=[0, 1])", {1, -2, 3, 4}, {}, {6},
     "linalg_ops.py, norm: the largest column sum of |x|"},
    {"norm matrix ord 2", "tf.norm(tf.reshape(x, [2, 2]), ord=2, axis=[0, 1])", {3, 0, 4, 5}, {},
     {std::sqrt(45.0)}, "linalg_ops.py, norm: ord=2 is the largest singular value ([[3, 0], [4, 5]]: sqrt(45))"},
    {"norm matrix ord inf", "tf.norm(tf.reshape(x, [2, 2]), ord=float('inf'), axis=[-2, -1], keepdims=True)",
     {1, -2, 3, 4}, {}, {7}, "linalg_ops.py, norm: the largest row sum of |x|"},
    {"pad REFLECT", "tf.reshape(tf.pad(tf.reshape(x, [2, 3]), [[1, 1], [2, 2]], mode='REFLECT'), [-1])",
     {1, 2, 3, 4, 5, 6}, {},
     {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1},
     "array_ops.py, pad docstring, mode 'REFLECT'"},
    {"pad SYMMETRIC", "tf.reshape(tf.pad(tf.reshape(x, [2, 3]), [[1, 1], [2, 2]], mode='symmetric'), [-1])",
     {1, 2, 3, 4, 5, 6}, {},
     {2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5},
     "array_ops.py, pad docstring, mode 'SYMMETRIC' (the mode is case-insensitive)"},
    {"pad constant_values", "tf.pad(x, [[1, 2]], constant_values=9)", {1, 2}, {}, {9, 1, 2, 9, 9},
     "array_ops.py, pad: constant_values fills the padding"},
    {"matmul adjoint_b", "tf.reshape(tf.matmul(tf.reshape(x, [2, 2]), tf.reshape(y, [2, 2]), adjoint_b=True), [-1])",
     {1, 2, 3, 4}, {5, 6, 7, 8}, {17, 23, 39, 53}, "math_ops.py, matmul: adjoint_b is b's transpose for reals"},
    {"keras relu alpha", "tf.keras.activations.relu(x, alpha=0.5)", {-10, -5, 0, 5, 10}, {},
     {-5, -2.5, 0, 5, 10}, "keras/activations.py, relu docstring", {-10, -5, 0.5, 5, 10}},
    {"keras relu max_value", "tf.keras.activations.relu(x, max_value=5.0)", {-10, -5, 0, 5, 10}, {},
     {0, 0, 0, 5, 5}, "keras/activations.py, relu docstring", {-10, -5, 0.5, 4.5, 10}},
    {"keras relu threshold", "tf.keras.activations.relu(x, threshold=5.0)", {-10, -5, 0, 5, 10}, {},
     {0, 0, 0, 0, 10}, "keras/activations.py, relu docstring", {-10, -5, 0.5, 4.5, 10}},
    {"keras relu all options", "tf.keras.activations.relu(x, alpha=0.5, max_value=6.0, threshold=1.0)",
     {-3, 0.5, 2, 8}, {}, {-2, -0.25, 2, 6}, "keras backend.relu: x * (x > t) capped, minus alpha * relu(t - x)"},
};
// clang-format on

std::string list(const std::vector<double>& v) {
  std::ostringstream os;
  os.precision(17);
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  return os.str() + "]";
}

std::string script(const Case& c, const std::vector<double>& x, const std::vector<double>& y) {
  std::string s = "x = tf.constant(" + list(x) + ", dtype=tf.float64)\n";
  if (!y.empty()) s += "y = tf.constant(" + list(y) + ", dtype=tf.float64)\n";
  s += "with tf.GradientTape(persistent=True) as tape:\n    tape.watch(x)\n";
  if (!y.empty()) s += "    tape.watch(y)\n";
  s += std::string("    out = ") + c.expr + "\n    loss = tf.reduce_sum(tf.sin(out))\n";
  s += "gx = tape.gradient(loss, x)\n";
  if (!y.empty()) s += "gy = tape.gradient(loss, y)\n";
  return s;
}

Value outputValue(const TracedProgram& p, const std::string& name) {
  for (const Output& o : p.variants.at(0).outputs)
    if (o.name == name) return o.entries.at(0).value;
  return {};
}

// The named outputs of the case's script at x, y.
std::vector<Tensor> run(const Case& c, const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<std::string>& names) {
  const TracedProgram p = traceProgram(script(c, x, y), "case.gls");
  std::vector<Value> fetches;
  for (const auto& n : names) fetches.push_back(outputValue(p, n));
  for (size_t i = 0; i < fetches.size(); ++i)
    if (!fetches[i].valid()) throw EngineError(names[i] + " is None");
  return gltest::runEveryExecutor(*p.graph, fetches, 1e-12);
}

double lossAt(const Case& c, const std::vector<double>& x, const std::vector<double>& y) {
  return run(c, x, y, {"loss"}).at(0).item();
}

}  // namespace

class TestTfApiGrads : public QObject {
  Q_OBJECT
 private slots:
  void composite_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kCases)); ++i) QTest::newRow(kCases[i].name) << i;
  }

  void composite() {
    QFETCH(int, index);
    const Case& c = kCases[index];
    std::vector<std::string> names{"out", "gx"};
    if (!c.y.empty()) names.push_back("gy");
    std::vector<Tensor> v;
    try {
      v = run(c, c.x, c.y, names);
    } catch (const EngineError& e) {
      QFAIL(e.what());
    }
    // TF's values.
    QCOMPARE(v[0].numel(), int64_t(c.want.size()));
    for (size_t i = 0; i < c.want.size(); ++i)
      QVERIFY2(
          std::abs(v[0].at(int64_t(i)) - c.want[i]) <= c.tol * std::max(1.0, std::abs(c.want[i])),
          qPrintable(QString("%1: out[%2] = %3, TF (%4): %5")
                         .arg(c.name)
                         .arg(i)
                         .arg(v[0].at(int64_t(i)), 0, 'g', 10)
                         .arg(c.source)
                         .arg(c.want[i], 0, 'g', 10)));
    // The gradient against central differences.
    const std::vector<double> px = c.fdx.empty() ? c.x : c.fdx, py = c.fdy.empty() ? c.y : c.fdy;
    if (px != c.x || py != c.y) v = run(c, px, py, names);
    const double h = 1e-6;
    for (int side = 0; side < (c.y.empty() ? 1 : 2); ++side) {
      const Tensor& g = v[size_t(1 + side)];
      const std::vector<double>& base = side == 0 ? px : py;
      QCOMPARE(g.numel(), int64_t(base.size()));
      for (size_t i = 0; i < base.size(); ++i) {
        std::vector<double> up = base, down = base;
        up[i] += h;
        down[i] -= h;
        const double fd = side == 0 ? (lossAt(c, up, py) - lossAt(c, down, py)) / (2 * h)
                                    : (lossAt(c, px, up) - lossAt(c, px, down)) / (2 * h);
        const double got = g.at(int64_t(i));
        QVERIFY2(std::abs(got - fd) <= 1e-5 * std::max(1.0, std::abs(fd)),
                 qPrintable(QString("%1: d loss / d %2[%3] = %4, finite differences %5")
                                .arg(c.name)
                                .arg(side == 0 ? "x" : "y")
                                .arg(i)
                                .arg(got, 0, 'g', 10)
                                .arg(fd, 0, 'g', 10)));
      }
    }
  }

  // The gradients TF refuses, refused with the reason and the line: qr with full_matrices and
  // m > n (linalg_grad.py, _QrGrad), svd with full_matrices and m != n (TF: |m - n| > 1).
  void decompositionGradientRefusals_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("reason");
    QTest::newRow("qr full deep") << "tf.linalg.qr(x, full_matrices=True)[0]"
                                  << "full_matrices=True";
    QTest::newRow("svd full wide") << "tf.linalg.svd(tf.transpose(x), full_matrices=True)[1]"
                                   << "full_matrices=True";
  }
  void decompositionGradientRefusals() {
    QFETCH(QString, expr);
    QFETCH(QString, reason);
    const std::string src =
        "x = tf.constant([[1.0, 4.0], [2.0, 5.0], [3.0, 7.0]])\n"
        "with tf.GradientTape() as tape:\n    tape.watch(x)\n"
        "    y = " +
        expr.toStdString() +
        "\n"
        "g = tape.gradient(y, x)\n";
    const std::string e = gltest::errorText([&] { traceProgram(src, "r.gls"); });
    QVERIFY2(e.find(reason.toStdString()) != std::string::npos, e.c_str());
    QVERIFY2(e.find("r.gls:5") != std::string::npos || e.find("line 5") != std::string::npos,
             e.c_str());
  }

  // Integer and bool results: argmin (math_ops.py docstring: argmin of [1, 10, 26.9, 2.8,
  // 166.32, 62.3] is 0) and sequence_mask (array_ops.py docstring: sequence_mask([1, 3, 2], 5)).
  void integerResults() {
    const char* src = R"(
a = tf.math.argmin(input=tf.constant([1, 10, 26.9, 2.8, 166.32, 62.3]))
c = tf.argmin(tf.constant([[3.0, 1.0], [0.5, 2.0]]), axis=1)
m = tf.sequence_mask([1, 3, 2], 5)
)";
    const TracedProgram p = traceProgram(src, "i.gls");
    const auto v = gltest::runEveryExecutor(
        *p.graph, {outputValue(p, "a"), outputValue(p, "c"), outputValue(p, "m")}, 0);
    QCOMPARE(v[0].item(), 0.0);
    QCOMPARE(v[1].at(0), 1.0);
    QCOMPARE(v[1].at(1), 0.0);
    const std::vector<double> mask{1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0};
    QCOMPARE(v[2].shape(), (Shape{3, 5}));
    for (size_t i = 0; i < mask.size(); ++i) QCOMPARE(v[2].at(int64_t(i)), mask[i]);
  }

  // Integer arithmetic TF accepts (math_ops.py): int32 matmul, pow and reduce_mean (the mean
  // truncates toward zero, as TF's integer division of the sum does); tf.range over floats
  // (math_ops.py, range: a float bound makes a float32 range); one-argument tf.where
  // (array_ops.py docstring: the coordinates of the true entries); tf.random.normal with a
  // tensor mean (random_ops.py: z * stddev + mean).
  void argumentsTfAccepts() {
    const char* src = R"(
mm = tf.matmul(tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]]))
pw = tf.pow(tf.constant([2, 3, -2]), tf.constant([3, 2, 3]))
sq = tf.constant([2, 3]) ** 2
mean = tf.reduce_mean(tf.constant([1, 2, 4]))
neg = tf.reduce_mean(tf.constant([[-1, -2], [3, 4]]), axis=1)
r = tf.range(0.0, 1.0, 0.25)
r2 = tf.range(3, 18, 3.0)
w = tf.where([[True, False], [False, True]])
rn = tf.random.normal([20000], mean=tf.constant(3.0, tf.float64), stddev=tf.constant(0.5, tf.float64), dtype=tf.float64, seed=1)
ru = tf.random.uniform([20000], minval=tf.constant(-1.0), maxval=tf.constant(3.0), seed=2)
)";
    const TracedProgram p = traceProgram(src, "a.gls");
    std::vector<Value> f;
    for (const char* n : {"mm", "pw", "sq", "mean", "neg", "r", "r2", "w", "rn", "ru"})
      f.push_back(outputValue(p, n));
    const auto v = gltest::runEveryExecutor(*p.graph, f, 0);
    auto expect = [](const Tensor& t, DType dt, const Shape& s, const std::vector<double>& want) {
      QCOMPARE(t.dtype(), dt);
      QCOMPARE(t.shape(), s);
      for (size_t i = 0; i < want.size(); ++i) QCOMPARE(t.at(int64_t(i)), want[i]);
    };
    expect(v[0], DType::I32, {2, 2}, {19, 22, 43, 50});
    expect(v[1], DType::I32, {3}, {8, 9, -8});
    expect(v[2], DType::I32, {2}, {4, 9});
    expect(v[3], DType::I32, {}, {2});
    expect(v[4], DType::I32, {2}, {-1, 3});
    expect(v[5], DType::F32, {4}, {0, 0.25, 0.5, 0.75});
    expect(v[6], DType::F32, {5}, {3, 6, 9, 12, 15});
    expect(v[7], DType::I32, {2, 2}, {0, 0, 1, 1});
    double sum = 0, lo = 1e9, hi = -1e9;
    for (int64_t i = 0; i < 20000; ++i) sum += v[8].at(i);
    QVERIFY(std::abs(sum / 20000 - 3.0) < 0.02);
    for (int64_t i = 0; i < 20000; ++i)
      lo = std::min(lo, v[9].at(i)), hi = std::max(hi, v[9].at(i));
    QVERIFY(lo >= -1 && lo < -0.99 && hi < 3 && hi > 2.99);
    // TF: "Integers to negative integer powers are not allowed".
    const std::string err = gltest::errorText([] {
      const TracedProgram q =
          traceProgram("p = tf.pow(tf.constant([2]), tf.constant([-1]))\n", "n.gls");
      gltest::runEveryExecutor(*q.graph, {outputValue(q, "p")}, 0);
    });
    QVERIFY2(err.find("negative integer powers") != std::string::npos, err.c_str());
  }

  // Random draws: TF's distributions (values differ from TF's generator). dropout keeps each
  // entry with probability 1 - rate, scaled by 1 / (1 - rate), and its gradient is that mask;
  // truncated_normal stays within two standard deviations; a stateless draw is a function of
  // its seed.
  void randomDraws() {
    const char* src = R"(
x = tf.ones([20000], dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    d = tf.nn.dropout(x, rate=0.25, seed=3)
g = tape.gradient(d, x)
t = tf.random.truncated_normal([20000], mean=1.0, stddev=2.0, dtype=tf.float64, seed=4)
s1 = tf.random.stateless_normal([5], seed=[1, 2])
s2 = tf.random.stateless_normal([5], seed=[1, 2])
s3 = tf.random.stateless_uniform([5], seed=[1, 3])
z = tf.zeros([3])
for i in tf.range(2):
    z = z + tf.random.stateless_normal([3], seed=[5, 6]) * tf.cast(2 * i - 1, tf.float32)
)";
    const TracedProgram p = traceProgram(src, "r.gls");
    std::vector<Value> f;
    for (const char* n : {"d", "g", "t", "s1", "s2", "s3", "z"}) f.push_back(outputValue(p, n));
    const auto v = gltest::runEveryExecutor(*p.graph, f, 0);
    int64_t kept = 0;
    for (int64_t i = 0; i < v[0].numel(); ++i) {
      const double d = v[0].at(i);
      QVERIFY2(d == 0 || std::abs(d - 4.0 / 3) < 1e-12, "dropout scales kept entries by 4/3");
      QCOMPARE(v[1].at(i), d);  // d = x * mask / 0.75 with x = 1: the gradient is d itself
      kept += d != 0;
    }
    QVERIFY2(std::abs(double(kept) / 20000 - 0.75) < 0.02, qPrintable(QString::number(kept)));
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < v[2].numel(); ++i) {
      const double z = v[2].at(i);
      QVERIFY(std::abs(z - 1.0) <= 4.0);
      sum += z;
      sq += (z - 1) * (z - 1);
    }
    // A unit normal truncated at +-2 has standard deviation 0.8796.
    QVERIFY(std::abs(sum / 20000 - 1.0) < 0.05);
    QVERIFY(std::abs(std::sqrt(sq / 20000) - 2 * 0.8796) < 0.05);
    for (int64_t i = 0; i < 5; ++i) QCOMPARE(v[3].at(i), v[4].at(i));
    QVERIFY(v[3].at(0) != v[5].at(0));
    // The same draw in both iterations of a loop: -s + s = 0.
    for (int64_t i = 0; i < 3; ++i) QCOMPARE(v[6].at(i), 0.0);
    // And again: a stateless draw gives the same numbers in another run.
    const auto again = gltest::runEveryExecutor(*p.graph, {f[3]}, 0);
    for (int64_t i = 0; i < 5; ++i) QCOMPARE(again[0].at(i), v[3].at(i));
  }

  // Keras Dropout with training=True keeps entries with probability 1 - rate, scaled by
  // 1 / (1 - rate) (dropout.py docstring: rate 0.2 scales kept entries by 1.25); an Embedding
  // layer gathers rows of its [input_dim, output_dim] weights, uniform in [-0.05, 0.05].
  void kerasLayersWithState() {
    const char* src = R"(
x = tf.ones([4000])
d = tf.keras.layers.Dropout(0.2)(x, training=True)
e = tf.keras.layers.Embedding(10, 3)
v = e(tf.constant([[1, 2], [2, 9]]))
w = e.trainable_variables[0]
)";
    const TracedProgram p = traceProgram(src, "k.gls");
    const auto v = gltest::runEveryExecutor(
        *p.graph, {outputValue(p, "d"), outputValue(p, "v"), outputValue(p, "w")}, 0);
    int64_t kept = 0;
    for (int64_t i = 0; i < v[0].numel(); ++i) {
      QVERIFY(v[0].at(i) == 0 || std::abs(v[0].at(i) - 1.25) < 1e-6);
      kept += v[0].at(i) != 0;
    }
    QVERIFY2(std::abs(double(kept) / 4000 - 0.8) < 0.03, qPrintable(QString::number(kept)));
    QCOMPARE(v[1].shape(), (Shape{2, 2, 3}));
    QCOMPARE(v[2].shape(), (Shape{10, 3}));
    const int rows[4] = {1, 2, 2, 9};
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 3; ++j) {
        QCOMPARE(v[1].at(k * 3 + j), v[2].at(rows[k] * 3 + j));
        QVERIFY(std::abs(v[2].at(rows[k] * 3 + j)) <= 0.05);
      }
  }

  // check_numerics fails with its message where a value is not finite (check_ops.py:
  // "message : Tensor had NaN values"); categorical draws class k with probability
  // softmax(logits)_k (random_ops.py, categorical).
  void checksAndSampling() {
    const char* bad = R"(
x = tf.constant([1.0, 0.0])
y = tf.debugging.check_numerics(tf.math.log(x) * x, "log of x")
z = y + 1.0
)";
    const TracedProgram p = traceProgram(bad, "c.gls");
    QString error;
    try {
      evaluate(*p.graph, {outputValue(p, "z")});
    } catch (const EngineError& e) {
      error = e.what();
    }
    QVERIFY2(error.contains("log of x : Tensor had NaN values"), qPrintable(error));
    const char* src = R"(
c = tf.random.categorical(tf.math.log([[0.2, 0.8]]), 20000, seed=5)
)";
    const TracedProgram q = traceProgram(src, "s.gls");
    const Tensor c = gltest::runEveryExecutor(*q.graph, {outputValue(q, "c")}, 0).at(0);
    QCOMPARE(c.shape(), (Shape{1, 20000}));
    QCOMPARE(c.dtype(), DType::I32);
    double ones = 0;
    for (int64_t i = 0; i < c.numel(); ++i) ones += c.at(i);
    QVERIFY2(std::abs(ones / 20000 - 0.8) < 0.02, qPrintable(QString::number(ones)));
  }

  // argsort (sort_ops.py docstring: argsort([1, 10, 26.9, 2.8, 166.32, 62.3]) = [0 3 1 2 5 4]),
  // top_k's indices, and shuffle (a permutation of the rows).
  void sortIndices() {
    const char* src = R"(
i = tf.argsort([1, 10, 26.9, 2.8, 166.32, 62.3])
j = tf.argsort([1, 10, 26.9, 2.8, 166.32, 62.3], direction="DESCENDING")
k = tf.math.top_k([1.0, 10.0, 26.9, 2.8], k=2)[1]
s = tf.random.shuffle(tf.range(50), seed=7)
)";
    const TracedProgram p = traceProgram(src, "o.gls");
    const auto v = gltest::runEveryExecutor(
        *p.graph,
        {outputValue(p, "i"), outputValue(p, "j"), outputValue(p, "k"), outputValue(p, "s")}, 0);
    const std::vector<double> asc{0, 3, 1, 2, 5, 4}, desc{4, 5, 2, 1, 3, 0}, top{2, 1};
    for (size_t n = 0; n < asc.size(); ++n) QCOMPARE(v[0].at(int64_t(n)), asc[n]);
    for (size_t n = 0; n < desc.size(); ++n) QCOMPARE(v[1].at(int64_t(n)), desc[n]);
    for (size_t n = 0; n < top.size(); ++n) QCOMPARE(v[2].at(int64_t(n)), top[n]);
    std::vector<double> seen = v[3].toVector();
    QVERIFY(seen != [] {
      std::vector<double> r(50);
      std::iota(r.begin(), r.end(), 0);
      return r;
    }());
    std::sort(seen.begin(), seen.end());
    for (int n = 0; n < 50; ++n) QCOMPARE(seen[size_t(n)], double(n));
    // unique (array_ops.py docstring): y = [1, 2, 4, 7, 8], idx = [0, 0, 1, 2, 2, 2, 3, 4, 4].
    const TracedProgram u =
        traceProgram("y, idx = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])\n", "u.gls");
    const auto w =
        gltest::runEveryExecutor(*u.graph, {outputValue(u, "y"), outputValue(u, "idx")}, 0);
    QCOMPARE(w[0].toVector(), (std::vector<double>{1, 2, 4, 7, 8}));
    QCOMPARE(w[1].toVector(), (std::vector<double>{0, 0, 1, 2, 2, 2, 3, 4, 4}));
  }

  // Predicates: bool results, TF's values (math_ops is_nan / is_inf / is_finite docstrings).
  void predicates() {
    const char* src = R"(
x = tf.constant([5.0, float("nan"), float("inf"), -float("inf"), 0.0])
n = tf.math.is_nan(x)
i = tf.math.is_inf(x)
f = tf.math.is_finite(x)
b = tf.math.logical_xor(tf.constant([True, True, False]), tf.constant([True, False, False]))
)";
    const TracedProgram p = traceProgram(src, "p.gls");
    const auto v = gltest::runEveryExecutor(
        *p.graph,
        {outputValue(p, "n"), outputValue(p, "i"), outputValue(p, "f"), outputValue(p, "b")}, 0);
    const std::vector<std::vector<double>> want{
        {0, 1, 0, 0, 0}, {0, 0, 1, 1, 0}, {1, 0, 0, 0, 1}, {0, 1, 0}};
    for (size_t k = 0; k < want.size(); ++k) {
      QCOMPARE(v[k].dtype(), DType::Bool);
      for (size_t i = 0; i < want[k].size(); ++i) QCOMPARE(v[k].at(int64_t(i)), want[k][i]);
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestTfApiGrads)
#include "test_tf_api_grads.moc"
