#pragma once
// One pass over a buffer for the summaries the window and the report show (min, max, sum, sum
// of squares, NaN and Inf counts), and an all-finite check for the NaN/Inf watch. The window
// records every loop variable at every step, so these run over every value a run produces.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gl {

struct Moments {
  double min = INFINITY, max = -INFINITY;  // NaN skipped; both stay +-inf when all are NaN
  double sum = 0, squares = 0;             // NaN and Inf included
  int64_t nan = 0, inf = 0;
};

Moments momentsOf(const float* p, int64_t n);
Moments momentsOf(const double* p, int64_t n);

// Integers and bools (no NaN or Inf): the scalar loop.
Moments momentsOf(const int32_t* p, int64_t n);
Moments momentsOf(const uint8_t* p, int64_t n);

bool allFinite(const float* p, int64_t n);
bool allFinite(const double* p, int64_t n);

// The exponent bits of a float or double, all ones exactly when it is a NaN or an Inf: the
// largest over an array says whether all of it is finite, in integer AND and MAX only (no
// arithmetic on the values: a denormal operand can cost a microcode assist).
template <class T>
constexpr auto exponentBits(T v) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  return Bits(std::bit_cast<Bits>(v) &
              (sizeof(T) == 4 ? Bits(0x7f800000u) : Bits(0x7ff0000000000000ull)));
}
template <class T>
inline constexpr auto kNonFiniteExponent = exponentBits(std::numeric_limits<T>::infinity());

}  // namespace gl
