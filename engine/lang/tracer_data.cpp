// tf.data datasets as script values: their elements' structures (numbers and lists become
// tensors), calls of mapped functions, cardinality, iteration by a Python for, len(), attributes
// and methods. The streams that produce elements are in tracer_data_streams.cpp.
#include "engine/lang/tracer_data.h"

#include "engine/lang/tracer_objects.h"

namespace gl::lang::trace {

Val normalizeElement(Context& cx, const Val& v, const SourceLoc& loc, bool listIsTuple, int depth) {
  if (depth > kMaxListNesting) cx.fail(loc, "a dataset element nests too deeply");
  if (v.isTensor()) return Val::tensor(cx.toTensor(v, loc));
  if (v.kind() == Kind::Tuple || (listIsTuple && v.kind() == Kind::List)) {
    std::vector<Val> items;
    for (const Val& x : v.items())
      items.push_back(normalizeElement(cx, x, loc, listIsTuple, depth + 1));
    return Val::listOf(std::move(items), true);
  }
  if (auto d = v.as<DictObj>()) {
    auto out = std::make_shared<DictObj>();
    out->keys = d->keys;
    for (const Val& x : d->values)
      out->values.push_back(normalizeElement(cx, x, loc, listIsTuple, depth + 1));
    return Val::object(out);
  }
  if (v.isNone())
    cx.fail(loc,
            "None is not a valid dataset component: elements are tensors, or tuples and "
            "dicts of them");
  if (v.as<DatasetObj>())
    cx.fail(loc,
            "a dataset cannot be a component of a dataset's element (GradLab has no "
            "nested datasets, e.g. window() or a map returning a dataset)");
  return Val::tensor(cx.toTensor(v, loc));
}

Val callWithElement(Context& cx, const Val& fn, const Val& element, const SourceLoc& loc,
                    const std::string& what) {
  // TF's StructuredFunctionWrapper: a tuple element is unpacked into positional arguments; a
  // dict (or a tensor) is passed as one argument.
  std::vector<Val> args;
  if (element.kind() == Kind::Tuple)
    args = element.items();
  else
    args.push_back(element);
  return cx.callSimple(fn, std::move(args), loc, what);
}

// DatasetObj ---------------------------------------------------------------------------------

std::string DatasetObj::typeName() const {
  switch (op) {
    case DataOp::Range:
      return "_RangeDataset";
    case DataOp::TensorSlices:
      return "_TensorSliceDataset";
    case DataOp::Tensors:
      return "_TensorDataset";
    case DataOp::Map:
      return parallel ? "_ParallelMapDataset" : "_MapDataset";
    case DataOp::Filter:
      return "_FilterDataset";
    case DataOp::Batch:
      return parallel ? "_ParallelBatchDataset" : "_BatchDataset";
    case DataOp::Unbatch:
      return "_UnbatchDataset";
    case DataOp::Shuffle:
      return "_ShuffleDataset";
    case DataOp::Take:
      return "_TakeDataset";
    case DataOp::Skip:
      return "_SkipDataset";
    case DataOp::Repeat:
      return "_RepeatDataset";
    case DataOp::Zip:
      return "_ZipDataset";
    case DataOp::Concatenate:
      return "_ConcatenateDataset";
    case DataOp::Prefetch:
      return "_PrefetchDataset";
    case DataOp::Cache:
      return "_CacheDataset";
  }
  return "Dataset";
}

std::string DatasetObj::reprText() const {
  return "<" + typeName() + " element_spec=" + specText(spec) + ">";
}

namespace {
// Counts past int64 (range(2**62).repeat(8)) stay at its maximum: more than any trace unrolls.
int64_t saturatedMul(int64_t a, int64_t b) {
  int64_t out = 0;
  return __builtin_mul_overflow(a, b, &out) ? INT64_MAX : out;
}
}  // namespace

// The cardinality rules of TF's dataset kernels (CardinalityInternal of each op).
int64_t DatasetObj::cardinality() const {
  const int64_t in = inputs.empty() ? 0 : inputs[0]->cardinality();
  switch (op) {
    case DataOp::Range: {
      RangeObj r;
      r.start = start, r.stop = stop, r.step = step;
      return r.size();
    }
    case DataOp::TensorSlices:
      return rows;
    case DataOp::Tensors:
      return 1;
    case DataOp::Map:
    case DataOp::Shuffle:
    case DataOp::Prefetch:
    case DataOp::Cache:
      return in;
    case DataOp::Filter:
      return kUnknownCardinality;
    case DataOp::Batch:
      if (in < 0) return in;
      return in / count + (!dropRemainder && in % count != 0);
    case DataOp::Unbatch:  // TF: the input's count times a static batch size (count), if any
      if (in == kInfiniteCardinality || in == 0) return in;
      return in < 0 || count < 0 ? kUnknownCardinality : saturatedMul(in, count);
    case DataOp::Take:
      if (count < 0) return in;
      if (count == 0) return 0;
      if (in == kInfiniteCardinality) return count;
      if (in == kUnknownCardinality) return kUnknownCardinality;
      return std::min(in, count);
    case DataOp::Skip:
      if (in < 0) return in;
      if (count < 0) return 0;
      return std::max<int64_t>(0, in - count);
    case DataOp::Repeat:
      if (count < 0) return in == 0 ? 0 : in == kUnknownCardinality ? in : kInfiniteCardinality;
      if (in < 0) return count == 0 ? 0 : in;
      return saturatedMul(in, count);
    case DataOp::Zip: {
      int64_t n = kInfiniteCardinality;
      for (const auto& d : inputs) {
        const int64_t c = d->cardinality();
        if (c == kUnknownCardinality) return c;
        if (c != kInfiniteCardinality) n = n == kInfiniteCardinality ? c : std::min(n, c);
      }
      return n;
    }
    case DataOp::Concatenate: {
      const int64_t b = inputs.at(1)->cardinality();
      if (in == kInfiniteCardinality || b == kInfiniteCardinality) return kInfiniteCardinality;
      if (in < 0 || b < 0) return kUnknownCardinality;
      return in > INT64_MAX - b ? INT64_MAX : in + b;
    }
  }
  return kUnknownCardinality;
}

std::optional<std::vector<Val>> DatasetObj::iterate(Context& cx, const SourceLoc& loc) {
  if (cardinality() == kInfiniteCardinality)
    cx.fail(loc, "this dataset (" + typeName() +
                     ") is infinite: it repeats forever (repeat() without a count), so iterating "
                     "it while tracing would never end; take(n) a finite part of it");
  if (cardinality() > maxPythonItems())
    cx.fail(loc, "this dataset (" + typeName() + ") has " + std::to_string(cardinality()) +
                     " elements, more than the " + std::to_string(maxPythonItems()) +
                     " a Python loop may unroll while tracing" + kRaiseItems +
                     "; take(n) a part of it");
  auto self = std::static_pointer_cast<DatasetObj>(shared_from_this());
  std::unique_ptr<ElementStream> s = openStream(cx, self, loc);
  std::vector<Val> out;
  while (std::optional<Val> e = s->next()) {
    // The autodiff guide ("State stops gradients"): "tf.data.Dataset iterators ... will stop
    // all gradients on tensors that pass through them", mapped functions' captures included.
    out.push_back(stopElementGradients(cx, *e, loc));
    if (int64_t(out.size()) > maxPythonItems())
      cx.fail(loc, "this dataset has more than " + std::to_string(maxPythonItems()) +
                       " elements to iterate over while tracing" + kRaiseItems);
  }
  return out;
}

std::optional<int64_t> DatasetObj::length(Context& cx, const SourceLoc& loc) {
  // Dataset.__len__ (eager): TypeError for an infinite or unknown cardinality.
  const int64_t n = cardinality();
  if (n == kInfiniteCardinality) cx.fail(loc, "TypeError: The dataset is infinite.");
  if (n == kUnknownCardinality)
    cx.fail(loc, "TypeError: The dataset length is unknown. (" + typeName() +
                     "'s elements are decided by a filter; use cardinality())");
  return n;
}

std::optional<Val> DatasetObj::attr(Context& cx, const std::string& name) {
  if (name == "element_spec") return specVal(cx, spec);
  const auto& t = builtins();
  auto it = t.find("Dataset." + name);
  if (it == t.end()) return std::nullopt;
  auto o = std::make_shared<BuiltinObj>();
  o->name = "Dataset." + name;
  o->def = &it->second;
  o->self = Val::object(shared_from_this());
  return Val::object(o);
}

std::vector<std::string> DatasetObj::attrNames() const {
  std::vector<std::string> out{"element_spec"};
  for (const auto& [k, d] : builtins())
    if (k.rfind("Dataset.", 0) == 0) out.push_back(k.substr(8));
  return out;
}

}  // namespace gl::lang::trace
