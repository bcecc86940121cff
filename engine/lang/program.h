#pragma once
// What tracing a GradLab script produces, shared by the command line and the window.
// A script is traced once into one Graph: shared code at the top level, and each
// `with variant("name"):` block adds its own nodes. Names bound at the top level of a variant
// block (or of the script, when it has no variants) are that variant's outputs; outputs with
// the same name in several variants are compared after a run.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/graph/graph.h"
#include "engine/tensor/limits.h"

namespace gl::lang {

// One tensor of an output, or None with the engine's explanation (a gradient that does not
// exist). Lists of gradients give one entry each.
struct OutputEntry {
  Value value;          // invalid = None
  std::string whyNone;  // the tape's explanation when value is None
  int whyNode = -1;     // node where the chain breaks
  SourceLoc whyLoc;
};

struct Output {
  std::string name;
  SourceLoc loc;            // where it was bound
  bool isGradient = false;  // bound to the result of tape.gradient/jacobian/batch_jacobian
  bool isList = false;      // a Python list/tuple of tensors (entries in order)
  std::vector<OutputEntry> entries;
};

struct Variant {
  std::string name;  // "" for a script without variant blocks
  SourceLoc loc;
  std::vector<Output> outputs;
  std::vector<int> loops;  // while/map/cond node ids built inside the block, in build order
  std::vector<int> tapes;  // first node id recorded by each GradientTape opened in the block
  std::vector<VectorizedMapRecord> vectorized;  // each tf.vectorized_map of the block
  // The top-level nodes the block built as eager code (node ids [first, second)): a run of the
  // variant runs them all, as TF ran every eager op, whether or not an output needs it, so
  // its time is the program's (issue #27).
  std::pair<int, int> eagerNodes{0, 0};
};

// Which declared value a param starts from: the seed's (what the lesson is about, the
// default everywhere) or the small `class N` one, for a first look in class.
enum class ParamPreset { Seed, Classroom };

struct Param {
  std::string name;
  bool isInt = true;
  double value = 0, lo = 0, hi = 0;  // value after the preset and --set overrides
  double seedValue = 0;              // the declared `= N`
  std::optional<double> classroom;   // the declared `class N`
  SourceLoc loc;
};

struct TracedProgram {
  std::shared_ptr<Graph> graph;
  std::vector<Param> params;
  std::vector<Variant> variants;
  std::vector<std::string> traceLog;  // output of `print` (trace time)
  int unrolledCopies = 0;             // Python-level loop iterations unrolled while tracing
};

// How a script runs (issue #27). Eager: as TF 2 runs it, op by op outside tf.function, with
// tf.function bodies traced by AutoGraph's rules. WholeScriptFunction: the whole script is
// traced as one tf.function (GradLab before #27); tests of graph structure use it.
enum class ExecutionModel { Eager, WholeScriptFunction };

struct TraceOptions {
  ExecutionModel model = ExecutionModel::Eager;
  ParamPreset preset = ParamPreset::Seed;      // params without `class N` keep their value
  std::map<std::string, double> overrides;     // --set name=value, applied after the preset
  int64_t maxUnroll = kDefaultMaxUnroll;       // Python loop iterations traced in total
  int64_t maxNodes = kDefaultMaxNodes;         // graph size limit
  int64_t maxItems = kDefaultMaxItems;         // items of a Python list, characters of a string
  size_t memoryBudget = kDefaultMemoryBudget;  // checked before running (static shapes)
  // Values computed while tracing (a tf.Variable's initial value, constants folded for shapes)
  // run under the same op limit as a run, and stop when `cancelled` says so (the window's
  // trace was superseded or the window closes).
  int64_t maxOps = kDefaultMaxOps;
  std::function<bool()> cancelled;
};

// Parses and traces. Throws gl::EngineError with file:line:col on any script error.
TracedProgram traceProgram(const std::string& source, const std::string& fileName,
                           const TraceOptions& options = {});

}  // namespace gl::lang
