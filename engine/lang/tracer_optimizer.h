#pragma once
// The Keras optimizers' shared object: TF >= 2.11's keras/optimizers/optimizer.py (the
// "new" optimizers; tf.keras.optimizers.legacy.* are not provided). State is tf.Variables
// (VarState, tracer_variables.cpp): the `iterations` counter, made with the optimizer, and
// slot variables (Adam's m and v, ...), made by build(var_list) — explicitly or at the first
// apply_gradients, which builds for its variables, as Keras does.
//
// Slots are loop state: a tensor loop carries the variables its body may assign, so a slot
// must exist before the loop starts. A loop whose body calls opt.apply_gradients(...) or
// opt.minimize(...) builds the optimizer before the loop when its variable list can be read
// there (prepareLoopUpdates, called from the loop's assignment scan); otherwise applying it
// inside the loop is a located error asking for opt.build(var_list) before the loop.
#include <memory>
#include <string>
#include <vector>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

struct OptimizerObj : Object {
  std::string kind;  // "SGD", "Adam", ...
  std::string name;
  Val learningRate;  // a Python number or a scalar tensor (a tf.Variable is read when used)
  std::optional<double> clipnorm, clipvalue, globalClipnorm, weightDecay;
  std::shared_ptr<VarState> iterations;  // int32: GradLab has no int64
  Val iterationsVal;                     // the Val of `iterations` (carries the VarState)
  bool built = false;
  std::vector<std::shared_ptr<VarState>> vars;                // what build() saw, in order
  std::vector<std::vector<std::shared_ptr<VarState>>> slots;  // per var, slotNames() order

  std::string typeName() const override { return kind; }
  std::optional<Val> attr(Context& cx, const std::string& n) override;
  std::vector<std::string> attrNames() const override;

  // The slot variables each model variable gets, and their initial value.
  virtual std::vector<std::string> slotNames() const = 0;
  virtual double slotInitialValue(size_t) const { return 0; }
  // One update of var by gradient g (already clipped): assigns var and its slots. lr is the
  // learning rate and step the 1-based step count (iterations + 1), both of var's dtype.
  virtual void update(Context& cx, const Val& var, Value g,
                      const std::vector<std::shared_ptr<VarState>>& slots, Value lr, Value step,
                      const SourceLoc& loc) = 0;

  // Keras's build(var_list): once; variables not tf.Variables are refused at loc.
  void build(Context& cx, const std::vector<Val>& varList, const SourceLoc& loc);
  // apply_gradients on (gradient, variable) pairs; returns the new iterations value.
  Val apply(Context& cx, const std::vector<std::pair<Val, Val>>& pairs, const SourceLoc& loc,
            const SourceLoc& pairsLoc);
};

// A loop body calls opt.apply_gradients/minimize on the variables varList (read before the
// loop): build the optimizer now, so that its slots exist for the loop to carry.
void prepareLoopUpdates(Context& cx, OptimizerObj& opt, const Val& varList, const SourceLoc& loc);

// Constructors of the optimizers with their own update rules (tracer_optimizer_rules.cpp),
// given the common arguments' reader (tracer_builtins_optimizers.cpp).
void readCommonOptimizerArgs(Bound& a, OptimizerObj& opt);
void addOptimizerRules(BuiltinTable& t);
void addOptimizerMethods(BuiltinTable& t, const std::string& kind);

}  // namespace gl::lang::trace
