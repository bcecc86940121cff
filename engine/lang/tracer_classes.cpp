// Script classes: `class Name(Base):` bodies run into a ClassObj, calls of the class make an
// InstanceObj and run __init__, attribute lookup walks instance -> class -> bases and binds
// `self`, and super() / isinstance / property / staticmethod / classmethod / getattr / hasattr /
// setattr follow Python's documented rules (docs.python.org/3/reference/datamodel.html,
// docs.python.org/3/library/functions.html). Method calls are calls of script functions
// (Tracer::callFunction), so inside tensor loops and conds they trace as function calls do.
#include "engine/lang/tracer_classes.h"
#include "engine/lang/tracer_function.h"

#include <algorithm>

#include "engine/lang/tracer.h"
#include "engine/lang/tracer_exceptions.h"
#include "engine/lang/tracer_keras_layer.h"
#include "engine/lang/tracer_keras_subclass.h"

namespace gl::lang::trace {

namespace {

std::shared_ptr<ClassObj> classOf(const Val& v) {
  return v.kind() == Kind::Object ? std::dynamic_pointer_cast<ClassObj>(v.obj()) : nullptr;
}

// Dunder members GradLab script classes may define: the rest (operator overloading, attribute
// hooks, __new__, descriptors) would be silently ignored by the tracer, so they are errors.
bool supportedSpecialName(const std::string& n) {
  static const char* const kSupported[] = {"__init__", "__call__", "__repr__", "__str__",
                                           "__doc__"};
  return std::find(std::begin(kSupported), std::end(kSupported), n) != std::end(kSupported);
}

bool isSpecialName(const std::string& n) {
  return n.size() > 4 && n.rfind("__", 0) == 0 && n.compare(n.size() - 2, 2, "__") == 0;
}

}  // namespace

const Val* ClassObj::lookup(const std::string& n, const ClassObj** owner) const {
  for (const ClassObj* c = this; c; c = c->base.get())
    if (const Val* v = c->attrs.find(n)) {
      if (owner) *owner = c;
      return v;
    }
  return nullptr;
}

bool ClassObj::isSubclassOf(const ClassObj& other) const {
  for (const ClassObj* c = this; c; c = c->base.get())
    if (c == &other) return true;
  return false;
}

std::vector<std::string> ClassObj::attrNames() const {
  std::vector<std::string> out;
  for (const ClassObj* c = this; c; c = c->base.get())
    out.insert(out.end(), c->attrs.order.begin(), c->attrs.order.end());
  return out;
}

std::vector<std::string> InstanceObj::attrNames() const {
  std::vector<std::string> out = attrs.order;
  const auto names = cls->attrNames();
  out.insert(out.end(), names.begin(), names.end());
  if (keras) {
    const auto native = kerasAttrNames(keras->base);
    out.insert(out.end(), native.begin(), native.end());
  }
  return out;
}

bool InstanceObj::callable() const {
  return cls->lookup("__call__") != nullptr || (keras && keras->base != NativeBase::Module);
}

std::optional<Val> PropertyObj::attr(Context&, const std::string& name) {
  if (name == "getter") return getter;
  if (name != "setter") return std::nullopt;
  auto s = std::make_shared<PropertySetterObj>();
  s->property = std::static_pointer_cast<PropertyObj>(shared_from_this());
  return Val::object(s);
}

Val PropertySetterObj::call(Context& cx, CallArgs& args) {
  if (args.pos.size() != 1 || !args.kw.empty()) cx.fail(args.loc, "setter() takes one function");
  auto p = std::make_shared<PropertyObj>();
  p->getter = property->getter;
  p->setter = args.pos[0].v;
  return Val::object(p);
}

Val ObjectInitObj::call(Context& cx, CallArgs& args) {
  if (!args.pos.empty() || !args.kw.empty())
    cx.fail(args.loc, "object.__init__() takes exactly one argument (the instance to initialize)");
  return Val::none();
}

// Class statements ----------------------------------------------------------------------------

std::shared_ptr<ClassObj> Tracer::classBase(const Stmt::ClassDef& c) {
  const auto* header = c.header->as<Expr::Call>();
  if (!header) return nullptr;
  for (const auto& k : header->keywords)
    fail(k.loc, k.name == "metaclass"
                    ? "metaclasses are not supported in GradLab script (class '" + c.name + "')"
                    : "class keyword arguments are not supported in GradLab script (class '" +
                          c.name + "')");
  if (header->args.size() > 1)
    fail(header->args[1]->loc, "multiple inheritance is not supported in GradLab script: class '" +
                                   c.name + "' may have one base class");
  if (header->args.empty()) return nullptr;
  const Expr& baseExpr = *header->args[0];
  if (baseExpr.as<Expr::Starred>())
    fail(baseExpr.loc, "starred base classes are not supported in GradLab script");
  if (auto n = baseExpr.as<Expr::Name>(); n && n->id == "object" && !lookup("object"))
    return nullptr;
  const Val base = eval(baseExpr);
  if (auto cls = classOf(base)) return cls;
  fail(baseExpr.loc, "class '" + c.name + "' cannot derive from " + article(typeName(base)) +
                         ": a base must be a script class, tf.keras.layers.Layer, "
                         "tf.keras.Model, tf.Module (or object)");
}

void Tracer::rejectUnsupportedMembers(const ClassObj& cls, const Scope& body) {
  for (const auto& name : cls.attrs.order) {
    if (!isSpecialName(name) || supportedSpecialName(name)) continue;
    const SourceLoc& where = body.vars.at(name).loc;
    if (name == "__getattr__" || name == "__getattribute__" || name == "__setattr__" ||
        name == "__delattr__")
      fail(where, "attribute hooks (" + name + ") are not supported in GradLab script classes");
    if (name == "__new__" || name == "__init_subclass__" || name == "__class_getitem__")
      fail(where, name + " is not supported in GradLab script classes");
    if (name == "__slots__") fail(where, "__slots__ is not supported in GradLab script classes");
    fail(where, "special method " + name +
                    " (operator overloading, protocols) is not supported in GradLab script "
                    "classes; only __init__ and __call__ are");
  }
}

void Tracer::execClass(const Stmt::ClassDef& c, const SourceLoc& loc) {
  auto cls = std::make_shared<ClassObj>();
  cls->name = c.name;
  cls->loc = loc;
  cls->base = classBase(c);
  // The body runs in its own namespace, as Python's does; its names become class attributes.
  ScopePtr body = newScope(scope_);
  ScopePtr saved = scope_;
  scope_ = body;
  try {
    execBlock(c.body);
  } catch (...) {
    scope_ = saved;
    throw;
  }
  scope_ = saved;
  std::vector<std::pair<int, std::string>> inOrder;
  for (const auto& [name, binding] : body->vars) inOrder.emplace_back(binding.order, name);
  std::sort(inOrder.begin(), inOrder.end());
  for (const auto& [order, name] : inOrder) {
    Val v = body->vars.at(name).v;
    // Methods see the names around the class, not the class body (Python's scoping), and
    // remember their class for zero-argument super().
    std::vector<const Val*> fns{&v};
    if (auto p = v.as<PropertyObj>()) fns = {&p->getter, &p->setter};
    if (auto s = v.as<StaticMethodObj>()) fns = {&s->function};
    if (auto m = v.as<ClassMethodObj>()) fns = {&m->function};
    for (const Val* fnVal : fns)
      if (auto f = fnVal->as<FunctionObj>()) {
        if (f->closure == body) f->closure = saved;
        if (!f->definingClass.lock()) f->definingClass = cls;
      }
    cls->attrs.set(name, v);
  }
  rejectUnsupportedMembers(*cls, *body);
  bind(c.name, Val::object(cls), loc);
}

// Attributes --------------------------------------------------------------------------------

Val Tracer::bindClassAttr(const Val& found, const Val& self, const std::shared_ptr<ClassObj>& cls,
                          const SourceLoc& loc) {
  const bool viaInstance = self.as<InstanceObj>() != nullptr;
  if (auto s = found.as<StaticMethodObj>()) return s->function;
  if (auto m = found.as<ClassMethodObj>()) {
    auto b = std::make_shared<BoundMethodObj>();
    b->function = m->function;
    b->self = Val::object(cls);
    return Val::object(b);
  }
  if (auto p = found.as<PropertyObj>()) {
    if (!viaInstance) return found;
    return callSimple(p->getter, {self}, loc, "the property");
  }
  if (viaInstance && (found.as<FunctionObj>() || found.as<TfFunctionObj>())) {
    auto b = std::make_shared<BoundMethodObj>();
    b->function = found;
    b->self = self;
    return Val::object(b);
  }
  return found.var() ? readVariable(found) : found;
}

std::optional<Val> Tracer::scriptAttr(const Val& v, const std::string& name, const SourceLoc& loc) {
  if (auto inst = v.as<InstanceObj>()) {
    if (name == "__class__") return Val::object(inst->cls);
    if (const Val* own = inst->attrs.find(name)) return own->var() ? readVariable(*own) : *own;
    if (const Val* found = inst->cls->lookup(name)) return bindClassAttr(*found, v, inst->cls, loc);
    if (inst->keras) return kerasAttr(cx_, v, name, loc);
    return std::nullopt;
  }
  if (name == "__name__") {
    if (auto f = v.as<FunctionObj>()) return Val::str(f->name);
    if (auto b = v.as<BuiltinObj>()) return Val::str(b->name.substr(b->name.rfind('.') + 1));
  }
  if (auto cls = classOf(v)) {
    if (name == "__name__") return Val::str(cls->name);
    if (const Val* found = cls->lookup(name)) return bindClassAttr(*found, v, cls, loc);
    return std::nullopt;
  }
  if (auto sup = v.as<SuperObj>()) {
    auto selfClass =
        sup->self.as<InstanceObj>() ? sup->self.as<InstanceObj>()->cls : classOf(sup->self);
    const Val* found = sup->start->base ? sup->start->base->lookup(name) : nullptr;
    if (found) return bindClassAttr(*found, sup->self, selfClass, loc);
    const NativeBase native = sup->start->base ? nativeBaseOf(*sup->start->base) : NativeBase::None;
    if (native != NativeBase::None)
      if (auto m = kerasMethod(sup->self, native, name)) return m;
    if (name == "__init__") return Val::object(std::make_shared<ObjectInitObj>());
    fail(loc, "'super' object has no attribute '" + name + "'" +
                  suggest(name, sup->start->base ? sup->start->base->attrNames()
                                                 : std::vector<std::string>{}));
  }
  return std::nullopt;
}

bool Tracer::setScriptAttr(const Val& owner, const std::string& name, const Val& v,
                           const SourceLoc& loc) {
  if (auto inst = owner.as<InstanceObj>()) {
    if (const Val* found = inst->cls->lookup(name); found && found->as<PropertyObj>()) {
      const Val& setter = found->as<PropertyObj>()->setter;
      // Python's AttributeError for a property without a setter.
      if (setter.isNone())
        fail(loc, "can't set attribute '" + name + "': property of '" + inst->cls->name +
                      "' has no setter");
      callSimple(setter, {owner, v}, loc, "the property's setter");
      return true;
    }
    if (inst->keras && kerasSetAttr(cx_, *inst, name, v, loc)) return true;
    inst->attrs.set(name, v);
    return true;
  }
  if (auto cls = classOf(owner)) {
    if (cls->native != NativeBase::None)
      fail(loc, "cannot set attribute '" + name + "' of the built-in class " + cls->name);
    cls->attrs.set(name, v);
    return true;
  }
  return false;
}

// Calls ---------------------------------------------------------------------------------------

std::optional<Val> Tracer::callScriptObject(const Val& fn, CallArgs& args) {
  if (auto cls = classOf(fn)) {
    auto inst = std::make_shared<InstanceObj>();
    inst->cls = cls;
    inst->keras = newKerasState(*cls);
    const Val self = Val::object(inst);
    if (const Val* init = cls->lookup("__init__")) {
      const Val result = call(bindClassAttr(*init, self, cls, args.loc), args, cls->name);
      if (result.kind() != Kind::None)
        fail(args.loc, "__init__() should return None, not " + article(typeName(result)));
    } else if (inst->keras) {
      call(*kerasMethod(self, inst->keras->base, "__init__"), args, cls->name);
    } else if (!args.pos.empty() || !args.kw.empty()) {
      fail(args.loc, cls->name + "() takes no arguments (the class has no __init__)");
    }
    return self;
  }
  if (auto m = fn.as<BoundMethodObj>()) {
    CallArgs withSelf = args;
    withSelf.pos.insert(withSelf.pos.begin(), Arg{m->self, args.loc, nullptr});
    return call(m->function, withSelf, "the method");
  }
  if (auto inst = fn.as<InstanceObj>()) {
    if (const Val* method = inst->cls->lookup("__call__"))
      return call(bindClassAttr(*method, fn, inst->cls, args.loc), args, inst->cls->name);
    return call(*kerasMethod(fn, inst->keras->base, "__call__"), args, inst->cls->name);
  }
  return std::nullopt;
}

Val Tracer::makeSuper(const Val* cls, const Val* self, const SourceLoc& loc) {
  auto sup = std::make_shared<SuperObj>();
  if (cls) {
    sup->start = classOf(*cls);
    if (!sup->start)
      fail(loc, "super() argument 1 must be a class, not " + article(typeName(*cls)));
    if (!self)
      fail(loc, "super(type) without a second argument is not supported in GradLab script");
    sup->self = *self;
  } else {
    const FunctionObj* fn = callFrames_.empty() ? nullptr : callFrames_.back().first;
    sup->start = fn ? fn->definingClass.lock() : nullptr;
    if (!sup->start || fn->params.empty())
      fail(loc, "super() without arguments works only inside a method of a class");
    sup->self = callFrames_.back().second->vars.at(fn->params[0].name).v;
  }
  const ClassObj* selfClass = nullptr;
  if (auto inst = sup->self.as<InstanceObj>()) selfClass = inst->cls.get();
  if (auto c = classOf(sup->self)) selfClass = c.get();
  if (!selfClass || !selfClass->isSubclassOf(*sup->start))
    fail(loc, "super(type, obj): obj must be an instance or subtype of type");
  return Val::object(sup);
}

// Builtins ------------------------------------------------------------------------------------

namespace {

// isinstance(x, C): script classes by their chain, Python's builtin types by the value's kind.
bool isInstanceOf(const Val& x, const Val& cls, Bound& a) {
  if (cls.kind() == Kind::Tuple) {
    for (const Val& c : cls.items())
      if (isInstanceOf(x, c, a)) return true;
    return false;
  }
  if (auto c = classOf(cls)) {
    if (auto inst = x.as<InstanceObj>()) return inst->cls->isSubclassOf(*c);
    // The built-in layers are Layers (and Modules); Sequential is also a Model.
    if (auto l = x.as<LayerObj>())
      return c->native == NativeBase::Layer || c->native == NativeBase::Module ||
             (c->native == NativeBase::Model && l->kind == "Sequential");
    return false;
  }
  if (auto e = cls.as<ExceptionClassObj>()) {
    auto inst = x.as<ExceptionObj>();
    return inst && exceptionIsA(inst->kind->name, e->kind->name);
  }
  if (auto b = cls.as<BuiltinObj>()) {
    const Kind k = x.kind();
    if (b->name == "int") return k == Kind::Int || k == Kind::Bool;
    if (b->name == "float") return k == Kind::Float;
    if (b->name == "bool") return k == Kind::Bool;
    if (b->name == "str") return k == Kind::Str;
    if (b->name == "list") return k == Kind::List;
    if (b->name == "tuple") return k == Kind::Tuple;
    if (b->name == "dict") return x.as<DictObj>() != nullptr;
  }
  a.fail("classinfo",
         "must be a script class, int, float, bool, str, list, tuple, dict, an exception "
         "class or a tuple of them in GradLab script");
}

Val wrapped(Bound& a, ObjPtr o) {
  if (a["function"].kind() != Kind::Object || !a["function"].obj()->callable())
    a.fail("function", "must be a function");
  return Val::object(std::move(o));
}

}  // namespace

void addClassBuiltins(BuiltinTable& t) {
  t["super"] = {Signature::parse("type=None, obj=None"), [](Bound& a) {
                  const Val& type = a["type"];
                  const Val& obj = a["obj"];
                  if (type.kind() == Kind::None) return a.cx.makeSuper(nullptr, nullptr, a.callLoc);
                  return a.cx.makeSuper(&type, obj.kind() == Kind::None ? nullptr : &obj,
                                        a.callLoc);
                }};
  t["isinstance"] = {Signature::parse("obj, classinfo"), [](Bound& a) {
                       return Val::boolean(isInstanceOf(a["obj"], a["classinfo"], a));
                     }};
  t["property"] = {Signature::parse("function"), [](Bound& a) {
                     auto p = std::make_shared<PropertyObj>();
                     p->getter = a["function"];
                     return wrapped(a, p);
                   }};
  t["staticmethod"] = {Signature::parse("function"), [](Bound& a) {
                         auto s = std::make_shared<StaticMethodObj>();
                         s->function = a["function"];
                         return wrapped(a, s);
                       }};
  t["classmethod"] = {Signature::parse("function"), [](Bound& a) {
                        auto m = std::make_shared<ClassMethodObj>();
                        m->function = a["function"];
                        return wrapped(a, m);
                      }};
  t["getattr"] = {Signature::parse("obj, name, *default"), [](Bound& a) {
                    const std::string name = a["name"].text();
                    if (!a.rest.empty()) {
                      try {
                        return a.cx.getAttr(a["obj"], name, a.callLoc);
                      } catch (const EngineError&) {
                        return a.rest[0].v;
                      }
                    }
                    return a.cx.getAttr(a["obj"], name, a.callLoc);
                  }};
  t["hasattr"] = {Signature::parse("obj, name"), [](Bound& a) {
                    try {
                      a.cx.getAttr(a["obj"], a["name"].text(), a.callLoc);
                      return Val::boolean(true);
                    } catch (const EngineError&) {
                      return Val::boolean(false);
                    }
                  }};
  t["setattr"] = {Signature::parse("obj, name, value"), [](Bound& a) {
                    if (!a.cx.setScriptAttr(a["obj"], a["name"].text(), a["value"], a.callLoc))
                      a.fail("obj", "must be an instance of a script class, not " +
                                        article(typeName(a["obj"])));
                    return Val::none();
                  }};
}

}  // namespace gl::lang::trace
