#pragma once
// Eigen's dense headers, included under one guard: GCC 12 reports false "may be used
// uninitialized" warnings inside Eigen's AVX-512 packing code (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
