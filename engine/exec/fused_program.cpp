#include "engine/exec/fused_program.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"

namespace gl {

namespace {

template <class T>
BlockFn<T> blockFn(const Primitive* p) {
  if constexpr (std::is_same_v<T, float>)
    return p->elementwise.f32;
  else
    return p->elementwise.f64;
}

// x - x is 0 for every finite x and NaN otherwise. An integer OR vectorises; a float sum
// would not (its order is fixed), and it made checked runs 7x slower.
template <class T>
bool allFinite(const T* x, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i) bad |= !(x[i] - x[i] == T(0));
  return bad == 0;
}

// The program's scalar slots (affine coefficients), from its scalar inputs, once per run.
template <class T>
void evalScalars(const FusedProgram& p, const std::vector<const Tensor*>& in,
                 std::vector<T>& slot) {
  slot.resize(p.scalars.size());
  for (size_t k = 0; k < p.scalars.size(); ++k) {
    const ScalarInstr& s = p.scalars[k];
    const T a = s.a >= 0 ? slot[size_t(s.a)] : T(0), b = s.b >= 0 ? slot[size_t(s.b)] : T(0);
    switch (s.op) {
      case ScalarOp::Constant:
        slot[k] = T(s.constant);
        break;
      case ScalarOp::Input:
        slot[k] = in[size_t(s.input)]->data<T>()[0];
        break;
      case ScalarOp::Add:
        slot[k] = a + b;
        break;
      case ScalarOp::Sub:
        slot[k] = a - b;
        break;
      case ScalarOp::Mul:
        slot[k] = a * b;
        break;
      case ScalarOp::Neg:
        slot[k] = -a;
        break;
    }
  }
}

template <class T>
void affineBlock(const FusedInstr& ins, T* __restrict out, const T* __restrict x, const T* slot,
                 int n) {
  const T a = ins.a >= 0 ? slot[ins.a] : T(1), b = ins.b >= 0 ? slot[ins.b] : T(0);
  switch (ins.kind) {
    case InstrKind::Scale:
      for (int i = 0; i < n; ++i) out[i] = a * x[i];
      break;
    case InstrKind::Shift:
      for (int i = 0; i < n; ++i) out[i] = x[i] + b;
      break;
    default:
      for (int i = 0; i < n; ++i) out[i] = a * x[i] + b;
  }
}

template <class T>
void runCode(const FusedProgram& p, T* const* reg, const T* slot, int n, bool check, bool& bad) {
  const T* args[3] = {nullptr, nullptr, nullptr};
  for (const FusedInstr& ins : p.code) {
    if (ins.kind != InstrKind::Primitive) {
      affineBlock<T>(ins, reg[ins.out], reg[ins.in[0]], slot, n);
      if (check && !allFinite(reg[ins.out], n)) bad = true;
      continue;
    }
    for (int k = 0; k < ins.arity; ++k) args[k] = reg[ins.in[size_t(k)]];
    blockFn<T>(ins.prim)(reg[ins.out], args, n);
    if (check && !ins.prim->elementwise.boolOut && !allFinite(reg[ins.out], n)) bad = true;
  }
}

template <class T>
void loadBool(T* dst, const Tensor& t, int64_t s, int n) {
  const uint8_t* src = t.data<uint8_t>() + s;
  for (int i = 0; i < n; ++i) dst[i] = src[i] ? T(1) : T(0);
}

template <class T>
void storeBool(Tensor& t, const T* src, int64_t s, int n) {
  uint8_t* dst = t.data<uint8_t>() + s;
  for (int i = 0; i < n; ++i) dst[i] = src[i] != T(0);
}

// A thread's registers, reused by every program it runs (grown, never shrunk).
template <class T>
struct Scratch {
  std::vector<T> values;
  std::vector<T*> reg;
  void reserve(size_t registers, size_t extraBlocks) {
    const size_t need = (registers + extraBlocks) * kFusedBlock;
    if (values.size() < need) values.resize(need);
    if (reg.size() < registers) reg.resize(registers);
    for (size_t r = 0; r < registers; ++r) reg[r] = values.data() + r * kFusedBlock;
  }
  T* extra(size_t registers, size_t k) { return values.data() + (registers + k) * kFusedBlock; }
};

template <class T>
Scratch<T>& threadScratch() {
  thread_local Scratch<T> s;
  return s;
}

template <class T>
void checkInputs(const FusedProgram& p, const std::vector<const Tensor*>& in) {
  if (in.size() != p.inputs.size()) throw EngineError("internal: fused program inputs");
  for (size_t k = 0; k < in.size(); ++k) {
    if (!in[k]) continue;
    const FusedInput& fi = p.inputs[k];
    const int64_t want = fi.kind == OperandKind::Full ? p.numel : 1;
    const DType dt = fi.isBool ? DType::Bool : p.dtype;
    if (in[k]->numel() != want || in[k]->dtype() != dt)
      throw EngineError("internal: a fused program's input has another size or type");
  }
}

// Scalar inputs fill their register once per thread and run.
template <class T>
void fillScalars(const FusedProgram& p, const std::vector<const Tensor*>& in, T* const* reg) {
  for (size_t k = 0; k < p.inputs.size(); ++k) {
    const FusedInput& fi = p.inputs[k];
    if (fi.kind != OperandKind::Scalar || !in[k]) continue;
    const T v = fi.isBool ? (in[k]->data<uint8_t>()[0] ? T(1) : T(0)) : in[k]->data<T>()[0];
    std::fill(reg[fi.reg], reg[fi.reg] + kFusedBlock, v);
  }
}

// Points full inputs at block s (bool ones are converted into their register).
template <class T>
void bindFullInputs(const FusedProgram& p, const std::vector<const Tensor*>& in, T** reg,
                    T* const* own, int64_t s, int n) {
  for (size_t k = 0; k < p.inputs.size(); ++k) {
    const FusedInput& fi = p.inputs[k];
    if (fi.kind != OperandKind::Full || !in[k]) continue;
    if (fi.isBool) {
      reg[fi.reg] = own[fi.reg];
      loadBool(reg[fi.reg], *in[k], s, n);
    } else {
      reg[fi.reg] = const_cast<T*>(in[k]->data<T>()) + s;  // read only: inputs are never written
    }
  }
}

template <class T>
void groupOf(const FusedProgram& p, const std::vector<const Tensor*>& in, std::vector<Tensor>& out,
             bool check, bool& bad) {
  checkInputs<T>(p, in);
  const int64_t total = p.numel;
  const int64_t blocks = (total + kFusedBlock - 1) / kFusedBlock;
  const size_t regs = size_t(p.numRegisters);
  struct Local {
    Scratch<T>* s;
    std::vector<T*>* ptr;
    const T* slot;
    bool bad = false;
  };
  bool anyBad = false;
  auto make = [&] {
    Scratch<T>& s = threadScratch<T>();
    s.reserve(regs, 0);
    fillScalars<T>(p, in, s.reg.data());
    thread_local std::vector<T*> ptr;
    ptr.assign(s.reg.begin(), s.reg.begin() + std::ptrdiff_t(regs));
    thread_local std::vector<T> slot;
    evalScalars<T>(p, in, slot);
    return Local{&s, &ptr, slot.data()};
  };
  auto block = [&](int64_t b, Local& l) {
    const int64_t s = b * kFusedBlock;
    const int n = int(std::min<int64_t>(kFusedBlock, total - s));
    T** reg = l.ptr->data();
    bindFullInputs<T>(p, in, reg, l.s->reg.data(), s, n);
    // Float outputs computed by an instruction are written in place, in the output tensor.
    for (size_t k = 0; k < p.outputs.size(); ++k) {
      const FusedOutput& o = p.outputs[k];
      if (!o.isBool && !p.isInputReg[size_t(o.reg)]) reg[o.reg] = out[k].data<T>() + s;
    }
    runCode<T>(p, reg, l.slot, n, check, l.bad);
    for (size_t k = 0; k < p.outputs.size(); ++k) {
      const FusedOutput& o = p.outputs[k];
      if (o.isBool)
        storeBool(out[k], reg[o.reg], s, n);
      else if (p.isInputReg[size_t(o.reg)])
        std::memcpy(out[k].data<T>() + s, reg[o.reg], size_t(n) * sizeof(T));
    }
    if (l.bad) {
#pragma omp atomic write
      anyBad = true;
    }
  };
  kern::forRangeWithScratch(blocks, total >= kern::kParallelWork, make, block);
  if (anyBad) bad = true;
}

// A step that is one affine map per carried value, of that value alone (the ODE's Euler step
// and its adjoint once folded): the instruction of each value, or nothing.
std::vector<const FusedInstr*> affineRecurrence(const FusedProgram& p,
                                                const std::vector<int>& paramInput) {
  const size_t vars = paramInput.size();
  std::vector<const FusedInstr*> step(vars, nullptr);
  if (p.code.size() != vars) return {};
  for (size_t j = 0; j < vars; ++j) {
    if (paramInput[j] < 0) return {};
    const int param = p.inputs[size_t(paramInput[j])].reg;
    for (const FusedInstr& ins : p.code)
      if (ins.out == p.outputs[j].reg && ins.kind != InstrKind::Primitive && ins.in[0] == param)
        step[j] = &ins;
    if (!step[j]) return {};
    for (size_t i = 0; i < j; ++i)
      if (step[i] == step[j]) return {};
  }
  return step;
}

// Runs x <- a * x + b `trips` times on n values, a chunk at a time: a chunk is a few vector
// registers of independent chains, so the loop is bound by the FPU, not by loads and stores
// (the hand-written fused_s of ../shared/peers/ode_limit.cpp).
template <class T, class Map>
void iterate(T* x, int n, int64_t trips, Map map) {
  constexpr int kChunk = 64 * 4 / int(sizeof(T));
  for (int c = 0; c < n; c += kChunk) {
    const int m = std::min(kChunk, n - c);
    T v[kChunk] = {};
    std::copy(x + c, x + c + m, v);
    for (int64_t it = 0; it < trips; ++it)
      for (int i = 0; i < kChunk; ++i) v[i] = map(v[i]);
    std::copy(v, v + m, x + c);
  }
}

template <class T>
void iterateAffine(const FusedInstr& ins, const T* slot, T* x, int n, int64_t trips) {
  const T a = ins.a >= 0 ? slot[ins.a] : T(1), b = ins.b >= 0 ? slot[ins.b] : T(0);
  switch (ins.kind) {
    case InstrKind::Scale:
      iterate(x, n, trips, [a](T v) { return a * v; });
      break;
    case InstrKind::Shift:
      iterate(x, n, trips, [b](T v) { return v + b; });
      break;
    default:
      iterate(x, n, trips, [a, b](T v) { return a * v + b; });
  }
}

template <class T>
void loopOf(const FusedProgram& p, const std::vector<int>& paramInput,
            const std::vector<const Tensor*>& carried, const std::vector<const Tensor*>& in,
            int64_t trips, bool parallel, std::vector<Tensor>& out, bool check, bool& bad) {
  checkInputs<T>(p, in);
  const size_t vars = carried.size();
  const int64_t total = p.numel;
  const int64_t blocks = (total + kFusedBlock - 1) / kFusedBlock;
  const size_t regs = size_t(p.numRegisters);
  // A result computed by an instruction of its own is written straight into the next buffer;
  // a result that is an input (a carried value, an invariant) or shared is copied there.
  std::vector<uint8_t> direct(vars, 0);
  for (size_t j = 0; j < vars; ++j) {
    const int r = p.outputs[j].reg;
    bool shared = false;
    for (size_t i = 0; i < j; ++i) shared = shared || p.outputs[i].reg == r;
    direct[j] = !p.isInputReg[size_t(r)] && !shared;
  }
  const std::vector<const FusedInstr*> recurrence = affineRecurrence(p, paramInput);
  struct Local {
    Scratch<T>* s;
    std::vector<T*>* ptr;
    const T* slot;
    bool bad = false;
  };
  bool anyBad = false;
  auto make = [&] {
    Scratch<T>& s = threadScratch<T>();
    s.reserve(regs, 2 * vars);
    fillScalars<T>(p, in, s.reg.data());
    thread_local std::vector<T*> ptr;
    ptr.assign(s.reg.begin(), s.reg.begin() + std::ptrdiff_t(regs));
    thread_local std::vector<T> slot;
    evalScalars<T>(p, in, slot);
    return Local{&s, &ptr, slot.data()};
  };
  auto block = [&](int64_t b, Local& l) {
    const int64_t s = b * kFusedBlock;
    const int n = int(std::min<int64_t>(kFusedBlock, total - s));
    T** reg = l.ptr->data();
    bindFullInputs<T>(p, in, reg, l.s->reg.data(), s, n);
    // Two buffers per carried value: this iteration's and the next one's.
    T* cur[64];
    T* nxt[64];
    for (size_t j = 0; j < vars; ++j) {
      cur[j] = l.s->extra(regs, 2 * j);
      nxt[j] = l.s->extra(regs, 2 * j + 1);
      std::memcpy(cur[j], carried[j]->data<T>() + s, size_t(n) * sizeof(T));
    }
    // Once a value is NaN or infinite, a * x + b stays so: checking the last one is enough.
    for (size_t j = 0; j < recurrence.size(); ++j) {
      iterateAffine<T>(*recurrence[j], l.slot, cur[j], n, trips);
      if (check && !allFinite(cur[j], n)) l.bad = true;
    }
    for (int64_t it = 0; it < trips && recurrence.empty(); ++it) {
      for (size_t j = 0; j < vars; ++j) {
        if (paramInput[j] >= 0) reg[p.inputs[size_t(paramInput[j])].reg] = cur[j];
        if (direct[j]) reg[p.outputs[j].reg] = nxt[j];
      }
      runCode<T>(p, reg, l.slot, n, check, l.bad);
      for (size_t j = 0; j < vars; ++j)
        if (!direct[j]) std::memcpy(nxt[j], reg[p.outputs[j].reg], size_t(n) * sizeof(T));
      for (size_t j = 0; j < vars; ++j) std::swap(cur[j], nxt[j]);
    }
    for (size_t j = 0; j < vars; ++j)
      std::memcpy(out[j].data<T>() + s, cur[j], size_t(n) * sizeof(T));
    if (l.bad) {
#pragma omp atomic write
      anyBad = true;
    }
  };
  kern::forRangeWithScratch(blocks, parallel && blocks > 1, make, block);
  if (anyBad) bad = true;
}

}  // namespace

void runFusedGroup(const FusedProgram& p, const std::vector<const Tensor*>& in,
                   std::vector<Tensor>& out, bool checkFinite, bool& nonFinite) {
  if (p.dtype == DType::F64)
    groupOf<double>(p, in, out, checkFinite, nonFinite);
  else
    groupOf<float>(p, in, out, checkFinite, nonFinite);
}

void runElementMajor(const FusedProgram& p, const std::vector<int>& paramInput,
                     const std::vector<const Tensor*>& carried,
                     const std::vector<const Tensor*>& in, int64_t trips, bool parallel,
                     std::vector<Tensor>& out, bool checkFinite, bool& nonFinite) {
  if (carried.size() > 64) throw EngineError("internal: more than 64 element-major variables");
  if (p.dtype == DType::F64)
    loopOf<double>(p, paramInput, carried, in, trips, parallel, out, checkFinite, nonFinite);
  else
    loopOf<float>(p, paramInput, carried, in, trips, parallel, out, checkFinite, nonFinite);
}

}  // namespace gl
