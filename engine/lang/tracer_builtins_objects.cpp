// Objects with state: tf.GradientTape (a `with` context whose queries return gradients or
// None with the engine's explanation), tf.TensorArray (a value: write returns a new one),
// tf.Variable, and the properties of tensors (x.shape, x.dtype).
#include <algorithm>
#include <map>

#include "engine/exec/executor.h"
#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

std::optional<Val> TensorArrayObj::attr(Context& cx, const std::string& name) {
  if (name == "_list" && varyingShapes)
    cx.fail(cx.b.loc(),
            "a TensorArray(infer_shape=False) cannot be carried by a tensor loop or branch in "
            "GradLab: its entries are kept while tracing (use a Python for loop)");
  if (name == "_list") return Val::tensor(list);
  if (name == "_static_size") return Val::integer(size);  // -1: known only at run time
  if (name == "dtype") return Val::dtype(dtype);
  return std::nullopt;
}

namespace {

struct TapeObj : Object {
  bool persistent = false;
  bool watchVariables = true;
  GradientTape* tape = nullptr;  // owned by the tracer; set when the `with` block starts
  std::string typeName() const override { return "GradientTape"; }
  bool isContext() const override { return true; }
  Val enter(Context& cx, const SourceLoc& loc) override {
    if (tape && tape->recording()) cx.fail(loc, "this GradientTape is already recording");
    // Entering again resumes recording, as TF's tape does.
    if (tape)
      tape->resume();
    else
      tape = &cx.openTape(persistent, watchVariables, loc);
    return Val::object(shared_from_this());
  }
  void exit(Context&) override { tape->stop(); }
};

struct StopRecordingObj : Object {
  GradientTape* tape = nullptr;
  std::unique_ptr<GradientTape::StopRecording> guard;
  std::string typeName() const override { return "stop_recording"; }
  bool isContext() const override { return true; }
  Val enter(Context&, const SourceLoc&) override {
    guard = std::make_unique<GradientTape::StopRecording>(*tape);
    return Val::none();
  }
  void exit(Context&) override { guard.reset(); }
};

TapeObj& tapeOf(Bound& a) {
  auto* t = a.self.as<TapeObj>();
  if (!t->tape)
    a.cx.fail(a.callLoc, a.fn + "(): use the tape inside `with tf.GradientTape() as tape:` first");
  return *t;
}

TensorArrayObj& taOf(Bound& a) { return *a.self.as<TensorArrayObj>(); }

Val withList(const TensorArrayObj& like, Value list) {
  auto n = std::make_shared<TensorArrayObj>(like);
  n->list = list;
  return Val::object(n);
}

// ---- infer_shape=False ------------------------------------------------------------------------

// The Python int index of a varying-shape TensorArray's write or read, in range.
int64_t staticIndex(Bound& a, const TensorArrayObj& ta, const std::string& param) {
  Val i = a[param];
  // Eager code: an int tensor index has its value now.
  if (i.isTensor() && a.cx.eager() && a.cx.graph().type(a.tensor(param)).dtype == DType::I32 &&
      a.cx.graph().type(a.tensor(param)).shape.empty())
    i = Val::integer(int64_t(a.cx.eagerValue(a.tensor(param), a.loc(param)).item()));
  if (i.kind() != Kind::Int)
    a.fail(param,
           "must be a Python int for a TensorArray(infer_shape=False): GradLab keeps its "
           "entries while tracing (write them in a Python for loop)");
  if (i.asInt() < 0 || (ta.size >= 0 && i.asInt() >= ta.size))
    a.fail(param, std::to_string(i.asInt()) + " is out of range for a TensorArray of size " +
                      std::to_string(ta.size));
  return i.asInt();
}

// Entries 0..n-1 in order; every one must have been written.
std::vector<Value> allEntries(Bound& a, const TensorArrayObj& ta) {
  const int64_t n =
      ta.size >= 0 ? ta.size : (ta.entries.empty() ? 0 : ta.entries.rbegin()->first + 1);
  std::vector<Value> out;
  for (int64_t i = 0; i < n; ++i) {
    auto it = ta.entries.find(i);
    if (it == ta.entries.end())
      a.fail("name", "TensorArray index " + std::to_string(i) + " was never written");
    out.push_back(it->second);
  }
  if (out.empty()) a.fail("name", "the TensorArray has no entries");
  return out;
}

// split for infer_shape=False: pieces of any lengths, one slice each.
Val splitVarying(Bound& a, const TensorArrayObj& ta, Value v, const std::vector<int64_t>& lengths) {
  const Shape s = a.cx.b.type(v).shape;
  auto n = std::make_shared<TensorArrayObj>(ta);
  n->size = ta.dynamic ? -1 : int64_t(lengths.size());
  n->entries.clear();
  int64_t at = 0;
  a.cx.at(a.callLoc);
  for (size_t k = 0; k < lengths.size(); ++k) {
    if (lengths[k] < 0 || at + lengths[k] > s[0])
      a.fail("lengths", "add up to more than the " + std::to_string(s[0]) + " rows of value");
    std::vector<int64_t> begin(s.size(), 0), size(s.size(), -1);
    begin[0] = at;
    size[0] = lengths[k];
    n->entries[int64_t(k)] = o::slice(a.cx.b, v, begin, size);
    at += lengths[k];
  }
  if (at != s[0])
    a.fail("lengths", "add up to " + std::to_string(at) + ", not the " + std::to_string(s[0]) +
                          " rows of value");
  return Val::object(n);
}

Unconnected unconnectedOf(Bound& a) {
  const Val& v = a["unconnected_gradients"];
  if (v.isNone()) return Unconnected::None;
  std::string s = v.kind() == Kind::Str ? v.text() : "";
  for (auto& c : s) c = char(std::tolower(c));
  if (s == "zero") return Unconnected::Zero;
  if (s == "none") return Unconnected::None;
  a.fail("unconnected_gradients", "must be tf.UnconnectedGradients.ZERO/NONE or 'zero'/'none'");
}

// Sources as written (one tensor, or a list nested one level, or a dict's values), one group
// of graph values each: a variable's group is every value of it `tape` saw read (its gradient
// sums over them, as TF's sums over the reads of one handle); a tensor's is itself.
struct Sources {
  std::vector<Value> flat;
  std::vector<size_t> sizes;
};

Sources sourcesOf(Bound& a, const char* name, const GradientTape* tape = nullptr) {
  const Val& v = a[name];
  Sources out;
  auto one = [&](const Val& x) {
    if (!x.isTensor())
      a.fail(name, "must be tensors or variables, got " + article(typeName(x)) +
                       (x.isNone() ? " (a gradient that is None?)" : ""));
    const std::vector<Value> values = x.var() && tape
                                          ? a.cx.variableSources(*x.var(), *tape)
                                          : std::vector<Value>{a.cx.fresh(x).tensorValue()};
    out.flat.insert(out.flat.end(), values.begin(), values.end());
    out.sizes.push_back(values.size());
  };
  if (auto d = v.as<DictObj>()) {
    for (const Val& x : d->values) one(x);  // {name: tensor}: the tensors, in order
  } else if (v.isSeq()) {
    for (const Val& x : v.items()) {
      if (x.isSeq())
        for (const Val& y : x.items()) one(y);
      else
        one(x);
    }
  } else {
    one(v);
  }
  return out;
}

// One result per source group: the sum of the group's gradients that exist.
GradResult merged(Context& cx, const GradResult& r, const Sources& s) {
  GradResult out;
  size_t k = 0;
  for (size_t n : s.sizes) {
    Value sum;
    GradDiagnostic why = r.why.at(k);
    for (size_t j = 0; j < n; ++j, ++k)
      if (r.grads[k].valid()) sum = sum.valid() ? o::add(cx.b, sum, r.grads[k]) : r.grads[k];
    out.grads.push_back(sum);
    out.why.push_back(sum.valid() ? GradDiagnostic{} : why);
  }
  return out;
}

// tape.watch(v) on variables: every later read of them is watched, whatever the tape's
// watch_accessed_variables; the value now counts as read.
void watchVariables(const Val& v, const GradientTape& tape, int depth = 0) {
  if (v.var()) {
    v.var()->watchedBy.insert(&tape);
    const std::pair<const GradientTape*, Value> read{&tape, v.var()->current};
    if (std::find(v.var()->reads.begin(), v.var()->reads.end(), read) == v.var()->reads.end())
      v.var()->reads.push_back(read);
  }
  if (v.isSeq() && depth < 2)
    for (const Val& x : v.items()) watchVariables(x, tape, depth + 1);
}

// Gradient results in the sources' structure, marked as gradients; None carries the why.
Val gradResults(const Val& sources, const GradResult& r, size_t& k) {
  auto one = [&]() {
    Val g;
    if (r.grads[k].valid())
      g = Val::tensor(r.grads[k]);
    else
      g = Val::noneBecause(r.why[k]);
    g.markFromGradient();
    ++k;
    return g;
  };
  if (auto d = sources.as<DictObj>()) {  // gradients keyed as the sources were
    auto out = std::make_shared<DictObj>();
    out->keys = d->keys;
    for (size_t i = 0; i < d->keys.size(); ++i) out->values.push_back(one());
    return Val::object(out);
  }
  if (!sources.isSeq()) return one();
  std::vector<Val> items;
  for (const Val& x : sources.items()) items.push_back(x.isSeq() ? gradResults(x, r, k) : one());
  Val out = Val::listOf(std::move(items), sources.kind() == Kind::Tuple);
  out.markFromGradient();
  return out;
}

// jacobian's parallel_iterations: TF's default of 10 when not given.
int parallelIterationsOf(Bound& a) {
  return a.none("parallel_iterations") ? 10 : int(a.integer("parallel_iterations"));
}

// experimental_use_pfor: True (TF's default) batches the reverse pass over the rows.
bool usePforOf(Bound& a) {
  return !a.given("experimental_use_pfor") ||
         a.cx.truthy(a["experimental_use_pfor"], a.loc("experimental_use_pfor"));
}

Value targetOf(Bound& a) {
  const Val& v = a["target"];
  if (v.isSeq() && v.items().size() == 1 && v.items()[0].isTensor())
    return v.items()[0].tensorValue();
  if (!v.isTensor())
    a.fail(
        "target",
        "must be one tensor, got " + article(typeName(v)) +
            (v.isSeq() ? "; take one target per query (or tf.add_n/tf.stack them inside the tape)"
                       : ""));
  a.cx.checkRegion(v.tensorValue(), a.loc("target"));
  return v.tensorValue();
}

}  // namespace

Val shapeTuple(const Shape& s) {
  std::vector<Val> dims;
  for (int64_t d : s) dims.push_back(d < 0 ? Val::none() : Val::integer(d));
  return Val::listOf(std::move(dims), true);
}

Val wrapList(Context& cx, Value list, const Val* like) {
  if (like)
    if (auto ta = like->as<TensorArrayObj>()) return withList(*ta, list);
  auto n = std::make_shared<TensorArrayObj>();
  n->dtype = cx.b.type(list).dtype;
  n->list = list;
  return Val::object(n);
}

namespace {

// tf.GradientTape and its queries.
void addTapeBuiltins(BuiltinTable& t) {
  t["tf.GradientTape"] = {Signature::parse("persistent=False, watch_accessed_variables=True"),
                          [](Bound& a) {
                            auto tape = std::make_shared<TapeObj>();
                            tape->persistent = a.boolean("persistent");
                            tape->watchVariables = a.boolean("watch_accessed_variables");
                            return Val::object(tape);
                          }};
  t["GradientTape.watch"] = {Signature::parse("tensor"), [](Bound& a) {
                               TapeObj& tp = tapeOf(a);
                               for (Value v : sourcesOf(a, "tensor").flat) tp.tape->watch(v);
                               watchVariables(a["tensor"], *tp.tape);
                               return Val::none();
                             }};
  t["GradientTape.gradient"] = {
      Signature::parse("target, sources, output_gradients=None, unconnected_gradients=None"),
      [](Bound& a) {
        TapeObj& tp = tapeOf(a);
        // A list of targets: TF sums their gradients, each seeded by its output_gradients.
        const bool many = a["target"].isSeq() || a["target"].as<DictObj>();
        const std::vector<Value> targets =
            many ? sourcesOf(a, "target").flat : std::vector{targetOf(a)};
        for (Value t : targets) a.cx.checkRegion(t, a.loc("target"));
        std::vector<Value> seeds;
        if (!a.none("output_gradients")) {
          const Val& og = a["output_gradients"];
          if (!many) {
            seeds.push_back(a.tensorLike("output_gradients", targets[0]));
          } else {
            if (!og.isSeq() || og.items().size() != targets.size())
              a.fail("output_gradients", "must be a list with one tensor (or None) per target, " +
                                             std::to_string(targets.size()) + " here");
            for (size_t i = 0; i < targets.size(); ++i)
              seeds.push_back(og.items()[i].isNone()
                                  ? Value{}
                                  : a.cx.toTensor(og.items()[i], a.loc("output_gradients"),
                                                  a.cx.b.type(targets[i]).dtype));
          }
        }
        a.cx.at(a.callLoc);
        const Sources src = sourcesOf(a, "sources", tp.tape);
        GradResult r =
            merged(a.cx, tp.tape->gradient(targets, src.flat, unconnectedOf(a), seeds), src);
        size_t k = 0;
        return gradResults(a["sources"], r, k);
      }};
  t["GradientTape.jacobian"] = {
      Signature::parse("target, sources, unconnected_gradients=None, parallel_iterations=None, "
                       "experimental_use_pfor=True"),
      [](Bound& a) {
        TapeObj& tp = tapeOf(a);
        Value target = targetOf(a);
        const int par = parallelIterationsOf(a);
        a.cx.at(a.callLoc);
        const Sources src = sourcesOf(a, "sources", tp.tape);
        GradResult r = merged(
            a.cx, tp.tape->jacobian(target, src.flat, unconnectedOf(a), par, usePforOf(a)), src);
        size_t k = 0;
        return gradResults(a["sources"], r, k);
      }};
  t["GradientTape.batch_jacobian"] = {
      Signature::parse("target, source, unconnected_gradients=None, parallel_iterations=None, "
                       "experimental_use_pfor=True"),
      [](Bound& a) {
        TapeObj& tp = tapeOf(a);
        Value target = targetOf(a);
        Value source = a.tensor("source");
        const int par = parallelIterationsOf(a);
        a.cx.at(a.callLoc);
        GradResult r = tp.tape->batchJacobian(target, source, par, unconnectedOf(a), usePforOf(a));
        size_t k = 0;
        return gradResults(a["source"], r, k);
      }};
  t["GradientTape.reset"] = {Signature::parse(""), [](Bound& a) {
                               tapeOf(a).tape->reset();
                               return Val::none();
                             }};
  t["GradientTape.watched_variables"] = {Signature::parse(""), [](Bound& a) {
                                           std::vector<Val> vars;
                                           for (Value v : tapeOf(a).tape->watchedVariables())
                                             vars.push_back(Val::tensor(v));
                                           return Val::listOf(std::move(vars), true);
                                         }};
  t["GradientTape.stop_recording"] = {Signature::parse(""), [](Bound& a) {
                                        auto s = std::make_shared<StopRecordingObj>();
                                        s->tape = tapeOf(a).tape;
                                        return Val::object(s);
                                      }};
}

// tf.TensorArray: a value; write returns a new one.
void addTensorArrayBuiltins(BuiltinTable& t) {
  t["tf.TensorArray"] = {
      // clear_after_read is unused by TF 2's graph TensorArray (a TensorList); the name and
      // colocation change nothing here.
      Signature::parse("dtype, size=None, dynamic_size=None, ~clear_after_read=None, "
                       "~tensor_array_name=None, handle=None, flow=None, infer_shape=True, "
                       "element_shape=None, ~colocate_with_first_write_call=True, name=None"),
      [](Bound& a) {
        auto ta = std::make_shared<TensorArrayObj>();
        ta->dtype = a.dtype("dtype", DType::F32);
        ta->dynamic = !a.none("dynamic_size") && a.boolean("dynamic_size");
        int64_t size = 0;
        if (!a.none("size")) {
          if (a["size"].isTensor())
            a.fail("size",
                   "must be a Python int (a static size) in GradLab; use dynamic_size=True");
          size = a.integer("size");
          if (size < 0 || size > (int64_t(1) << 31)) a.fail("size", "is out of range");
        }
        ta->size = ta->dynamic ? -1 : size;
        ta->varyingShapes = !a.boolean("infer_shape");
        Attrs attrs{{"dtype", std::string(dtypeName(ta->dtype))},
                    {"size", size},
                    {"dynamic_size", ta->dynamic}};
        if (!a.none("element_shape")) {
          std::vector<int64_t> es;
          const Val& v = a["element_shape"];
          if (!v.isSeq()) a.fail("element_shape", "must be a list of dims (None for unknown)");
          for (const Val& d : v.items()) {
            if (d.isNone() || d.isTensor())
              es.push_back(-1);  // known only at run time
            else if (d.kind() == Kind::Int)
              es.push_back(d.asInt());
            else
              a.fail("element_shape", "must hold ints or None");
          }
          attrs.set("elem_shape", es);
        }
        ta->list = a.cx.b.op1("list_new", {}, attrs);
        return Val::object(ta);
      }};
  t["TensorArray.write"] = {
      Signature::parse("index, value, name=None"), [](Bound& a) {
        TensorArrayObj& ta = taOf(a);
        if (ta.varyingShapes) {
          const int64_t i = staticIndex(a, ta, "index");
          if (ta.entries.count(i))
            a.fail("index", "could not write to TensorArray index " + std::to_string(i) +
                                " because it has already been written to");
          auto n = std::make_shared<TensorArrayObj>(ta);
          n->entries[i] = a.cx.toTensor(a["value"], a.loc("value"), ta.dtype);
          return Val::object(n);
        }
        const Val& i = a["index"];
        if (i.kind() == Kind::Int && ta.size >= 0 && (i.asInt() < 0 || i.asInt() >= ta.size))
          a.fail("index", std::to_string(i.asInt()) +
                              " is out of range for a TensorArray of size " +
                              std::to_string(ta.size) + " (use dynamic_size=True to grow it)");
        Value idx = a.cx.toTensor(i, a.loc("index"), DType::I32);
        Value v = a.cx.toTensor(a["value"], a.loc("value"), ta.dtype);
        a.cx.at(a.callLoc);
        return withList(ta, a.cx.b.op1("list_write", {ta.list, idx, v}));
      }};
}

void addTensorArrayMethods(BuiltinTable& t) {
  t["TensorArray.read"] = {
      Signature::parse("index, name=None"), [](Bound& a) {
        TensorArrayObj& ta = taOf(a);
        if (ta.varyingShapes) {
          const int64_t i = staticIndex(a, ta, "index");
          auto it = ta.entries.find(i);
          if (it == ta.entries.end())
            a.fail("index", "TensorArray index " + std::to_string(i) + " was never written");
          return Val::tensor(it->second);
        }
        Value idx = a.cx.toTensor(a["index"], a.loc("index"), DType::I32);
        a.cx.at(a.callLoc);
        return Val::tensor(a.cx.b.op1("list_read", {ta.list, idx}));
      }};
  t["TensorArray.stack"] = {Signature::parse("name=None"), [](Bound& a) {
                              TensorArrayObj& ta = taOf(a);
                              a.cx.at(a.callLoc);
                              if (ta.varyingShapes)
                                return Val::tensor(o::stack(a.cx.b, allEntries(a, ta), 0));
                              Attrs attrs;
                              if (ta.size >= 0) attrs.set("size", ta.size);
                              return Val::tensor(a.cx.b.op1("list_stack", {ta.list}, attrs));
                            }};
  t["TensorArray.gather"] = {Signature::parse("indices, name=None"), [](Bound& a) {
                               TensorArrayObj& ta = taOf(a);
                               if (ta.varyingShapes) {
                                 const std::vector<Value> all = allEntries(a, ta);
                                 std::vector<Value> picked;
                                 for (int64_t i : a.ints("indices")) {
                                   if (i < 0 || i >= int64_t(all.size()))
                                     a.fail("indices", std::to_string(i) + " is out of range");
                                   picked.push_back(all[size_t(i)]);
                                 }
                                 a.cx.at(a.callLoc);
                                 return Val::tensor(o::stack(a.cx.b, picked, 0));
                               }
                               Value idx =
                                   a.cx.toTensor(a["indices"], a.loc("indices"), DType::I32);
                               a.cx.at(a.callLoc);
                               return Val::tensor(a.cx.b.op1("list_gather", {ta.list, idx}));
                             }};
  t["TensorArray.unstack"] = {
      Signature::parse("value, name=None"), [](Bound& a) {
        TensorArrayObj& ta = taOf(a);
        Value v = a.cx.toTensor(a["value"], a.loc("value"), ta.dtype);
        a.cx.at(a.callLoc);
        TensorArrayObj n = ta;
        const Shape& s = a.cx.b.type(v).shape;
        n.size = s.empty() || ta.dynamic ? -1 : s[0];
        if (ta.varyingShapes) {
          if (s.empty() || s[0] < 0) a.fail("value", "needs a first axis known while tracing");
          n.entries.clear();
          const std::vector<Value> rows = o::unstack(a.cx.b, v, 0);
          for (size_t k = 0; k < rows.size(); ++k) n.entries[int64_t(k)] = rows[k];
          return Val::object(std::make_shared<TensorArrayObj>(n));
        }
        return withList(n, a.cx.b.op1("list_unstack", {v}, Attrs{{"dynamic_size", ta.dynamic}}));
      }};
}

// Many entries at once: scatter, concat, split; and size.
void addTensorArrayBulkMethods(BuiltinTable& t) {
  // scatter(indices, value): value[k] written at indices[k] (indices known while tracing), one
  // write each, so the gradient is the writes' own.
  t["TensorArray.scatter"] = {
      Signature::parse("indices, value, name=None"), [](Bound& a) {
        TensorArrayObj& ta = taOf(a);
        const std::vector<int64_t> idx = a.ints("indices");
        Value v = a.cx.toTensor(a["value"], a.loc("value"), ta.dtype);
        const Shape& s = a.cx.b.type(v).shape;
        if (s.empty() || s[0] != int64_t(idx.size()))
          a.fail("value", "must have one row per index (" + std::to_string(idx.size()) + ")");
        a.cx.at(a.callLoc);
        const std::vector<Value> rows = o::unstack(a.cx.b, v, 0);
        Value list = ta.list;
        auto varying = std::make_shared<TensorArrayObj>(ta);
        for (size_t k = 0; k < idx.size(); ++k) {
          if (idx[k] < 0 || (ta.size >= 0 && idx[k] >= ta.size))
            a.fail("indices", std::to_string(idx[k]) +
                                  " is out of range for a TensorArray of size " +
                                  std::to_string(ta.size));
          if (ta.varyingShapes) {
            if (!varying->entries.emplace(idx[k], rows[k]).second)
              a.fail("indices", "could not write to TensorArray index " + std::to_string(idx[k]) +
                                    " because it has already been written to");
            continue;
          }
          list =
              a.cx.b.op1("list_write", {list, a.cx.b.scalar(double(idx[k]), DType::I32), rows[k]});
        }
        if (ta.varyingShapes) return Val::object(varying);
        return withList(ta, list);
      }};
  // concat(): the entries joined along their first axis (entries of one shape: stack, reshape).
  t["TensorArray.concat"] = {
      Signature::parse("name=None"), [](Bound& a) {
        TensorArrayObj& ta = taOf(a);
        a.cx.at(a.callLoc);
        if (ta.varyingShapes) return Val::tensor(o::concat(a.cx.b, allEntries(a, ta), 0));
        Attrs attrs;
        if (ta.size >= 0) attrs.set("size", ta.size);
        Value st = a.cx.b.op1("list_stack", {ta.list}, attrs);
        Shape s = a.cx.b.type(st).shape;
        if (s.size() < 2)
          a.fail("name", "concat needs entries of rank >= 1 (stack scalars instead)");
        if (s[0] < 0 || s[1] < 0)
          a.fail("name", "concat needs a size and entry shape known while tracing");
        Shape joined{s[0] * s[1]};
        joined.insert(joined.end(), s.begin() + 2, s.end());
        return Val::tensor(o::reshape(a.cx.b, st, joined));
      }};
  // split(value, lengths): equal lengths, or any with infer_shape=False.
  t["TensorArray.split"] = {
      Signature::parse("value, lengths, name=None"), [](Bound& a) {
        TensorArrayObj& ta = taOf(a);
        Value v = a.cx.toTensor(a["value"], a.loc("value"), ta.dtype);
        const std::vector<int64_t> lengths = a.ints("lengths");
        const Shape& s = a.cx.b.type(v).shape;
        if (lengths.empty() || s.empty() || s[0] < 0) a.fail("value", "needs a known first axis");
        if (ta.varyingShapes) return splitVarying(a, ta, v, lengths);
        int64_t total = 0;
        for (int64_t l : lengths) {
          if (l != lengths[0])
            a.fail("lengths",
                   "must be equal in GradLab (pieces of different lengths would need "
                   "infer_shape=False)");
          total += l;
        }
        if (total != s[0])
          a.fail("lengths", "add up to " + std::to_string(total) + ", not the " +
                                std::to_string(s[0]) + " rows of value");
        Shape pieces{int64_t(lengths.size()), lengths[0]};
        pieces.insert(pieces.end(), s.begin() + 1, s.end());
        a.cx.at(a.callLoc);
        TensorArrayObj n = ta;
        n.size = ta.dynamic ? -1 : int64_t(lengths.size());
        return withList(n, a.cx.b.op1("list_unstack", {o::reshape(a.cx.b, v, pieces)},
                                      Attrs{{"dynamic_size", ta.dynamic}}));
      }};
  t["TensorArray.size"] = {Signature::parse("name=None"), [](Bound& a) {
                             const TensorArrayObj& ta = taOf(a);
                             if (ta.varyingShapes) {
                               const int64_t n = ta.size >= 0 ? ta.size
                                                 : ta.entries.empty()
                                                     ? 0
                                                     : ta.entries.rbegin()->first + 1;
                               return Val::tensor(a.cx.b.scalar(double(n), DType::I32));
                             }
                             return Val::tensor(a.cx.b.op1("list_size", {taOf(a).list}));
                           }};
}

// tf.Variable, and what variables do not support.
void addVariableBuiltins(BuiltinTable& t) {
  t["tf.Variable"] = {
      Signature::parse("initial_value, trainable=True, name=None, dtype=None"), [](Bound& a) {
        // A Python value given a dtype is converted in that dtype (TF's convert_to_tensor), not
        // through float32: tf.Variable([0.1], dtype=tf.float64) holds the float64 0.1.
        const Val& given = a["initial_value"];
        Value init =
            !a.none("dtype") && !given.isTensor()
                ? a.cx.toTensor(given, a.loc("initial_value"), a.dtype("dtype", DType::F32))
                : a.tensor("initial_value");
        Tensor value;
        const Node& n = a.cx.graph().node(init);
        if (n.is(NodeKind::Const) || n.is(NodeKind::Variable)) {
          value = n.value;
        } else {
          // The initial value is computed now, once (like TF's eager init).
          try {
            value = a.cx.evaluateNow({init}).at(0);
          } catch (const CancelledError&) {
            throw;
          } catch (const std::exception& e) {
            a.fail("initial_value", std::string("must be computable while tracing: ") + e.what());
          }
        }
        if (!a.none("dtype")) value = value.astype(a.dtype("dtype", DType::F32));
        // int32 variables are allowed, as in TF; their gradient is None (the tape says why).
        if (!isFloat(value.dtype()) && value.dtype() != DType::I32)
          a.fail("initial_value",
                 std::string("must be float32, float64 or int32, got ") + dtypeName(value.dtype()));
        const std::string name = a.none("name") ? "" : a.string("name");
        a.cx.at(a.callLoc);
        const Value v =
            a.boolean("trainable") ? a.cx.b.variable(value, name) : a.cx.b.constant(value, name);
        // Node::name follows the script's assignments; Variable.name keeps TF's own.
        a.cx.b.graph().node(v).attrs.set("tf_name", name.empty() ? "Variable" : name);
        auto var = std::make_shared<VarState>();
        var->handle = var->current = v;
        var->trainable = a.boolean("trainable");
        a.cx.registerVariable(var);
        return Val::variable(var);
      }};
  // v.assign(x), v.assign_add(x), v.assign_sub(x): x (or v + x, v - x) becomes v's value.
  // Like TF's, they return the variable.
  for (const char* m : {"Tensor.assign", "Tensor.assign_add", "Tensor.assign_sub"})
    t[m] = {Signature::parse("value, use_locking=None, name=None, read_value=True"), [m](Bound& a) {
              const std::string what = std::string("v.") + (m + 7) + "()";
              if (!a.self.var())
                a.cx.fail(a.callLoc, what +
                                         " needs a tf.Variable; this is a tensor, which is "
                                         "immutable: compute a new tensor instead");
              const Value now = a.self.var()->current;
              Value x = a.cx.toTensor(a["value"], a.loc("value"), a.cx.b.type(now).dtype);
              // TF asks for the variable's own shape (no broadcasting, even for assign_add).
              const Shape& want = a.cx.b.type(now).shape;
              if (!compatible(a.cx.b.type(x).shape, want))
                a.fail("value", "has shape " + shapeStr(a.cx.b.type(x).shape) +
                                    " but the variable's shape is " + shapeStr(want) +
                                    " (TF: shapes must be equal)");
              a.cx.at(a.callLoc);
              const std::string op = m + 7;
              if (op == "assign_add") x = o::add(a.cx.b, now, x);
              if (op == "assign_sub") x = o::sub(a.cx.b, now, x);
              a.cx.assignVariable(a.self, x, a.callLoc, what);
              return a.cx.fresh(a.self);
            }};
  // x.numpy(): EagerTensor.numpy (ops.py), the value as a numpy array, a numpy scalar for rank
  // 0. A symbolic tensor has no numpy attribute; a variable's numpy() is
  // BaseResourceVariable.numpy's NotImplementedError outside eager execution.
  t["Tensor.numpy"] = {Signature::parse(""), [](Bound& a) -> Val {
                         const Value v =
                             a.self.var() ? a.self.var()->current : a.self.tensorValue();
                         if (!hasEagerValue(a.cx, v)) {
                           if (a.self.var())
                             a.cx.fail(a.callLoc,
                                       "NotImplementedError: numpy() is only available when "
                                       "eager execution is enabled (inside a tf.function or a "
                                       "tensor loop): use the variable as a tensor, or tf.print");
                           a.cx.fail(a.callLoc,
                                     "AttributeError: 'SymbolicTensor' object has no attribute "
                                     "'numpy' (inside a tf.function or a tensor loop a tensor has "
                                     "no value while it is traced): use tf functions on it, or "
                                     "tf.print");
                         }
                         return tensorToNdArray(a.cx, v, a.callLoc, true);
                       }};
}

namespace {

// x.shape of an eager tensor is its value's (ops.py _EagerTensorBase.shape): a tf.function
// traced with None dims returns tensors of static shape (None,) whose values have a size.
Shape shapeNow(Bound& a) {
  const Value v = a.self.tensorValue();
  const Shape& known = a.cx.b.type(v).shape;
  if (fullyKnown(known) || !hasEagerValue(a.cx, v)) return known;
  return a.cx.eagerValue(v, a.callLoc).shape();
}

}  // namespace

// Properties of tensors, tuples and dtypes.
void addPropertyBuiltins(BuiltinTable& t) {
  BuiltinDef shape{Signature::parse(""), [](Bound& a) { return shapeTuple(shapeNow(a)); }};
  shape.isProperty = true;
  t["Tensor.shape"] = shape;
  BuiltinDef dtype{Signature::parse(""),
                   [](Bound& a) { return Val::dtype(a.cx.b.type(a.self.tensorValue()).dtype); }};
  dtype.isProperty = true;
  t["Tensor.dtype"] = dtype;
  BuiltinDef ndim{Signature::parse(""), [](Bound& a) {
                    return Val::integer(int64_t(a.cx.b.type(a.self.tensorValue()).shape.size()));
                  }};
  ndim.isProperty = true;
  t["Tensor.ndim"] = ndim;
  // x.name: a variable's "<name>:0" ("Variable:0" when unnamed), a graph tensor's op name
  // ("add_1:0"); an eager tensor has none (ops.py _EagerTensorBase.name).
  BuiltinDef name{Signature::parse(""), [](Bound& a) {
                    if (a.self.var())
                      return Val::str(tfTensorName(a.cx.graph(), a.self.var()->handle));
                    const Value v = a.self.tensorValue();
                    if (hasEagerValue(a.cx, v))
                      a.cx.fail(a.callLoc,
                                "AttributeError: Tensor.name is undefined when eager execution "
                                "is enabled (only a tf.Variable or a tensor in a tf.function "
                                "has a name)");
                    return Val::str(tfTensorName(a.cx.graph(), v));
                  }};
  name.isProperty = true;
  t["Tensor.name"] = name;
  t["Tensor.get_shape"] = {Signature::parse(""), [](Bound& a) { return shapeTuple(shapeNow(a)); }};
  t["tuple.as_list"] = {Signature::parse(""), [](Bound& a) { return Val::listOf(a.self.items()); }};
  BuiltinDef dname{Signature::parse(""),
                   [](Bound& a) { return Val::str(dtypeName(a.self.asDType())); }};
  dname.isProperty = true;
  t["DType.name"] = dname;
  BuiltinDef floating{Signature::parse(""),
                      [](Bound& a) { return Val::boolean(isFloat(a.self.asDType())); }};
  floating.isProperty = true;
  t["DType.is_floating"] = floating;
}

}  // namespace

void addObjectBuiltins(BuiltinTable& t) {
  addTapeBuiltins(t);
  addTensorArrayBuiltins(t);
  addTensorArrayMethods(t);
  addTensorArrayBulkMethods(t);
  addVariableBuiltins(t);
  addPropertyBuiltins(t);
}

}  // namespace gl::lang::trace
