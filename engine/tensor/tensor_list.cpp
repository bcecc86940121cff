#include "engine/tensor/tensor_list.h"

namespace gl {

size_t TensorList::bytes() const {
  size_t b = 0;
  for (const auto& t : items) b += t.defined() ? t.bytes() : 0;
  for (const auto& l : lists) b += l ? l->bytes() : 0;
  return b;
}

}  // namespace gl
