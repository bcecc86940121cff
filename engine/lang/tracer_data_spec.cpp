// Dataset.element_spec: the TensorSpec structure of a dataset's elements, its text as TF 2.16
// prints it ("TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)", tuple_spec.py /
// tensor_spec.py __repr__), and TensorSpec objects for the script.
#include "engine/lang/tracer_data.h"

namespace gl::lang::trace {

namespace {

std::string specShapeText(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + (s[i] < 0 ? std::string("None") : std::to_string(s[i]));
  return out + (s.size() == 1 ? ",)" : ")");
}

// tf.TensorSpec as a script value: shape and dtype, printed as TF prints it.
struct DataSpecObj : Object {
  ElemSpec spec;
  std::string typeName() const override { return "TensorSpec"; }
  std::string reprText() const override { return specText(spec); }
  std::optional<Val> attr(Context&, const std::string& name) override {
    if (name == "dtype") return Val::dtype(spec.dtype);
    if (name == "shape") {
      std::vector<Val> dims;
      for (int64_t d : spec.shape) dims.push_back(d < 0 ? Val::none() : Val::integer(d));
      return Val::listOf(std::move(dims), true);
    }
    if (name == "name") return Val::none();
    return std::nullopt;
  }
  std::vector<std::string> attrNames() const override { return {"dtype", "shape", "name"}; }
};

}  // namespace

std::string specText(const ElemSpec& s) {
  switch (s.kind) {
    case ElemSpec::Kind::Tensor:
      return "TensorSpec(shape=" + specShapeText(s.shape) + ", dtype=tf." +
             (s.int64 ? "int64" : dtypeName(s.dtype)) + ", name=None)";
    case ElemSpec::Kind::Tuple: {
      std::string out = "(";
      for (size_t i = 0; i < s.parts.size(); ++i) out += (i ? ", " : "") + specText(s.parts[i]);
      return out + (s.parts.size() == 1 ? ",)" : ")");
    }
    case ElemSpec::Kind::Dict: {
      std::string out = "{";
      for (size_t i = 0; i < s.parts.size(); ++i)
        out += (i ? ", " : "") + s.keys[i] + ": " + specText(s.parts[i]);
      return out + "}";
    }
  }
  return "?";
}

ElemSpec specOf(Context& cx, const Val& e) {
  ElemSpec s;
  if (e.isTensor()) {
    const TypeInfo& t = cx.b.type(e.tensorValue());
    s.shape = t.shape;
    s.dtype = t.dtype;
  } else if (e.kind() == Kind::Tuple) {
    s.kind = ElemSpec::Kind::Tuple;
    for (const Val& x : e.items()) s.parts.push_back(specOf(cx, x));
  } else if (auto d = e.as<DictObj>()) {
    s.kind = ElemSpec::Kind::Dict;
    for (size_t i = 0; i < d->keys.size(); ++i) {
      const Val& k = d->keys[i];
      s.keys.push_back(k.kind() == Kind::Str ? "'" + k.text() + "'" : repr(cx.graph(), k));
      s.parts.push_back(specOf(cx, d->values[i]));
    }
  }
  return s;
}

ElemSpec batchedSpec(const ElemSpec& s, int64_t leading) {
  ElemSpec out = s;
  if (s.kind == ElemSpec::Kind::Tensor) {
    out.shape.insert(out.shape.begin(), leading);
    return out;
  }
  for (ElemSpec& p : out.parts) p = batchedSpec(p, leading);
  return out;
}

Val specVal(Context& cx, const ElemSpec& s) {
  if (s.kind == ElemSpec::Kind::Tensor) {
    auto o = std::make_shared<DataSpecObj>();
    o->spec = s;
    return Val::object(o);
  }
  std::vector<Val> parts;
  for (const ElemSpec& p : s.parts) parts.push_back(specVal(cx, p));
  if (s.kind == ElemSpec::Kind::Tuple) return Val::listOf(std::move(parts), true);
  auto d = std::make_shared<DictObj>();
  for (const std::string& k : s.keys)  // keys were str ('a') or int
    d->keys.push_back(k.size() >= 2 && k[0] == '\'' ? Val::str(k.substr(1, k.size() - 2))
                                                    : Val::integer(std::atoll(k.c_str())));
  d->values = std::move(parts);
  return Val::object(d);
}

}  // namespace gl::lang::trace
