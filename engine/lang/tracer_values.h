#pragma once
// The tracer's value model: what a GradLab script name can hold while it is traced. A Val is a
// closed set of typed alternatives (a std::variant): Python values (None, bool, int, float, str,
// list, tuple, Ellipsis, dtypes) are evaluated at trace time; tensors and tf.Variables are graph
// values; everything else (functions, tapes, TensorArrays, layers, modules) is an Object.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "engine/autodiff/tape.h"
#include "engine/graph/graph.h"

namespace gl::lang {

struct Expr;

namespace trace {

class Context;
struct Val;
struct CallArgs;

enum class Kind { None, Bool, Int, Float, Str, Tensor, List, Tuple, Object, DType, Ellipsis };

// A Python list is shared and mutable (append); a tuple uses the same storage but is never
// mutated.
struct ListObj {
  std::vector<Val> items;
  int depth = 1;  // nesting of lists inside; bounded so no recursive walk can overflow the stack
  // Records a new item's nesting; throws past kMaxListNesting (the tracer adds the location).
  void noteChild(const Val& v);
};

// Lists may nest this deep (and no deeper): printing, comparing and flattening recurse.
constexpr int kMaxListNesting = 100;
// Python lists and strings may hold this many items while tracing (TraceOptions::maxItems).
// Lists grow in places that never see the tracer's options (ListObj::noteChild), so the
// tracer publishes its limit for its own thread while it runs; a thread that is not tracing
// sees the default.
int64_t maxPythonItems();
class PythonItemLimit {
 public:
  explicit PythonItemLimit(int64_t items);
  ~PythonItemLimit();
  PythonItemLimit(const PythonItemLimit&) = delete;
  PythonItemLimit& operator=(const PythonItemLimit&) = delete;

 private:
  int64_t previous_;
};

// A tf.Variable's state. The graph is SSA, so a variable is a binding from its handle (the
// Variable node tf.Variable made) to its current tensor: assign makes a new tensor current, reads
// see the current one, and AutoGraph carries it through tensor loops (tracer_variables.cpp).
struct VarState {
  Value handle;
  Value current;
  int region = 0;  // where it may be assigned: its own, or the body of a loop carrying it
  bool trainable = true;
  // What each tape saw read (a tape's gradient by the variable sums over these, as TF's does
  // over the reads of one handle) and the tapes that watch it whatever their settings.
  std::vector<std::pair<const GradientTape*, Value>> reads;
  std::set<const GradientTape*> watchedBy;
};

// tf.range(start, limit, delta): remembered so that `for i in tf.range(n)` becomes one
// while_loop instead of a tensor that is iterated over.
struct RangeInfo;

// Everything that is neither a Python scalar/list nor a tensor: functions, builtins, modules,
// tapes, TensorArrays, layers. Attribute lookup and calls go through these hooks, which reach
// the tracer through the builtins' Context.
class Object : public std::enable_shared_from_this<Object> {
 public:
  virtual ~Object() = default;
  virtual std::string typeName() const = 0;
  // Returns nullopt for unknown attributes (the caller reports them with suggestions).
  virtual std::optional<Val> attr(Context& cx, const std::string& name);
  virtual std::vector<std::string> attrNames() const { return {}; }
  virtual bool callable() const { return false; }
  virtual Val call(Context& cx, CallArgs& args);
  // `with obj:` / `with obj as name:`; enter returns the value bound by `as`.
  virtual bool isContext() const { return false; }
  virtual Val enter(Context& cx, const SourceLoc& loc);
  virtual void exit(Context&) {}
  // Python's iteration and len() for objects that have them (datasets, arrays); nullopt for an
  // object that is not iterable / has no len() (the caller reports it, naming the type).
  // (Defined in tracer.cpp: Val is incomplete here, and clang instantiates the optional.)
  virtual std::optional<std::vector<Val>> iterate(Context&, const SourceLoc&);
  virtual std::optional<int64_t> length(Context&, const SourceLoc&) { return std::nullopt; }
  // repr()/str() at trace time; datasets show TF's "<_BatchDataset element_spec=...>".
  virtual std::string reprText() const { return "<" + typeName() + ">"; }
  // str(): the same as repr() unless the object says otherwise (an exception's message).
  virtual std::string strText() const { return reprText(); }
};
using ObjPtr = std::shared_ptr<Object>;

// A script value is exactly one of these alternatives; each carries only what is meaningful for
// it. Python scalars and sequences are evaluated while tracing; tensors are graph values.
struct NoneVal {
  // None returned by a tape: why the gradient is missing.
  std::shared_ptr<const GradDiagnostic> why;
  bool fromGradient = false;  // a result of tape.gradient/jacobian
};
struct TensorVal {
  Value value;
  std::shared_ptr<const RangeInfo> range;  // a tf.range built as a constant: its bounds
  bool fromGradient = false;
};
// A tf.Variable as the script holds it. The script reads it as a tensor (kind() is Tensor);
// `read` is its value when this Val was read, state->current its value now.
struct VariableVal {
  std::shared_ptr<VarState> state;
  Value read;
};
// Lists are shared and mutable (append); tuples use the same storage but are never mutated.
struct ListVal {
  std::shared_ptr<ListObj> list;
  bool fromGradient = false;
};
struct TupleVal {
  std::shared_ptr<ListObj> list;
  bool fromGradient = false;
};
struct EllipsisVal {};

struct Val {
  Val() = default;  // None
  static Val none() { return {}; }
  // None standing for a gradient that does not exist, carrying why.
  static Val noneBecause(GradDiagnostic why) {
    return Val(NoneVal{std::make_shared<const GradDiagnostic>(std::move(why))});
  }
  static Val boolean(bool v) { return Val(Alternative(std::in_place_type<bool>, v)); }
  static Val integer(int64_t v) { return Val(Alternative(std::in_place_type<int64_t>, v)); }
  static Val real(double v) { return Val(Alternative(std::in_place_type<double>, v)); }
  static Val str(std::string v) {
    return Val(Alternative(std::in_place_type<std::string>, std::move(v)));
  }
  static Val tensor(Value v) { return Val(TensorVal{v}); }
  // A tf.range built as a constant: a tensor that still knows its bounds, so that
  // `for i in tf.range(n)` becomes one while_loop.
  static Val rangeTensor(Value v, std::shared_ptr<const RangeInfo> r) {
    return Val(TensorVal{v, std::move(r)});
  }
  // A tf.Variable as the script holds it: its current value, carrying its state.
  static Val variable(std::shared_ptr<VarState> s) {
    const Value now = s->current;
    return Val(VariableVal{std::move(s), now});
  }
  static Val dtype(DType d) { return Val(Alternative(std::in_place_type<DType>, d)); }
  static Val listOf(std::vector<Val> items, bool tuple = false) {
    auto list = std::make_shared<ListObj>();
    list->items = std::move(items);
    for (const Val& v : list->items) list->noteChild(v);
    return tuple ? Val(TupleVal{std::move(list)}) : Val(ListVal{std::move(list)});
  }
  static Val object(ObjPtr o) { return Val(Alternative(std::in_place_type<ObjPtr>, std::move(o))); }
  static Val ellipsis() { return Val(EllipsisVal{}); }

  // The Python-level type the script's operators see; a tf.Variable is a Tensor here.
  Kind kind() const {
    static constexpr Kind kinds[] = {Kind::None,  Kind::Bool,   Kind::Int,    Kind::Float,
                                     Kind::Str,   Kind::Tensor, Kind::Tensor, Kind::List,
                                     Kind::Tuple, Kind::Object, Kind::DType,  Kind::Ellipsis};
    static_assert(std::size(kinds) == std::variant_size_v<Alternative>);
    return kinds[alt_.index()];
  }
  bool isNone() const { return holds<NoneVal>(); }
  bool isNumber() const { return holds<bool>() || holds<int64_t>() || holds<double>(); }
  bool isTensor() const { return holds<TensorVal>() || holds<VariableVal>(); }
  bool isVariable() const { return holds<VariableVal>(); }
  bool isSeq() const { return holds<ListVal>() || holds<TupleVal>(); }
  double number() const;  // a bool, int or float as a double; 0 otherwise
  const std::vector<Val>& items() const { return list()->items; }
  template <class T>
  T* as() const {
    const ObjPtr* o = std::get_if<ObjPtr>(&alt_);
    return o ? dynamic_cast<T*>(o->get()) : nullptr;
  }

  // Each reads its own alternative and gives the type's zero (false, 0, "", no value, null) for
  // any other, as the one-struct Val did; callers test kind() first.
  bool asBool() const { return valueOr<bool>(false); }
  int64_t asInt() const { return valueOr<int64_t>(0); }
  double asFloat() const { return valueOr<double>(0); }
  const std::string& text() const;
  // A tensor's graph value; a tf.Variable's value when this Val was read.
  Value tensorValue() const;
  DType asDType() const { return valueOr<DType>(DType::F32); }
  const std::shared_ptr<ListObj>& list() const;  // List and Tuple
  const ObjPtr& obj() const;

  // Bookkeeping that survives binding to a name, for outputs and AutoGraph.
  bool fromGradient() const;  // a result of tape.gradient/jacobian (None, tensor, list, tuple)
  void markFromGradient();
  const GradDiagnostic* why() const;             // None returned by a tape: why
  const RangeInfo* range() const;                // a tf.range result (a constant or a lazy range)
  const std::shared_ptr<VarState>& var() const;  // a tf.Variable's state; null otherwise

 private:
  using Alternative = std::variant<NoneVal, bool, int64_t, double, std::string, TensorVal,
                                   VariableVal, ListVal, TupleVal, ObjPtr, DType, EllipsisVal>;
  Alternative alt_;

  explicit Val(Alternative a) : alt_(std::move(a)) {}
  template <class T>
  bool holds() const {
    return std::holds_alternative<T>(alt_);
  }
  template <class T>
  T valueOr(T otherwise) const {
    const T* p = std::get_if<T>(&alt_);
    return p ? *p : otherwise;
  }
};

// A Python dict: str, int or bool keys, in insertion order (sources and targets of a tape).
struct DictObj : Object {
  std::vector<Val> keys, values;
  // os.environ: GradLab runs a script without the process's environment, so this dict holds
  // only what the script set; reading a key it did not set is an error naming that, never a
  // KeyError or a default the real environment might not give (tracer_imports.cpp).
  bool environ = false;
  std::string typeName() const override { return environ ? "_Environ" : "dict"; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;  // items/keys/values
  std::vector<std::string> attrNames() const override {
    return {"items", "keys", "values", "get", "pop", "setdefault", "update", "copy", "clear"};
  }
  int find(const Val& key) const;  // -1 when absent
  // d[key] = value: a repeated key keeps its place and takes the last value, as in Python.
  void set(const Val& key, Val value);
};

struct RangeInfo {
  Val start, limit, delta;  // Python ints or scalar int tensors
};

// One argument as written: its value and where it was written (for errors).
struct Arg {
  Val v;
  SourceLoc loc;
  const Expr* expr = nullptr;
};

struct CallArgs {
  std::vector<Arg> pos;
  std::vector<std::pair<std::string, Arg>> kw;
  SourceLoc loc;  // the call expression
};

// "an int", "a list": for messages.
std::string article(const std::string& noun);

// Python's protocols, one function each (tracer_protocols.cpp). Attribute lookup and calls
// need the tracer (Tracer::getAttr, Tracer::call); iteration is iterate() (builtins_py).
// type(): type names as Python spells them ("int", "list", "Tensor", "GradientTape", ...).
std::string typeName(const Val& v);
// What repr() may read of a tensor (TF 2's execution model, issue #27): an eager tensor's value,
// computed now; nullopt for a graph tensor (inside a tf.function or a loop body), which shows as
// TF's symbolic Tensor("add:0", ...). The tracer implements it (tracer_eager_values.cpp), so
// that repr() needs nothing of the tracer but this.
class TensorValues {
 public:
  virtual std::optional<Tensor> valueNow(Value v) const = 0;

 protected:
  ~TensorValues() = default;
};
// str() (depth 0) and repr() of items inside a container (depth > 0), as Python prints them at
// trace time. A tensor shows as TF 2 shows it: its value where `values` has one
// (tf.Tensor([1. 2.], shape=(2,), dtype=float32)), else TF's graph text.
std::string repr(const Graph& g, const Val& v, int depth = 0, const TensorValues* values = nullptr);
// The name TF gives a graph tensor ("add_1:0"; a function argument "x:0", a variable "w:0").
std::string tfTensorName(const Graph& g, Value v);
// A tensor or tf.Variable as TF's __str__ (asRepr false) or __repr__ shows it.
std::string tensorText(const Graph& g, const Val& v, bool asRepr, const TensorValues* values);
// bool(): Python truth; nullopt for a tensor, whose truth is known only when the graph runs.
std::optional<bool> truth(const Val& v);
// ==: Python identity/equality for Python values (tensors compare by graph value).
bool sameValue(const Val& a, const Val& b, int depth = 0);
// Dict keys (the hashing protocol): str, int or bool; two keys are one when of the same type
// and equal.
bool isDictKey(const Val& v);
bool sameKey(const Val& a, const Val& b);

}  // namespace trace
}  // namespace gl::lang
