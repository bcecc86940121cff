#pragma once
// The run-time values that flow along graph edges: a tensor, or a list of tensors (TensorArray,
// and the per-iteration accumulators that reverse mode keeps for loops).
#include <memory>
#include <vector>

#include "engine/tensor/tensor.h"

namespace gl {

struct TensorList {
  DType dtype = DType::F32;
  Shape elemShape;            // may hold unknown dims until the first write
  std::vector<Tensor> items;  // undefined entries were never written
  // Entries of a list of lists: what a loop saves per iteration of an inner loop's own
  // accumulators, so nested loops can be reversed.
  std::vector<std::shared_ptr<const TensorList>> lists;
  bool dynamicSize = false;
  // Adjoint lists read unwritten entries as zeros; a user's TensorArray reports an error.
  bool zeroDefault = false;
  size_t bytes() const;
};

using ListPtr = std::shared_ptr<const TensorList>;

struct Datum {
  Tensor t;
  ListPtr list;
  Datum() = default;
  Datum(Tensor x) : t(std::move(x)) {}      // NOLINT: a tensor is a datum
  Datum(ListPtr l) : list(std::move(l)) {}  // NOLINT
  bool isList() const { return list != nullptr; }
  bool defined() const { return t.defined() || list != nullptr; }
};

}  // namespace gl
