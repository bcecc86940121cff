#pragma once
// Seeded random numbers so that every run of a lesson is reproducible.
#include <cstdint>

#include "engine/tensor/tensor.h"

namespace gl {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next();   // splitmix64
  double uniform();  // [0, 1)
  double normal();   // standard normal (Box-Muller)
  Tensor normal(const Shape& s, double mean, double stddev, DType dt);
  Tensor uniform(const Shape& s, double lo, double hi, DType dt);

 private:
  uint64_t state_;
};

}  // namespace gl
