#pragma once
// numpy, the part gradient snippets use (#26 item 5). An ndarray is a host value known while
// tracing: its numpy dtype, its shape and its elements (row-major, held as doubles; a float32
// array's elements are rounded to float after every operation). Arithmetic among ndarrays and
// Python numbers runs on the host with numpy's type promotion (numpy 1.26, which TF 2.16 pins:
// value-based casting of Python scalars) and broadcasting. An ndarray meeting a tensor (an
// operator, a tf function, tf.constant) becomes a constant tensor as tf.convert_to_tensor makes
// it: a float64 array is a float64 tensor. tensor.numpy() gives an ndarray where the tensor's
// value exists while tracing (a top-level value), and an np function given a tensor computes on
// its value: the result left TensorFlow, so a gradient through it is None, as in TF.
//   tracer_numpy.cpp          the array: dtypes, promotion, broadcasting, operators,
//                             subscripts, conversions, printing
//   tracer_numpy_builtins.cpp the numpy module: creation, reductions, shape functions, methods
//   tracer_numpy_random.cpp   np.random: numpy's legacy MT19937 streams
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

// numpy's dtypes GradLab holds (float16, uint16/32/64 and complex are not provided).
enum class NpType : uint8_t { Bool, Int8, Int16, Int32, Int64, UInt8, Float32, Float64 };
const char* npTypeName(NpType t);  // "float32"
bool npIsFloat(NpType t);
bool npIsInt(NpType t);  // signed or unsigned integer (not bool)

struct NdArrayObj : Object {
  NpType dtype = NpType::Float64;
  std::vector<int64_t> shape;
  std::vector<double> data;  // row-major; a value of the dtype (rounded, wrapped) in each
  // A numpy scalar (np.float32(1.5), arr.sum()): a 0-d value that prints as a Python number.
  bool scalar = false;
  std::string typeName() const override;
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override;
  std::optional<std::vector<Val>> iterate(Context& cx, const SourceLoc& loc) override;
  std::optional<int64_t> length(Context& cx, const SourceLoc& loc) override;
  int64_t size() const { return int64_t(data.size()); }
};
using NdPtr = std::shared_ptr<NdArrayObj>;

// np.float32 and kin: a dtype that is also a type (np.float32(2) makes a numpy scalar).
struct NpDTypeObj : Object {
  NpType type = NpType::Float64;
  std::string typeName() const override { return "type"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override;
  std::optional<Val> attr(Context& cx, const std::string& name) override;
};

// A new array; values are brought to the dtype (rounded to float32, wrapped to uint8, ...).
NdPtr makeNdArray(NpType dtype, std::vector<int64_t> shape, std::vector<double> data);
Val ndVal(NdPtr a);
// v as an ndarray when it is one (or a numpy scalar); null otherwise.
const NdArrayObj* asNdArray(const Val& v);

// The value a tensor-accepting function sees: a constant tensor made as tf.convert_to_tensor
// makes it (with `like`, the dtype the other operand asks for, as TF's operators convert).
// Integer arrays become int32 tensors (GradLab's only integer dtype), an error when a value does
// not fit.
Value ndarrayToTensor(Context& cx, const NdArrayObj& a, const SourceLoc& loc,
                      std::optional<DType> like);
// Python operators with an ndarray on a side and no tensor: computed on the host. nullopt when
// no operand is an ndarray or one is a tensor (the tensor path converts the ndarray).
std::optional<Val> ndarrayBinary(Context& cx, BinaryOp op, const Val& l, const Val& r,
                                 const SourceLoc& loc);
std::optional<Val> ndarrayCompare(Context& cx, CmpOp op, const Val& l, const Val& r,
                                  const SourceLoc& loc);
std::optional<Val> ndarrayUnary(Context& cx, UnaryOp op, const Val& v, const SourceLoc& loc);
// a[index]: ints, slices, None, an Ellipsis, and int or bool arrays (one, as the whole index).
Val ndarraySubscript(Context& cx, const NdArrayObj& a, const Val& index, const SourceLoc& loc);
// str() and repr() as numpy prints them.
std::string ndarrayText(const NdArrayObj& a, bool asRepr);
// The numpy dtype an argument names (np.float32, "uint8", float, tf.float32); nullopt if none.
std::optional<NpType> npTypeOf(const Val& v);
// The engine dtype of a numpy dtype (every integer type is int32 in GradLab's engine).
DType engineDType(NpType t);

// A tensor's value as numpy holds it (float32 stays float32; int32 is int32), a numpy scalar
// when `scalar` and the tensor has rank 0 (what EagerTensor.numpy() returns).
NdPtr ndarrayOf(const Tensor& t, bool scalar);
// tensor.numpy(): the tensor's value as an ndarray (a numpy scalar for a scalar tensor), where
// it exists while tracing; TF's eager-only error inside a traced body.
Val tensorToNdArray(Context& cx, Value v, const SourceLoc& loc, bool scalarIfRank0);
// An np function's array argument: an ndarray, a Python number or nested list, or a tensor whose
// value exists while tracing (numpy computes on the value; the graph loses track of it).
NdPtr toNdArray(Context& cx, const Val& v, const SourceLoc& loc,
                std::optional<NpType> dtype = std::nullopt);

// A numpy scalar or size-1 array as the Python number it holds (int(), float(), a builtin's
// number argument); nullopt for anything else.
std::optional<Val> npPythonNumber(const Val& v);

// The numpy module (keys "py.numpy.", methods "numpy.ndarray.") and np.random.
void addNumpyBuiltins(BuiltinTable& t);
void addNumpyRandomBuiltins(BuiltinTable& t);

}  // namespace gl::lang::trace
