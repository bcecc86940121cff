#include "engine/tensor/moments.h"

#include <cfloat>
#include <limits>

namespace gl {

namespace {

// The scalar definition; also the tail of the lane loops.
template <class T>
void addScalar(Moments& m, const T* p, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    const double v = static_cast<double>(p[i]);
    m.min = v < m.min ? v : m.min;  // a NaN compares false: skipped
    m.max = v > m.max ? v : m.max;
    m.sum += v;
    m.squares += v * v;
  }
}

// Finite sums mean no NaN or Inf went in (a float's square cannot overflow a double), so the
// counting pass runs only when there is something to count.
template <class T>
void countNonFinite(Moments& m, const T* p, int64_t n) {
  if (std::isfinite(m.sum) && std::isfinite(m.squares)) return;
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(p[i]);
    m.nan += v != v;
    m.inf += std::abs(v) == INFINITY;
  }
}

// Sixteen independent lanes, written so that the compiler vectorizes them at the engine's
// -march=native width without reassociating anything (no -ffast-math): 0.08 ns per float here
// against 0.98 for one dependent chain (50000 floats, AVX-512 Xeon). Min and max stay in T;
// the sums are double.
template <class T>
Moments lanes(const T* p, int64_t n) {
  constexpr int kLanes = 16;
  T mn[kLanes], mx[kLanes];
  double sum[kLanes], sq[kLanes];
  for (int k = 0; k < kLanes; ++k) {
    mn[k] = std::numeric_limits<T>::infinity();
    mx[k] = -std::numeric_limits<T>::infinity();
    sum[k] = sq[k] = 0;
  }
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k) {
      const T v = p[i + k];
      mn[k] = v < mn[k] ? v : mn[k];
      mx[k] = v > mx[k] ? v : mx[k];
      const double d = v;
      sum[k] += d;
      sq[k] += d * d;
    }
  Moments m;
  for (int k = 0; k < kLanes; ++k) {
    m.min = mn[k] < m.min ? mn[k] : m.min;
    m.max = mx[k] > m.max ? mx[k] : m.max;
    m.sum += sum[k];
    m.squares += sq[k];
  }
  addScalar(m, p, i, n);
  countNonFinite(m, p, n);
  return m;
}

// The largest exponent (exponentBits): vectorizes without a dependency on compares, twice as
// fast here as an OR of compare masks.
template <class T>
bool finite(const T* p, int64_t n) {
  decltype(exponentBits(T{})) top = 0;
  for (int64_t i = 0; i < n; ++i) {
    const auto b = exponentBits(p[i]);
    top = b > top ? b : top;
  }
  return top != kNonFiniteExponent<T>;
}

}  // namespace

Moments momentsOf(const float* p, int64_t n) { return lanes(p, n); }
Moments momentsOf(const double* p, int64_t n) { return lanes(p, n); }
Moments momentsOf(const int32_t* p, int64_t n) {
  Moments m;
  addScalar(m, p, 0, n);
  return m;
}
Moments momentsOf(const uint8_t* p, int64_t n) {
  Moments m;
  addScalar(m, p, 0, n);
  return m;
}
bool allFinite(const float* p, int64_t n) { return finite(p, n); }
bool allFinite(const double* p, int64_t n) { return finite(p, n); }

}  // namespace gl
