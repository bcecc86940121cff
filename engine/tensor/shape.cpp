#include "engine/tensor/shape.h"

#include "engine/tensor/diagnostic.h"
#include "engine/tensor/error.h"

namespace gl {

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (auto d : s) {
    if (d < 0) return -1;
    n *= d;
  }
  return n;
}

bool fullyKnown(const Shape& s) {
  for (auto d : s)
    if (d < 0) return false;
  return true;
}

std::string shapeStr(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += ",";
    r += s[i] < 0 ? std::string("?") : std::to_string(s[i]);
  }
  return r + "]";
}

Shape broadcastShapes(const Shape& a, const Shape& b) {
  const size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da == db)
      out[i] = da;
    else if (da == 1)
      out[i] = db;
    else if (db == 1)
      out[i] = da;
    else if (da < 0)
      out[i] = db;
    else if (db < 0)
      out[i] = da;
    else
      throw ShapeError(diagnosed(
          "shapes " + shapeStr(a) + " and " + shapeStr(b) + " cannot be broadcast together",
          {DiagCode::BroadcastMismatch, {}, {shapeStr(a), shapeStr(b)}}));
  }
  return out;
}

std::vector<int64_t> stridesOf(const Shape& s) {
  std::vector<int64_t> st(s.size());
  int64_t acc = 1;
  for (size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= std::max<int64_t>(s[i], 1);
  }
  return st;
}

int normAxis(int64_t axis, int rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw ShapeError(diagnosed(
        "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank),
        {DiagCode::AxisOutOfRange, {}, {std::to_string(axis), std::to_string(rank)}}));
  return static_cast<int>(a);
}

bool compatible(const Shape& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] >= 0 && b[i] >= 0 && a[i] != b[i]) return false;
  return true;
}

}  // namespace gl
