#pragma once
// What builtins (tracer_builtins_*.cpp, tracer_keras.cpp, tracer_signature.cpp) and script
// objects see of the tracer: the builder, errors at a location, conversions between Python
// values and tensors, calls back into script values, and the few pieces of trace state that
// builtins own. The Tracer itself (scopes, statements, limits) stays out of their reach.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/build/builder.h"
#include "engine/lang/ast.h"
#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

class Tracer;

class Context {
 public:
  Context(Tracer& t, Builder& builder) : b(builder), t_(t) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Builds nodes, located where at() last pointed; b.graph() is the graph built so far.
  Builder& b;
  const Graph& graph() const { return b.graph(); }
  void at(const SourceLoc& loc) { b.setLoc(loc); }
  // Throws an EngineError at loc (in the script's file when loc has none).
  [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const;

  // Python values and tensors.
  Value toTensor(const Val& v, const SourceLoc& loc, std::optional<DType> like = {});
  bool tensorish(const Val& v) const;  // a tensor, or a list containing one
  bool truthy(const Val& v, const SourceLoc& loc);
  Val binary(BinaryOp op, const Val& l, const Val& r, const SourceLoc& loc);
  Val compare(CmpOp op, const Val& l, const Val& r, const SourceLoc& loc);  // Python's <, ==, ...
  Val getAttr(const Val& v, const std::string& name, const SourceLoc& loc);
  // An error unless v may be used in the region being built (see Tracer::checkRegion).
  void checkRegion(Value v, const SourceLoc& loc);
  std::string describe(Value v) const;  // "'loss' (mul) from line 3"
  bool eager() const;                   // Tracer::eager: ops run as they are built
  Tensor eagerValue(Value v, const SourceLoc& loc);
  std::optional<Tensor> constantValue(Value v);
  std::vector<Tensor> evaluateNow(const std::vector<Value>& fetches);  // Tracer::evaluateNow
  std::optional<Value> readStacked(Value x, const Val& index, const SourceLoc& loc);

  // Script values called back (functions, lambdas, layers), and the flattening of loop
  // variables and branch results into graph values.
  Val callSimple(const Val& fn, std::vector<Val> args, const SourceLoc& loc,
                 const std::string& what);
  Val call(const Val& fn, CallArgs& args, const std::string& what);
  // Script classes: super() (explicit class and instance, or both null) and setattr.
  Val makeSuper(const Val* cls, const Val* self, const SourceLoc& loc);
  bool setScriptAttr(const Val& owner, const std::string& name, const Val& v, const SourceLoc& loc);
  // A function of Keras's training loop, which is GradLab script (tracer_keras_training.cpp).
  Val kerasTrainingFunction(const std::string& name);
  // os.environ: one dict per trace, empty until the script sets keys.
  Val osEnviron();
  void flatten(const Val& v, std::vector<Value>& out, const SourceLoc& loc,
               const std::string& what);
  Val unflatten(const Val& like, const std::vector<Value>& flat, size_t& pos);

  // Trace state that builtins own.
  void log(const std::string& line);      // a line of the trace log
  void write(const std::string& text);    // print(): a log entry ends at a final '\n'
  bool noteOnce(const std::string& key);  // true the first time per trace
  void setGlobalSeed(uint64_t seed);      // tf.random.set_seed
  void setRunFunctionsEagerly(bool on);   // tf.config.run_functions_eagerly
  bool runFunctionsEagerly() const;
  int64_t nextSeed(std::optional<int64_t> opSeed);  // random ops and layer initialisers
  int nextLayerIndex(const std::string& kind);      // Keras names: Dense, Dense_1, ...
  void countUnroll(const SourceLoc& loc);           // a dataset element built (Tracer's)
  // A tape recording from the next node on, owned by the tracer (tapes die before the builder).
  GradientTape& openTape(bool persistent, bool watchVariables, const SourceLoc& loc);

  // Variables as state (Tracer's functions of the same names say what each does).
  Val fresh(const Val& v) const;
  Val readVariable(const Val& v);
  void registerVariable(const std::shared_ptr<VarState>& var);
  void assignVariable(const Val& v, Value value, const SourceLoc& loc, const std::string& what);
  std::vector<Value> variableSources(const VarState& var, const GradientTape& tape) const;
  std::vector<std::shared_ptr<VarState>> variablesAssignedBy(const Val& fn);

 private:
  Tracer& t_;
};

// Variables a tensor loop or branch may assign, carried through it as extra values (AutoGraph
// adds them to the loop variables). Making one reads each variable (recording tapes watch it).
struct CarriedVariables {
  std::vector<std::shared_ptr<VarState>> vars;
  std::vector<Value> before;  // their values before the loop or branch
  std::vector<int> regions;   // where each could be assigned before
  CarriedVariables(Context& cx, std::vector<std::shared_ptr<VarState>> vs);
  // Inside the body (region): the variables are vals[pos...] and may be assigned there.
  void enter(const std::vector<Value>& vals, size_t pos, int region) const;
  // After the loop or cond: the variables are its outputs vals[pos...].
  void exit(const std::vector<Value>& vals, size_t pos) const;
  std::vector<Value> currents() const;
};

}  // namespace gl::lang::trace
