#pragma once
// Subscripts, split by what is indexed (Tracer::subscript picks one):
//   tracer_subscript.cpp     dispatch, slices, TensorArray stacks read by index
//   tracer_index_seq.cpp     Python lists, tuples and strings: an int or a slice
//   tracer_index_tensor.cpp  tensors, NumPy-style
#include <vector>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

// A slice resolved against a length, as Python's slice.indices(n) does.
struct PySlice {
  int64_t start = 0, stop = 0, step = 1;
};
PySlice resolveSlice(Context& cx, const Val& lo, const Val& hi, const Val& st, int64_t n,
                     const SourceLoc& loc);
// The positions a resolved slice visits, in order.
std::vector<int64_t> sliceIndices(const PySlice& s);
// i, or i + n for a negative i; an error unless the result is in [0, n). `what` names the
// indexed thing in the error ("a list", "axis 1").
int64_t wrapIndex(Context& cx, int64_t i, int64_t n, const SourceLoc& loc, const std::string& what);

// seq[index] for a list, tuple or str.
Val indexSequence(Context& cx, const Val& seq, const Val& index, const SourceLoc& loc);
// x[entries...] for a tensor: ints, slices, int tensors, None (new axis) and one Ellipsis.
Value indexTensor(Context& cx, Value x, const std::vector<Val>& entries, const SourceLoc& loc);

}  // namespace gl::lang::trace
