#pragma once
// tf.function (issue #27). A Function wraps a Python function. Called from eager code it traces
// the body with AutoGraph's rules (Tracer::eager() is false inside) once per input signature:
// Python argument values, tensor dtypes and shapes (or the input_signature's specs), and the
// identity of other Python objects. The trace is a concrete function: the graph nodes it built.
// A later call with the same signature does not run Python again; it copies those nodes with
// this call's tensors (tracer_function.cpp), so Python side effects (print, list appends)
// happen while tracing only, as TF's guide "Better performance with tf.function" says, and
// tf.print runs every call.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

// One trace of a Function: what a later call with the same signature copies.
struct ConcreteFunction {
  std::string key;  // the input signature, as text
  int first = 0;    // the nodes the trace built: [first, end)
  int end = 0;
  int region = 0;             // the region the trace ran in
  std::vector<Value> params;  // one per tensor argument, in argument order (built before first)
  // Variables that existed before the trace and their values when it started (their reads
  // inside the trace refer to these), and variables the trace created with their first value.
  std::vector<std::pair<std::shared_ptr<VarState>, Value>> variablesBefore, variablesCreated;
  // Variables the trace assigned: their value at its end (a node of the trace).
  std::vector<std::pair<std::shared_ptr<VarState>, Value>> variablesAfter;
  bool createdVariables = false;  // also ones the body made and dropped
  std::set<int> sideEffects;      // the trace's side-effect nodes (prints, asserts)
  Val result;                     // the Python structure returned, tensors as the trace built them
  int calls = 0;
};

struct TfFunctionObj : Object {
  Val python;  // the decorated function
  std::string name;
  Val inputSignature;                                       // None, or a list of tf.TensorSpec
  std::vector<std::shared_ptr<ConcreteFunction>> concrete;  // in trace order
  // Traces per owner (the instance a method is called on; null for a plain function): TF lets
  // only the first trace of a Function (per instance) create variables.
  std::map<const void*, int> traces;
  std::string typeName() const override { return "Function"; }
  bool callable() const override { return true; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override {
    return {"python_function", "experimental_get_tracing_count", "__name__"};
  }
  std::string reprText() const override;
};

}  // namespace gl::lang::trace
