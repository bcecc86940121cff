#include "engine/ops/registry.h"

#include "engine/ops/emitter.h"

namespace gl {

Tensors tensorsOf(const Data& in) {
  Tensors t;
  t.reserve(in.size());
  for (const Datum& d : in) {
    if (d.isList()) throw EngineError("expects a tensor, got a TensorArray");
    t.push_back(d.t);
  }
  return t;
}

Tensors Primitive::run(const Tensors& in, const Attrs& attrs, KernelContext ctx) const {
  Data data(in.begin(), in.end()), out;
  forward(data, attrs, ctx, out);
  return tensorsOf(out);
}

double knownElements(const Shape& s) {
  double n = 1;
  for (int64_t d : s) n *= d >= 0 ? double(d) : 1.0;
  return n;
}

double outputWork(const Types&, const Types& out, const Attrs&) {
  double n = 0;
  for (const TypeInfo& t : out)
    if (!t.list) n += knownElements(t.shape);
  return n;
}

double viewWork(const Types&, const Types&, const Attrs&) { return 0; }

double workOf(const Primitive& p, const Types& in, const Types& out, const Attrs& attrs) {
  if (p.work) return p.work(in, out, attrs);
  double n = 0;
  for (const Types* side : {&in, &out})
    for (const TypeInfo& t : *side)
      if (!t.list) n += knownElements(t.shape);
  return n;
}

const TypeInfo& VjpContext::inType(size_t i) const { return b.type(in.at(i)); }

Value VjpContext::goutOrZeros(size_t i) {
  if (gout.at(i).valid()) return gout[i];
  return b.zerosLike(out.at(i));
}

Value Emitter::zerosLike(Value v) {
  const TypeInfo t = type(v);
  Attrs a{{"dtype", std::string(dtypeName(t.dtype))}};
  if (t.list) return op1("list_zeros", {}, a.set("elem_shape", t.shape));
  if (fullyKnown(t.shape)) return op1("fill", {}, a.set("shape", t.shape).set("value", 0.0));
  return op1("zeros_like", {v});
}

namespace prims {
const Primitive& less() {
  static const Primitive& p = Registry::instance().get("less");
  return p;
}
const Primitive& add() {
  static const Primitive& p = Registry::instance().get("add");
  return p;
}
const Primitive& sub() {
  static const Primitive& p = Registry::instance().get("sub");
  return p;
}
const Primitive& mul() {
  static const Primitive& p = Registry::instance().get("mul");
  return p;
}
const Primitive& neg() {
  static const Primitive& p = Registry::instance().get("neg");
  return p;
}
const Primitive& globalAvgPoolGrad() {
  static const Primitive& p = Registry::instance().get("global_avg_pool_grad");
  return p;
}
const Primitive& listWrite() {
  static const Primitive& p = Registry::instance().get("list_write");
  return p;
}
const Primitive& listRead() {
  static const Primitive& p = Registry::instance().get("list_read");
  return p;
}
const Primitive& listStack() {
  static const Primitive& p = Registry::instance().get("list_stack");
  return p;
}
const Primitive& pad() {
  static const Primitive& p = Registry::instance().get("pad");
  return p;
}
const Primitive& scatterAdd() {
  static const Primitive& p = Registry::instance().get("scatter_add");
  return p;
}
const Primitive& customGradient() {
  static const Primitive& p = Registry::instance().get("custom_gradient");
  return p;
}
}  // namespace prims

Registry& Registry::instance() {
  static Registry r;
  return r;
}

Registry::Registry() {
  registerElementwiseOps(*this);
  registerReduceOps(*this);
  registerShapeOps(*this);
  registerLinalgOps(*this);
  registerDecompositionOps(*this);
  registerSpectralOps(*this);
  registerConvOps(*this);
  registerNnOps(*this);
  registerRandomOps(*this);
  registerDynamicSliceOps(*this);
  registerAssertOps(*this);
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
