#pragma once
// One pass over a buffer for the summaries the window and the report show (min, max, sum, sum
// of squares, NaN and Inf counts), and an all-finite check for the NaN/Inf watch. The window
// records every loop variable at every step, so these run over every value a run produces.
#include <cmath>
#include <cstdint>

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

}  // namespace gl
