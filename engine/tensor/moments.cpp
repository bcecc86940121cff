#include "engine/tensor/moments.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gl {

namespace {

// The scalar definition; also the tail of the vector loops and the NaN/Inf count.
template <class T>
void addScalar(Moments& m, const T* p, int64_t begin, int64_t end, bool countNonFinite) {
  for (int64_t i = begin; i < end; ++i) {
    const double v = static_cast<double>(p[i]);
    if (countNonFinite) {
      m.nan += v != v;
      m.inf += std::abs(v) == INFINITY;
    }
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

}  // namespace

Moments momentsOf(const float* p, int64_t n) {
  Moments m;
  int64_t i = 0;
#if defined(__SSE2__)
  // Eight floats a step: min/max in float lanes (minps keeps its second operand when the first
  // is NaN, which skips NaN exactly as the scalar compare does), sums in eight double lanes.
  __m128 mn0 = _mm_set1_ps(INFINITY), mn1 = mn0, mx0 = _mm_set1_ps(-INFINITY), mx1 = mx0;
  __m128d s0 = _mm_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, q0 = s0, q1 = s0, q2 = s0, q3 = s0;
  for (; i + 8 <= n; i += 8) {
    const __m128 a = _mm_loadu_ps(p + i), b = _mm_loadu_ps(p + i + 4);
    mn0 = _mm_min_ps(a, mn0);
    mn1 = _mm_min_ps(b, mn1);
    mx0 = _mm_max_ps(a, mx0);
    mx1 = _mm_max_ps(b, mx1);
    const __m128d a0 = _mm_cvtps_pd(a), a1 = _mm_cvtps_pd(_mm_movehl_ps(a, a));
    const __m128d b0 = _mm_cvtps_pd(b), b1 = _mm_cvtps_pd(_mm_movehl_ps(b, b));
    s0 = _mm_add_pd(s0, a0);
    s1 = _mm_add_pd(s1, a1);
    s2 = _mm_add_pd(s2, b0);
    s3 = _mm_add_pd(s3, b1);
    q0 = _mm_add_pd(q0, _mm_mul_pd(a0, a0));
    q1 = _mm_add_pd(q1, _mm_mul_pd(a1, a1));
    q2 = _mm_add_pd(q2, _mm_mul_pd(b0, b0));
    q3 = _mm_add_pd(q3, _mm_mul_pd(b1, b1));
  }
  alignas(16) float lo[8], hi[8];
  alignas(16) double sums[8], squares[8];
  _mm_store_ps(lo, mn0);
  _mm_store_ps(lo + 4, mn1);
  _mm_store_ps(hi, mx0);
  _mm_store_ps(hi + 4, mx1);
  _mm_store_pd(sums, s0);
  _mm_store_pd(sums + 2, s1);
  _mm_store_pd(sums + 4, s2);
  _mm_store_pd(sums + 6, s3);
  _mm_store_pd(squares, q0);
  _mm_store_pd(squares + 2, q1);
  _mm_store_pd(squares + 4, q2);
  _mm_store_pd(squares + 6, q3);
  for (int k = 0; k < 8; ++k) {
    m.min = lo[k] < m.min ? lo[k] : m.min;
    m.max = hi[k] > m.max ? hi[k] : m.max;
    m.sum += sums[k];
    m.squares += squares[k];
  }
#endif
  addScalar(m, p, i, n, false);
  countNonFinite(m, p, n);
  return m;
}

Moments momentsOf(const double* p, int64_t n) {
  // Four independent lanes: no dependent add chain per element.
  Moments lane[4];
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) addScalar(lane[k], p, i + k, i + k + 1, true);
  Moments m;
  addScalar(m, p, i, n, true);
  for (const Moments& l : lane) {
    m.min = l.min < m.min ? l.min : m.min;
    m.max = l.max > m.max ? l.max : m.max;
    m.sum += l.sum;
    m.squares += l.squares;
    m.nan += l.nan;
    m.inf += l.inf;
  }
  return m;
}

bool allFinite(const float* p, int64_t n) {
  int64_t i = 0;
#if defined(__SSE2__)
  // x * 0 is 0 for every finite x and NaN for NaN and +-Inf; NaN stays in the sum.
  const __m128 zero = _mm_setzero_ps();
  __m128 acc0 = zero, acc1 = zero;
  for (; i + 8 <= n; i += 8) {
    acc0 = _mm_add_ps(acc0, _mm_mul_ps(_mm_loadu_ps(p + i), zero));
    acc1 = _mm_add_ps(acc1, _mm_mul_ps(_mm_loadu_ps(p + i + 4), zero));
  }
  const __m128 acc = _mm_add_ps(acc0, acc1);
  if (_mm_movemask_ps(_mm_cmpunord_ps(acc, acc)) != 0) return false;
#endif
  for (; i < n; ++i)
    if (!std::isfinite(p[i])) return false;
  return true;
}

bool allFinite(const double* p, int64_t n) {
  double acc[4] = {0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) acc[k] += p[i + k] * 0.0;
  for (; i < n; ++i) acc[0] += p[i] * 0.0;
  return std::isfinite(acc[0] + acc[1] + acc[2] + acc[3]);
}

}  // namespace gl
