// Builtin signatures ("x, axis=None, keepdims=False"), argument binding with Python-like
// errors, typed accessors, and the generic call of any registered primitive by name.
#include <cstdlib>

#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/ops/registry.h"
#include "engine/tensor/diagnostic.h"

namespace gl::lang::trace {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(' '), z = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, z - a + 1);
}

std::vector<std::string> splitTopLevel(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) parts.push_back(trim(cur));
  return parts;
}

// Defaults are simple literals: None, True, False, numbers, 'strings', (tuples of them).
Val parseLiteral(const std::string& text) {
  const std::string s = trim(text);
  if (s == "None") return Val::none();
  if (s == "True") return Val::boolean(true);
  if (s == "False") return Val::boolean(false);
  if (!s.empty() && (s[0] == '\'' || s[0] == '"')) return Val::str(s.substr(1, s.size() - 2));
  if (!s.empty() && (s[0] == '(' || s[0] == '[')) {
    std::vector<Val> items;
    for (const auto& p : splitTopLevel(s.substr(1, s.size() - 2))) items.push_back(parseLiteral(p));
    return Val::listOf(std::move(items), s[0] == '(');
  }
  if (s.find_first_of(".e") != std::string::npos) return Val::real(std::strtod(s.c_str(), nullptr));
  return Val::integer(std::strtoll(s.c_str(), nullptr, 10));
}

AttrValue toAttr(Context& cx, const Val& v, const SourceLoc& loc, const std::string& what) {
  switch (v.kind()) {
    case Kind::Bool:
      return v.asBool();
    case Kind::Int:
      return v.asInt();
    case Kind::Float:
      return v.asFloat();
    case Kind::Str:
      return v.text();
    case Kind::DType:
      return std::string(dtypeName(v.asDType()));
    case Kind::List:
    case Kind::Tuple: {
      std::vector<int64_t> ints;
      for (const Val& x : v.items()) {
        if (x.kind() != Kind::Int && x.kind() != Kind::Bool)
          cx.fail(loc, what + " must be a list of ints, got " + article(typeName(x)) + " inside");
        ints.push_back(x.kind() == Kind::Int ? x.asInt() : x.asBool());
      }
      return ints;
    }
    default:
      cx.fail(loc, what + " must be a number, string, dtype or list of ints, got " + typeName(v));
  }
}

}  // namespace

Signature Signature::parse(const std::string& spec) {
  Signature sig;
  for (const auto& part : splitTopLevel(spec)) {
    ParamSpec p;
    std::string s = part;
    if (s.rfind("**", 0) == 0) {
      p.varkw = true;
      s = s.substr(2);
    } else if (s.rfind("*", 0) == 0) {
      p.varargs = true;
      s = s.substr(1);
    } else if (s.rfind("~", 0) == 0) {
      p.hint = true;
      s = s.substr(1);
    }
    if (auto eq = s.find('='); eq != std::string::npos) {
      p.hasDefault = true;
      p.def = parseLiteral(s.substr(eq + 1));
      s = s.substr(0, eq);
    }
    p.name = trim(s);
    sig.params.push_back(std::move(p));
  }
  return sig;
}

Bound::Bound(Context& context, std::string fnName, const Signature& sig, CallArgs& args)
    : cx(context), fn(std::move(fnName)), callLoc(args.loc) {
  size_t positional = 0;  // parameters a positional argument can fill (those before *args)
  bool varargs = false, varkw = false;
  for (const auto& p : sig.params) {
    if (p.varargs) varargs = true;
    if (p.varkw) varkw = true;
    if (p.varargs || p.varkw) continue;
    if (!varargs) ++positional;
    names_.push_back(p.name);
    slots_.push_back({p.def, args.loc, nullptr});
    given_.push_back(false);
    defaults_.push_back(p.def);
    hints_.push_back(p.hint || p.name == "name");
    read_.push_back(false);
  }
  const std::string f = fn + "()";
  for (size_t i = 0; i < args.pos.size(); ++i) {
    if (i < positional) {
      slots_[i] = args.pos[i];
      given_[i] = true;
    } else if (varargs) {
      rest.push_back(args.pos[i]);
    } else {
      cx.fail(args.pos[i].loc,
              diagnosed(f + " takes at most " + std::to_string(positional) +
                            " positional argument" + (positional == 1 ? "" : "s") + " (" +
                            std::to_string(args.pos.size()) + " given)",
                        {DiagCode::TooManyPositional,
                         {},
                         {f, std::to_string(positional), std::to_string(args.pos.size())}}));
    }
  }
  for (auto& [k, a] : args.kw) {
    size_t i = 0;
    while (i < names_.size() && names_[i] != k) ++i;
    if (i == names_.size()) {
      if (varkw) {
        extra.push_back({k, a});
        continue;
      }
      cx.fail(a.loc,
              diagnosed(f + " got an unexpected keyword argument '" + k + "'" + suggest(k, names_),
                        {DiagCode::UnexpectedKeyword, {}, {f, k}}));
    }
    if (given_[i]) cx.fail(a.loc, f + " got multiple values for argument '" + k + "'");
    slots_[i] = a;
    given_[i] = true;
  }
  size_t k = 0;
  for (const auto& p : sig.params) {
    if (p.varargs || p.varkw) continue;
    if (!given_[k] && !p.hasDefault)
      cx.fail(args.loc, diagnosed(f + " missing required argument '" + p.name + "'",
                                  {DiagCode::MissingArgument, {}, {f, p.name}}));
    ++k;
  }
}

const Arg* Bound::find(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) {
      read_[i] = true;
      return &slots_[i];
    }
  return nullptr;
}

void Bound::checkAllRead() const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (!given_[i] || read_[i] || hints_[i] || sameValue(slots_[i].v, defaults_[i])) continue;
    cx.fail(slots_[i].loc, fn + "(): argument '" + names_[i] +
                               "' is not supported by GradLab yet; it is refused rather than "
                               "ignored, since TF's answer depends on it");
  }
}

const Val& Bound::operator[](const std::string& name) const {
  const Arg* a = find(name);
  if (!a) throw std::logic_error("builtin " + fn + " reads undeclared parameter " + name);
  return a->v;
}

const SourceLoc& Bound::loc(const std::string& name) const {
  const Arg* a = find(name);
  return a ? a->loc : callLoc;
}

const Expr* Bound::expr(const std::string& name) const {
  const Arg* a = find(name);
  return a ? a->expr : nullptr;
}

bool Bound::given(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) {
      read_[i] = true;
      return given_[i];
    }
  return false;
}

void Bound::fail(const std::string& name, const std::string& msg) const {
  cx.fail(loc(name), fn + "(): " + (name.empty() ? "" : "argument '" + name + "' ") + msg);
}

Value Bound::tensor(const std::string& name) const {
  const Val& v = (*this)[name];
  if (v.isNone() && !v.why()) fail(name, "must be a tensor, got None");
  cx.at(callLoc);
  return cx.toTensor(v, loc(name));
}

Value Bound::tensorLike(const std::string& name, Value like) const {
  cx.at(callLoc);
  return cx.toTensor((*this)[name], loc(name), cx.b.type(like).dtype);
}

// An int tensor folded from constants (tf.shape(x)[0]) counts as a Python int.
std::optional<std::vector<int64_t>> Bound::staticInts(const Val& v) const {
  if (!v.isTensor() || isFloat(cx.b.type(v.tensorValue()).dtype)) return std::nullopt;
  auto c = cx.constantValue(v.tensorValue());
  if (!c || c->rank() > 1) return std::nullopt;
  std::vector<int64_t> out;
  for (double x : c->toVector()) out.push_back(int64_t(x));
  return out;
}

int64_t Bound::integer(const std::string& name) const {
  const Val& v = (*this)[name];
  if (v.kind() == Kind::Int) return v.asInt();
  if (v.kind() == Kind::Bool) return v.asBool();
  if (auto n = npPythonNumber(v); n && n->kind() != Kind::Float && asNdArray(v)->scalar)
    return n->kind() == Kind::Bool ? n->asBool() : n->asInt();
  if (auto c = staticInts(v); c && c->size() == 1 && cx.b.type(v.tensorValue()).shape.empty())
    return (*c)[0];
  if (v.isTensor())
    fail(name, "must be a Python int known while tracing, got a tensor (" +
                   cx.describe(v.tensorValue()) + ")");
  fail(name, "must be an int, got " + typeName(v));
}

double Bound::number(const std::string& name) const {
  const Val& v = (*this)[name];
  if (v.isNumber()) return v.number();
  if (auto n = npPythonNumber(v); n && asNdArray(v)->scalar) return n->number();
  if (v.isTensor())
    fail(name, "must be a Python number known while tracing, got a tensor (" +
                   cx.describe(v.tensorValue()) + ")");
  fail(name, "must be a number, got " + typeName(v));
}

bool Bound::boolean(const std::string& name) const {
  const Val& v = (*this)[name];
  if (v.kind() == Kind::Bool) return v.asBool();
  if (v.kind() == Kind::Int) return v.asInt() != 0;
  fail(name, "must be True or False, got " + typeName(v));
}

std::string Bound::string(const std::string& name) const {
  const Val& v = (*this)[name];
  if (v.kind() != Kind::Str) fail(name, "must be a string, got " + typeName(v));
  return v.text();
}

std::vector<int64_t> Bound::ints(const std::string& name) const {
  const Val& v = (*this)[name];
  if (v.kind() == Kind::Int) return {v.asInt()};
  if (auto c = staticInts(v)) return *c;
  if (v.isSeq()) {
    std::vector<int64_t> out;
    for (const Val& x : v.items()) {
      auto c = staticInts(x);
      if (c && c->size() == 1 && cx.b.type(x.tensorValue()).shape.empty()) {
        out.push_back((*c)[0]);
        continue;
      }
      if (x.kind() != Kind::Int)
        fail(name, "must be a list of ints, got " + article(typeName(x)) + " in it");
      out.push_back(x.asInt());
    }
    return out;
  }
  fail(name, "must be an int or a list of ints, got " + typeName(v));
}

std::vector<int64_t> Bound::axes(const std::string& name) const {
  if (none(name)) return {};
  return ints(name);
}

DType Bound::dtype(const std::string& name, DType def) const {
  const Val& v = (*this)[name];
  if (v.isNone()) return def;
  if (v.kind() == Kind::DType) return v.asDType();
  if (v.as<NpDTypeObj>()) return engineDType(*npTypeOf(v));  // np.float32: int types are int32
  if (v.kind() == Kind::Str) {
    try {
      return dtypeFromName(v.text());
    } catch (const std::exception&) {
      fail(name, "unknown dtype '" + v.text() + "' (float32, float64, int32, int64, bool)");
    }
  }
  fail(name, "must be a dtype such as tf.float32, got " + typeName(v));
}

Shape Bound::shape(const std::string& name) const {
  const Val& v = (*this)[name];
  Shape s;
  if (v.kind() == Kind::Int) return {v.asInt()};
  if (v.isTensor() || (v.isSeq() && cx.tensorish(v))) {
    for (int64_t d : ints(name)) {
      if (d < 0) fail(name, "has a negative dimension " + std::to_string(d));
      s.push_back(d);
    }
    return s;
  }
  if (!v.isSeq()) {
    if (v.isTensor())
      fail(name,
           "must be a shape known while tracing (a list of ints), got a tensor; use x.shape "
           "rather than tf.shape(x)");
    fail(name, "must be a shape (a list of ints), got " + typeName(v));
  }
  for (const Val& x : v.items()) {
    if (x.kind() != Kind::Int)
      fail(name, "must be a list of ints, got " + article(typeName(x)) + " in it");
    if (x.asInt() < 0) fail(name, "has a negative dimension " + std::to_string(x.asInt()));
    s.push_back(x.asInt());
  }
  return s;
}

// Generic primitives -------------------------------------------------------------------------

Val callPrimitive(Context& cx, const std::string& prim, CallArgs& args) {
  const Primitive& p = Registry::instance().get(prim);
  std::vector<Value> inputs;
  std::optional<DType> like;
  for (const Arg& a : args.pos)
    if (a.v.isTensor()) like = cx.b.type(a.v.tensorValue()).dtype;
  auto add = [&](const Val& v, const SourceLoc& loc) {
    if (v.kind() == Kind::Object) {
      std::vector<Value> flat;
      cx.flatten(v, flat, loc, prim + "() input");
      inputs.insert(inputs.end(), flat.begin(), flat.end());
      return;
    }
    inputs.push_back(cx.toTensor(v, loc, v.isNumber() ? like : std::nullopt));
  };
  for (const Arg& a : args.pos) {
    // Variadic primitives (concat, stack, einsum) take a list of tensors.
    if (a.v.isSeq() && p.arity != 1 && cx.tensorish(a.v)) {
      for (const Val& x : a.v.items()) add(x, a.loc);
    } else {
      add(a.v, a.loc);
    }
  }
  Attrs attrs;
  for (const auto& [k, a] : args.kw) {
    if (k == "name") continue;
    attrs.set(k, toAttr(cx, a.v, a.loc, prim + "() attribute '" + k + "'"));
  }
  cx.at(args.loc);
  std::vector<Value> outs = cx.b.op(prim, inputs, attrs);
  std::vector<Val> vals;
  for (Value v : outs) vals.push_back(cx.b.type(v).list ? wrapList(cx, v) : Val::tensor(v));
  if (vals.size() == 1) return vals[0];
  return Val::listOf(std::move(vals), true);
}

}  // namespace gl::lang::trace
