#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gl {

// Only floating tensors carry gradients; int32 and bool are counters, indices, labels, predicates.
enum class DType : uint8_t { F32, F64, I32, Bool };

const char* dtypeName(DType t);
size_t dtypeSize(DType t);
inline bool isFloat(DType t) { return t == DType::F32 || t == DType::F64; }
// Parses "float32", "float64", "int32", "int64" (alias of int32), "bool"; throws on others.
DType dtypeFromName(const std::string& name);
// The wider of two dtypes, for mixed arithmetic with Python scalars.
DType promote(DType a, DType b);

// Calls f(T{}) with the C++ type of dtype t.
template <class F>
decltype(auto) dispatchFloat(DType t, F&& f);

}  // namespace gl

#include "engine/tensor/dtype_dispatch.h"
