#include "engine/exec/print_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gl {

namespace {

// One element as TF's PrintOneElement shows it: integers in full, floats as strings::StrCat
// does (FloatToBuffer: %.6g, or %.9g when that does not read back; doubles %.15g / %.17g).
std::string printElement(const Tensor& t, int64_t i) {
  const double v = t.at(i);
  if (t.dtype() == DType::Bool) return v != 0 ? "True" : "False";
  if (std::isnan(v)) return "nan";  // as TF prints it, whatever the sign bit
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  if (!isFloat(t.dtype())) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
  }
  if (t.dtype() == DType::F64) {
    std::snprintf(buf, sizeof buf, "%.15g", v);
    if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
  }
  const float f = static_cast<float>(v);
  std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(f));
  if (std::strtof(buf, nullptr) != f)
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  return buf;
}

// TF's PrintDimSpacing: one space between the elements of the last axis; between rows of
// axis d of a rank-r tensor, r - d - 1 newlines (a blank line between the blocks of a rank-3
// tensor) and d + 1 spaces.
void dimSpacing(int axis, int rank, std::string& out) {
  if (axis == rank - 1) {
    out += ' ';
    return;
  }
  out.append(static_cast<size_t>(rank - axis - 1), '\n');
  out.append(static_cast<size_t>(axis + 1), ' ');
}

// TF's PrintOneDimV2: `ends` items at each end of every axis, "..." between when it elides.
void printDim(const Tensor& t, const std::vector<int64_t>& strides, int axis, int64_t offset,
              int64_t ends, std::string& out) {
  const int rank = static_cast<int>(t.rank());
  if (axis == rank) {
    out += printElement(t, offset);
    return;
  }
  out += '[';
  const int64_t n = t.shape()[static_cast<size_t>(axis)];
  const bool elide = ends >= 0 && n > 2 * ends;
  const int64_t head = elide ? ends : n;
  const int64_t stride = strides[static_cast<size_t>(axis)];
  for (int64_t i = 0; i < head; ++i) {
    if (i > 0) dimSpacing(axis, rank, out);
    printDim(t, strides, axis + 1, offset + i * stride, ends, out);
  }
  if (elide) {
    dimSpacing(axis, rank, out);
    out += "...";
    for (int64_t i = n - ends; i < n; ++i) {
      dimSpacing(axis, rank, out);
      printDim(t, strides, axis + 1, offset + i * stride, ends, out);
    }
  }
  out += ']';
}

}  // namespace

std::string formatDatum(const Datum& d, int64_t summarize) {
  if (d.isList()) return "TensorArray(size=" + std::to_string(d.list->size()) + ")";
  const Tensor& t = d.t;
  if (!t.defined()) return "<undefined>";
  std::string out;
  printDim(t, stridesOf(t.shape()), 0, 0, summarize, out);
  return out;
}

}  // namespace gl
