// import and from-import of the modules GradLab provides, and del. `tensorflow` is the tf
// namespace scripts use without importing it (tf stays predefined, so scripts without imports
// run as before); `keras` is tf.keras; math, time, functools and os (environ only) are
// Python's, on trace-time values (tracer_builtins_pymodules.cpp); numpy is tracer_numpy*.cpp. Any
// other module is a located error naming it.
#include "engine/lang/tracer.h"
#include "engine/lang/tracer_format.h"

namespace gl::lang::trace {

namespace {

struct Provided {
  const char* name;    // as imported
  const char* prefix;  // its builtin-table prefix
};
constexpr Provided kModules[] = {
    {"tensorflow", "tf."},          {"keras", "tf.keras."},
    {"math", "py.math."},           {"time", "py.time."},
    {"functools", "py.functools."}, {"numpy", "py.numpy."},
    {"itertools", "py.itertools."}, {"os", "py.os."},
};

Val moduleVal(const std::string& prefix, const std::string& shown) {
  auto m = std::make_shared<ModuleObj>();
  m->prefix = prefix;
  m->shown = shown;
  return Val::object(m);
}

}  // namespace

Val Tracer::importModule(const std::string& dotted, const SourceLoc& loc) {
  const std::string top = dotted.substr(0, dotted.find('.'));
  const Provided* found = nullptr;
  for (const Provided& p : kModules)
    if (top == p.name) found = &p;
  if (!found) {
    std::string list;
    for (const Provided& p : kModules) list += std::string(list.empty() ? "" : ", ") + p.name;
    fail(loc, "GradLab does not provide module '" + top + "' yet (it provides " + list + ")");
  }
  Val v = moduleVal(found->prefix, top);
  // tensorflow.keras.layers: each part must be a namespace of the one before.
  std::string path = top;
  for (size_t at = top.size(); at < dotted.size();) {
    const size_t next = dotted.find('.', at + 1);
    const std::string part = dotted.substr(at + 1, next - at - 1);
    const auto* m = v.as<ModuleObj>();
    std::optional<Val> sub = moduleAttr(m->prefix, part);
    path += "." + part;
    if (!sub || !sub->as<ModuleObj>())
      fail(loc,
           "GradLab does not provide module '" + path + "'" + suggest(part, v.obj()->attrNames()));
    v = moduleVal(sub->as<ModuleObj>()->prefix, path);
    at = next == std::string::npos ? dotted.size() : next;
  }
  return v;
}

Val Tracer::importFrom(const Stmt::ImportFrom& s, const Stmt::Alias& a) {
  const Val m = importModule(s.module, s.moduleLoc);
  const auto* mod = m.as<ModuleObj>();
  if (auto v = moduleAttr(mod->prefix, a.name)) {
    if (auto sub = v->as<ModuleObj>()) return moduleVal(sub->prefix, s.module + "." + a.name);
    return *v;
  }
  fail(a.loc, "cannot import name '" + a.name + "' from '" + s.module + "'" +
                  suggest(a.name, m.obj()->attrNames()));
}

std::string unsetEnvironMessage(const Val& key) {
  return "os.environ[" + (key.kind() == Kind::Str ? "'" + key.text() + "'" : typeName(key)) +
         "]: GradLab runs scripts without the process's environment, so os.environ holds only "
         "the keys the script set";
}

Val Tracer::osEnviron() {
  if (!environ_) {
    environ_ = std::make_shared<DictObj>();
    environ_->environ = true;
  }
  return Val::object(environ_);
}

void Tracer::unbind(const Expr& target) {
  if (const auto* n = target.as<Expr::Name>()) {
    if (scope_->vars.erase(n->id) > 0) return;
    if (lookup(n->id))
      fail(target.loc, "cannot delete '" + n->id +
                           "' here: it is bound outside this function (or variant block)");
    fail(target.loc, "name '" + n->id + "' is not defined");
  }
  if (const auto* t = target.as<Expr::Tuple>()) {
    for (const ExprPtr& e : t->elts) unbind(*e);
    return;
  }
  if (const auto* s = target.as<Expr::Subscript>()) {
    const Val container = eval(*s->value);
    const Val index = eval(*s->index);
    if (container.kind() == Kind::List &&
        (index.kind() == Kind::Int || index.kind() == Kind::Bool)) {
      auto& items = container.list()->items;
      const int64_t k = index.kind() == Kind::Bool ? index.asBool() : index.asInt();
      const int64_t i = k < 0 ? k + int64_t(items.size()) : k;
      if (i < 0 || i >= int64_t(items.size()))
        fail(s->index->loc, "list assignment index " + std::to_string(k) +
                                " is out of range (length " + std::to_string(items.size()) + ")");
      items.erase(items.begin() + i);
      return;
    }
    if (auto* d = container.as<DictObj>()) {
      const int at = d->find(index);
      if (at < 0) fail(s->index->loc, "KeyError: " + pyRepr(g_, index));
      d->keys.erase(d->keys.begin() + at);
      d->values.erase(d->values.begin() + at);
      return;
    }
    if (container.isTensor())
      fail(target.loc,
           "tensors are immutable: deleting an element of a tensor is not supported; build a "
           "new tensor (tf.concat of slices, tf.boolean_mask)");
    fail(target.loc, "'" + typeName(container) + "' object does not support item deletion" +
                         (container.kind() == Kind::List ? " with this index" : ""));
  }
  if (const auto* a = target.as<Expr::Attribute>()) {
    const Val owner = eval(*a->value);
    fail(target.loc, "cannot delete attribute '" + a->attr + "' of " + article(typeName(owner)));
  }
  fail(target.loc, "cannot delete this expression");
}

}  // namespace gl::lang::trace
