#pragma once
// tf.data for in-memory data (#26 item 4). GradLab traces the whole script into one graph, so a
// Dataset is a pipeline description (a source and its transformations), and iterating it with
// a Python `for` (or list(), enumerate, zip) materializes its elements while tracing: each
// element is a structure (a tensor, a tuple or a dict of them) built in the graph, and the `for`
// unrolls over them as over a Python list. A mapped function is traced once per element, so a
// random op inside it gives each element its own draw (TF runs it once per element).
// tracer_data.cpp: datasets as script values; tracer_data_streams.cpp: the element streams;
// tracer_data_spec.cpp: element_spec and the repr; tracer_data_builtins.cpp: the tf.data names
// and Dataset methods.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

// tf.data.INFINITE_CARDINALITY and tf.data.UNKNOWN_CARDINALITY (dataset_ops.py).
inline constexpr int64_t kInfiniteCardinality = -1;
inline constexpr int64_t kUnknownCardinality = -2;

// The TensorSpec structure of a dataset's elements (Dataset.element_spec): a tensor's shape
// (-1: None) and dtype, or a tuple / dict of specs.
struct ElemSpec {
  enum class Kind : uint8_t { Tensor, Tuple, Dict };
  Kind kind = Kind::Tensor;
  Shape shape;
  DType dtype = DType::F32;
  // TF's tf.int64, which GradLab computes as int32 (engine/tensor/dtype.h: int64 is an alias):
  // Dataset.range's and enumerate's counters print as TF prints them.
  bool int64 = false;
  std::vector<std::string> keys;  // Dict
  std::vector<ElemSpec> parts;    // Tuple, Dict
};
// TensorSpec(shape=(None, 3), dtype=tf.float32, name=None), (…, …), {'a': …}.
std::string specText(const ElemSpec& s);
// The spec of an element (a tensor, tuple or dict of tensors); `int64` marks what counters gave.
ElemSpec specOf(Context& cx, const Val& element);
// element_spec as the script sees it: TensorSpec objects in tuples / dicts.
Val specVal(Context& cx, const ElemSpec& s);
// Specs of a batch of elements: a leading None (or n when drop_remainder).
ElemSpec batchedSpec(const ElemSpec& s, int64_t leading);

enum class DataOp : uint8_t {
  Range,         // Dataset.range
  TensorSlices,  // Dataset.from_tensor_slices
  Tensors,       // Dataset.from_tensors
  Map,
  Filter,
  Batch,
  Unbatch,
  Shuffle,
  Take,
  Skip,
  Repeat,
  Zip,  // Dataset.zip; enumerate is zip((range(start, ∞), ds)), as TF builds it
  Concatenate,
  Prefetch,  // no effect on values
  Cache,
};

// One pass over a dataset's elements, pulled one at a time (take(5) of range(10**9) builds five).
class ElementStream {
 public:
  virtual ~ElementStream() = default;
  virtual std::optional<Val> next() = 0;
};

struct DatasetObj;
using DatasetPtr = std::shared_ptr<DatasetObj>;

struct DatasetObj : Object {
  DataOp op = DataOp::Range;
  SourceLoc loc;                   // where the script made it
  std::vector<DatasetPtr> inputs;  // Zip: the datasets of `zipped`, in order
  Val zipped;                      // Zip: the tuple/dict of datasets, the elements' structure
  Val data;                        // TensorSlices, Tensors: the structure of tensors
  Val fn;                          // Map, Filter
  int64_t start = 0, stop = 0, step = 1;  // Range
  int64_t count = 0;  // Batch size, Take/Skip/Repeat count (-1: all/forever), shuffle buffer
  bool dropRemainder = false;
  bool parallel = false;  // num_parallel_calls given: TF's _ParallelMapDataset, ...
  uint64_t seed = 0;      // Shuffle: the stream the seed picked
  bool reshuffle = true;  // Shuffle: reshuffle_each_iteration
  int64_t epochs = 0;     // Shuffle: iterations begun, each with its own order when reshuffling
  int64_t rows = 0;       // TensorSlices: the first dimension
  ElemSpec spec;          // computed when the dataset is made, as TF does
  // TensorSlices: the sliced elements per graph region (a repeat reads the same slices);
  // Cache: the first complete pass's elements per region.
  std::map<int, std::vector<Val>> memo;
  // Map: the pass begun when map() traced its function on the first element, in that region.
  std::unique_ptr<ElementStream> pending;
  int pendingRegion = 0;

  std::string typeName() const override;  // TF 2.16's class: _BatchDataset, _MapDataset, ...
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override;
  std::optional<std::vector<Val>> iterate(Context& cx, const SourceLoc& loc) override;
  std::optional<int64_t> length(Context& cx, const SourceLoc& loc) override;
  std::string reprText() const override;  // <_BatchDataset element_spec=...>
  int64_t cardinality() const;            // as Dataset.cardinality(): -1 infinite, -2 unknown
};

// `loc` is where the pass was asked for (a for loop, list(), a batch's stack): errors name it.
std::unique_ptr<ElementStream> openStream(Context& cx, const DatasetPtr& ds, const SourceLoc& loc);

// Map: traces the function on the first element (TF traces it when map() is called) and keeps
// the pass begun, which the first iteration in this region continues; nothing when the input is
// empty.
std::optional<Val> beginMapPass(Context& cx, const DatasetPtr& ds);
// An element as TF's structures hold it: numbers and lists become tensors, tuples and dicts stay
// structures (from_tensor_slices' `tensors`, a mapped function's results, where a list returned
// becomes a tuple as in TF's structured_function).
Val normalizeElement(Context& cx, const Val& v, const SourceLoc& loc, bool listIsTuple,
                     int depth = 0);
// Calls fn with an element: a tuple is unpacked into positional arguments (TF's map and filter).
Val callWithElement(Context& cx, const Val& fn, const Val& element, const SourceLoc& loc,
                    const std::string& what);
// The element with tf.stop_gradient on each tensor: what leaves TF's dataset kernels, which
// have no gradient (Dataset.reduce's result, as_numpy_iterator's values).
Val stopElementGradients(Context& cx, const Val& element, const SourceLoc& loc);

// Dataset methods and tf.data names (tracer_data_builtins.cpp).
void addDataBuiltins(BuiltinTable& t);

}  // namespace gl::lang::trace
