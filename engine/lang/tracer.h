#pragma once
// The tracer: evaluates a GradLab script AutoGraph-style into a Graph. Python values are
// computed while tracing; tensors are graph values; `if`/`while`/`for` on tensors become
// cond/while_loop nodes (tracer_autograph.cpp). The pieces:
//   tracer.cpp               names, attributes, calls
//   tracer_exprs.cpp         expressions, one function per kind
//   tracer_stmts.cpp         statements, assignment, `with`
//   tracer_autograph.cpp     if/while/for on tensors
//   tracer_tensor.cpp        Python <-> tensor conversion, operators
//   tracer_subscript.cpp     subscripts: sequence (tracer_index_seq.cpp) and tensor
//                            (tracer_index_tensor.cpp) indexing
//   tracer_signature.cpp     builtin signatures and argument binding
//   tracer_builtins_*.cpp    the builtin table (Python, tf math, control flow, objects)
//   tracer_keras.cpp         layers and losses
//   tracer_program.cpp       traceProgram: params, variants, outputs
//
// Rules worth knowing when writing a script (they follow TF2 + AutoGraph):
//   - A tensor loop's variables are the names its body assigns that exist before the loop;
//     names first assigned inside the body do not exist after it. Same for a tensor if: a
//     name assigned in only one branch does not exist after it.
//   - TensorArrays are values: `ta = ta.write(i, v)`. A discarded `ta.write(...)` is an error,
//     as TF2 graph code would silently lose the write.
//   - `print` runs while tracing (once, even in a tf.range body); `tf.print` runs in the graph.
//   - Every registered primitive is callable by name (tf. prefix optional); tf.raw_ops.<name>
//     reaches a primitive even where a tf function of the same name exists (tf.raw_ops.fill).
//   - Layers create their variables on first call, at the top level of the graph.
//   - Limits (TraceOptions): Python loop iterations, graph size, memory budget; recursion depth
//     200; lists nested 100 deep and 1e6 items long; native stack use bounded.
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/build/builder.h"
#include "engine/lang/ast.h"
#include "engine/lang/program.h"
#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

struct Binding {
  Val v;
  SourceLoc loc;
  int order = 0;
};

// One namespace of names: the module, a variant block, or one function call.
struct Scope {
  std::map<std::string, Binding> vars;
  std::shared_ptr<Scope> parent;
  // A variant block: it reads the top level and copies on write (a `with` is no Python scope,
  // so a loop in the block treats top-level names as defined before it).
  bool variantBlock = false;
};
using ScopePtr = std::shared_ptr<Scope>;

enum class Flow { Normal, Break, Continue, Return };

// A parameter of a builtin, parsed from a Python-like signature string.
struct ParamSpec {
  std::string name;
  bool hasDefault = false;
  Val def;
  bool varargs = false;  // *name
  bool varkw = false;    // **name
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

// Arguments bound to a builtin's signature, with typed accessors whose errors name the
// builtin, the parameter and the argument's location.
class Bound {
 public:
  Bound(Tracer& tr, std::string fn, const Signature& sig, CallArgs& args);
  Tracer& tr;
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

 private:
  const Arg* find(const std::string& name) const;
  std::optional<std::vector<int64_t>> staticInts(const Val& v) const;
  std::vector<std::string> names_;
  std::vector<Arg> slots_;
  std::vector<bool> given_;
};

// Python callables the tracer makes: builtins (optionally bound to a receiver) and user
// functions (def/lambda) with their closure.
struct BuiltinObj : Object {
  std::string name;
  const BuiltinDef* def = nullptr;
  Val self;
  std::string typeName() const override { return "builtin_function"; }
  bool callable() const override { return true; }
  Val call(Tracer& t, CallArgs& args) override;
};

struct FunctionObj : Object {
  std::string name;  // "<lambda>" for lambdas
  std::vector<Parameter> params;
  std::vector<std::optional<Val>> defaults;  // evaluated when the def/lambda runs, as in Python
  const Block* body = nullptr;               // def (the Module outlives the trace)
  ExprPtr lambdaBody;                        // lambda
  ScopePtr closure;
  SourceLoc loc;
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }
  Val call(Tracer& t, CallArgs& args) override;
};

// A namespace such as tf, tf.nn or keras.layers: attributes come from the builtin table, with
// every registered primitive reachable by name.
struct ModuleObj : Object {
  std::string prefix;  // "tf.", "tf.nn."
  std::string typeName() const override { return "module"; }
  std::optional<Val> attr(Tracer& t, const std::string& name) override;
  std::vector<std::string> attrNames() const override;
};

// Attribute `name` of namespace `prefix` ("tf.", "tf.nn."): a builtin, a sub-namespace or a
// primitive.
std::optional<Val> moduleAttr(const std::string& prefix, const std::string& name);

// A graph list value (from a primitive such as list_new) as a TensorArray; `like` gives the
// size/element metadata of the TensorArray it replaces (loop variables, branch results).
Val wrapList(Tracer& t, Value list, const Val* like = nullptr);

// A name the script did not bind: Python builtins, tf names (prefix optional), namespaces and
// registered primitives.
std::optional<Val> lookupBuiltin(const std::string& name);

// Slices inside subscripts (x[1:3]).
Val makeSlice(Val lower, Val upper, Val step);
bool sliceParts(const Val& v, Val& lower, Val& upper, Val& step);

// A registry primitive called by name: tensors (or lists of them) become inputs, keyword
// arguments become attributes.
Val callPrimitive(Tracer& t, const std::string& prim, CallArgs& args);

class Tracer {
 public:
  Tracer(const std::string& fileName, const TraceOptions& options, TracedProgram& out);
  ~Tracer();

  const std::string file;
  const TraceOptions opt;
  TracedProgram& prog;
  Graph& g;
  Builder b;
  ScopePtr globals;
  ScopePtr scope;
  Val returnValue;
  int callDepth = 0;
  int evalDepth = 0;
  const char* stackBase = nullptr;
  size_t stackLimit = size_t(3) << 20;  // native stack bytes the tracer may use below stackBase
  uint64_t globalSeed = 0;
  int64_t seedCounter = 0;
  Variant* variant = nullptr;  // the `with variant(...)` block being traced, if any
  std::vector<std::unique_ptr<GradientTape>> tapes;  // owned here: they must die before b
  int bindOrder = 0;
  std::map<std::string, int> layerCount;  // Keras-style default names: conv2d, conv2d_1, ...
  std::vector<int> topTapes;
  // Names that existed only inside a tensor loop body or one tensor-if branch, and why they
  // are gone: the unknown-name error says so.
  std::map<std::string, std::string>
      vanished;  // first node of each tape opened outside variant blocks

  // Statements (tracer_stmts.cpp).
  void runModule(const Module& m);
  Flow execBlock(const Block& block);
  Flow execStmt(const Stmt& s);
  Flow execStmtAt(const Stmt& s);
  void assign(const Expr& target, const Val& v);
  void bind(const std::string& name, const Val& v, const SourceLoc& loc);
  ScopePtr newScope(ScopePtr parent);

  // Expressions (tracer.cpp).
  Val eval(const Expr& e);
  const Binding* lookup(const std::string& name) const;
  Val getAttr(const Val& v, const std::string& name, const SourceLoc& loc);
  Val call(const Val& fn, CallArgs& args, const std::string& what);
  Val callSimple(const Val& fn, std::vector<Val> args, const SourceLoc& loc,
                 const std::string& what);
  std::vector<std::string> namesInScope() const;

  // Tensors and operators (tracer_tensor.cpp).
  Value toTensor(const Val& v, const SourceLoc& loc, std::optional<DType> like = {});
  bool tensorish(const Val& v, int depth = 0) const;  // a tensor, or a list containing one
  Val binary(BinaryOp op, const Val& l, const Val& r, const SourceLoc& loc);
  Val unary(UnaryOp op, const Val& v, const SourceLoc& loc);
  Val compare(CmpOp op, const Val& l, const Val& r, const SourceLoc& loc);
  Val subscript(const Val& v, const Val& index, const SourceLoc& loc);
  bool truthy(const Val& v, const SourceLoc& loc);  // Python truth; tensors are an error
  void checkRegion(Value v, const SourceLoc& loc);  // a body's value used outside the body
  std::string describe(Value v) const;
  // x[i] where x = ta.stack() has an unknown length (a dynamic TensorArray): ta.read(i), whose
  // gradient needs no static size. Nothing when x is not such a stack.
  std::optional<Value> readStacked(Value x, const Val& index, const SourceLoc& loc);
  // The value of a tensor computed from constants only (tf.shape(x)[0]), folded while tracing.
  std::optional<Tensor> constantValue(Value v);

  // AutoGraph (tracer_autograph.cpp).
  Flow execIf(const Stmt::If& s, const SourceLoc& loc);
  Flow execWhile(const Stmt::While& s, const SourceLoc& loc);
  Flow execFor(const Stmt::For& s, const SourceLoc& loc);
  Val ifExp(const Expr::IfExp& e, const SourceLoc& loc);
  // `with variant("name"):` at the top level (tracer_program.cpp).
  bool isVariantBlock(const Stmt::With& w) const;
  Flow execVariant(const Stmt::With& w, const SourceLoc& loc);
  // In a variant block, copies top-level bindings of these names into the block's scope, so a
  // tensor loop or branch there treats them as defined before it.
  void materialize(const std::vector<std::string>& names);
  // Flattening of loop variables and branch results: tensors, TensorArrays, numbers, and
  // lists/tuples of them.
  void flatten(const Val& v, std::vector<Value>& out, const SourceLoc& loc, const std::string& what,
               int depth = 0);
  Val unflatten(const Val& like, const std::vector<Value>& flat, size_t& pos, int depth = 0);

  // Limits and errors.
  [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const;
  void checkLimits(const SourceLoc& loc);
  void countUnroll(const SourceLoc& loc);
  size_t stackUsed() const;  // native stack bytes below stackBase
  int64_t nextSeed(std::optional<int64_t> opSeed);
  // Builds nodes located at loc.
  void at(const SourceLoc& loc) { b.setLoc(loc); }

 private:
  struct EvalExpr;  // one function per expression kind (tracer_exprs.cpp)
  struct ExecStmt;  // one function per statement kind (tracer_stmts.cpp)

  std::vector<std::weak_ptr<Scope>> allScopes_;
};

// Guards native stack use so no script exhausts it (deep recursion, deep expressions).
class DepthGuard {
 public:
  DepthGuard(Tracer& t, const SourceLoc& loc);
  ~DepthGuard() { --t_.evalDepth; }

 private:
  Tracer& t_;
};

// Names closest to `name` by edit distance, as " (did you mean 'x'?)" or "".
std::string suggest(const std::string& name, const std::vector<std::string>& candidates);

// Names assigned in a block (not inside nested defs): targets of =, op=, for, with-as, def.
void assignedNames(const Block& block, std::vector<std::string>& out);
void targetNames(const Expr& target, std::vector<std::string>& out);

}  // namespace gl::lang::trace
