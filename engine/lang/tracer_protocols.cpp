// Python's protocols on script values, each in one place so that statements, operators and
// builtins agree: type() names, repr()/str(), truth (bool()), equality (==), and dict keys
// (the hashing protocol: which values may be keys and when two keys are the same).
// Attribute lookup and calls need the tracer: Tracer::getAttr and Tracer::call (tracer.cpp);
// iteration is iterate() (tracer_builtins_py.cpp), which `for` and list() share.

#include "engine/lang/ast.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

std::string typeName(const Val& v) {
  switch (v.kind()) {
    case Kind::None:
      return "NoneType";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
    case Kind::Float:
      return "float";
    case Kind::Str:
      return "str";
    case Kind::Tensor:
      return "Tensor";
    case Kind::List:
      return "list";
    case Kind::Tuple:
      return "tuple";
    case Kind::Object:
      return v.obj()->typeName();
    case Kind::DType:
      return "DType";
    case Kind::Ellipsis:
      return "ellipsis";
  }
  return "?";
}

namespace {

std::string shapeText(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i] < 0 ? "None" : std::to_string(s[i]);
    if (i + 1 < s.size() || s.size() == 1) out += ", ";
  }
  if (s.size() == 1) out.erase(out.size() - 1);
  return out + ")";
}

// The name TF gives a graph tensor's op: the op's name made unique in its graph ("add",
// "add_1"; ops.py Graph.unique_name), a function argument's own name ("x"), a variable's name.
// GradLab's op names stand for TF's (its registry names most ops as TF's Python API does).
std::string tfOpBaseName(const Node& n) {
  if (n.is(NodeKind::Variable)) return n.attrs.s("tf_name", "Variable");
  if (n.attrs.has("tf_name")) return n.attrs.s("tf_name");  // a tf.function's argument
  if ((n.is(NodeKind::Placeholder) || n.is(NodeKind::Param)) && !n.name.empty()) return n.name;
  if (n.is(NodeKind::Const)) return "Const";
  return std::string(n.opName());
}

// numpy_text (ops.py): str() or repr() of the numpy value, on a line of its own when it takes
// several.
std::string numpyText(const Tensor& t, bool asRepr) {
  std::string text = ndarrayText(*ndarrayOf(t, true), asRepr);
  return text.find('\n') == std::string::npos ? text : "\n" + text;
}

// An item inside a list, tuple or dict, as Python prints containers: strings quoted.
std::string itemRepr(const Graph& g, const Val& x, int depth, const TensorValues* values) {
  return x.kind() == Kind::Str ? "'" + x.text() + "'" : repr(g, x, depth, values);
}

}  // namespace

std::string tfTensorName(const Graph& g, Value v) {
  const Node& n = g.node(v);
  const std::string base = tfOpBaseName(n);
  if (n.is(NodeKind::Variable)) return base + ":0";
  // Unique within its graph: a traced body is a graph of its own (while_v2's body FuncGraph),
  // and eager ops have no names, so only earlier ops of the same region count.
  // A tf.function's trace is a graph of its own too (its FuncGraph).
  int from = 0;
  if (n.region == 0)
    for (const FunctionCall& c : g.functionCalls)
      if (c.first <= n.id && n.id < c.end) from = c.first;
  int before = 0;
  for (int id : g.region(n.region).nodes)
    if (id >= from && id < n.id && tfOpBaseName(g.node(id)) == base) ++before;
  return base + (before ? "_" + std::to_string(before) : "") + ":" + std::to_string(v.index);
}

std::string tensorText(const Graph& g, const Val& v, bool asRepr, const TensorValues* values) {
  const Value now = v.var() ? v.var()->current : v.tensorValue();
  const TypeInfo& t = g.type(now);
  const std::string shape = shapeText(t.shape), dtype = dtypeName(t.dtype);
  const std::optional<Tensor> value = values ? values->valueNow(now) : std::nullopt;
  if (v.var()) {
    // BaseResourceVariable.__repr__ (resource_variable_ops.py), which str() uses too: the value
    // only when executing eagerly.
    const std::string head = "<tf.Variable '" + tfTensorName(g, v.var()->handle) +
                             "' shape=" + shape + " dtype=" + dtype;
    return value ? head + ", numpy=" + numpyText(*value, true) + ">" : head + ">";
  }
  if (value) {  // _EagerTensorBase.__str__ / __repr__ (ops.py): the value's own shape (a
                // tf.function traced with None dims returns tensors of known size)
    const std::string known = shapeText(value->shape());
    return asRepr ? "<tf.Tensor: shape=" + known + ", dtype=" + dtype +
                        ", numpy=" + numpyText(*value, true) + ">"
                  : "tf.Tensor(" + numpyText(*value, false) + ", shape=" + known +
                        ", dtype=" + dtype + ")";
  }
  // A symbolic tensor: tensor.py's Tensor.__str__ / __repr__.
  const std::string name = tfTensorName(g, now);
  return asRepr ? "<tf.Tensor '" + name + "' shape=" + shape + " dtype=" + dtype + ">"
                : "Tensor(\"" + name + "\", shape=" + shape + ", dtype=" + dtype + ")";
}

std::string repr(const Graph& g, const Val& v, int depth, const TensorValues* values) {
  if (depth > kMaxListNesting) return "...";
  switch (v.kind()) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return v.asBool() ? "True" : "False";
    case Kind::Int:
      return std::to_string(v.asInt());
    case Kind::Float:
      return lang::formatFloat(v.asFloat());
    case Kind::Str:
      return v.text();
    case Kind::Tensor:  // str() at the top (print), repr() inside a container
      return tensorText(g, v, depth > 0, values);
    case Kind::List:
    case Kind::Tuple: {
      std::string s = v.kind() == Kind::List ? "[" : "(";
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) s += ", ";
        s += itemRepr(g, v.items()[i], depth + 1, values);
      }
      if (v.kind() == Kind::Tuple && v.items().size() == 1) s += ",";
      return s + (v.kind() == Kind::List ? "]" : ")");
    }
    case Kind::Object:
      if (auto d = v.as<DictObj>()) {
        std::string out = "{";
        for (size_t i = 0; i < d->keys.size(); ++i)
          out += (i ? ", " : "") + itemRepr(g, d->keys[i], depth + 1, values) + ": " +
                 itemRepr(g, d->values[i], depth + 1, values);
        return out + "}";
      }
      // numpy's str() at the top (print), repr() inside a list, as Python prints them.
      if (const NdArrayObj* a = asNdArray(v)) return ndarrayText(*a, depth > 0);
      if (auto d = v.as<NpDTypeObj>()) return npTypeName(d->type);
      return depth == 0 ? v.obj()->strText() : v.obj()->reprText();
    case Kind::DType:  // TF's DType: str() is <dtype: 'float32'>, repr() (in a list) tf.float32
      return depth == 0 ? std::string("<dtype: '") + dtypeName(v.asDType()) + "'>"
                        : std::string("tf.") + dtypeName(v.asDType());
    case Kind::Ellipsis:
      return "Ellipsis";
  }
  return "?";
}

std::optional<bool> truth(const Val& v) {
  switch (v.kind()) {
    case Kind::None:
      return false;
    case Kind::Bool:
      return v.asBool();
    case Kind::Int:
      return v.asInt() != 0;
    case Kind::Float:
      return v.asFloat() != 0;
    case Kind::Str:
      return !v.text().empty();
    case Kind::List:
    case Kind::Tuple:
      return !v.items().empty();
    case Kind::Tensor:
      return std::nullopt;
    case Kind::Object:
      // numpy: an array of one element is its truth; of more, ambiguous (the caller's error).
      if (const NdArrayObj* a = asNdArray(v)) {
        if (a->size() == 1) return a->data[0] != 0;
        if (a->size() == 0) return false;
        return std::nullopt;
      }
      return true;
    default:
      return true;
  }
}

bool sameValue(const Val& a, const Val& b, int depth) {
  if (depth > kMaxListNesting) return false;
  if (a.isNumber() && b.isNumber()) return a.number() == b.number();
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::None:
    case Kind::Ellipsis:
      return true;
    case Kind::Str:
      return a.text() == b.text();
    case Kind::Tensor:
      return a.tensorValue() == b.tensorValue();
    case Kind::DType:
      return a.asDType() == b.asDType();
    case Kind::Object:
      return a.obj() == b.obj();
    case Kind::List:
    case Kind::Tuple: {
      if (a.list() == b.list()) return true;
      if (a.items().size() != b.items().size()) return false;
      for (size_t i = 0; i < a.items().size(); ++i)
        if (!sameValue(a.items()[i], b.items()[i], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

bool isDictKey(const Val& v) {
  return v.kind() == Kind::Str || v.kind() == Kind::Int || v.kind() == Kind::Bool;
}

bool sameKey(const Val& a, const Val& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::Str:
      return a.text() == b.text();
    case Kind::Bool:
      return a.asBool() == b.asBool();
    default:
      return a.asInt() == b.asInt();
  }
}

}  // namespace gl::lang::trace
