#pragma once
// The primitive registry. One entry per primitive keeps together its name, its math (two lines,
// written once), its shape rule, forward kernel, VJP rule and (optional) batching rule, in the
// style of JAX primitives and TensorFlow's math_grad.cc. Families register themselves in
// ops/<family>.cpp.
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/graph/graph.h"
#include "engine/tensor/tensor_list.h"

namespace gl {

class Emitter;

using Tensors = std::vector<Tensor>;
using Types = std::vector<TypeInfo>;

// What a VJP rule sees: the forward node, its inputs and outputs as graph values, the adjoint
// of each output (invalid = zero) and which inputs need a gradient. It returns one Value per
// input (invalid = no gradient) built with the Emitter, so reverse mode is itself a graph.
struct VjpContext {
  Emitter& b;
  const Node& node;
  std::vector<Value> in;
  std::vector<Value> out;
  std::vector<Value> gout;
  std::vector<bool> needs;
  const Attrs& attrs() const { return node.attrs; }
  const TypeInfo& inType(size_t i) const;
  // The adjoint of output i, or zeros of its type if it has none.
  Value goutOrZeros(size_t i);
};

// Run-time context some kernels need (random ops: a stream per execution). The executor sets
// `seed` for stateful entries only.
struct KernelContext {
  uint64_t seed = 0;
  // Bit k: input k dies with this kernel and its buffer is the kernel's alone, so an
  // elementwise kernel may write its output into it (set by the executor; 0 elsewhere).
  uint32_t forwardable = 0;
  // check_numerics: the executor asks (checkFinite) and a kernel that looked at its outputs
  // while writing them answers (outputsFinite: all finite); otherwise the executor scans.
  bool checkFinite = false;
  bool outputsFinite = false;
};

// The one forward signature: values in, values out. A value is a tensor or a TensorArray
// (lists flow along edges like tensors), and the context is there for the few kernels that need
// the run (random draws). The kernel may take its inputs (move from them: the caller drops them
// after) and writes its outputs into `out`, which is empty: a slot of the executor's frame,
// whose vector keeps its capacity from run to run. Small ops run millions of times in loop
// bodies, and a copied input or a new output vector each was 7 % of a scalar loop's time.
using Data = std::vector<Datum>;
using Kernel = std::function<void(Data& in, const Attrs&, KernelContext&, Data& out)>;

// Lifts a kernel written on whole values, f(const Data&, const Attrs&, KernelContext&) -> Data:
// the entries whose values are TensorArrays, and random draws.
template <class F>
Kernel dataKernel(F f) {
  return [f = std::move(f)](Data& in, const Attrs& a, KernelContext& ctx, Data& out) {
    out = f(in, a, ctx);
  };
}

// The tensors of `in`; throws EngineError if one of them is a TensorArray.
Tensors tensorsOf(const Data& in);

// Lifts a kernel written on tensors, f(const Tensors&, const Attrs&) -> Tensors, which is what
// most entries are, to a Kernel. An f that also takes a KernelContext* gets the context
// (elementwise kernels: writing into a dying input, checking their outputs as they write).
// The input list is a per-thread buffer (kernels never re-enter the executor) that takes the
// inputs over; the outputs are moved, not copied.
template <class F>
Kernel tensorKernel(F f) {
  return [f = std::move(f)](Data& in, const Attrs& a, KernelContext& ctx, Data& out) {
    thread_local Tensors inputs;
    // Drops the references however the kernel ends: inputs are freed after their last use.
    struct Release {
      Tensors& t;
      ~Release() { t.clear(); }
    } release{inputs};
    for (Datum& d : in) {
      if (d.isList()) throw EngineError("expects a tensor, got a TensorArray");
      inputs.push_back(std::move(d.t));
    }
    Tensors results;
    if constexpr (std::is_invocable_v<const F&, const Tensors&, const Attrs&, KernelContext*>)
      results = f(inputs, a, &ctx);
    else
      results = f(inputs, a);
    out.resize(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
      out[i].t = std::move(results[i]);
      out[i].list.reset();
    }
  };
}

// Batching rule for vectorized_map (ops/batch_rules.h): the primitive applied to a batch. It
// gets the inputs with their batch axis (-1 = not batched; at least one is batched) and returns
// every output batched along axis 0, or throws EngineError saying why it cannot apply.
using BatchRule = std::function<std::vector<Value>(
    Emitter&, const Primitive&, const std::vector<Value>&, const std::vector<int>&, const Attrs&)>;

// How the fusing executor (exec/fused_*) evaluates an elementwise entry: out[i] = f(in[0][i],
// in[1][i], ...) for i < n, every operand a block of n values of the compute type (a scalar
// input already broadcast into its block), a bool value as 0 or 1 of that type. An entry with
// these functions is elementwise: transform/fusion.h fuses it with its neighbours.
template <class T>
using BlockFn = void (*)(T* out, const T* const* in, int n);
struct ElementwiseBlock {
  BlockFn<float> f32 = nullptr;
  BlockFn<double> f64 = nullptr;
  bool boolOut = false;  // the output is bool (comparisons, logic), held as 0/1 in the block
  bool defined() const { return f32 != nullptr && f64 != nullptr; }
};

struct GradCheckCase {
  Tensors inputs;
  Attrs attrs;
};

// One registry entry. Families write each entry as one designated initializer naming only the
// members it sets, r.add({.name = "exp", .math = ..., .arity = 1, .shape = ..., ...}), in the
// order declared here (the engine builds with -Wno-missing-field-initializers for that).
struct Primitive {
  std::string name;
  // The math, stated once: two lines, the forward formula and the gradient the VJP builds (for
  // a non-differentiable entry, why there is none). The inspector shows it for a selected node.
  std::string math;
  int arity = -1;  // number of inputs, -1 = variadic
  bool differentiable = true;
  // Why no gradient flows through it, in words, for the why-None explanation (non-differentiable
  // entries); empty = "<name>, which has no gradient".
  std::string noGradient;
  bool stateful = false;  // a random draw: a new value each run, never folded while tracing
  std::function<Types(const Types&, const Attrs&)> shape;
  Kernel forward;
  std::function<std::vector<Value>(VjpContext&)> vjp;
  // How vectorized_map runs it on a batch (transform/batching.h); empty = a loop per example.
  BatchRule batch;
  // Set for elementwise entries (see ElementwiseBlock); empty = never fused.
  ElementwiseBlock elementwise;
  // Estimated multiply-adds of one run from the static types (unknown dims count 1), for the
  // parallel executor's choice of which nodes to run side by side (exec/dataflow.h). Empty =
  // one per input and output element (workOf below), right for everything but contractions.
  std::function<double(const Types& in, const Types& out, const Attrs&)> work;
  // Points where the registry-walking test checks the VJP against finite differences:
  // concrete inputs (float inputs in float64; integer inputs such as indices are held fixed)
  // and attrs. Every differentiable primitive lists at least one case, or says why not:
  std::vector<GradCheckCase> gradChecks;
  // Why a differentiable entry has no gradChecks, in words (e.g. TensorArray operands, which
  // finite differences cannot perturb, and where its gradient is checked instead). The registry
  // test fails for a differentiable entry with neither.
  std::string noGradCheck;

  // Runs `forward` on tensors that must give tensors: for tests, and for kernels that reuse
  // another primitive's kernel. Throws EngineError if an output is a TensorArray.
  Tensors run(const Tensors& in, const Attrs& attrs, KernelContext ctx = {}) const;
};

// Elements of a static shape, unknown dims counting 1.
double knownElements(const Shape& s);
// Primitive::work for entries that touch only what they output (slices, gathers, reads), and
// for views that copy nothing (reshapes).
double outputWork(const Types& in, const Types& out, const Attrs& attrs);
double viewWork(const Types& in, const Types& out, const Attrs& attrs);
// A node's estimated multiply-adds (Primitive::work, or one per input and output element).
double workOf(const Primitive& p, const Types& in, const Types& out, const Attrs& attrs);

// The primitives that passes and the tracer recognise in a graph, by identity: named here,
// in the registry, so nothing outside it compares op names.
namespace prims {
const Primitive& less();
const Primitive& add();
const Primitive& sub();
const Primitive& mul();
const Primitive& neg();
const Primitive& listWrite();
const Primitive& listRead();
const Primitive& listStack();
const Primitive& pad();
const Primitive& globalAvgPoolGrad();
const Primitive& scatterAdd();
const Primitive& customGradient();
}  // namespace prims

// True when node n runs primitive p.
inline bool runs(const Node& n, const Primitive& p) { return n.prim == &p; }

class Registry {
 public:
  static Registry& instance();
  void add(Primitive p);
  const Primitive* find(const std::string& name) const;
  const Primitive& get(const std::string& name) const;  // throws EngineError for unknown names
  std::vector<std::string> names() const;

 private:
  Registry();
  std::map<std::string, Primitive> prims_;
};

// Family registration functions, called once by Registry::instance().
void registerElementwiseOps(Registry& r);
void registerReduceOps(Registry& r);
void registerShapeOps(Registry& r);
void registerLinalgOps(Registry& r);
void registerDecompositionOps(Registry& r);
void registerSpectralOps(Registry& r);  // qr, svd, self_adjoint_eig, band_part
void registerConvOps(Registry& r);
void registerNnOps(Registry& r);
void registerRandomOps(Registry& r);
void registerDynamicSliceOps(Registry& r);  // slice_axis, pad_axis
void registerAssertOps(Registry& r);        // assert
void registerListOps(Registry& r);          // TensorArray lists, fill

}  // namespace gl
