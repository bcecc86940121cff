#include "engine/exec/numerics_check.h"

#include <cmath>

#include "engine/tensor/moments.h"

namespace gl {

namespace {

// Almost every value is finite: one vector pass says so, and only a value that is not is
// counted element by element.
template <class T>
void count(const Tensor& t, int64_t& nan, int64_t& inf) {
  const T* p = t.data<T>();
  if (allFinite(p, t.numel())) return;
  for (int64_t i = 0, n = t.numel(); i < n; ++i) {
    nan += std::isnan(p[i]);
    inf += std::isinf(p[i]);
  }
}

}  // namespace

void NumericsCheck::scan(const Node& n, const std::vector<Datum>& outputs, int64_t iteration) {
  for (size_t i = 0; i < outputs.size(); ++i)
    if (scan(n, int(i), outputs[i], iteration)) return;
}

bool NumericsCheck::scan(const Node& n, int output, const Datum& d, int64_t iteration) {
  if (found_.load(std::memory_order_acquire)) return false;
  if (d.isList() || !d.t.defined() || !isFloat(d.t.dtype())) return false;
  int64_t nan = 0, inf = 0;
  if (d.t.dtype() == DType::F32)
    count<float>(d.t, nan, inf);
  else
    count<double>(d.t, nan, inf);
  if (nan == 0 && inf == 0) return false;
  std::lock_guard<std::mutex> lock(mu_);
  if (found_.load(std::memory_order_relaxed)) return true;
  fault_ = NumericsFault{n.id, output, std::string(n.opName()), n.loc, iteration, nan, inf};
  found_.store(true, std::memory_order_release);
  return true;
}

}  // namespace gl
