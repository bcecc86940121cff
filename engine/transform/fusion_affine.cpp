#include "engine/transform/fusion_affine.h"

#include <map>
#include <optional>

#include "engine/ops/registry.h"

namespace gl {

namespace {

// The scalar code: slots with constant folding of the identities the chains produce (1 * s,
// 0 + s, -(-s)), so a plain multiplication keeps b = 0 and stays a Scale.
class ScalarCode {
 public:
  explicit ScalarCode(DType dtype) : dtype_(dtype) {
    zero = constant(0);
    one = constant(1);
  }
  int zero = -1, one = -1;
  std::vector<ScalarInstr> code;
  std::vector<Value> values;

  int input(Value v) {
    auto it = inputSlot_.find(v);
    if (it != inputSlot_.end()) return it->second;
    ScalarInstr s;
    s.op = ScalarOp::Input;
    s.input = int(values.size());
    values.push_back(v);
    return inputSlot_[v] = push(s);
  }
  bool isConstant(int slot, double c) const {
    return code[size_t(slot)].op == ScalarOp::Constant && code[size_t(slot)].constant == c;
  }
  int add(int x, int y) {
    if (isConstant(x, 0)) return y;
    if (isConstant(y, 0)) return x;
    return binary(ScalarOp::Add, x, y);
  }
  int sub(int x, int y) {
    if (isConstant(y, 0)) return x;
    if (isConstant(x, 0)) return neg(y);
    return binary(ScalarOp::Sub, x, y);
  }
  int mul(int x, int y) {
    if (isConstant(x, 1)) return y;
    if (isConstant(y, 1)) return x;
    if (isConstant(x, 0) || isConstant(y, 0)) return zero;
    if (isConstant(x, -1)) return neg(y);
    if (isConstant(y, -1)) return neg(x);
    return binary(ScalarOp::Mul, x, y);
  }
  int neg(int x) {
    const ScalarInstr& s = code[size_t(x)];
    if (s.op == ScalarOp::Constant) return constant(-s.constant);
    if (s.op == ScalarOp::Neg) return s.a;
    ScalarInstr n;
    n.op = ScalarOp::Neg;
    n.a = x;
    return push(n);
  }

 private:
  DType dtype_;
  std::map<Value, int> inputSlot_;

  int push(const ScalarInstr& s) {
    code.push_back(s);
    return int(code.size()) - 1;
  }
  int constant(double c) {
    if (dtype_ == DType::F32) c = double(float(c));
    for (size_t k = 0; k < code.size(); ++k)
      if (code[k].op == ScalarOp::Constant && code[k].constant == c) return int(k);
    ScalarInstr s;
    s.constant = c;
    return push(s);
  }
  int binary(ScalarOp op, int x, int y) {
    const ScalarInstr &sx = code[size_t(x)], &sy = code[size_t(y)];
    if (sx.op == ScalarOp::Constant && sy.op == ScalarOp::Constant) {
      const double a = sx.constant, b = sy.constant;
      return constant(op == ScalarOp::Add ? a + b : op == ScalarOp::Sub ? a - b : a * b);
    }
    ScalarInstr s;
    s.op = op;
    s.a = x;
    s.b = y;
    return push(s);
  }
};

// A member value not computed yet: slot[a] * base + slot[b].
struct Form {
  Value base;
  int a = -1, b = -1;
};

class Folder {
 public:
  Folder(const Graph& g, const std::set<int>& inside, DType dtype, int64_t numel)
      : g_(g), inside_(inside), dtype_(dtype), numel_(numel), sc_(dtype) {}

  AffineFold run(const std::vector<FusionStep>& steps, const std::set<Value>& kept) {
    for (const FusionStep& st : steps) {
      if (std::optional<Form> f = fold(st)) {
        deferred_[Value{st.node, 0}] = *f;
        lastPrim_[st.node] = st.prim;
        continue;
      }
      for (Value v : st.in) materialize(v);
      out_.push_back(st);
    }
    for (Value v : kept) materialize(v);
    return {std::move(out_), std::move(sc_.code), std::move(sc_.values)};
  }

 private:
  const Graph& g_;
  const std::set<int>& inside_;
  DType dtype_;
  int64_t numel_;
  ScalarCode sc_;
  std::map<Value, Form> deferred_;
  std::map<int, const Primitive*> lastPrim_;
  std::vector<FusionStep> out_;

  bool isScalar(Value v) const {
    const TypeInfo& t = g_.type(v);
    return !inside_.count(v.node) && t.dtype == dtype_ && numel(t.shape) == 1 && numel_ > 1;
  }
  bool isFull(Value v) const {
    const TypeInfo& t = g_.type(v);
    return t.dtype == dtype_ && numel(t.shape) == numel_;
  }
  Form formOf(Value v) const {
    auto it = deferred_.find(v);
    return it != deferred_.end() ? it->second : Form{v, sc_.one, sc_.zero};
  }

  // The form of st's output, or nothing when st is not an affine map of one full value.
  std::optional<Form> fold(const FusionStep& st) {
    if (st.kind != InstrKind::Primitive) return std::nullopt;
    const Primitive* p = st.prim;
    if (p == &prims::neg() && st.in.size() == 1 && isFull(st.in[0])) {
      const Form f = formOf(st.in[0]);
      return Form{f.base, sc_.neg(f.a), sc_.neg(f.b)};
    }
    const bool add = p == &prims::add(), sub = p == &prims::sub(), mul = p == &prims::mul();
    if (!(add || sub || mul) || st.in.size() != 2) return std::nullopt;
    const Value x = st.in[0], y = st.in[1];
    if (isFull(x) && isScalar(y)) {
      const Form f = formOf(x);
      const int s = sc_.input(y);
      if (add) return Form{f.base, f.a, sc_.add(f.b, s)};
      if (sub) return Form{f.base, f.a, sc_.sub(f.b, s)};
      return Form{f.base, sc_.mul(f.a, s), sc_.mul(f.b, s)};
    }
    if (isScalar(x) && isFull(y)) {
      const Form f = formOf(y);
      const int s = sc_.input(x);
      if (add) return Form{f.base, f.a, sc_.add(s, f.b)};
      if (sub) return Form{f.base, sc_.neg(f.a), sc_.sub(s, f.b)};
      return Form{f.base, sc_.mul(s, f.a), sc_.mul(s, f.b)};
    }
    if (isFull(x) && isFull(y) && !mul) {
      const Form fx = formOf(x), fy = formOf(y);
      if (fx.base != fy.base) return std::nullopt;
      if (add) return Form{fx.base, sc_.add(fx.a, fy.a), sc_.add(fx.b, fy.b)};
      return Form{fx.base, sc_.sub(fx.a, fy.a), sc_.sub(fx.b, fy.b)};
    }
    return std::nullopt;
  }

  // Computes a deferred value where something reads it: one affine step.
  void materialize(Value v) {
    auto it = deferred_.find(v);
    if (it == deferred_.end()) return;
    const Form f = it->second;
    deferred_.erase(it);
    FusionStep st;
    st.node = v.node;
    st.prim = lastPrim_.at(v.node);
    st.in = {f.base};
    st.a = f.a;
    st.b = f.b;
    const bool unitA = sc_.isConstant(f.a, 1), zeroB = sc_.isConstant(f.b, 0);
    st.kind = zeroB ? InstrKind::Scale : unitA ? InstrKind::Shift : InstrKind::Affine;
    out_.push_back(st);
  }
};

}  // namespace

AffineFold foldAffine(const Graph& g, const std::vector<FusionStep>& steps,
                      const std::set<int>& inside, const std::set<Value>& kept, DType dtype,
                      int64_t numel) {
  return Folder(g, inside, dtype, numel).run(steps, kept);
}

}  // namespace gl
