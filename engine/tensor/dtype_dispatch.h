#pragma once
#include <stdexcept>

namespace gl {

template <class F>
decltype(auto) dispatchFloat(DType t, F&& f) {
  if (t == DType::F64) return f(double{});
  return f(float{});
}

// Any dtype: bool is stored as uint8_t.
template <class F>
decltype(auto) dispatchAll(DType t, F&& f) {
  switch (t) {
    case DType::F64:
      return f(double{});
    case DType::I32:
      return f(int32_t{});
    case DType::Bool:
      return f(uint8_t{});
    default:
      return f(float{});
  }
}

}  // namespace gl
