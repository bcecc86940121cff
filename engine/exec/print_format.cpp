#include "engine/exec/print_format.h"

#include <cmath>
#include <functional>
#include <sstream>

namespace gl {

std::string formatDatum(const Datum& d) {
  if (d.isList()) return "TensorArray(size=" + std::to_string(d.list->size()) + ")";
  const Tensor& t = d.t;
  if (!t.defined()) return "<undefined>";
  std::ostringstream os;
  auto elem = [&](int64_t i) {
    if (t.dtype() == DType::Bool)
      os << (t.at(i) != 0 ? "True" : "False");
    else if (std::isnan(t.at(i)))
      os << "nan";  // as TF prints it; the stream says "-nan" when the sign bit is set
    else
      os << t.at(i);
  };
  if (t.rank() == 0) {
    elem(0);
    return os.str();
  }
  std::function<void(int, int64_t)> rec = [&](int axis, int64_t offset) {
    const auto strides = stridesOf(t.shape());
    const int64_t n = t.shape()[axis];
    os << "[";
    for (int64_t i = 0; i < n; ++i) {
      if (n > 6 && i == 3) {
        os << " ...";
        i = n - 3;
      }
      if (i) os << (axis + 1 == t.rank() ? " " : "\n ");
      if (axis + 1 == t.rank())
        elem(offset + i);
      else
        rec(axis + 1, offset + i * strides[axis]);
    }
    os << "]";
  };
  rec(0, 0);
  return os.str();
}

}  // namespace gl
