#pragma once
// Adjoints that are dense only where rows were read: the VJP of a gather along axis 0 is
// scatter_add(rows, indices) into zeros, the VJP of a slice along axis 0 is a pad with zeros
// around the slab. Either is an indexed-slices value (rows + indices) that has not been made
// dense yet; summing several of them as one scatter_add of all their rows makes one dense
// tensor instead of one per part (TensorFlow's IndexedSlices, as a graph rewrite).
#include <vector>

#include "engine/build/builder.h"

namespace gl {

struct RowSlices {
  Value rows;     // [k, rest...]
  Value indices;  // int32 [k]
};

// The rows and indices of v when it is an axis-0 scatter_add or a pad of axis 0 only (shapes
// known statically); false for any other value.
bool asRowSlices(Builder& b, Value v, RowSlices& out);

// `parts` with the row-sparse ones of one shape and dtype merged into one scatter_add; the
// others as they were. The sum is the same (up to the order of float additions).
std::vector<Value> mergeRowSlices(Builder& b, const std::vector<Value>& parts);

}  // namespace gl
