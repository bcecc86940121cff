#include "engine/control/loop_record.h"

#include <algorithm>
#include <cmath>

#include "engine/tensor/dtype_dispatch.h"
#include "engine/tensor/moments.h"

namespace gl {

TensorRecord TensorRecord::of(const Datum& d, int64_t smallTensor) {
  TensorRecord r;
  if (d.isList()) {
    r.dtype = d.list->dtype;
    r.shape = {d.list->size()};
    r.shape.insert(r.shape.end(), d.list->elemShape.begin(), d.list->elemShape.end());
    return r;
  }
  const Tensor& t = d.t;
  if (!t.defined()) return r;
  r.dtype = t.dtype();
  r.shape = t.shape();
  const int64_t n = t.numel();
  const Moments m =
      dispatchAll(t.dtype(), [&](auto z) { return momentsOf(t.data<decltype(z)>(), n); });
  r.nanCount = m.nan;
  r.infCount = m.inf;
  r.min = n ? m.min : 0;
  r.max = n ? m.max : 0;
  r.mean = n ? m.sum / double(n) : 0;
  r.l2 = std::sqrt(m.squares);
  for (int64_t i = 0; i < std::min<int64_t>(n, 8); ++i) r.head.push_back(t.at(i));
  if (n <= smallTensor) r.full = t.clone();
  return r;
}

}  // namespace gl

namespace gl {

LoopRecord loopExecution(const LoopRecord& first, const LoopExecutions* more, size_t k) {
  if (k == 0 || !more || k > more->later.size()) return first;
  LoopRecord r = more->later[k - 1];
  if (r.sharesCarried) {
    r.carried = first.carried;
    r.iterations = first.iterations;
    r.truncated = r.truncated || first.truncated;
  }
  return r;
}

}  // namespace gl
