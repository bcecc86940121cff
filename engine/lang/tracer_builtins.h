#pragma once
// The builtin table and what its entries are written with: signatures, arguments bound to them
// (Bound), the Context they reach the tracer through, and the namespaces (tf, tf.nn, ...) that
// make the table's names reachable from scripts.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/tracer_context.h"

namespace gl::lang::trace {

// A parameter of a builtin, parsed from a Python-like signature string.
struct ParamSpec {
  std::string name;
  bool hasDefault = false;
  Val def;
  bool varargs = false;  // *name
  bool varkw = false;    // **name
  // "~name=...": a hint that does not change TF's answer (parallel_iterations, swap_memory),
  // accepted without being read. Every other given argument must be read (Bound::checkAllRead).
  bool hint = false;
};

struct Signature {
  std::vector<ParamSpec> params;
  // "x, axis=None, keepdims=False, *values, **attrs"
  static Signature parse(const std::string& spec);
};

class Bound;
using BuiltinFn = std::function<Val(Bound&)>;

// A builtin: a function with a signature, or a constant (tf.float32).
struct BuiltinDef {
  Signature sig;
  BuiltinFn fn;
  bool isConstant = false;
  Val constant;
  bool isProperty = false;  // "Tensor.shape": applied on attribute access, without a call
};
using BuiltinTable = std::map<std::string, BuiltinDef>;

// Keys are qualified ("len", "tf.reduce_sum", "tf.keras.layers.Dense").
const BuiltinTable& builtins();
void addPythonBuiltins(BuiltinTable& t);
void addTfMathBuiltins(BuiltinTable& t);
void addTfArrayBuiltins(BuiltinTable& t);
void addControlFlowBuiltins(BuiltinTable& t);
void addObjectBuiltins(BuiltinTable& t);
void addKerasBuiltins(BuiltinTable& t);
void addGuideOpBuiltins(BuiltinTable& t);
void addCustomGradientBuiltins(BuiltinTable& t);
void addOptimizerBuiltins(BuiltinTable& t);
void addTfMathMoreBuiltins(BuiltinTable& t);
void addTfArrayMoreBuiltins(BuiltinTable& t);
void addTfPartsBuiltins(BuiltinTable& t);       // called by addTfArrayBuiltins
void addPythonModuleBuiltins(BuiltinTable& t);  // math, time, functools, tf.version ("py.")
void addItertoolsBuiltins(BuiltinTable& t);     // itertools (tracer_builtins_itertools.cpp)
void addStringBuiltins(BuiltinTable& t);
void addStringMethodBuiltins(BuiltinTable& t);  // ljust, center, ... (tracer_builtins_str.cpp) //
                                                // str methods, format, repr (tracer_format.cpp)
void addDataBuiltins(BuiltinTable& t);          // tf.data (tracer_data_builtins.cpp)
void addClassBuiltins(BuiltinTable& t);         // super, isinstance, property, getattr, ...
void addExceptionBuiltins(BuiltinTable& t);  // ValueError, ..., tf.errors.* (tracer_exceptions.cpp)
// tf.keras.layers.Layer, tf.keras.Model and tf.Module as bases (tracer_keras_subclass.cpp).
void addKerasSubclassBuiltins(BuiltinTable& t);
void addKerasTrainingBuiltins(BuiltinTable& t);
void addFunctionBuiltins(BuiltinTable& t);  // tf.function, tf.config (tracer_function.cpp)  //
                                            // compile, fit, ... (tracer_keras_training.cpp)

// os.environ (a DictObj with environ set): the error for reading key, which the script did not
// set (tracer_imports.cpp).
std::string unsetEnvironMessage(const Val& key);

// The TF release whose API GradLab answers as (tf.__version__, tf.version.VERSION).
inline constexpr const char* kTfVersion = "2.16.1";

// A builtin's tensor result (the op tables return tensors in nearly every row).
inline Val T(Value v) { return Val::tensor(v); }

// Arguments bound to a builtin's signature, with typed accessors whose errors name the
// builtin, the parameter and the argument's location.
class Bound {
 public:
  Bound(Context& cx, std::string fn, const Signature& sig, CallArgs& args);
  Context& cx;
  const std::string fn;
  SourceLoc callLoc;
  std::vector<Arg> rest;                           // *varargs
  std::vector<std::pair<std::string, Arg>> extra;  // **kwargs
  Val self;                                        // bound methods

  const Val& operator[](const std::string& name) const;
  const SourceLoc& loc(const std::string& name) const;
  const Expr* expr(const std::string& name) const;
  bool given(const std::string& name) const;
  bool none(const std::string& name) const { return (*this)[name].isNone(); }
  Value tensor(const std::string& name) const;
  Value tensorLike(const std::string& name, Value like) const;
  int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  bool boolean(const std::string& name) const;
  std::string string(const std::string& name) const;
  std::vector<int64_t> ints(const std::string& name) const;  // an int or a list of ints
  std::vector<int64_t> axes(const std::string& name) const;  // None = all axes = {}
  DType dtype(const std::string& name, DType def) const;
  Shape shape(const std::string& name) const;
  [[noreturn]] void fail(const std::string& name, const std::string& msg) const;
  // After the builtin ran: an argument given with a value other than its default that the
  // builtin never looked at (and that is not a hint or `name`) is a located error naming it.
  // GradLab never ignores an argument TF would honour.
  void checkAllRead() const;

 private:
  const Arg* find(const std::string& name) const;
  std::optional<std::vector<int64_t>> staticInts(const Val& v) const;
  std::vector<std::string> names_;
  std::vector<Arg> slots_;
  std::vector<bool> given_;
  std::vector<Val> defaults_;
  std::vector<bool> hints_;
  mutable std::vector<bool> read_;
};

// Arguments x and y as two tensors, a Python number taking the other side's dtype.
std::pair<Value, Value> operands(Bound& a, const char* x, const char* y);

// tf.cumsum of x with the call's axis, exclusive and reverse arguments
// (tracer_builtins_arrays.cpp).
Value cumsumAlong(Bound& a, Value x);

// Average pooling of NHWC x over windows k with strides s, as TF: the mean of each window's
// values inside the input (SAME padding does not count the padding). Fails at `loc` unless
// H, W and C are known (tracer_builtins_math.cpp).
Value averagePool2d(Context& cx, Value x, const std::vector<int64_t>& k,
                    const std::vector<int64_t>& s, const std::string& padding,
                    const SourceLoc& loc);

// Max pooling of NHWC x over windows k with strides s: the max of each window's values inside
// the input, gathered as [N, H', W', window, C] patches and reduced (the gradient goes to the
// maximum; ties share it, where TF's MaxPoolGrad gives it all to the first).
Value maxPool2d(Context& cx, Value x, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
                const std::string& padding, const SourceLoc& loc);

// Python's iteration of v (list(v), for): lists, tuples, dicts (keys), strings, ranges, tensors
// (rows) and objects with iterate(); a located error for anything else.
std::vector<Val> pythonItems(Bound& a, const Val& v, const SourceLoc& loc);
// sorted, reversed, any, all, map, filter, dict, type, callable, round
// (tracer_builtins_pyfunc.cpp).
void addPythonFunctionBuiltins(BuiltinTable& t);

// A shape as Python sees it (x.shape, build's input_shape): a tuple of ints, None where unknown.
Val shapeTuple(const Shape& s);

// A builtin as a Python callable, optionally bound to a receiver (x.shape, ta.write).
struct BuiltinObj : Object {
  std::string name;
  const BuiltinDef* def = nullptr;
  Val self;
  std::string typeName() const override { return "builtin_function"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override;
};

// A namespace such as tf, tf.nn or keras.layers: attributes come from the builtin table, with
// every registered primitive reachable by name.
struct ModuleObj : Object {
  std::string prefix;  // "tf.", "tf.nn.", "py.math."
  std::string shown;   // the name messages use ("math"); the prefix without its dot if empty
  std::string typeName() const override { return "module"; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override;
};

// Attribute `name` of namespace `prefix` ("tf.", "tf.nn."): a builtin, a sub-namespace or a
// primitive.
std::optional<Val> moduleAttr(const std::string& prefix, const std::string& name);

// A graph list value (from a primitive such as list_new) as a TensorArray; `like` gives the
// size/element metadata of the TensorArray it replaces (loop variables, branch results).
Val wrapList(Context& cx, Value list, const Val* like = nullptr);

// A name the script did not bind: Python builtins, tf names (prefix optional), namespaces and
// registered primitives.
std::optional<Val> lookupBuiltin(const std::string& name);

// Slices inside subscripts (x[1:3]).
Val makeSlice(Val lower, Val upper, Val step);
bool sliceParts(const Val& v, Val& lower, Val& upper, Val& step);

// A registry primitive called by name: tensors (or lists of them) become inputs, keyword
// arguments become attributes.
Val callPrimitive(Context& cx, const std::string& prim, CallArgs& args);

// Names closest to `name` by edit distance, as " (did you mean 'x'?)" or "".
std::string suggest(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace gl::lang::trace
