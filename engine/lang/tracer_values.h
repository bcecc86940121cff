#pragma once
// The tracer's value model: what a GradLab script name can hold while it is traced. Python
// values (None, bool, int, float, str, list, tuple) are evaluated at trace time; tensors are
// graph values; everything else (functions, tapes, TensorArrays, layers, modules) is an Object.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
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
};
using ObjPtr = std::shared_ptr<Object>;

struct Val {
  static Val none() { return {}; }
  // None standing for a gradient that does not exist, carrying why.
  static Val noneBecause(GradDiagnostic why) {
    Val x;
    x.why_ = std::make_shared<const GradDiagnostic>(std::move(why));
    return x;
  }
  static Val boolean(bool v) {
    Val x;
    x.kind_ = Kind::Bool;
    x.b_ = v;
    return x;
  }
  static Val integer(int64_t v) {
    Val x;
    x.kind_ = Kind::Int;
    x.i_ = v;
    return x;
  }
  static Val real(double v) {
    Val x;
    x.kind_ = Kind::Float;
    x.f_ = v;
    return x;
  }
  static Val str(std::string v) {
    Val x;
    x.kind_ = Kind::Str;
    x.s_ = std::move(v);
    return x;
  }
  static Val tensor(Value v) {
    Val x;
    x.kind_ = Kind::Tensor;
    x.t_ = v;
    return x;
  }
  // A tf.Variable as the script holds it: its current value, carrying its state.
  static Val variable(std::shared_ptr<VarState> s) {
    Val x = tensor(s->current);
    x.var_ = std::move(s);
    return x;
  }
  static Val dtype(DType d) {
    Val x;
    x.kind_ = Kind::DType;
    x.dt_ = d;
    return x;
  }
  static Val listOf(std::vector<Val> items, bool tuple = false) {
    Val x;
    x.kind_ = tuple ? Kind::Tuple : Kind::List;
    x.list_ = std::make_shared<ListObj>();
    x.list_->items = std::move(items);
    for (const Val& v : x.list_->items) x.list_->noteChild(v);
    return x;
  }
  static Val object(ObjPtr o) {
    Val x;
    x.kind_ = Kind::Object;
    x.obj_ = std::move(o);
    return x;
  }
  static Val ellipsis() {
    Val x;
    x.kind_ = Kind::Ellipsis;
    return x;
  }

  bool isNone() const { return kind_ == Kind::None; }
  bool isNumber() const {
    return kind_ == Kind::Int || kind_ == Kind::Float || kind_ == Kind::Bool;
  }
  bool isTensor() const { return kind_ == Kind::Tensor; }
  bool isSeq() const { return kind_ == Kind::List || kind_ == Kind::Tuple; }
  double number() const { return kind_ == Kind::Float ? f_ : kind_ == Kind::Int ? double(i_) : b_; }
  const std::vector<Val>& items() const { return list_->items; }
  template <class T>
  T* as() const {
    return kind_ == Kind::Object ? dynamic_cast<T*>(obj_.get()) : nullptr;
  }

  Kind kind() const { return kind_; }
  bool asBool() const { return b_; }
  int64_t asInt() const { return i_; }
  double asFloat() const { return f_; }
  const std::string& text() const { return s_; }
  // A tensor's graph value; a tf.Variable's value when this Val was read.
  Value tensorValue() const { return t_; }
  DType asDType() const { return dt_; }
  const std::shared_ptr<ListObj>& list() const { return list_; }
  const ObjPtr& obj() const { return obj_; }

  // Bookkeeping that survives binding to a name, for outputs and AutoGraph.
  bool fromGradient() const { return fromGradient_; }  // a result of tape.gradient/jacobian
  void markFromGradient() { fromGradient_ = true; }
  const GradDiagnostic* why() const { return why_.get(); }  // None returned by a tape: why
  const RangeInfo* range() const { return range_.get(); }   // a tf.range result
  void setRange(std::shared_ptr<const RangeInfo> r) { range_ = std::move(r); }
  // A tf.Variable: var()->current is its value now.
  const std::shared_ptr<VarState>& var() const { return var_; }

 private:
  Kind kind_ = Kind::None;
  bool b_ = false;
  int64_t i_ = 0;
  double f_ = 0;
  std::string s_;
  Value t_;
  DType dt_ = DType::F32;
  std::shared_ptr<ListObj> list_;  // List and Tuple
  ObjPtr obj_;
  bool fromGradient_ = false;
  std::shared_ptr<const GradDiagnostic> why_;
  std::shared_ptr<const RangeInfo> range_;
  std::shared_ptr<VarState> var_;
};

// A Python dict: str, int or bool keys, in insertion order (sources and targets of a tape).
struct DictObj : Object {
  std::vector<Val> keys, values;
  std::string typeName() const override { return "dict"; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;  // items/keys/values
  std::vector<std::string> attrNames() const override { return {"items", "keys", "values"}; }
  int find(const Val& key) const;  // -1 when absent
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

// Type names as Python spells them ("int", "list", "Tensor", "GradientTape", ...).
std::string typeName(const Val& v);
// "an int", "a list": for messages.
std::string article(const std::string& noun);
// Python-like text for print() at trace time; tensors show their node, shape and dtype.
std::string repr(const Graph& g, const Val& v, int depth = 0);
// Python identity/equality for Python values (tensors compare by graph value).
bool sameValue(const Val& a, const Val& b, int depth = 0);

}  // namespace trace
}  // namespace gl::lang
