// The ndarray: numpy's dtypes and type promotion, broadcasting, operators, subscripts,
// conversions to and from tensors, and numpy's printing (tracer_numpy.h says what is modelled).
#include "engine/lang/tracer_numpy.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/exec/executor.h"
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_index.h"
#include "engine/lang/tracer_objects.h"

namespace gl::lang::trace {

namespace {

int npCategory(NpType t) { return t == NpType::Bool ? 0 : npIsInt(t) ? 1 : 2; }

int npIntBits(NpType t) {
  switch (t) {
    case NpType::Int8:
    case NpType::UInt8:
      return 8;
    case NpType::Int16:
      return 16;
    case NpType::Int32:
      return 32;
    default:
      return 64;
  }
}

NpType npSignedOfBits(int bits) {
  return bits <= 8    ? NpType::Int8
         : bits <= 16 ? NpType::Int16
         : bits <= 32 ? NpType::Int32
                      : NpType::Int64;
}

// numpy's promote_types on the dtypes GradLab holds.
NpType npPromote(NpType a, NpType b) {
  if (a == b) return a;
  if (a == NpType::Bool) return b;
  if (b == NpType::Bool) return a;
  if (npIsFloat(a) && npIsFloat(b))
    return a == NpType::Float64 || b == NpType::Float64 ? NpType::Float64 : NpType::Float32;
  if (npIsFloat(a) || npIsFloat(b)) {
    const NpType f = npIsFloat(a) ? a : b, i = npIsFloat(a) ? b : a;
    if (f == NpType::Float64) return f;
    return npIntBits(i) <= 16 ? NpType::Float32 : NpType::Float64;
  }
  // Two integer types, at least one signed (uint8 with uint8 returned above).
  if (a == NpType::UInt8 || b == NpType::UInt8) {
    const NpType s = a == NpType::UInt8 ? b : a;
    return npSignedOfBits(std::max(16, npIntBits(s)));
  }
  return npSignedOfBits(std::max(npIntBits(a), npIntBits(b)));
}

// numpy's min_scalar_type, for value-based casting (numpy 1.x) of a Python or numpy scalar. The
// unsigned types GradLab lacks (uint16, uint32, uint64) become the next signed type.
NpType npMinScalarType(NpType t, double v) {
  if (t == NpType::Bool) return t;
  if (npIsFloat(t))
    return std::isfinite(v) && std::fabs(v) > FLT_MAX ? NpType::Float64 : NpType::Float32;
  if (v >= 0) return v < 256 ? NpType::UInt8 : v < 65536 ? NpType::Int32 : NpType::Int64;
  return v >= -128            ? NpType::Int8
         : v >= -32768        ? NpType::Int16
         : v >= -2147483648.0 ? NpType::Int32
                              : NpType::Int64;
}

double npCast(NpType t, double v) {
  switch (t) {
    case NpType::Bool:
      return v != 0 ? 1 : 0;
    case NpType::Float32:
      return double(float(v));
    case NpType::Float64:
      return v;
    default:
      break;
  }
  if (!std::isfinite(v)) return t == NpType::Int64 ? -9223372036854775808.0 : 0;
  const double tv = std::trunc(v);
  const int64_t i = std::fabs(tv) < 9.2e18 ? int64_t(tv) : (tv < 0 ? INT64_MIN : INT64_MAX);
  switch (t) {
    case NpType::Int8:
      return double(int8_t(uint8_t(uint64_t(i))));
    case NpType::UInt8:
      return double(uint8_t(uint64_t(i)));
    case NpType::Int16:
      return double(int16_t(uint16_t(uint64_t(i))));
    case NpType::Int32:
      return double(int32_t(uint32_t(uint64_t(i))));
    default:
      return double(i);
  }
}

std::string npShapeText(const std::vector<int64_t>& s, bool spaced) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? (spaced ? ", " : ",") : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// One operand of an operator: an array, or a scalar (Python number, numpy scalar, 0-d array).
struct NpOperand {
  NdPtr arr;
  bool isScalar = false;  // takes part in value-based casting
  bool python = false;    // a Python number
};

NpOperand npOperand(Context& cx, const Val& v, const SourceLoc& loc) {
  NpOperand o;
  if (const NdArrayObj* a = asNdArray(v)) {
    o.arr = std::static_pointer_cast<NdArrayObj>(const_cast<NdArrayObj*>(a)->shared_from_this());
    o.isScalar = a->shape.empty();
    return o;
  }
  o.arr = toNdArray(cx, v, loc);
  o.python = v.isNumber();
  o.isScalar = o.arr->shape.empty();
  return o;
}

// numpy 1.x's result_type of operands: only scalars -> promote_types; otherwise scalars of a
// category no higher than the arrays' count by their value (min_scalar_type).
NpType npResultType(const std::vector<NpOperand>& ops) {
  bool anyArray = false;
  int arrayCat = -1;
  std::optional<NpType> t;
  for (const NpOperand& o : ops)
    if (!o.isScalar) {
      anyArray = true;
      t = t ? npPromote(*t, o.arr->dtype) : o.arr->dtype;
      arrayCat = std::max(arrayCat, npCategory(o.arr->dtype));
    }
  for (const NpOperand& o : ops) {
    if (!o.isScalar) continue;
    const NpType st = o.arr->dtype;
    if (!anyArray) {
      t = t ? npPromote(*t, st) : st;
    } else if (npCategory(st) > arrayCat) {
      t = npPromote(*t, st);
    } else {
      t = npPromote(*t, npMinScalarType(st, o.arr->data.empty() ? 0 : o.arr->data[0]));
    }
  }
  return t.value_or(NpType::Float64);
}

std::vector<int64_t> npBroadcast(Context& cx, const std::vector<int64_t>& a,
                                 const std::vector<int64_t>& b, const SourceLoc& loc) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      cx.fail(loc, "ValueError: operands could not be broadcast together with shapes " +
                       npShapeText(a, false) + " " + npShapeText(b, false));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// Flat index into `from` (shape s, right-aligned to out's rank) of out's flat position.
std::vector<int64_t> npBroadcastIndex(const std::vector<int64_t>& s,
                                      const std::vector<int64_t>& out) {
  int64_t total = 1;
  for (int64_t d : out) total *= d;
  std::vector<int64_t> idx(size_t(total), 0);
  std::vector<int64_t> strides(out.size(), 0);
  int64_t st = 1;
  for (size_t k = s.size(); k-- > 0;) {
    const size_t ok = k + (out.size() - s.size());
    strides[ok] = s[k] == 1 ? 0 : st;
    st *= s[k];
  }
  std::vector<int64_t> pos(out.size(), 0);
  for (int64_t f = 0; f < total; ++f) {
    int64_t at = 0;
    for (size_t k = 0; k < out.size(); ++k) at += pos[k] * strides[k];
    idx[size_t(f)] = at;
    for (size_t k = out.size(); k-- > 0;) {
      if (++pos[k] < out[k]) break;
      pos[k] = 0;
    }
  }
  return idx;
}

double npFloorDiv(double x, double y, bool ints) {
  if (ints) {
    if (y == 0) return 0;  // numpy: 0 with a RuntimeWarning
    const int64_t a = int64_t(x), b = int64_t(y);
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return double(q);
  }
  return std::floor(x / y);
}

double npMod(double x, double y, bool ints) {
  if (ints) {
    if (y == 0) return 0;
    return x - npFloorDiv(x, y, true) * y;
  }
  if (y == 0) return NAN;
  const double m = std::fmod(x, y);
  return m != 0 && ((m < 0) != (y < 0)) ? m + y : m;
}

NdPtr npMatmul(Context& cx, const NdArrayObj& a, const NdArrayObj& b, NpType t,
               const SourceLoc& loc) {
  if (a.shape.empty() || b.shape.empty())
    cx.fail(loc, "ValueError: matmul: Input operand does not have enough dimensions");
  if (a.shape.size() > 2 || b.shape.size() > 2)
    cx.fail(loc,
            "numpy matmul of arrays of rank above 2 is not supported in GradLab; use tf.matmul");
  const int64_t m = a.shape.size() == 2 ? a.shape[0] : 1, k = a.shape.back();
  const int64_t k2 = b.shape[0], n = b.shape.size() == 2 ? b.shape[1] : 1;
  if (k != k2)
    cx.fail(loc,
            "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0 (size " +
                std::to_string(k2) + " is different from " + std::to_string(k) + ")");
  std::vector<double> out(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t q = 0; q < k; ++q) s += a.data[size_t(i * k + q)] * b.data[size_t(q * n + j)];
      out[size_t(i * n + j)] = s;
    }
  std::vector<int64_t> shape;
  if (a.shape.size() == 2) shape.push_back(m);
  if (b.shape.size() == 2) shape.push_back(n);
  return makeNdArray(t, shape, std::move(out));
}

NdPtr npElementwise(Context& cx, const NdArrayObj& a, const NdArrayObj& b, NpType out,
                    const SourceLoc& loc, const std::function<double(double, double)>& f) {
  const std::vector<int64_t> shape = npBroadcast(cx, a.shape, b.shape, loc);
  const std::vector<int64_t> ia = npBroadcastIndex(a.shape, shape),
                             ib = npBroadcastIndex(b.shape, shape);
  std::vector<double> data(ia.size());
  for (size_t i = 0; i < ia.size(); ++i) data[i] = f(a.data[size_t(ia[i])], b.data[size_t(ib[i])]);
  return makeNdArray(out, shape, std::move(data));
}

bool npAnyOperand(const Val& l, const Val& r) { return asNdArray(l) || asNdArray(r); }

}  // namespace

const char* npTypeName(NpType t) {
  switch (t) {
    case NpType::Bool:
      return "bool";
    case NpType::Int8:
      return "int8";
    case NpType::Int16:
      return "int16";
    case NpType::Int32:
      return "int32";
    case NpType::Int64:
      return "int64";
    case NpType::UInt8:
      return "uint8";
    case NpType::Float32:
      return "float32";
    case NpType::Float64:
      return "float64";
  }
  return "?";
}

bool npIsFloat(NpType t) { return t == NpType::Float32 || t == NpType::Float64; }
bool npIsInt(NpType t) { return t != NpType::Bool && !npIsFloat(t); }

DType engineDType(NpType t) {
  return t == NpType::Bool      ? DType::Bool
         : t == NpType::Float32 ? DType::F32
         : t == NpType::Float64 ? DType::F64
                                : DType::I32;
}

NdPtr makeNdArray(NpType dtype, std::vector<int64_t> shape, std::vector<double> data) {
  auto a = std::make_shared<NdArrayObj>();
  a->dtype = dtype;
  a->shape = std::move(shape);
  a->data = std::move(data);
  for (double& x : a->data) x = npCast(dtype, x);
  return a;
}

Val ndVal(NdPtr a) { return Val::object(std::move(a)); }

const NdArrayObj* asNdArray(const Val& v) { return v.as<NdArrayObj>(); }

std::string NdArrayObj::typeName() const {
  return scalar ? std::string("numpy.") + npTypeName(dtype) : "numpy.ndarray";
}

std::optional<std::vector<Val>> NdArrayObj::iterate(Context& cx, const SourceLoc& loc) {
  if (shape.empty()) cx.fail(loc, "TypeError: iteration over a 0-d array");
  std::vector<Val> out;
  for (int64_t i = 0; i < shape[0]; ++i)
    out.push_back(ndarraySubscript(cx, *this, Val::integer(i), loc));
  return out;
}

std::optional<int64_t> NdArrayObj::length(Context& cx, const SourceLoc& loc) {
  if (shape.empty()) cx.fail(loc, "TypeError: len() of unsized object");
  return shape[0];
}

// Operators --------------------------------------------------------------------------------

std::optional<Val> ndarrayBinary(Context& cx, BinaryOp op, const Val& l, const Val& r,
                                 const SourceLoc& loc) {
  if (!npAnyOperand(l, r) || l.isTensor() || r.isTensor()) return std::nullopt;
  const NpOperand x = npOperand(cx, l, loc), y = npOperand(cx, r, loc);
  NpType t = npResultType({x, y});
  const bool ints = npIsInt(t);
  const bool bools = t == NpType::Bool;
  auto unsupported = [&]() -> std::optional<Val> {
    cx.fail(loc, std::string("TypeError: ufunc for '") + symbol(op) +
                     "' is not supported for the dtypes " + npTypeName(x.arr->dtype) + " and " +
                     npTypeName(y.arr->dtype));
  };
  std::function<double(double, double)> f;
  switch (op) {
    case BinaryOp::Add:
      f = bools ? [](double a, double b) { return double(a != 0 || b != 0); }
                : [](double a, double b) { return a + b; };
      break;
    case BinaryOp::Sub:
      if (bools)
        cx.fail(loc,
                "TypeError: numpy boolean subtract, the `-` operator, is not supported, use the "
                "bitwise_xor, the `^` operator, or the logical_xor function instead.");
      f = [](double a, double b) { return a - b; };
      break;
    case BinaryOp::Mul:
      f = bools ? [](double a, double b) { return double(a != 0 && b != 0); }
                : [](double a, double b) { return a * b; };
      break;
    case BinaryOp::Div:
      if (!npIsFloat(t)) t = NpType::Float64;
      f = [](double a, double b) { return a / b; };
      break;
    case BinaryOp::FloorDiv:
      if (bools) t = NpType::Int8;
      f = [ints](double a, double b) { return npFloorDiv(a, b, ints); };
      break;
    case BinaryOp::Mod:
      if (bools) t = NpType::Int8;
      f = [ints](double a, double b) { return npMod(a, b, ints); };
      break;
    case BinaryOp::Pow:
      if (bools) t = NpType::Int8;
      if (ints || bools)
        for (double e : y.arr->data)
          if (e < 0)
            cx.fail(loc, "ValueError: Integers to negative integer powers are not allowed.");
      f = [](double a, double b) { return std::pow(a, b); };
      break;
    case BinaryOp::MatMul:
      return ndVal(npMatmul(cx, *x.arr, *y.arr, t, loc));
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
      if (npIsFloat(t)) return unsupported();
      f = [op](double a, double b) {
        const int64_t i = int64_t(a), j = int64_t(b);
        return double(op == BinaryOp::BitAnd ? (i & j) : op == BinaryOp::BitOr ? (i | j) : (i ^ j));
      };
      break;
    default:
      return unsupported();
  }
  NdPtr out = npElementwise(cx, *x.arr, *y.arr, t, loc, f);
  out->scalar = out->shape.empty();
  return ndVal(out);
}

std::optional<Val> ndarrayCompare(Context& cx, CmpOp op, const Val& l, const Val& r,
                                  const SourceLoc& loc) {
  if (!npAnyOperand(l, r) || l.isTensor() || r.isTensor()) return std::nullopt;
  if (op == CmpOp::Is || op == CmpOp::IsNot || op == CmpOp::In || op == CmpOp::NotIn)
    return std::nullopt;
  if (l.isNone() || r.isNone()) return Val::boolean(op == CmpOp::NotEq);
  const NpOperand x = npOperand(cx, l, loc), y = npOperand(cx, r, loc);
  NdPtr out = npElementwise(cx, *x.arr, *y.arr, NpType::Bool, loc, [op](double a, double b) {
    switch (op) {
      case CmpOp::Lt:
        return double(a < b);
      case CmpOp::Le:
        return double(a <= b);
      case CmpOp::Gt:
        return double(a > b);
      case CmpOp::Ge:
        return double(a >= b);
      case CmpOp::Eq:
        return double(a == b);
      default:
        return double(a != b);
    }
  });
  out->scalar = out->shape.empty();
  return ndVal(out);
}

std::optional<Val> ndarrayUnary(Context& cx, UnaryOp op, const Val& v, const SourceLoc& loc) {
  const NdArrayObj* a = asNdArray(v);
  if (!a) return std::nullopt;
  std::vector<double> d = a->data;
  switch (op) {
    case UnaryOp::Neg:
      if (a->dtype == NpType::Bool)
        cx.fail(loc,
                "TypeError: The numpy boolean negative, the `-` operator, is not supported, use "
                "the `~` operator or the logical_not function instead.");
      for (double& x : d) x = -x;
      break;
    case UnaryOp::Pos:
      break;
    case UnaryOp::Invert:
      if (npIsFloat(a->dtype))
        cx.fail(loc, "TypeError: ufunc 'invert' not supported for the input types");
      for (double& x : d) x = a->dtype == NpType::Bool ? double(x == 0) : double(~int64_t(x));
      break;
    case UnaryOp::Not:
      return std::nullopt;
  }
  NdPtr out = makeNdArray(a->dtype, a->shape, std::move(d));
  out->scalar = a->scalar;
  return ndVal(out);
}

// Subscripts -------------------------------------------------------------------------------

Val ndarraySubscript(Context& cx, const NdArrayObj& a, const Val& index, const SourceLoc& loc) {
  // One integer or boolean array (or list of ints) as the whole index: picks along axis 0.
  if (asNdArray(index) && !asNdArray(index)->shape.empty()) {
    const NdArrayObj& ix = *asNdArray(index);
    if (a.shape.empty())
      cx.fail(loc, "IndexError: too many indices for array: array is 0-dimensional");
    std::vector<int64_t> rows;
    if (ix.dtype == NpType::Bool) {
      if (ix.shape != a.shape && !(ix.shape.size() == 1 && ix.shape[0] == a.shape[0]))
        cx.fail(loc, "IndexError: boolean index did not match indexed array");
      if (ix.shape == a.shape && a.shape.size() > 1) {
        std::vector<double> out;
        for (size_t i = 0; i < ix.data.size(); ++i)
          if (ix.data[i] != 0) out.push_back(a.data[i]);
        const int64_t n = int64_t(out.size());
        return ndVal(makeNdArray(a.dtype, {n}, std::move(out)));
      }
      for (size_t i = 0; i < ix.data.size(); ++i)
        if (ix.data[i] != 0) rows.push_back(int64_t(i));
    } else if (npIsInt(ix.dtype)) {
      if (ix.shape.size() != 1)
        cx.fail(loc, "indexing with an integer array of rank above 1 is not supported in GradLab");
      for (double d : ix.data) rows.push_back(wrapIndex(cx, int64_t(d), a.shape[0], loc, "axis 0"));
    } else {
      cx.fail(loc, "IndexError: arrays used as indices must be of integer (or boolean) type");
    }
    int64_t row = 1;
    for (size_t k = 1; k < a.shape.size(); ++k) row *= a.shape[k];
    std::vector<double> out;
    for (int64_t r : rows)
      out.insert(out.end(), a.data.begin() + r * row, a.data.begin() + (r + 1) * row);
    std::vector<int64_t> shape = a.shape;
    shape[0] = int64_t(rows.size());
    return ndVal(makeNdArray(a.dtype, shape, std::move(out)));
  }
  if (index.kind() == Kind::List)
    return ndarraySubscript(cx, a, ndVal(toNdArray(cx, index, loc)), loc);
  std::vector<Val> parts = index.kind() == Kind::Tuple ? index.items() : std::vector<Val>{index};
  // Expand the Ellipsis; count the axes the entries consume.
  size_t consumed = 0;
  int ellipses = 0;
  for (const Val& p : parts) {
    if (p.kind() == Kind::Ellipsis)
      ++ellipses;
    else if (!p.isNone())
      ++consumed;
  }
  if (ellipses > 1) cx.fail(loc, "IndexError: an index can only have a single ellipsis ('...')");
  if (consumed > a.shape.size())
    cx.fail(loc, "IndexError: too many indices for array: array is " +
                     std::to_string(a.shape.size()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  std::vector<Val> full;
  for (const Val& p : parts) {
    if (p.kind() == Kind::Ellipsis) {
      for (size_t k = 0; k < a.shape.size() - consumed; ++k)
        full.push_back(makeSlice(Val(), Val(), Val()));
    } else {
      full.push_back(p);
    }
  }
  while (true) {
    size_t used = 0;
    for (const Val& p : full) used += !p.isNone();
    if (used >= a.shape.size()) break;
    full.push_back(makeSlice(Val(), Val(), Val()));
  }
  // Per input axis: the positions taken; per output axis: its length.
  std::vector<std::vector<int64_t>> picks;
  std::vector<int64_t> outShape;
  size_t axis = 0;
  bool allInts = true;
  for (const Val& p : full) {
    if (p.isNone()) {
      outShape.push_back(1);
      allInts = false;
      continue;
    }
    const int64_t n = a.shape[axis];
    Val lo, hi, st;
    if (sliceParts(p, lo, hi, st)) {
      const std::vector<int64_t> ix = sliceIndices(resolveSlice(cx, lo, hi, st, n, loc));
      outShape.push_back(int64_t(ix.size()));
      picks.push_back(ix);
      allInts = false;
    } else if (p.kind() == Kind::Int || p.kind() == Kind::Bool ||
               (asNdArray(p) && asNdArray(p)->shape.empty() && npIsInt(asNdArray(p)->dtype))) {
      const int64_t i = asNdArray(p)             ? int64_t(asNdArray(p)->data[0])
                        : p.kind() == Kind::Bool ? p.asBool()
                                                 : p.asInt();
      if (i >= n || i < -n)
        cx.fail(loc, "IndexError: index " + std::to_string(i) + " is out of bounds for axis " +
                         std::to_string(axis) + " with size " + std::to_string(n));
      picks.push_back({i < 0 ? i + n : i});
    } else {
      cx.fail(
          loc,
          "IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
          "integer or boolean arrays are valid indices (got " +
              typeName(p) + ")");
    }
    ++axis;
  }
  std::vector<int64_t> strides(a.shape.size(), 1);
  for (size_t k = a.shape.size(); k-- > 1;) strides[k - 1] = strides[k] * a.shape[k];
  std::vector<double> out;
  std::vector<size_t> pos(picks.size(), 0);
  bool empty = false;
  for (const auto& p : picks) empty = empty || p.empty();
  while (!empty) {
    int64_t at = 0;
    for (size_t k = 0; k < picks.size(); ++k) at += picks[k][pos[k]] * strides[k];
    out.push_back(a.data[size_t(at)]);
    size_t k = picks.size();
    while (k-- > 0) {
      if (++pos[k] < picks[k].size()) break;
      pos[k] = 0;
    }
    if (k == size_t(-1)) break;
  }
  NdPtr r = makeNdArray(a.dtype, outShape, std::move(out));
  r->scalar = allInts;
  return ndVal(r);
}

// Conversions ------------------------------------------------------------------------------

std::optional<NpType> npTypeOf(const Val& v) {
  if (auto d = v.as<NpDTypeObj>()) return d->type;
  if (v.kind() == Kind::DType) {
    switch (v.asDType()) {
      case DType::F32:
        return NpType::Float32;
      case DType::F64:
        return NpType::Float64;
      case DType::I32:
        return NpType::Int32;
      case DType::Bool:
        return NpType::Bool;
      default:
        return std::nullopt;
    }
  }
  if (v.kind() == Kind::Str) {
    static const std::pair<const char*, NpType> kNames[] = {
        {"bool", NpType::Bool},       {"int8", NpType::Int8},       {"int16", NpType::Int16},
        {"int32", NpType::Int32},     {"int64", NpType::Int64},     {"uint8", NpType::UInt8},
        {"float32", NpType::Float32}, {"float64", NpType::Float64}, {"float", NpType::Float64},
        {"int", NpType::Int64},       {"f4", NpType::Float32},      {"f8", NpType::Float64},
        {"i4", NpType::Int32},        {"i8", NpType::Int64},        {"u1", NpType::UInt8},
        {"double", NpType::Float64},  {"single", NpType::Float32}};
    for (const auto& [n, t] : kNames)
      if (v.text() == n) return t;
  }
  return std::nullopt;
}

Value ndarrayToTensor(Context& cx, const NdArrayObj& a, const SourceLoc& loc,
                      std::optional<DType> like) {
  DType dt = engineDType(a.dtype);
  if (like && *like != dt) {
    // TF converts a numpy array to the dtype an operator asks for when it is compatible
    // (integers to integers, integers and floats to floats), else it is TF's TypeError.
    const bool ok =
        (isFloat(*like) && a.dtype != NpType::Bool) || (*like == DType::I32 && npIsInt(a.dtype));
    if (!ok)
      cx.fail(loc, "TypeError: Cannot convert " + ndarrayText(a, true) +
                       " to EagerTensor of dtype " + dtypeName(*like));
    dt = *like;
  }
  if (dt == DType::I32)
    for (double x : a.data)
      if (x > INT32_MAX || x < INT32_MIN)
        cx.fail(loc,
                "the " + std::string(npTypeName(a.dtype)) + " array holds " + lang::formatFloat(x) +
                    ", which does not fit in an int32 tensor (GradLab's tensors have no int64)");
  cx.at(loc);
  return cx.b.constant(Tensor::fromVector(a.data, Shape(a.shape.begin(), a.shape.end()), dt));
}

Val tensorToNdArray(Context& cx, Value v, const SourceLoc& loc, bool scalarIfRank0) {
  // Tensor.__array__ (tensor.py) of a symbolic tensor: inside a tf.function or a traced body.
  if (!hasEagerValue(cx, v))
    cx.fail(loc,
            "NotImplementedError: Cannot convert a symbolic tf.Tensor to a numpy array. This "
            "error may indicate that you're trying to pass a Tensor to a NumPy call, which is "
            "not supported (the tensor is computed inside a tf.function or a tensor loop, where "
            "it has no value while it is traced): use tf functions on it, or tf.print");
  std::vector<Tensor> got;
  try {
    got = cx.evaluateNow({v});
  } catch (const CancelledError&) {
    throw;
  } catch (const std::exception& e) {
    cx.fail(loc, "this tensor's value cannot be computed while GradLab traces (" +
                     std::string(e.what()) + "); numpy needs the value");
  }
  return ndVal(ndarrayOf(got.at(0), scalarIfRank0));
}

NdPtr ndarrayOf(const Tensor& t, bool scalar) {
  const NpType nt = t.dtype() == DType::F32    ? NpType::Float32
                    : t.dtype() == DType::F64  ? NpType::Float64
                    : t.dtype() == DType::Bool ? NpType::Bool
                                               : NpType::Int32;
  NdPtr a = makeNdArray(nt, std::vector<int64_t>(t.shape().begin(), t.shape().end()), t.toVector());
  a->scalar = scalar && a->shape.empty();
  return a;
}

NdPtr toNdArray(Context& cx, const Val& v, const SourceLoc& loc, std::optional<NpType> dtype) {
  auto finish = [&](NdPtr a) {
    if (dtype && *dtype != a->dtype) {
      NdPtr c = makeNdArray(*dtype, a->shape, a->data);
      return c;
    }
    return a;
  };
  if (const NdArrayObj* a = asNdArray(v)) {
    NdPtr p = std::static_pointer_cast<NdArrayObj>(const_cast<NdArrayObj*>(a)->shared_from_this());
    return finish(p);
  }
  if (v.isTensor()) {
    const Val n = tensorToNdArray(cx, v.var() ? v.var()->current : v.tensorValue(), loc, false);
    return finish(std::static_pointer_cast<NdArrayObj>(n.obj()));
  }
  if (v.isNumber()) {
    const NpType t = v.kind() == Kind::Bool  ? NpType::Bool
                     : v.kind() == Kind::Int ? NpType::Int64
                                             : NpType::Float64;
    return finish(makeNdArray(t, {}, {v.number()}));
  }
  if (v.isSeq()) {
    // Nested lists: the shape from the nesting, the dtype from the items (numpy's rules).
    std::vector<int64_t> shape;
    std::vector<double> data;
    std::optional<NpType> t;
    std::function<void(const Val&, size_t)> walk = [&](const Val& x, size_t depth) {
      if (depth > size_t(kMaxListNesting)) cx.fail(loc, "the list is nested too deeply");
      const NdArrayObj* xa = asNdArray(x);
      if (x.isSeq() || (xa && !xa->shape.empty())) {
        const int64_t n = x.isSeq() ? int64_t(x.items().size()) : xa->shape[0];
        if (depth == shape.size() && data.empty() && (depth == 0 || true)) {
          if (depth == shape.size()) shape.push_back(n);
        } else if (depth >= shape.size() || shape[depth] != n) {
          cx.fail(loc,
                  "ValueError: setting an array element with a sequence. The requested array has "
                  "an inhomogeneous shape after " +
                      std::to_string(depth) + " dimensions.");
        }
        if (x.isSeq()) {
          for (const Val& item : x.items()) walk(item, depth + 1);
        } else {
          std::vector<Val> rows = *const_cast<NdArrayObj*>(xa)->iterate(cx, loc);
          for (const Val& r : rows) walk(r, depth + 1);
        }
        return;
      }
      if (depth != shape.size())
        cx.fail(loc,
                "ValueError: setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape after " +
                    std::to_string(depth) + " dimensions.");
      NpType xt;
      double xv;
      if (xa) {
        xt = xa->dtype, xv = xa->data[0];
      } else if (x.isTensor()) {
        const Val n = tensorToNdArray(cx, x.var() ? x.var()->current : x.tensorValue(), loc, false);
        const NdArrayObj& na = *asNdArray(n);
        if (!na.shape.empty())
          cx.fail(loc, "a list of non-scalar tensors as an np array is not supported in GradLab");
        xt = na.dtype, xv = na.data[0];
      } else if (x.isNumber()) {
        xt = x.kind() == Kind::Bool  ? NpType::Bool
             : x.kind() == Kind::Int ? NpType::Int64
                                     : NpType::Float64;
        xv = x.number();
      } else {
        cx.fail(loc, "numpy arrays of " + typeName(x) +
                         " items are not supported in GradLab (numbers only)");
      }
      t = t ? npPromote(*t, xt) : xt;
      data.push_back(xv);
    };
    walk(v, 0);
    return finish(makeNdArray(t.value_or(NpType::Float64), shape, std::move(data)));
  }
  if (const RangeObj* r = v.as<RangeObj>()) {
    std::vector<double> d;
    for (int64_t i = 0, n = r->size(); i < n; ++i) d.push_back(double(r->start + i * r->step));
    const int64_t n = int64_t(d.size());
    return finish(makeNdArray(NpType::Int64, {n}, std::move(d)));
  }
  cx.fail(loc, "cannot make a numpy array from " + article(typeName(v)));
}

std::optional<Val> npPythonNumber(const Val& v) {
  const NdArrayObj* a = asNdArray(v);
  if (!a || a->size() != 1) return std::nullopt;
  const double x = a->data[0];
  if (a->dtype == NpType::Bool) return Val::boolean(x != 0);
  if (npIsInt(a->dtype)) return Val::integer(int64_t(x));
  return Val::real(x);
}

// NpDTypeObj ---------------------------------------------------------------------------------

Val NpDTypeObj::call(Context& cx, CallArgs& args) {
  if (args.pos.size() != 1 || !args.kw.empty())
    cx.fail(args.loc,
            std::string("numpy.") + npTypeName(type) + "() takes one argument in GradLab");
  NdPtr a = toNdArray(cx, args.pos[0].v, args.pos[0].loc, type);
  if (a->shape.empty()) a->scalar = true;
  return ndVal(a);
}

std::optional<Val> NpDTypeObj::attr(Context&, const std::string& name) {
  if (name == "name" || name == "__name__") return Val::str(npTypeName(type));
  return std::nullopt;
}

// Printing ---------------------------------------------------------------------------------

namespace {

// The shortest decimal digits that read back as v (as float when f32): "d.ddd" and an exponent.
struct NpDigits {
  std::string digits;  // no dot, no sign, no trailing zeros ("15" for 1.5)
  int exp10 = 0;       // value = 0.digits * 10^(exp10+1), i.e. first digit at 10^exp10
  bool neg = false;
};

NpDigits npShortest(double v, bool f32) {
  NpDigits d;
  d.neg = std::signbit(v);
  const double a = std::fabs(v);
  char buf[64];
  if (a == 0) {
    d.digits = "0";
    return d;
  }
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, a);
    const double back = std::strtod(buf, nullptr);
    if (f32 ? float(back) == float(a) : back == a) break;
  }
  const std::string s = buf;
  const size_t e = s.find('e');
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') d.digits += s[i];
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  d.exp10 = std::atoi(s.c_str() + e + 1);
  return d;
}

// Digits rounded to at most `frac` digits after the point (positional); re-derived with printf.
NpDigits npRoundFrac(double v, const NpDigits& d, int frac) {
  const int have = int(d.digits.size()) - 1 - d.exp10;
  if (have <= frac) return d;
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*f", frac, std::fabs(v));
  NpDigits r;
  r.neg = d.neg;
  std::string s = buf;
  const size_t dot = s.find('.');
  std::string ip = s.substr(0, dot), fp = dot == std::string::npos ? "" : s.substr(dot + 1);
  std::string all = ip + fp;
  size_t lead = 0;
  while (lead + 1 < all.size() && all[lead] == '0') ++lead;
  r.exp10 = int(ip.size()) - 1 - int(lead);
  r.digits = all.substr(lead);
  while (r.digits.size() > 1 && r.digits.back() == '0') r.digits.pop_back();
  if (r.digits == "0") r.exp10 = 0;
  return r;
}

// Integer part and fraction digits of a positional rendering.
std::pair<std::string, std::string> npPositional(const NpDigits& d) {
  std::string ip, fp;
  if (d.exp10 >= 0) {
    for (int i = 0; i <= d.exp10; ++i)
      ip += size_t(i) < d.digits.size() ? d.digits[size_t(i)] : '0';
    if (int(d.digits.size()) > d.exp10 + 1) fp = d.digits.substr(size_t(d.exp10 + 1));
  } else {
    ip = "0";
    fp = std::string(size_t(-d.exp10 - 1), '0') + d.digits;
  }
  if (d.digits == "0") fp.clear();
  return {(d.neg ? "-" : "") + ip, fp};
}

// A numpy scalar (and a 0-d array's str): Python's repr of the value.
std::string npScalarText(NpType t, double v) {
  if (t == NpType::Bool) return v != 0 ? "True" : "False";
  if (npIsInt(t)) return std::to_string(int64_t(v));
  if (t == NpType::Float64) return lang::formatFloat(v);
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const NpDigits d = npShortest(v, true);
  if (v != 0 && (d.exp10 < -4 || d.exp10 >= 16)) {
    std::string m = d.digits.substr(0, 1);
    if (d.digits.size() > 1) m += "." + d.digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", d.exp10 < 0 ? '-' : '+', std::abs(d.exp10));
    return (d.neg ? "-" : "") + m + e;
  }
  auto [ip, fp] = npPositional(d);
  return ip + "." + (fp.empty() ? "0" : fp);
}

// numpy's element formatter for one array (FloatingFormat / IntegerFormat / BoolFormat with
// the default options: precision 8, floatmode 'maxprec', suppress False).
struct NpFormatter {
  NpType t;
  bool f32 = false, expFormat = false;
  size_t padLeft = 0, padRight = 0, width = 0;
  int precision = 0, expSize = 2;
  bool rank0 = false;

  NpFormatter(NpType type, const std::vector<double>& vals, bool isRank0)
      : t(type), rank0(isRank0) {
    f32 = t == NpType::Float32;
    if (t == NpType::Bool) return;
    if (npIsInt(t)) {
      for (double v : vals) width = std::max(width, std::to_string(int64_t(v)).size());
      return;
    }
    std::vector<double> fin;
    bool nonFinite = false, negInf = false;
    for (double v : vals) {
      if (std::isfinite(v))
        fin.push_back(v);
      else
        nonFinite = true, negInf = negInf || (std::isinf(v) && v < 0);
    }
    double mx = 0, mn = INFINITY;
    for (double v : fin)
      if (v != 0) mx = std::max(mx, std::fabs(v)), mn = std::min(mn, std::fabs(v));
    if (mx != 0 && (mx >= 1e8 || mn < 0.0001 || mx / mn > 1000.)) expFormat = true;
    if (expFormat) {
      size_t expLen = 0;
      for (double v : fin) {
        NpDigits d = npShortest(v, f32);
        if (d.digits.size() > 9) d.digits.resize(9);  // at most 8 digits after the point
        precision = std::max(precision, int(d.digits.size()) - 1);
        padLeft = std::max(padLeft, size_t(d.neg ? 2 : 1));
        expLen = std::max(expLen, std::to_string(std::abs(d.exp10)).size());
      }
      expSize = int(std::max<size_t>(2, expLen));
      padRight = size_t(expSize) + 2 + size_t(precision);
    } else {
      for (double v : fin) {
        const NpDigits d = npRoundFrac(v, npShortest(v, f32), 8);
        auto [ip, fp] = npPositional(d);
        padLeft = std::max(padLeft, ip.size());
        padRight = std::max(padRight, fp.size());
      }
    }
    if (nonFinite) {
      const size_t offset = padRight + 1;
      const size_t inflen = 3 + (negInf ? 1 : 0);
      if (3 > offset) padLeft = std::max(padLeft, 3 - offset);
      if (inflen > offset) padLeft = std::max(padLeft, inflen - offset);
    }
  }

  std::string operator()(double v) const {
    if (t == NpType::Bool) return v != 0 ? (rank0 ? "True" : " True") : "False";
    if (npIsInt(t)) {
      std::string s = std::to_string(int64_t(v));
      return std::string(width - std::min(width, s.size()), ' ') + s;
    }
    if (!std::isfinite(v)) {
      std::string s = std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
      const size_t w = padLeft + padRight + 1;
      return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
    }
    if (expFormat) {
      NpDigits d = npShortest(v, f32);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*e", precision, std::fabs(v));
      std::string s = buf;
      const size_t e = s.find('e');
      std::string mant = s.substr(0, e);
      if (mant.find('.') == std::string::npos) mant += ".";
      const int ex = std::atoi(s.c_str() + e + 1);
      std::string exs = std::to_string(std::abs(ex));
      if (exs.size() < size_t(expSize)) exs = std::string(size_t(expSize) - exs.size(), '0') + exs;
      mant = (d.neg ? "-" : "") + mant;
      const size_t ipLen = mant.find('.');
      return std::string(padLeft > ipLen ? padLeft - ipLen : 0, ' ') + mant + "e" +
             (ex < 0 ? "-" : "+") + exs;
    }
    const NpDigits d = npRoundFrac(v, npShortest(v, f32), 8);
    auto [ip, fp] = npPositional(d);
    return std::string(padLeft > ip.size() ? padLeft - ip.size() : 0, ' ') + ip + "." + fp +
           std::string(padRight > fp.size() ? padRight - fp.size() : 0, ' ');
  }
};

std::string npRstrip(const std::string& s) {
  size_t e = s.size();
  while (e > 0 && s[e - 1] == ' ') --e;
  return s.substr(0, e);
}

void npExtendLine(std::string& s, std::string& line, const std::string& word, size_t width,
                  const std::string& nextPrefix) {
  bool wrap = line.size() + word.size() > width;
  if (line.size() <= nextPrefix.size()) wrap = false;
  if (wrap) {
    s += npRstrip(line) + "\n";
    line = nextPrefix;
  }
  line += word;
}

// numpy's _formatArray.
struct NpLayout {
  const NdArrayObj& a;
  const NpFormatter& fmt;
  std::string sep;
  bool summarize;
  std::vector<int64_t> strides;

  std::string rec(std::vector<int64_t>& index, const std::string& hanging, size_t width) {
    const size_t axis = index.size();
    const size_t axesLeft = a.shape.size() - axis;
    if (axesLeft == 0) {
      int64_t at = 0;
      for (size_t k = 0; k < index.size(); ++k) at += index[k] * strides[k];
      return fmt(a.data[size_t(at)]);
    }
    const std::string nextHanging = hanging + " ";
    const size_t nextWidth = width - 1;
    const int64_t len = a.shape[axis];
    const bool summary = summarize && 2 * 3 < len;
    const int64_t leading = summary ? 3 : 0, trailing = summary ? 3 : len;
    std::string s;
    auto child = [&](int64_t i) {
      index.push_back(i);
      std::string r = rec(index, nextHanging, nextWidth);
      index.pop_back();
      return r;
    };
    if (axesLeft == 1) {
      const std::string sepStripped = npRstrip(sep);
      const size_t elemWidth = width - std::max(sepStripped.size(), size_t(1));
      std::string line = hanging;
      for (int64_t i = 0; i < leading; ++i) {
        npExtendLine(s, line, child(i), elemWidth, hanging);
        line += sep;
      }
      if (summary) {
        npExtendLine(s, line, "...", elemWidth, hanging);
        line += sep;
      }
      for (int64_t i = trailing; i > 1; --i) {
        npExtendLine(s, line, child(len - i), elemWidth, hanging);
        line += sep;
      }
      if (len > 0) npExtendLine(s, line, child(len - 1), elemWidth, hanging);
      s += line;
    } else {
      const std::string lineSep = npRstrip(sep) + std::string(axesLeft - 1, '\n');
      for (int64_t i = 0; i < leading; ++i) s += hanging + child(i) + lineSep;
      if (summary) s += hanging + "..." + lineSep;
      for (int64_t i = trailing; i > 1; --i) s += hanging + child(len - i) + lineSep;
      if (len > 0) s += hanging + child(len - 1);
    }
    return "[" + s.substr(std::min(s.size(), hanging.size())) + "]";
  }
};

}  // namespace

std::string ndarrayText(const NdArrayObj& a, bool asRepr) {
  if (a.scalar) return npScalarText(a.dtype, a.data.at(0));
  if (a.shape.empty() && !asRepr) return npScalarText(a.dtype, a.data.at(0));
  const bool summarize = a.size() > 1000;
  // The formatter sees the printed items only (the edges when summarized).
  std::vector<double> shown;
  if (summarize) {
    std::vector<int64_t> strides(a.shape.size(), 1);
    for (size_t k = a.shape.size(); k-- > 1;) strides[k - 1] = strides[k] * a.shape[k];
    std::vector<int64_t> pos(a.shape.size(), 0);
    for (int64_t f = 0; f < a.size(); ++f) {
      bool edge = true;
      for (size_t k = 0; k < a.shape.size(); ++k)
        edge = edge && (a.shape[k] <= 6 || pos[k] < 3 || pos[k] >= a.shape[k] - 3);
      if (edge) shown.push_back(a.data[size_t(f)]);
      for (size_t k = a.shape.size(); k-- > 0;) {
        if (++pos[k] < a.shape[k]) break;
        pos[k] = 0;
      }
    }
  } else {
    shown = a.data;
  }
  const NpFormatter fmt(a.dtype, shown, a.shape.empty());
  const bool skipDtype =
      (a.dtype == NpType::Float64 || a.dtype == NpType::Int64 || a.dtype == NpType::Bool) &&
      a.size() > 0;
  const std::string prefix = asRepr ? "array(" : "";
  const std::string suffix = asRepr ? (skipDtype ? ")" : ",") : "";
  std::string body;
  if (a.size() == 0 && !(a.shape.size() == 1)) {
    body = "[], shape=" + npShapeText(a.shape, true);
  } else {
    NpLayout lay{a, fmt, asRepr ? ", " : " ", summarize, {}};
    lay.strides.assign(a.shape.size(), 1);
    for (size_t k = a.shape.size(); k-- > 1;) lay.strides[k - 1] = lay.strides[k] * a.shape[k];
    std::vector<int64_t> index;
    body = lay.rec(index, " " + std::string(prefix.size(), ' '), 75 - suffix.size());
  }
  std::string out = prefix + body + suffix;
  if (!asRepr || skipDtype) return out;
  const std::string dtypeStr = std::string("dtype=") + npTypeName(a.dtype) + ")";
  const size_t lastLine =
      out.size() - (out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
  return out + (lastLine + dtypeStr.size() + 1 > 75 ? "\n      " : " ") + dtypeStr;
}

}  // namespace gl::lang::trace
