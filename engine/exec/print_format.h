#pragma once
// How tf.print shows a value: nested brackets like TensorFlow, eliding the middle of long axes.
#include <string>

#include "engine/tensor/tensor_list.h"

namespace gl {

std::string formatDatum(const Datum& d);

}  // namespace gl
