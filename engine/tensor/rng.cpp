#include "engine/tensor/rng.h"

#include <cmath>

namespace gl {

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Rng::uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }

double Rng::normal() {
  double u1 = uniform(), u2 = uniform();
  if (u1 < 1e-300) u1 = 1e-300;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

Tensor Rng::normal(const Shape& s, double mean, double stddev, DType dt) {
  Tensor t = Tensor::empty(dt, s);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, mean + stddev * normal());
  return t;
}

Tensor Rng::uniform(const Shape& s, double lo, double hi, DType dt) {
  Tensor t = Tensor::empty(dt, s);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = lo + (hi - lo) * uniform();
    if (dt == DType::I32) v = std::floor(v);
    t.set(i, v);
  }
  return t;
}

}  // namespace gl
