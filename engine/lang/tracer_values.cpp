#include "engine/lang/tracer_values.h"

#include <algorithm>
#include <charconv>
#include <type_traits>

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

double Val::number() const {
  if (const double* f = std::get_if<double>(&alt_)) return *f;
  if (const int64_t* i = std::get_if<int64_t>(&alt_)) return double(*i);
  return asBool();
}

const std::string& Val::text() const {
  static const std::string empty;
  const std::string* s = std::get_if<std::string>(&alt_);
  return s ? *s : empty;
}

Value Val::tensorValue() const {
  if (const TensorVal* t = std::get_if<TensorVal>(&alt_)) return t->value;
  if (const VariableVal* v = std::get_if<VariableVal>(&alt_)) return v->read;
  return {};
}

const std::shared_ptr<ListObj>& Val::list() const {
  static const std::shared_ptr<ListObj> none;
  if (const ListVal* l = std::get_if<ListVal>(&alt_)) return l->list;
  if (const TupleVal* t = std::get_if<TupleVal>(&alt_)) return t->list;
  return none;
}

const ObjPtr& Val::obj() const {
  static const ObjPtr none;
  const ObjPtr* o = std::get_if<ObjPtr>(&alt_);
  return o ? *o : none;
}

namespace {
// The alternatives a gradient can come back as: None, a tensor, or a list or tuple of those.
template <class Alt>
auto fromGradientFlag(Alt& alt) -> std::conditional_t<std::is_const_v<Alt>, const bool*, bool*> {
  if (auto* n = std::get_if<NoneVal>(&alt)) return &n->fromGradient;
  if (auto* t = std::get_if<TensorVal>(&alt)) return &t->fromGradient;
  if (auto* l = std::get_if<ListVal>(&alt)) return &l->fromGradient;
  if (auto* t = std::get_if<TupleVal>(&alt)) return &t->fromGradient;
  return nullptr;
}
}  // namespace

bool Val::fromGradient() const {
  const bool* flag = fromGradientFlag(alt_);
  return flag && *flag;
}

void Val::markFromGradient() {
  if (bool* flag = fromGradientFlag(alt_)) *flag = true;
}

const GradDiagnostic* Val::why() const {
  const NoneVal* n = std::get_if<NoneVal>(&alt_);
  return n ? n->why.get() : nullptr;
}

const RangeInfo* Val::range() const {
  if (const TensorVal* t = std::get_if<TensorVal>(&alt_)) return t->range.get();
  if (const LazyRangeObj* lazy = as<LazyRangeObj>()) return lazy->range.get();
  return nullptr;
}

const std::shared_ptr<VarState>& Val::var() const {
  static const std::shared_ptr<VarState> none;
  const VariableVal* v = std::get_if<VariableVal>(&alt_);
  return v ? v->state : none;
}

namespace {
thread_local int64_t tracingItemLimit = kDefaultMaxItems;
}

int64_t maxPythonItems() { return tracingItemLimit; }

PythonItemLimit::PythonItemLimit(int64_t items) : previous_(tracingItemLimit) {
  tracingItemLimit = items;
}

PythonItemLimit::~PythonItemLimit() { tracingItemLimit = previous_; }

void ListObj::noteChild(const Val& v) {
  if (int64_t(items.size()) > maxPythonItems())
    throw EngineError("a list grew past " + std::to_string(maxPythonItems()) + " items" +
                      kRaiseItems);
  if (!v.isSeq()) return;
  depth = std::max(depth, v.list()->depth + 1);
  if (depth > kMaxListNesting)
    throw EngineError("lists are nested more than " + std::to_string(kMaxListNesting) + " deep");
}

std::string article(const std::string& noun) {
  const bool vowel = !noun.empty() && std::string("aeiouAEIOU").find(noun[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + noun;
}

namespace {

std::string formatFloat(double x) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string shapeTuple(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i] < 0 ? "None" : std::to_string(s[i]);
    if (i + 1 < s.size() || s.size() == 1) out += ", ";
  }
  if (s.size() == 1) out.erase(out.size() - 1);
  return out + ")";
}

}  // namespace

std::string repr(const Graph& g, const Val& v, int depth) {
  if (depth > kMaxListNesting) return "...";
  switch (v.kind()) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return v.asBool() ? "True" : "False";
    case Kind::Int:
      return std::to_string(v.asInt());
    case Kind::Float:
      return formatFloat(v.asFloat());
    case Kind::Str:
      return v.text();
    case Kind::Tensor: {
      // Like a graph-mode tf.Tensor: its value exists only when the graph runs.
      const Node& n = g.node(v.tensorValue());
      const TypeInfo& t = g.type(v.tensorValue());
      return "Tensor(\"" + std::string(n.opName()) + "#" + std::to_string(n.id) + ":" +
             std::to_string(v.tensorValue().index) + "\", shape=" + shapeTuple(t.shape) +
             ", dtype=" + dtypeName(t.dtype) + ")";
    }
    case Kind::List:
    case Kind::Tuple: {
      std::string s = v.kind() == Kind::List ? "[" : "(";
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) s += ", ";
        const Val& x = v.items()[i];
        s += x.kind() == Kind::Str ? "'" + x.text() + "'" : repr(g, x, depth + 1);
      }
      if (v.kind() == Kind::Tuple && v.items().size() == 1) s += ",";
      return s + (v.kind() == Kind::List ? "]" : ")");
    }
    case Kind::Object:
      if (auto d = v.as<DictObj>()) {
        std::string out = "{";
        for (size_t i = 0; i < d->keys.size(); ++i)
          out += (i ? ", " : "") + repr(g, d->keys[i], depth + 1) + ": " +
                 repr(g, d->values[i], depth + 1);
        return out + "}";
      }
      return "<" + v.obj()->typeName() + ">";
    case Kind::DType:
      return std::string("tf.") + dtypeName(v.asDType());
    case Kind::Ellipsis:
      return "Ellipsis";
  }
  return "?";
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

}  // namespace gl::lang::trace
