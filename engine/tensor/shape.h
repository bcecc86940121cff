#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gl {

// Row-major dimensions. -1 marks a dimension unknown while building the graph (e.g. the length
// of a dynamically sized TensorArray); at run time every dimension is known.
using Shape = std::vector<int64_t>;

int64_t numel(const Shape& s);  // -1 if any dimension is unknown
bool fullyKnown(const Shape& s);
std::string shapeStr(const Shape& s);  // "[10,5000]"
// NumPy broadcasting; throws ShapeError naming both shapes.
Shape broadcastShapes(const Shape& a, const Shape& b);
// Row-major strides in elements.
std::vector<int64_t> stridesOf(const Shape& s);
// Normalises a possibly negative axis against rank; throws ShapeError if out of range.
int normAxis(int64_t axis, int rank);
// True if the two shapes may be equal once unknown dims are known.
bool compatible(const Shape& a, const Shape& b);

}  // namespace gl
