// The element streams of tf.data pipelines (tracer_data.h says what a Dataset is here).
// Each DataOp opens a stream that pulls from its inputs' streams one element at a time, so
// `Dataset.range(10**9).take(5)` builds five elements. Semantics are TF's
// (tensorflow/python/data/ops/dataset_ops.py docstrings; the kernels in core/kernels/data).
#include "engine/lang/tracer_data.h"

#include "engine/ops/api.h"
#include "engine/tensor/rng.h"

namespace gl::lang::trace {

namespace {

// The tensors of an element (a tensor, or tuples / dicts of elements), in order.
void dataLeaves(const Val& e, std::vector<Value>& out) {
  if (e.isTensor()) {
    out.push_back(e.tensorValue());
  } else if (e.kind() == Kind::Tuple) {
    for (const Val& x : e.items()) dataLeaves(x, out);
  } else if (auto d = e.as<DictObj>()) {
    for (const Val& x : d->values) dataLeaves(x, out);
  }
}

// An element shaped like `like` whose tensors are flat[pos...].
Val dataRebuild(const Val& like, const std::vector<Value>& flat, size_t& pos) {
  if (like.isTensor()) return Val::tensor(flat.at(pos++));
  if (like.kind() == Kind::Tuple) {
    std::vector<Val> items;
    for (const Val& x : like.items()) items.push_back(dataRebuild(x, flat, pos));
    return Val::listOf(std::move(items), true);
  }
  if (auto d = like.as<DictObj>()) {
    auto out = std::make_shared<DictObj>();
    out->keys = d->keys;
    for (const Val& x : d->values) out->values.push_back(dataRebuild(x, flat, pos));
    return Val::object(out);
  }
  return like;
}

// A zip's element: the structure of datasets with each dataset's element in its place.
Val zipRebuild(const Val& like, const std::vector<Val>& elems, size_t& pos) {
  if (like.as<DatasetObj>()) return elems.at(pos++);
  if (like.isSeq()) {
    std::vector<Val> items;
    for (const Val& x : like.items()) items.push_back(zipRebuild(x, elems, pos));
    return Val::listOf(std::move(items), true);
  }
  auto d = like.as<DictObj>();
  auto out = std::make_shared<DictObj>();
  out->keys = d->keys;
  for (const Val& x : d->values) out->values.push_back(zipRebuild(x, elems, pos));
  return Val::object(out);
}

std::string shapeList(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// A stream points at its dataset without owning it: the dataset outlives its passes, and a map
// keeps its pending pass (which must not keep the map alive in turn).
struct DataStream : ElementStream {
  DataStream(Context& c, DatasetObj* d, SourceLoc l) : cx(c), ds(d), loc(l) {}
  Context& cx;
  DatasetObj* ds;
  SourceLoc loc;
  std::unique_ptr<ElementStream> input(size_t k = 0) {
    return openStream(cx, ds->inputs.at(k), loc);
  }
};

struct RangeStream : DataStream {
  using DataStream::DataStream;
  int64_t i = ds->start;
  bool done = false;
  std::optional<Val> next() override {
    if (done || (ds->step > 0 ? i >= ds->stop : i <= ds->stop)) return std::nullopt;
    cx.countUnroll(loc);
    const DType dt = ds->spec.dtype;
    if (!isFloat(dt) && (i > INT32_MAX || i < INT32_MIN))
      cx.fail(loc, "Dataset.range reached " + std::to_string(i) +
                       ", past the int32 range GradLab computes tf.int64 in");
    cx.at(ds->loc);
    Val v = Val::tensor(cx.b.scalar(double(i), dt));
    done = __builtin_add_overflow(i, ds->step, &i);
    return v;
  }
};

// from_tensor_slices: row i of every component (one unstack per component per graph region,
// shared by the passes of a repeat).
struct SliceStream : DataStream {
  using DataStream::DataStream;
  size_t i = 0;
  std::optional<Val> next() override {
    if (int64_t(i) >= ds->rows) return std::nullopt;
    cx.countUnroll(loc);
    auto& rows = ds->memo[cx.b.currentRegion()];
    if (rows.empty()) {
      std::vector<Value> leaves;
      dataLeaves(ds->data, leaves);
      cx.at(ds->loc);
      std::vector<std::vector<Value>> parts;
      for (Value x : leaves) parts.push_back(ops::unstack(cx.b, x, 0));
      for (int64_t r = 0; r < ds->rows; ++r) {
        std::vector<Value> flat;
        for (const auto& p : parts) flat.push_back(p[size_t(r)]);
        size_t pos = 0;
        rows.push_back(dataRebuild(ds->data, flat, pos));
      }
    }
    return rows[i++];
  }
};

struct TensorsStream : DataStream {
  using DataStream::DataStream;
  bool done = false;
  std::optional<Val> next() override {
    if (done) return std::nullopt;
    done = true;
    return ds->data;
  }
};

// Replays elements already built (a map's first element traced when it was made, a cache).
struct ReplayStream : ElementStream {
  std::vector<Val> items;
  size_t i = 0;
  std::unique_ptr<ElementStream> rest;  // then these
  std::optional<Val> next() override {
    if (i < items.size()) return items[i++];
    return rest ? rest->next() : std::nullopt;
  }
};

struct MapStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  std::optional<Val> next() override {
    std::optional<Val> e = in->next();
    if (!e) return std::nullopt;
    cx.countUnroll(loc);
    Val r = callWithElement(cx, ds->fn, *e, ds->loc, "the function given to map");
    return normalizeElement(cx, r, ds->loc, true);
  }
};

// filter: the predicate's value must be known while tracing (the element count of the dataset
// is decided here); it is when it is computed from the elements' constants.
struct FilterStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  std::optional<Val> next() override {
    while (std::optional<Val> e = in->next()) {
      cx.countUnroll(loc);
      Val p = callWithElement(cx, ds->fn, *e, ds->loc, "the predicate given to filter");
      if (p.kind() == Kind::Bool) {
        if (p.asBool()) return e;
        continue;
      }
      if (!p.isTensor() || cx.b.type(p.tensorValue()).dtype != DType::Bool ||
          !cx.b.type(p.tensorValue()).shape.empty())
        cx.fail(ds->loc,
                "`predicate` return type must be convertible to a scalar boolean tensor (filter's "
                "predicate returned " +
                    article(typeName(p)) + ")");
      std::optional<Tensor> t = cx.constantValue(p.tensorValue());
      if (!t)
        cx.fail(ds->loc,
                "filter's predicate must be known while tracing: GradLab traces the whole script "
                "into one graph, so a filtered dataset's elements are chosen while tracing, and "
                "this predicate depends on a random op, a variable or a parameter");
      if (t->item() != 0) return e;
    }
    return std::nullopt;
  }
};

// batch: n consecutive elements stacked component by component; the last, shorter batch is
// kept unless drop_remainder.
struct BatchStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  std::optional<Val> next() override {
    std::vector<Val> got;
    while (int64_t(got.size()) < ds->count)
      if (std::optional<Val> e = in->next())
        got.push_back(std::move(*e));
      else
        break;
    if (got.empty() || (ds->dropRemainder && int64_t(got.size()) < ds->count)) return std::nullopt;
    std::vector<std::vector<Value>> flat(got.size());
    for (size_t k = 0; k < got.size(); ++k) dataLeaves(got[k], flat[k]);
    std::vector<Value> stacked;
    cx.at(ds->loc);
    for (size_t c = 0; c < flat[0].size(); ++c) {
      std::vector<Value> parts;
      for (size_t k = 0; k < got.size(); ++k) {
        const Shape& first = cx.b.type(flat[0][c]).shape;
        const Shape& here = cx.b.type(flat[k][c]).shape;
        if (here != first)  // TF's message (batch_util.cc)
          cx.fail(loc, "Cannot batch tensors with different shapes in component " +
                           std::to_string(c) + ". First element had shape " + shapeList(first) +
                           " and element " + std::to_string(k) + " had shape " + shapeList(here) +
                           ".");
        parts.push_back(flat[k][c]);
      }
      stacked.push_back(ops::stack(cx.b, parts, 0));
    }
    size_t pos = 0;
    return dataRebuild(got[0], stacked, pos);
  }
};

// unbatch: each element's rows, one element per index of the components' first dimension.
struct UnbatchStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  std::vector<Val> rows;
  size_t next_ = 0;
  std::optional<Val> next() override {
    while (next_ == rows.size()) {
      std::optional<Val> e = in->next();
      if (!e) return std::nullopt;
      std::vector<Value> flat;
      dataLeaves(*e, flat);
      rows.clear();
      next_ = 0;
      int64_t n = -1;
      for (Value x : flat) {
        const Shape& s = cx.b.type(x).shape;
        if (s.empty() || s[0] < 0 || (n >= 0 && s[0] != n))
          cx.fail(loc, "unbatch needs components with the same known first dimension, got " +
                           shapeList(s));
        n = s[0];
      }
      if (n <= 0) continue;
      cx.at(ds->loc);
      std::vector<std::vector<Value>> parts;
      for (Value x : flat) parts.push_back(ops::unstack(cx.b, x, 0));
      for (int64_t r = 0; r < n; ++r) {
        cx.countUnroll(loc);
        std::vector<Value> row;
        for (const auto& p : parts) row.push_back(p[size_t(r)]);
        size_t pos = 0;
        rows.push_back(dataRebuild(*e, row, pos));
      }
    }
    return rows[next_++];
  }
};

// shuffle: TF's buffer algorithm (shuffle_dataset_op.cc): fill a buffer of buffer_size
// elements, hand out a uniformly chosen one and put the next input element in its place. The
// random source is GradLab's (seeded by the script's seeds, a new order per pass when
// reshuffle_each_iteration), so orders are not TF's; buffer_size 1 keeps the input order.
struct ShuffleStream : DataStream {
  ShuffleStream(Context& c, DatasetObj* d, SourceLoc l)
      : DataStream(c, d, l),
        rng(ds->seed * 1000003u + uint64_t(ds->reshuffle ? ds->epochs++ : 0)) {}
  std::unique_ptr<ElementStream> in = input();
  Rng rng;
  std::vector<Val> buffer;
  bool filled = false;
  std::optional<Val> next() override {
    if (!filled) {
      filled = true;
      while (int64_t(buffer.size()) < ds->count)
        if (std::optional<Val> e = in->next())
          buffer.push_back(std::move(*e));
        else
          break;
    }
    if (buffer.empty()) return std::nullopt;
    const size_t k = size_t(rng.next() % buffer.size());
    Val out = buffer[k];
    if (std::optional<Val> e = in->next()) {
      buffer[k] = std::move(*e);
    } else {
      buffer[k] = buffer.back();
      buffer.pop_back();
    }
    return out;
  }
};

struct TakeStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  int64_t taken = 0;
  std::optional<Val> next() override {
    if (ds->count >= 0 && taken >= ds->count) return std::nullopt;
    ++taken;
    return in->next();
  }
};

struct SkipStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  bool skipped = false;
  std::optional<Val> next() override {
    if (!skipped) {
      skipped = true;
      for (int64_t k = 0; ds->count < 0 || k < ds->count; ++k)
        if (!in->next()) return std::nullopt;
    }
    return in->next();
  }
};

// repeat: the input again from its start, count times (forever for None or -1); a pass that
// yields nothing ends it (TF: repeating an empty dataset is empty).
struct RepeatStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in;
  int64_t passes = 0;
  bool gotThisPass = false;
  std::optional<Val> next() override {
    for (;;) {
      if (!in) {
        if (ds->count >= 0 && passes >= ds->count) return std::nullopt;
        in = input();
        gotThisPass = false;
      }
      if (std::optional<Val> e = in->next()) {
        gotThisPass = true;
        return e;
      }
      in.reset();
      ++passes;
      if (!gotThisPass) return std::nullopt;
    }
  }
};

struct ZipStream : DataStream {
  ZipStream(Context& c, DatasetObj* d, SourceLoc l) : DataStream(c, d, l) {
    for (size_t k = 0; k < ds->inputs.size(); ++k) ins.push_back(input(k));
  }
  std::vector<std::unique_ptr<ElementStream>> ins;
  std::optional<Val> next() override {
    std::vector<Val> elems;
    for (auto& s : ins)
      if (std::optional<Val> e = s->next())
        elems.push_back(std::move(*e));
      else
        return std::nullopt;
    size_t pos = 0;
    return zipRebuild(ds->zipped, elems, pos);
  }
};

struct ConcatStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input(0);
  bool second = false;
  std::optional<Val> next() override {
    if (std::optional<Val> e = in->next()) return e;
    if (second) return std::nullopt;
    second = true;
    in = input(1);
    return in->next();
  }
};

// cache: the first complete pass's elements, replayed by later passes in the same region (so a
// random map before cache() gives every epoch the same values, as in TF).
struct CacheStream : DataStream {
  using DataStream::DataStream;
  std::unique_ptr<ElementStream> in = input();
  std::vector<Val> seen;
  std::optional<Val> next() override {
    if (std::optional<Val> e = in->next()) {
      seen.push_back(*e);
      return e;
    }
    ds->memo[cx.b.currentRegion()] = std::move(seen);
    return std::nullopt;
  }
};

template <class S>
std::unique_ptr<ElementStream> openAs(Context& cx, const DatasetPtr& ds, const SourceLoc& loc) {
  return std::make_unique<S>(cx, ds.get(), loc);
}

}  // namespace

std::unique_ptr<ElementStream> openStream(Context& cx, const DatasetPtr& ds, const SourceLoc& loc) {
  switch (ds->op) {
    case DataOp::Range:
      return openAs<RangeStream>(cx, ds, loc);
    case DataOp::TensorSlices:
      return openAs<SliceStream>(cx, ds, loc);
    case DataOp::Tensors:
      return openAs<TensorsStream>(cx, ds, loc);
    case DataOp::Map:
      // The pass begun when map() traced its function on the first element (for element_spec,
      // as TF traces at map()): the first pass in that region continues it.
      if (ds->pending && ds->pendingRegion == cx.b.currentRegion()) return std::move(ds->pending);
      return openAs<MapStream>(cx, ds, loc);
    case DataOp::Filter:
      return openAs<FilterStream>(cx, ds, loc);
    case DataOp::Batch:
      return openAs<BatchStream>(cx, ds, loc);
    case DataOp::Unbatch:
      return openAs<UnbatchStream>(cx, ds, loc);
    case DataOp::Shuffle:
      return openAs<ShuffleStream>(cx, ds, loc);
    case DataOp::Take:
      return openAs<TakeStream>(cx, ds, loc);
    case DataOp::Skip:
      return openAs<SkipStream>(cx, ds, loc);
    case DataOp::Repeat:
      return openAs<RepeatStream>(cx, ds, loc);
    case DataOp::Zip:
      return openAs<ZipStream>(cx, ds, loc);
    case DataOp::Concatenate:
      return openAs<ConcatStream>(cx, ds, loc);
    case DataOp::Prefetch:
      return openStream(cx, ds->inputs.at(0), loc);
    case DataOp::Cache: {
      auto it = ds->memo.find(cx.b.currentRegion());
      if (it == ds->memo.end()) return openAs<CacheStream>(cx, ds, loc);
      auto r = std::make_unique<ReplayStream>();
      r->items = it->second;
      return r;
    }
  }
  cx.fail(loc, "unknown dataset kind");
}

std::optional<Val> beginMapPass(Context& cx, const DatasetPtr& ds) {
  auto first = std::make_unique<MapStream>(cx, ds.get(), ds->loc);
  std::optional<Val> e = first->next();
  if (!e) return std::nullopt;
  auto r = std::make_unique<ReplayStream>();
  r->items.push_back(*e);
  r->rest = std::move(first);
  ds->pending = std::move(r);
  ds->pendingRegion = cx.b.currentRegion();
  return e;
}

Val stopElementGradients(Context& cx, const Val& element, const SourceLoc& loc) {
  std::vector<Value> flat;
  dataLeaves(element, flat);
  cx.at(loc);
  for (Value& x : flat) x = ops::stopGradient(cx.b, x);
  size_t pos = 0;
  return dataRebuild(element, flat, pos);
}

}  // namespace gl::lang::trace
