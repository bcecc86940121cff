#pragma once
// How tf.print shows a value: TensorFlow's layout (tensor.cc, PrintOneDimV2): nested brackets,
// the first and last `summarize` items of each axis with "..." between (-1: all), a blank line
// between the blocks of a rank-3 tensor, floats as TF's StrCat shows them.
#include <cstdint>
#include <string>

#include "engine/tensor/tensor_list.h"

namespace gl {

std::string formatDatum(const Datum& d, int64_t summarize = 3);

}  // namespace gl
