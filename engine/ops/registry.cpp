#include "engine/ops/registry.h"

#include "engine/graph/builder.h"

namespace gl {

const TypeInfo& VjpContext::inType(size_t i) const { return b.graph().type(in.at(i)); }

Value VjpContext::goutOrZeros(size_t i) {
  if (gout.at(i).valid()) return gout[i];
  return b.zerosLike(out.at(i));
}

Registry& Registry::instance() {
  static Registry r;
  return r;
}

Registry::Registry() {
  registerElementwiseOps(*this);
  registerReduceOps(*this);
  registerShapeOps(*this);
  registerLinalgOps(*this);
  registerConvOps(*this);
  registerNnOps(*this);
  registerRandomOps(*this);
  registerListOps(*this);
}

void Registry::add(Primitive p) {
  std::string n = p.name;
  prims_[n] = std::move(p);
}

const Primitive* Registry::find(const std::string& name) const {
  auto it = prims_.find(name);
  return it == prims_.end() ? nullptr : &it->second;
}

const Primitive& Registry::get(const std::string& name) const {
  if (auto p = find(name)) return *p;
  throw EngineError("unknown primitive '" + name + "'");
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> r;
  for (const auto& [k, v] : prims_) r.push_back(k);
  return r;
}

}  // namespace gl
