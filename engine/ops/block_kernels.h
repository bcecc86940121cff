#pragma once
// Block functions of elementwise registry entries (ElementwiseBlock in registry.h): the same
// math as the entries' own kernels, applied to one block of a fused program's registers.
// Array forms take the Eigen expression the entry's kernel uses (so exp, tanh, ... round the
// same way); scalar forms the entry's per-element lambda. Bool values are 0/1 of the type.
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"

namespace gl::blocks {

template <class T, class F>
void arrayUnary(T* out, const T* const* in, int n) {
  kern::ArrayMap<T>(out, n) = F{}(kern::ConstArrayMap<T>(in[0], n));
}

// Fused programs never write a register they read (transform/fusion.h), so outputs do not
// alias inputs: the loops vectorise without run-time overlap checks.
template <class T, class F>
void scalarUnary(T* __restrict out, const T* const* in, int n) {
  const T* __restrict a = in[0];
  for (int i = 0; i < n; ++i) out[i] = F{}(a[i]);
}

template <class T, class F>
void scalarBinary(T* __restrict out, const T* const* in, int n) {
  const T* __restrict a = in[0];
  const T* __restrict b = in[1];
  for (int i = 0; i < n; ++i) out[i] = F{}(a[i], b[i]);
}

template <class T, class F>
void predicate(T* __restrict out, const T* const* in, int n) {
  const T* __restrict a = in[0];
  const T* __restrict b = in[1];
  for (int i = 0; i < n; ++i) out[i] = F{}(a[i], b[i]) ? T(1) : T(0);
}

template <class T>
void select(T* __restrict out, const T* const* in, int n) {
  const T* __restrict c = in[0];
  const T* __restrict a = in[1];
  const T* __restrict b = in[2];
  for (int i = 0; i < n; ++i) out[i] = c[i] != T(0) ? a[i] : b[i];
}

// f maps an Eigen array expression: [](const auto& x) { return x.exp(); }.
template <class F>
ElementwiseBlock array(F) {
  return {&arrayUnary<float, F>, &arrayUnary<double, F>};
}
// f maps one value: [](auto x) { return -x; }.
template <class F>
ElementwiseBlock unary(F) {
  return {&scalarUnary<float, F>, &scalarUnary<double, F>};
}
// f maps two values of the same type.
template <class F>
ElementwiseBlock binary(F) {
  return {&scalarBinary<float, F>, &scalarBinary<double, F>};
}
// f compares two values; the block holds 1 where true.
template <class F>
ElementwiseBlock compare(F) {
  return {&predicate<float, F>, &predicate<double, F>, true};
}
inline ElementwiseBlock where() { return {&select<float>, &select<double>}; }
inline ElementwiseBlock copy() {
  return unary([](auto x) { return x; });
}

}  // namespace gl::blocks
