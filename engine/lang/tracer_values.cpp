#include "engine/lang/tracer_values.h"

#include "engine/lang/tracer_objects.h"

#include <algorithm>
#include <type_traits>

namespace gl::lang::trace {

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

}  // namespace gl::lang::trace
