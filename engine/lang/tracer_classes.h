#pragma once
// Script classes (`class Name(Base):`) as Objects: a class, its instances, methods bound to an
// instance, super() proxies and the three method decorators. They are Objects rather than new
// Val alternatives because everything a class value does (attributes, calls, type names) already
// goes through Object's hooks, and no tensor code, flattening or printing has to learn a new
// alternative. The tracer runs them (tracer_classes.cpp): attribute lookup binds `self`, calls
// of methods are calls of script functions.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

// A namespace whose names keep the order they were first set in (class bodies, instance
// attributes): attrNames and error suggestions list them as the script wrote them.
struct OrderedAttrs {
  std::vector<std::string> order;
  std::map<std::string, Val> values;
  const Val* find(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  }
  void set(const std::string& name, Val v) {
    if (!values.count(name)) order.push_back(name);
    values[name] = std::move(v);
  }
};

// The built-in classes script classes may derive from (tracer_keras_subclass.h).
enum class NativeBase : uint8_t { None, Layer, Model, Module };
struct KerasState;

struct ClassObj : Object {
  std::string name;
  NativeBase native = NativeBase::None;  // tf.keras.layers.Layer, tf.keras.Model, tf.Module
  std::shared_ptr<ClassObj> base;        // single inheritance; null for a class of `object`
  OrderedAttrs attrs;
  SourceLoc loc;
  std::string typeName() const override { return "type"; }
  bool callable() const override { return true; }
  std::vector<std::string> attrNames() const override;
  // The value of name in this class or the nearest base that has it, and that class.
  const Val* lookup(const std::string& n, const ClassObj** owner = nullptr) const;
  bool isSubclassOf(const ClassObj& other) const;
};

struct InstanceObj : Object {
  std::shared_ptr<ClassObj> cls;
  OrderedAttrs attrs;
  std::shared_ptr<KerasState> keras;  // what a built-in base keeps; null for other classes
  std::string typeName() const override { return cls->name; }
  bool callable() const override;
  std::vector<std::string> attrNames() const override;
};

// obj.method: the method's function with `self` (or the class, for a classmethod) bound.
struct BoundMethodObj : Object {
  Val function;
  Val self;
  std::string typeName() const override { return "method"; }
  bool callable() const override { return true; }
};

// super() / super(Name, self): attribute lookup starting after `start` in self's class chain.
struct SuperObj : Object {
  std::shared_ptr<ClassObj> start;  // the class whose bases are searched
  Val self;
  std::string typeName() const override { return "super"; }
};

// What @property, @staticmethod and @classmethod make of a method.
struct PropertyObj : Object {
  Val getter;
  Val setter;  // None: a read-only property
  std::string typeName() const override { return "property"; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;  // .setter
  std::vector<std::string> attrNames() const override { return {"setter", "getter"}; }
};
// prop.setter, the decorator: a copy of the property with fn as its setter.
struct PropertySetterObj : Object {
  std::shared_ptr<PropertyObj> property;
  std::string typeName() const override { return "method"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override;
};
struct StaticMethodObj : Object {
  Val function;
  std::string typeName() const override { return "staticmethod"; }
};
struct ClassMethodObj : Object {
  Val function;
  std::string typeName() const override { return "classmethod"; }
};

// object.__init__, reached by super().__init__() in a class without a script base.
struct ObjectInitObj : Object {
  std::string typeName() const override { return "method-wrapper"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override;
};

}  // namespace gl::lang::trace
