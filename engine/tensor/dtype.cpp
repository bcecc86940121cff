#include "engine/tensor/dtype.h"

#include "engine/tensor/error.h"

namespace gl {

const char* dtypeName(DType t) {
  switch (t) {
    case DType::F32:
      return "float32";
    case DType::F64:
      return "float64";
    case DType::I32:
      return "int32";
    case DType::Bool:
      return "bool";
  }
  return "?";
}

size_t dtypeSize(DType t) {
  switch (t) {
    case DType::F32:
      return 4;
    case DType::F64:
      return 8;
    case DType::I32:
      return 4;
    case DType::Bool:
      return 1;
  }
  return 1;
}

DType dtypeFromName(const std::string& n) {
  if (n == "float32" || n == "float") return DType::F32;
  if (n == "float64" || n == "double") return DType::F64;
  if (n == "int32" || n == "int64" || n == "int") return DType::I32;
  if (n == "bool") return DType::Bool;
  throw EngineError("unknown dtype '" + n + "' (expected float32, float64, int32, int64 or bool)");
}

DType promote(DType a, DType b) {
  auto rank = [](DType t) {
    switch (t) {
      case DType::Bool:
        return 0;
      case DType::I32:
        return 1;
      case DType::F32:
        return 2;
      case DType::F64:
        return 3;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace gl
