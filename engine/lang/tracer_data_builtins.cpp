// tf.data's names: the Dataset sources (range, from_tensor_slices, from_tensors, zip), the
// Dataset methods ("Dataset.<name>" in the builtin table, bound by DatasetObj::attr), AUTOTUNE
// and the cardinality constants. Each cites the dataset_ops.py docstring it follows; an argument
// GradLab cannot honour is a located error naming it (Bound::checkAllRead), never ignored.
#include "engine/lang/tracer_data.h"

#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace {

DatasetPtr datasetOf(Bound& a) {
  auto self = a.self.as<DatasetObj>();
  if (!self) a.cx.fail(a.callLoc, a.fn + "(): not a dataset");
  return std::static_pointer_cast<DatasetObj>(a.self.obj());
}

// A new dataset of kind `op` made by this call, reading `input`.
std::shared_ptr<DatasetObj> derived(Bound& a, DataOp op, DatasetPtr input = nullptr) {
  auto d = std::make_shared<DatasetObj>();
  d->op = op;
  d->loc = a.callLoc;
  if (input) {
    d->spec = input->spec;
    d->inputs.push_back(std::move(input));
  }
  return d;
}

Val madeDataset(Bound& a, std::shared_ptr<DatasetObj> d) {
  a.checkAllRead();
  return Val::object(std::move(d));
}

// An int count argument: -1 means "all" for take/skip/repeat, as in TF.
int64_t countArg(Bound& a, const char* name) {
  const int64_t n = a.integer(name);
  if (n < -1) a.fail(name, "must be -1 (all) or a count, got " + std::to_string(n));
  return n;
}

// The leaves of a zip's structure: datasets, nested in tuples (lists) and dicts.
void zipInputs(Bound& a, const Val& v, const SourceLoc& loc, std::vector<DatasetPtr>& out,
               ElemSpec& spec, int depth = 0) {
  if (depth > kMaxListNesting) a.cx.fail(loc, "Dataset.zip: the datasets nest too deeply");
  if (auto d = v.as<DatasetObj>()) {
    out.push_back(std::static_pointer_cast<DatasetObj>(v.obj()));
    spec = d->spec;
    return;
  }
  if (v.isSeq()) {
    spec.kind = ElemSpec::Kind::Tuple;
    for (const Val& x : v.items()) {
      spec.parts.emplace_back();
      zipInputs(a, x, loc, out, spec.parts.back(), depth + 1);
    }
    return;
  }
  if (auto d = v.as<DictObj>()) {
    spec.kind = ElemSpec::Kind::Dict;
    for (size_t i = 0; i < d->keys.size(); ++i) {
      const Val& k = d->keys[i];
      spec.keys.push_back(k.kind() == Kind::Str ? "'" + k.text() + "'" : repr(a.cx.graph(), k));
      spec.parts.emplace_back();
      zipInputs(a, d->values[i], loc, out, spec.parts.back(), depth + 1);
    }
    return;
  }
  a.cx.fail(loc, "Dataset.zip expects datasets (in a tuple or dict), got " + typeName(v));
}

// Dataset.range, from_tensor_slices, from_tensors, zip.
void addSources(BuiltinTable& t) {
  // "Creates a Dataset of a step-separated range of values" (range(5) -> 0..4, range(2, 5),
  // range(1, 5, 2), range(5, 1, -2)); output_type defaults to tf.int64, which GradLab computes
  // as int32 (its int64 is an alias) while element_spec still says tf.int64.
  t["tf.data.Dataset.range"] = {
      Signature::parse("*args, output_type=None, name=None"), [](Bound& a) {
        if (a.rest.empty() || a.rest.size() > 3)
          a.cx.fail(a.callLoc, "Dataset.range takes 1 to 3 arguments (" +
                                   std::to_string(a.rest.size()) + " given)");
        auto d = derived(a, DataOp::Range);
        std::vector<int64_t> v;
        for (const Arg& x : a.rest) {
          if (x.v.kind() == Kind::Int || x.v.kind() == Kind::Bool) {
            v.push_back(x.v.kind() == Kind::Bool ? x.v.asBool() : x.v.asInt());
            continue;
          }
          // A scalar int tensor computed from constants (tf.shape(x)[0]) is known now too.
          std::optional<Tensor> c;
          if (x.v.isTensor() && !isFloat(a.cx.b.type(x.v.tensorValue()).dtype) &&
              a.cx.b.type(x.v.tensorValue()).shape.empty())
            c = a.cx.constantValue(x.v.tensorValue());
          if (!c)
            a.cx.fail(x.loc,
                      "Dataset.range needs ints known while tracing (its length decides "
                      "how many elements a for loop unrolls), got " +
                          typeName(x.v));
          v.push_back(int64_t(c->item()));
        }
        d->stop = v.size() == 1 ? v[0] : v[1];
        d->start = v.size() == 1 ? 0 : v[0];
        d->step = v.size() == 3 ? v[2] : 1;
        if (d->step == 0) a.cx.fail(a.rest[2].loc, "Dataset.range: step must not be zero");
        d->spec.int64 = a.none("output_type");
        d->spec.dtype = a.dtype("output_type", DType::I32);
        return madeDataset(a, d);
      }};
  // "The given tensors are sliced along their first dimension": tuples and dicts are sliced
  // component by component, and every component's first dimension must be the same.
  t["tf.data.Dataset.from_tensor_slices"] = {
      Signature::parse("tensors, name=None"), [](Bound& a) {
        auto d = derived(a, DataOp::TensorSlices);
        d->data = normalizeElement(a.cx, a["tensors"], a.loc("tensors"), false);
        const ElemSpec whole = specOf(a.cx, d->data);
        std::vector<const ElemSpec*> leaves;
        std::vector<const ElemSpec*> stack{&whole};
        while (!stack.empty()) {
          const ElemSpec* s = stack.back();
          stack.pop_back();
          if (s->kind == ElemSpec::Kind::Tensor)
            leaves.push_back(s);
          else
            for (auto it = s->parts.rbegin(); it != s->parts.rend(); ++it) stack.push_back(&*it);
        }
        for (size_t i = 0; i < leaves.size(); ++i) {
          const Shape& s = leaves[i]->shape;
          if (s.empty())
            a.fail("tensors",
                   "has a scalar component, which has no first dimension to slice "
                   "(TF: Unbatching a tensor is only supported for rank >= 1)");
          if (s[0] < 0) a.fail("tensors", "has a component with an unknown first dimension");
          if (s[0] != leaves[0]->shape[0])
            a.fail("tensors", "has components whose first dimensions differ (TF: Dimensions " +
                                  std::to_string(leaves[0]->shape[0]) + " and " +
                                  std::to_string(s[0]) + " are not compatible): shapes " +
                                  shapeStr(leaves[0]->shape) + " and " + shapeStr(s));
        }
        d->rows = leaves.empty() ? 0 : leaves[0]->shape[0];
        std::function<void(ElemSpec&)> dropFirst = [&](ElemSpec& s) {
          if (s.kind == ElemSpec::Kind::Tensor)
            s.shape.erase(s.shape.begin());
          else
            for (ElemSpec& p : s.parts) dropFirst(p);
        };
        d->spec = whole;
        dropFirst(d->spec);
        return madeDataset(a, d);
      }};
  // "Creates a Dataset with a single element, comprising the given tensors."
  t["tf.data.Dataset.from_tensors"] = {Signature::parse("tensors, name=None"), [](Bound& a) {
                                         auto d = derived(a, DataOp::Tensors);
                                         d->data = normalizeElement(a.cx, a["tensors"],
                                                                    a.loc("tensors"), false);
                                         d->spec = specOf(a.cx, d->data);
                                         return madeDataset(a, d);
                                       }};
  // zip((a, b)), zip(a, b) (TF 2.11+), zip({"x": a, "y": b}): elements in the same structure;
  // as long as the shortest input.
  t["tf.data.Dataset.zip"] = {Signature::parse("*args, datasets=None, name=None"), [](Bound& a) {
                                auto d = derived(a, DataOp::Zip);
                                if (!a.none("datasets") && !a.rest.empty())
                                  a.fail("datasets", "cannot be given with positional datasets");
                                if (!a.none("datasets")) {
                                  d->zipped = a["datasets"];
                                } else if (a.rest.size() == 1) {
                                  d->zipped = a.rest[0].v;
                                } else {
                                  std::vector<Val> items;
                                  for (const Arg& x : a.rest) items.push_back(x.v);
                                  d->zipped = Val::listOf(std::move(items), true);
                                }
                                if (a.rest.empty() && a.none("datasets"))
                                  a.cx.fail(a.callLoc, "Dataset.zip needs datasets");
                                zipInputs(a, d->zipped,
                                          a.rest.empty() ? a.loc("datasets") : a.rest[0].loc,
                                          d->inputs, d->spec);
                                return madeDataset(a, d);
                              }};
  t["tf.data.AUTOTUNE"] = {{}, nullptr, true, Val::integer(-1)};
  t["tf.data.experimental.AUTOTUNE"] = {{}, nullptr, true, Val::integer(-1)};
  t["tf.data.INFINITE_CARDINALITY"] = {{}, nullptr, true, Val::integer(kInfiniteCardinality)};
  t["tf.data.UNKNOWN_CARDINALITY"] = {{}, nullptr, true, Val::integer(kUnknownCardinality)};
  t["tf.data.experimental.INFINITE_CARDINALITY"] = t["tf.data.INFINITE_CARDINALITY"];
  t["tf.data.experimental.UNKNOWN_CARDINALITY"] = t["tf.data.UNKNOWN_CARDINALITY"];
}

// map, filter, batch, shuffle.
void addTransformations(BuiltinTable& t) {
  // map: "Maps map_func across the elements of this dataset"; a tuple element is unpacked into
  // positional arguments. num_parallel_calls and deterministic change only the order of work.
  t["Dataset.map"] = {
      Signature::parse("map_func, ~num_parallel_calls=None, ~deterministic=None, name=None"),
      [](Bound& a) {
        auto d = derived(a, DataOp::Map, datasetOf(a));
        d->fn = a["map_func"];
        d->parallel = a.given("num_parallel_calls") && !a.none("num_parallel_calls");
        a.checkAllRead();
        // TF traces map_func here, which gives element_spec; GradLab traces it on the first
        // element and keeps that element for the first pass.
        if (std::optional<Val> first = beginMapPass(a.cx, d)) d->spec = specOf(a.cx, *first);
        return Val::object(d);
      }};
  t["Dataset.filter"] = {Signature::parse("predicate, name=None"), [](Bound& a) {
                           auto d = derived(a, DataOp::Filter, datasetOf(a));
                           d->fn = a["predicate"];
                           return madeDataset(a, d);
                         }};
  // batch: "Combines consecutive elements of this dataset into batches"; the last batch may be
  // smaller unless drop_remainder (element_spec's leading dimension is then static).
  t["Dataset.batch"] = {
      Signature::parse("batch_size, drop_remainder=False, ~num_parallel_calls=None, "
                       "~deterministic=None, name=None"),
      [](Bound& a) {
        auto d = derived(a, DataOp::Batch, datasetOf(a));
        d->count = a.integer("batch_size");
        if (d->count <= 0) a.fail("batch_size", "must be greater than zero");
        d->dropRemainder = a.boolean("drop_remainder");
        d->parallel = a.given("num_parallel_calls") && !a.none("num_parallel_calls");
        d->spec = batchedSpec(d->inputs[0]->spec, d->dropRemainder ? d->count : -1);
        return madeDataset(a, d);
      }};
  // unbatch: "Splits elements of a dataset into multiple elements" (range(8).batch(3)
  // .unbatch() gives 0..7 again); every component needs a first dimension.
  t["Dataset.unbatch"] = {Signature::parse("name=None"), [](Bound& a) {
                            auto d = derived(a, DataOp::Unbatch, datasetOf(a));
                            d->count = -2;  // the static batch size all components share
                            std::function<void(ElemSpec&)> drop = [&](ElemSpec& s) {
                              if (s.kind != ElemSpec::Kind::Tensor) {
                                for (ElemSpec& p : s.parts) drop(p);
                                return;
                              }
                              if (s.shape.empty())
                                a.cx.fail(a.callLoc,
                                          "Unbatching a dataset is only supported for "
                                          "rank >= 1 (a component is a scalar)");
                              const int64_t n = s.shape[0];
                              d->count = d->count == -2 || d->count == n ? n : -1;
                              s.shape.erase(s.shape.begin());
                            };
                            drop(d->spec);
                            if (d->count == -2) d->count = -1;
                            return madeDataset(a, d);
                          }};
  // apply: "Applies a transformation function to this dataset": transformation_func(self).
  t["Dataset.apply"] = {Signature::parse("transformation_func"), [](Bound& a) {
                          const Val fn = a["transformation_func"];
                          a.checkAllRead();
                          Val r = a.cx.callSimple(fn, {a.self}, a.callLoc, "transformation_func");
                          if (!r.as<DatasetObj>())
                            a.cx.fail(a.callLoc,
                                      "apply(): transformation_func must return a "
                                      "dataset, got " +
                                          typeName(r));
                          return r;
                        }};
  // shuffle: "Randomly shuffles the elements of this dataset" with a buffer of buffer_size
  // elements; a seed (with tf.random.set_seed) fixes the order, and
  // reshuffle_each_iteration gives each pass its own.
  t["Dataset.shuffle"] = {
      Signature::parse("buffer_size, seed=None, reshuffle_each_iteration=True, name=None"),
      [](Bound& a) {
        auto d = derived(a, DataOp::Shuffle, datasetOf(a));
        d->count = a.integer("buffer_size");
        if (d->count <= 0) a.fail("buffer_size", "must be greater than zero");
        d->seed = uint64_t(
            a.cx.nextSeed(a.none("seed") ? std::nullopt : std::optional(a.integer("seed"))));
        d->reshuffle = a.boolean("reshuffle_each_iteration");
        return madeDataset(a, d);
      }};
}

// take, skip, repeat, enumerate, concatenate, prefetch, cache.
void addSelections(BuiltinTable& t) {
  t["Dataset.take"] = {Signature::parse("count, name=None"), [](Bound& a) {
                         auto d = derived(a, DataOp::Take, datasetOf(a));
                         d->count = countArg(a, "count");
                         return madeDataset(a, d);
                       }};
  t["Dataset.skip"] = {Signature::parse("count, name=None"), [](Bound& a) {
                         auto d = derived(a, DataOp::Skip, datasetOf(a));
                         d->count = countArg(a, "count");
                         return madeDataset(a, d);
                       }};
  t["Dataset.repeat"] = {Signature::parse("count=None, name=None"), [](Bound& a) {
                           auto d = derived(a, DataOp::Repeat, datasetOf(a));
                           d->count = a.none("count") ? -1 : countArg(a, "count");
                           return madeDataset(a, d);
                         }};
  // enumerate: "Enumerates the elements of this dataset", (int64 index, element) pairs; TF
  // builds it as zip((range(start, int64 max), self)), hence a _ZipDataset.
  t["Dataset.enumerate"] = {Signature::parse("start=0, name=None"), [](Bound& a) {
                              DatasetPtr self = datasetOf(a);
                              auto counter = derived(a, DataOp::Range);
                              counter->start = a.integer("start");
                              counter->stop = INT64_MAX;
                              counter->spec.dtype = DType::I32;
                              counter->spec.int64 = true;
                              auto d = derived(a, DataOp::Zip);
                              d->zipped = Val::listOf({Val::object(counter), a.self}, true);
                              d->inputs = {counter, self};
                              d->spec.kind = ElemSpec::Kind::Tuple;
                              d->spec.parts = {counter->spec, self->spec};
                              return madeDataset(a, d);
                            }};
  t["Dataset.concatenate"] = {
      Signature::parse("dataset, name=None"), [](Bound& a) {
        auto d = derived(a, DataOp::Concatenate, datasetOf(a));
        auto other = a["dataset"].as<DatasetObj>();
        if (!other) a.fail("dataset", "must be a dataset, got " + typeName(a["dataset"]));
        if (specText(other->spec) != specText(d->spec) &&
            (other->spec.kind != d->spec.kind || other->spec.parts.size() != d->spec.parts.size()))
          a.fail("dataset",
                 "has elements of another structure (TF: Incompatible "
                 "dataset elements): " +
                     specText(d->spec) + " and " + specText(other->spec));
        d->inputs.push_back(std::static_pointer_cast<DatasetObj>(a["dataset"].obj()));
        return madeDataset(a, d);
      }};
  // prefetch overlaps producing and consuming elements: no effect on their values.
  t["Dataset.prefetch"] = {Signature::parse("buffer_size, name=None"), [](Bound& a) {
                             auto d = derived(a, DataOp::Prefetch, datasetOf(a));
                             if (a.integer("buffer_size") < -1)
                               a.fail("buffer_size", "must be tf.data.AUTOTUNE or at least 0");
                             return madeDataset(a, d);
                           }};
  t["Dataset.cache"] = {Signature::parse("filename='', name=None"), [](Bound& a) {
                          auto d = derived(a, DataOp::Cache, datasetOf(a));
                          if (!a.string("filename").empty())
                            a.fail("filename",
                                   "is not supported: GradLab caches datasets in memory only");
                          return madeDataset(a, d);
                        }};
}

// cardinality, reduce, as_numpy_iterator; tf.data.experimental.cardinality.
void addQueries(BuiltinTable& t) {
  // cardinality: "Returns the cardinality of the dataset, if known" (a scalar int64 tensor;
  // INFINITE_CARDINALITY -1, UNKNOWN_CARDINALITY -2).
  auto cardinality = [](Bound& a, const Val& ds) {
    auto d = ds.as<DatasetObj>();
    if (!d) a.cx.fail(a.callLoc, "cardinality() needs a dataset, got " + typeName(ds));
    a.checkAllRead();
    a.cx.at(a.callLoc);
    return Val::tensor(a.cx.b.scalar(double(d->cardinality()), DType::I32));
  };
  t["Dataset.cardinality"] = {Signature::parse(""),
                              [cardinality](Bound& a) { return cardinality(a, a.self); }};
  t["tf.data.experimental.cardinality"] = {Signature::parse("dataset"), [cardinality](Bound& a) {
                                             return cardinality(a, a["dataset"]);
                                           }};
  // reduce: "Reduces the input dataset to a single element": reduce_func(state, element) for
  // each element in order, from initial_state. TF's ReduceDataset kernel has no gradient, so
  // the result stops gradients (tape.gradient gives None, as in TF issue 36306).
  t["Dataset.reduce"] = {
      Signature::parse("initial_state, reduce_func, name=None"), [](Bound& a) {
        DatasetPtr d = datasetOf(a);
        Val state = normalizeElement(a.cx, a["initial_state"], a.loc("initial_state"), false);
        const Val fn = a["reduce_func"];
        a.checkAllRead();
        const std::vector<Val> elements = *d->iterate(a.cx, a.callLoc);
        for (const Val& e : elements) {
          a.cx.countUnroll(a.callLoc);
          state = normalizeElement(a.cx, a.cx.callSimple(fn, {state, e}, a.callLoc, "reduce_func"),
                                   a.callLoc, true);
        }
        return stopElementGradients(a.cx, state, a.callLoc);
      }};
  // as_numpy_iterator: the elements as values that carry no gradient (NumPy arrays in TF). They
  // are graph tensors here, computed when the graph runs: print() at trace time shows tensors.
  t["Dataset.as_numpy_iterator"] = {Signature::parse(""), [](Bound& a) {
                                      return Val::listOf(*datasetOf(a)->iterate(a.cx, a.callLoc));
                                    }};
}

}  // namespace

void addDataBuiltins(BuiltinTable& t) {
  // tf.TensorSpec(shape, dtype): what input_signature lists (tensor_spec.py); a spec value.
  t["tf.TensorSpec"] = {Signature::parse("shape, dtype=None, name=None"), [](Bound& a) {
                          if (a.none("shape"))
                            a.fail("shape", "of None (unknown rank) is not supported yet");
                          ElemSpec s;
                          const Val& dims = a["shape"];
                          if (!dims.isSeq()) a.fail("shape", "must be a list of ints and None");
                          for (const Val& d : dims.items()) {
                            if (!d.isNone() && d.kind() != Kind::Int)
                              a.fail("shape", "must be a list of ints and None");
                            s.shape.push_back(d.isNone() ? -1 : d.asInt());
                          }
                          s.dtype = a.dtype("dtype", DType::F32);
                          return specVal(a.cx, s);
                        }};
  addSources(t);
  addTransformations(t);
  addSelections(t);
  addQueries(t);
}

}  // namespace gl::lang::trace
