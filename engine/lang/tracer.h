#pragma once
// The tracer: evaluates a GradLab script AutoGraph-style into a Graph. Python values are
// computed while tracing; tensors are graph values; `if`/`while`/`for` on tensors become
// cond/while_loop nodes (tracer_autograph.cpp, tracer_loops.cpp). The pieces:
//   tracer.cpp               names, attributes, calls
//   tracer_exprs.cpp         expressions, one function per kind
//   tracer_stmts.cpp         statements, assignment, `with`
//   tracer_autograph.cpp     if on tensors, flattening of loop and branch values
//   tracer_loops.cpp         while and for: unrolled, or one while_loop on tensors
//   tracer_tensor.cpp        Python <-> tensor conversion, operators
//   tracer_subscript.cpp     subscripts: sequence (tracer_index_seq.cpp) and tensor
//                            (tracer_index_tensor.cpp) indexing
//   tracer_builtins.h        the builtin table and Bound; builtins see only the Context
//   tracer_context.cpp       the Context: what builtins and objects reach of the tracer
//   tracer_signature.cpp     builtin signatures and argument binding
//   tracer_builtins_*.cpp    the builtin table (Python, tf math, control flow, objects)
//   tracer_keras.cpp         layers and losses
//   tracer_program.cpp       traceProgram: params, variants, outputs
//   tracer_imports.cpp       import / from-import: tensorflow, keras, math, time, functools
//   tracer_format.cpp        f-strings, format specs, str.format, %-formatting
//
// Rules worth knowing when writing a script (they follow TF2 + AutoGraph):
//   - A tensor loop's variables are the names its body assigns that exist before the loop;
//     names first assigned inside the body do not exist after it. Same for a tensor if: a
//     name assigned in only one branch does not exist after it.
//   - tf.Variables are state (tracer_variables.cpp): v.assign(x) makes stop_gradient(x) their
//     current value; tensor loops and ifs carry the variables their bodies assign. break and
//     continue in tensor loops become flags (tracer_jumps.cpp).
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
#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_values.h"
#include "engine/tensor/tensor_list.h"

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
  // Names a global / nonlocal statement sent elsewhere: where assignments bind them.
  std::map<std::string, std::shared_ptr<Scope>> declared;
};
using ScopePtr = std::shared_ptr<Scope>;

enum class Flow { Normal, Break, Continue, Return };

struct ClassObj;
struct ExceptionObj;
struct TfFunctionObj;
struct ConcreteFunction;

// A script function (def or lambda) with its closure; the tracer runs its calls.
struct FunctionObj : Object {
  // The class whose body defined this method: zero-argument super() starts after it.
  std::weak_ptr<ClassObj> definingClass;
  std::string name;  // "<lambda>" for lambdas
  std::vector<Parameter> params;
  std::vector<std::optional<Val>> defaults;  // evaluated when the def/lambda runs, as in Python
  const Block* body = nullptr;               // def (the Module outlives the trace)
  ExprPtr lambdaBody;                        // lambda
  ScopePtr closure;
  SourceLoc loc;
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }
};

class Tracer {
 public:
  Tracer(const std::string& fileName, const TraceOptions& options, TracedProgram& out);
  ~Tracer();

  // Tracing a module (tracer_program.cpp). The stack guard allows at most half of threadStack
  // below base, the caller's stack frame.
  void limitStack(const char* base, size_t threadStack);
  void runModule(const Module& m);
  const SourceLoc& lastLoc() const { return b_.loc(); }  // where the last node was built

  // What the builtins' Context forwards to (tracer_context.h says what each does).
  [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const;
  Value toTensor(const Val& v, const SourceLoc& loc, std::optional<DType> like = {});
  bool tensorish(const Val& v, int depth = 0) const;  // a tensor, or a list containing one
  bool truthy(const Val& v, const SourceLoc& loc);    // Python truth; tensors are an error
  Val binary(BinaryOp op, const Val& l, const Val& r, const SourceLoc& loc);
  Val compare(CmpOp op, const Val& l, const Val& r, const SourceLoc& loc);
  Val getAttr(const Val& v, const std::string& name, const SourceLoc& loc);
  void checkRegion(Value v, const SourceLoc& loc);  // a body's value used outside the body
  std::string describe(Value v) const;
  // True where code runs eagerly (TF 2 outside tf.function): at the top level of the graph and
  // in no tf.function being traced. Tensors then have values (eagerValue), Python control flow
  // reads them, and prints show them.
  bool eager() const;
  // The value of a tensor built eagerly (computed now, under the trace's limits).
  Tensor eagerValue(Value v, const SourceLoc& loc);
  // The value of a tensor computed from constants only (tf.shape(x)[0]), folded while tracing.
  std::optional<Tensor> constantValue(Value v);
  // Computes `fetches` now, under the trace's limits (TraceOptions::maxOps, memoryBudget,
  // cancelled): only what they need, no prints or asserts, no records.
  std::vector<Tensor> evaluateNow(const std::vector<Value>& fetches);
  bool computeKnown(Value v);  // evaluateNow's fast path (tracer_tensor.cpp)
  // A run of the graph now: the fetches, and the top-level side effects with node ids in
  // sideEffectNodes (their printed lines are returned).
  std::pair<std::vector<Tensor>, std::vector<std::string>> runNow(
      const std::vector<Value>& fetches, std::pair<int, int> sideEffectNodes);
  // x[i] where x = ta.stack() has an unknown length (a dynamic TensorArray): ta.read(i), whose
  // gradient needs no static size. Nothing when x is not such a stack.
  std::optional<Value> readStacked(Value x, const Val& index, const SourceLoc& loc);
  Val callSimple(const Val& fn, std::vector<Val> args, const SourceLoc& loc,
                 const std::string& what);
  // Flattening of loop variables and branch results: tensors, TensorArrays, numbers, and
  // lists/tuples of them.
  void flatten(const Val& v, std::vector<Value>& out, const SourceLoc& loc, const std::string& what,
               int depth = 0);
  Val unflatten(const Val& like, const std::vector<Value>& flat, size_t& pos, int depth = 0);
  int64_t nextSeed(std::optional<int64_t> opSeed);
  void log(const std::string& line);
  void write(const std::string& text);    // print(..., end=...): an entry ends at a final '\n'
  bool noteOnce(const std::string& key);  // true the first time per trace
  Val callValue(const Val& fn, CallArgs& args, const std::string& what) {
    return call(fn, args, what);
  }
  void setGlobalSeed(uint64_t seed);
  int nextLayerIndex(const std::string& kind);
  GradientTape& openTape(bool persistent, bool watchVariables, const SourceLoc& loc);
  // Graph::tapes from the tapes opened so far (what each recorded, for the window).
  void recordTapes();
  // One more unrolled copy of a body (a Python loop's step, a dataset element): the unroll,
  // node and cancellation limits.
  void countUnroll(const SourceLoc& loc);

  // Variables as state (tracer_variables.cpp). fresh: the variable's current value, no read
  // recorded; readVariable: a read, which recording tapes watch (watch_accessed_variables).
  Val fresh(const Val& v) const;
  Val readVariable(const Val& v);
  void registerVariable(const std::shared_ptr<VarState>& var);
  // v.assign(value) and friends: value becomes current; state stops gradients, as in TF.
  void assignVariable(const Val& v, Value value, const SourceLoc& loc, const std::string& what);
  // What tape's gradient by v is taken with respect to: the values it saw read (visible here).
  std::vector<Value> variableSources(const VarState& var, const GradientTape& tape) const;
  // The variables a script function (or lambda) may assign when called.
  std::vector<std::shared_ptr<VarState>> variablesAssignedBy(const Val& fn);

  // Script classes (tracer_classes.cpp). super(): explicit class and instance, or (both null)
  // the method being run's class and first argument.
  Val makeSuper(const Val* cls, const Val* self, const SourceLoc& loc);
  // Sets an attribute of a script instance or class; false for any other owner.
  bool setScriptAttr(const Val& owner, const std::string& name, const Val& v, const SourceLoc& loc);
  Val kerasTrainingFunction(const std::string& name);  // tracer_keras_training.cpp
  Val osEnviron();  // os.environ, one per trace (tracer_imports.cpp)
  // tf.config.run_functions_eagerly: tf.function calls run their Python eagerly.
  void setRunFunctionsEagerly(bool on) { runFunctionsEagerly_ = on; }
  bool runFunctionsEagerly() const { return runFunctionsEagerly_; }

 private:
  class DepthGuard;
  struct EvalExpr;  // one function per expression kind (tracer_exprs.cpp)
  struct ExecStmt;  // one function per statement kind (tracer_stmts.cpp)

  // Statements (tracer_stmts.cpp).
  Flow execBlock(const Block& block);
  Flow execStmt(const Stmt& s);
  Flow execStmtAt(const Stmt& s);
  void assign(const Expr& target, const Val& v);
  void bind(const std::string& name, const Val& v, const SourceLoc& loc);
  void unbind(const Expr& target);  // del target
  // import and from-import (tracer_imports.cpp): the module a dotted name names, as a value.
  Val importModule(const std::string& dotted, const SourceLoc& loc);
  Val importFrom(const Stmt::ImportFrom& s, const Stmt::Alias& a);
  ScopePtr newScope(ScopePtr parent);

  // Expressions, names and calls (tracer_exprs.cpp, tracer.cpp).
  Val eval(const Expr& e);
  const Binding* lookup(const std::string& name) const;
  std::vector<std::string> namesInScope() const;
  Val call(const Val& fn, CallArgs& args, const std::string& what);
  // A call of a script function: its arguments bound in a new scope of its closure.
  Val callFunction(const FunctionObj& f, CallArgs& args);
  ScopePtr bindArguments(const FunctionObj& f, CallArgs& args);  // Python's rules and errors

  // tf.function (tracer_function.cpp): a call traces a concrete function for a new input
  // signature or calls the one traced for it.
  Val callTfFunction(TfFunctionObj& f, CallArgs& args);
  void signatureOf(const Val& v, std::string& key, int depth = 0);
  std::string checkInputSignature(const TfFunctionObj& f, const CallArgs& args);
  // The shape input_signature gives positional argument i (None dims -1), if it has one.
  std::optional<Shape> signatureShape(const TfFunctionObj& f, size_t i, const SourceLoc& loc);
  Val traceConcrete(TfFunctionObj& f, CallArgs& args, const std::string& key);
  // One trace of f's Python body into cf; mayNotCreate: creating a variable is TF's error.
  // graphFirst: the call's first node (its arguments' nodes), where TF's op names start over.
  void runTrace(TfFunctionObj& f, ConcreteFunction& cf, CallArgs& traced, const SourceLoc& callLoc,
                bool mayNotCreate, int graphFirst);
  Val replayConcrete(TfFunctionObj& f, ConcreteFunction& cf, CallArgs& args);
  void runCallSideEffects(int first, int end);

  // Script classes (tracer_classes.cpp).
  void execClass(const Stmt::ClassDef& c, const SourceLoc& loc);
  std::shared_ptr<ClassObj> classBase(const Stmt::ClassDef& c);
  void rejectUnsupportedMembers(const ClassObj& cls, const Scope& body);
  // obj.name for instances, classes and super(): nothing when v is none of them.
  std::optional<Val> scriptAttr(const Val& v, const std::string& name, const SourceLoc& loc);
  // A class attribute as seen through an instance (or class) `self`: methods bound, properties
  // read.
  Val bindClassAttr(const Val& found, const Val& self, const std::shared_ptr<ClassObj>& cls,
                    const SourceLoc& loc);
  // A call of a class, a bound method or an instance with __call__: nothing for other values.
  std::optional<Val> callScriptObject(const Val& fn, CallArgs& args);

  // Operators (tracer_tensor.cpp) and subscripts (tracer_subscript.cpp).
  Val unary(UnaryOp op, const Val& v, const SourceLoc& loc);
  Val subscript(const Val& v, const Val& index, const SourceLoc& loc);

  // AutoGraph: if (tracer_autograph.cpp), while and for (tracer_loops.cpp).
  struct TensorIf;    // an if on a tensor, traced into a cond
  struct TensorLoop;  // the loop variables of a while_loop being traced
  // try / raise (tracer_exceptions.cpp).
  Flow execTry(const Stmt::Try& s, const SourceLoc& loc);
  Flow tryBody(const Stmt::Try& s, const SourceLoc& loc);  // all but finally
  Flow execRaise(const Stmt::Raise& r, const SourceLoc& loc);
  Flow execIf(const Stmt::If& s, const SourceLoc& loc);
  Val ifExp(const Expr::IfExp& e, const SourceLoc& loc);
  Flow execWhile(const Stmt::While& s, const SourceLoc& loc);
  Flow pythonWhile(const Stmt::While& s, Val test, const SourceLoc& loc);
  Flow execFor(const Stmt::For& s, const SourceLoc& loc);
  Flow forTfRange(const Stmt::For& s, const RangeInfo& r, const SourceLoc& loc);
  Flow forEagerRange(const Stmt::For& s, const RangeInfo& r, const SourceLoc& loc);
  Flow forPythonRange(const Stmt::For& s, const Val& range, const SourceLoc& loc);
  std::vector<Val> tensorRows(Value x, const SourceLoc& iterLoc);
  Flow forItems(const Stmt::For& s, const std::vector<Val>& items, const SourceLoc& loc);
  // Variables a loop body or branch may assign: each one named before `.assign*`, or every
  // live variable when the body assigns through something else (an optimizer, a list item).
  std::vector<std::shared_ptr<VarState>> variablesAssignedIn(const Block& body);
  std::vector<std::shared_ptr<VarState>> liveVariables() const;
  // `break`/`continue` in a tensor loop body, rewritten as AutoGraph does into flags
  // (tracer_jumps.cpp). Returns the body to trace; breakFlag names the flag the loop test ands.
  const Block& rewriteJumps(const Block& body, std::string& breakFlag);
  // In a variant block, copies top-level bindings of these names into the block's scope, so a
  // tensor loop or branch there treats them as defined before it.
  void materialize(const std::vector<std::string>& names);

  // `with variant("name"):` at the top level (tracer_program.cpp).
  bool isVariantBlock(const Stmt::With& w) const;
  Flow execVariant(const Stmt::With& w, const SourceLoc& loc);

  // Limits.
  void checkLimits(const SourceLoc& loc);
  size_t stackUsed() const;  // native stack bytes below stackBase_
  // Builds nodes located at loc.
  void at(const SourceLoc& loc) { b_.setLoc(loc); }

  const std::string file_;
  const TraceOptions opt_;
  // Values of top-level nodes computed while tracing (eager values, variables' initial values):
  // each evaluation computes only what is not here yet, so an eager loop that reads a value
  // per step stays linear. Dropped whole when it would hold more than a quarter of the memory
  // budget (values are then computed again).
  std::map<int, std::vector<Datum>> knownValues_;
  size_t knownBytes_ = 0;
  int functionDepth_ = 0;
  bool runFunctionsEagerly_ = false;  // tf.function calls being traced (0: eager, see eager())
  TracedProgram& prog_;
  Graph& g_;
  Builder b_;
  Context cx_{*this, b_};  // what builtins and objects see of the tracer
  ScopePtr globals_;
  ScopePtr kerasTraining_;
  std::shared_ptr<DictObj> environ_;  // os.environ, made on first use
  std::string logPending_;  // the trace log's unfinished line (print(..., end=""))  // the Keras
                            // training loop's functions, made on first use
  ScopePtr scope_;
  Val returnValue_;
  int callDepth_ = 0;
  int evalDepth_ = 0;
  const char* stackBase_ = nullptr;
  size_t stackLimit_ = size_t(3) << 20;  // native stack bytes the tracer may use below stackBase_
  uint64_t globalSeed_ = 0;
  int64_t seedCounter_ = 0;
  Variant* variant_ = nullptr;  // the `with variant(...)` block being traced, if any
  std::vector<std::unique_ptr<GradientTape>> tapes_;  // owned here: they must die before b_
  // Where each of tapes_ was opened, and whether in eager code (not while tracing a function).
  std::vector<std::pair<SourceLoc, bool>> tapeOpenings_;
  std::vector<int> topTapes_;  // first node of each tape opened outside variant blocks
  int bindOrder_ = 0;
  std::map<std::string, int> layerCount_;  // Keras-style default names: conv2d, conv2d_1, ...
  // Names that existed only inside a tensor loop body or one tensor-if branch, and why they
  // are gone: the unknown-name error says so.
  std::map<std::string, std::string> vanished_;
  std::vector<std::weak_ptr<Scope>> allScopes_;
  std::vector<std::weak_ptr<VarState>> variables_;  // every tf.Variable made, in order
  std::vector<std::unique_ptr<Block>> rewritten_;   // loop bodies with break/continue rewritten
  int jumpFlags_ = 0;                               // numbers the rewrites' flag names
  std::set<std::string> notes_;                     // notes logged once per trace
  // The script functions being run, innermost last, with their local scopes: zero-argument
  // super() reads the method's class and first argument from the last one.
  std::vector<std::pair<const FunctionObj*, ScopePtr>> callFrames_;
  // The exceptions being handled (except clauses running), innermost last: a bare `raise`
  // raises the last one again.
  std::vector<std::pair<EngineError, std::shared_ptr<ExceptionObj>>> handling_;
  std::shared_ptr<ExceptionObj> raised_;  // the last exception a raise statement raised
};

// Guards native stack use so no script exhausts it (deep recursion, deep expressions).
class Tracer::DepthGuard {
 public:
  DepthGuard(Tracer& t, const SourceLoc& loc);
  ~DepthGuard() { --t_.evalDepth_; }

 private:
  Tracer& t_;
};

// Names assigned in a block (not inside nested defs): targets of =, op=, for, with-as, def.
void assignedNames(const Block& block, std::vector<std::string>& out);
void targetNames(const Expr& target, std::vector<std::string>& out);

}  // namespace gl::lang::trace
