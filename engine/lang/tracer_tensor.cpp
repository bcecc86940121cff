// Python values meet tensors: conversion, and operators with Python semantics on Python values
// and tf semantics on tensors.
#include <algorithm>
#include <cmath>
#include <set>

#include "engine/control/control_flow.h"
#include "engine/exec/executor.h"
#include "engine/lang/tracer.h"
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_format.h"
#include "engine/lang/tracer_numpy.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

// tf.range with tensor bounds used as a value: its length is known only when it runs, so it is
// a while_loop writing start, start + delta, ... into a dynamic TensorArray, then stacked.
Value rangeTensor(Builder& b, Value start, Value limit, Value delta) {
  const Value zero = b.scalar(0, DType::I32);
  const Value entries =
      b.op1("list_new", {},
            Attrs{{"dtype", std::string("int32")}, {"size", int64_t(0)}, {"dynamic_size", true}});
  auto cond = [&](Builder& bb, const std::vector<Value>& p) {
    const Value rising = o::greater(bb, delta, zero);
    return o::logicalOr(bb, o::logicalAnd(bb, rising, o::less(bb, p[1], limit)),
                        o::logicalAnd(bb, o::logicalNot(bb, rising), o::greater(bb, p[1], limit)));
  };
  auto body = [&](Builder& bb, const std::vector<Value>& p) {
    return std::vector<Value>{o::add(bb, p[0], bb.scalar(1, DType::I32)), o::add(bb, p[1], delta),
                              bb.op1("list_write", {p[2], p[0], p[1]})};
  };
  WhileOptions opt;
  opt.name = "range";
  const std::vector<Value> outs = whileLoop(b, cond, body, {zero, start, entries}, opt);
  return b.op1("list_stack", {outs[2]});
}

// Shape and flat contents of a nested Python list of numbers.
void nestedNumbers(Tracer& t, const Val& v, size_t depth, Shape& shape, std::vector<double>& out,
                   bool& anyFloat, bool& allBool, const SourceLoc& loc) {
  if (depth > size_t(kMaxListNesting)) t.fail(loc, "the list is nested too deeply");
  if (v.isNumber()) {
    if (depth != shape.size()) t.fail(loc, "a nested list of numbers must be rectangular");
    anyFloat = anyFloat || v.kind() == Kind::Float;
    allBool = allBool && v.kind() == Kind::Bool;
    out.push_back(v.number());
    return;
  }
  if (!v.isSeq())
    t.fail(loc, "cannot convert " + article(typeName(v)) + " inside a list to a tensor");
  const int64_t n = int64_t(v.items().size());
  if (depth == shape.size()) {
    if (!out.empty()) t.fail(loc, "a nested list of numbers must be rectangular");
    shape.push_back(n);
  } else if (depth > shape.size() || shape[depth] != n) {
    t.fail(loc, "a nested list of numbers must be rectangular");
  }
  for (const Val& x : v.items()) nestedNumbers(t, x, depth + 1, shape, out, anyFloat, allBool, loc);
}

// Checked 64-bit integer arithmetic (Python ints are unbounded; ours are not, so say so).
template <class Op>
int64_t checked(Op op, int64_t a, int64_t c, Tracer& t, const SourceLoc& loc) {
  int64_t out = 0;
  if (op(a, c, &out)) t.fail(loc, "integer overflow: GradLab script integers are 64-bit");
  return out;
}
bool addOv(int64_t a, int64_t c, int64_t* o) { return __builtin_add_overflow(a, c, o); }
bool subOv(int64_t a, int64_t c, int64_t* o) { return __builtin_sub_overflow(a, c, o); }
bool mulOv(int64_t a, int64_t c, int64_t* o) { return __builtin_mul_overflow(a, c, o); }

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// a ** c for c >= 0, in 64 bits.
int64_t intPow(int64_t a, int64_t c, Tracer& t, const SourceLoc& loc) {
  int64_t p = 1;
  for (int64_t k = 0; k < c; ++k) {
    p = checked(mulOv, p, a, t, loc);
    if (p == 0 || p == 1) break;
    if (p == -1) {
      p = (c % 2) ? (a == -1 ? -1 : p) : 1;
      break;
    }
  }
  return p;
}

// &, |, ^, << and >> on ints; &, | and ^ of two bools are bools.
Val pythonBits(Tracer& t, BinaryOp op, bool bools, int64_t a, int64_t c, const SourceLoc& loc) {
  if (bools && op <= BinaryOp::BitAnd)
    return Val::boolean(op == BinaryOp::BitAnd  ? (a & c)
                        : op == BinaryOp::BitOr ? (a | c)
                                                : (a ^ c));
  if (op == BinaryOp::BitAnd) return Val::integer(a & c);
  if (op == BinaryOp::BitOr) return Val::integer(a | c);
  if (op == BinaryOp::BitXor) return Val::integer(a ^ c);
  if (c < 0 || c > 62) t.fail(loc, "shift count out of range");
  return Val::integer(op == BinaryOp::LShift ? a << c : a >> c);
}

Val pythonArith(Tracer& t, BinaryOp op, const Val& l, const Val& r, const SourceLoc& loc) {
  const bool ints = l.kind() != Kind::Float && r.kind() != Kind::Float;
  const int64_t a = l.kind() == Kind::Bool ? l.asBool() : l.asInt(),
                c = r.kind() == Kind::Bool ? r.asBool() : r.asInt();
  const double x = l.number(), y = r.number();
  switch (op) {
    case BinaryOp::Add:
      if (ints) return Val::integer(checked(addOv, a, c, t, loc));
      return Val::real(x + y);
    case BinaryOp::Sub:
      if (ints) return Val::integer(checked(subOv, a, c, t, loc));
      return Val::real(x - y);
    case BinaryOp::Mul:
      if (ints) return Val::integer(checked(mulOv, a, c, t, loc));
      return Val::real(x * y);
    case BinaryOp::Div:
      if (y == 0) t.fail(loc, "ZeroDivisionError: division by zero");
      return Val::real(x / y);
    case BinaryOp::FloorDiv:
      if (y == 0) t.fail(loc, "ZeroDivisionError: integer division or modulo by zero");
      if (ints) {
        if (a == INT64_MIN && c == -1) t.fail(loc, "integer overflow");
        return Val::integer(floorDiv(a, c));
      }
      return Val::real(std::floor(x / y));
    case BinaryOp::Mod:
      if (y == 0) t.fail(loc, "ZeroDivisionError: integer division or modulo by zero");
      if (ints) {
        if (c == -1) return Val::integer(0);
        return Val::integer(a - floorDiv(a, c) * c);
      }
      return Val::real(x - std::floor(x / y) * y);
    case BinaryOp::Pow:
      if (ints && c >= 0) return Val::integer(intPow(a, c, t, loc));
      if (x == 0 && y < 0) t.fail(loc, "0.0 cannot be raised to a negative power");
      return Val::real(std::pow(x, y));
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
    case BinaryOp::LShift:
    case BinaryOp::RShift:
      if (!ints) break;
      return pythonBits(t, op, l.kind() == Kind::Bool && r.kind() == Kind::Bool, a, c, loc);
    default:
      break;
  }
  t.fail(loc, std::string("unsupported operand types for ") + symbol(op) + ": '" + typeName(l) +
                  "' and '" + typeName(r) + "'");
}

Val repeat(Tracer& t, const Val& seq, int64_t n, const SourceLoc& loc) {
  const int64_t len =
      seq.kind() == Kind::Str ? int64_t(seq.text().size()) : int64_t(seq.items().size());
  if (n > 0 && len > 0 && n > maxPythonItems() / len)
    t.fail(loc, "this repetition makes more than " + std::to_string(maxPythonItems()) + " items" +
                    kRaiseItems);
  if (seq.kind() == Kind::Str) {
    std::string s;
    for (int64_t k = 0; k < n; ++k) s += seq.text();
    return Val::str(s);
  }
  std::vector<Val> items;
  for (int64_t k = 0; k < n; ++k) items.insert(items.end(), seq.items().begin(), seq.items().end());
  return Val::listOf(std::move(items), seq.kind() == Kind::Tuple);
}

// Python's // and % on int32 tensors: the div primitive floor-divides int32 and rejects a zero
// divisor, as TF's FloorDiv and FloorMod do ("Integer division by zero"); x % y = x - (x // y) y.
// (A round trip through float64 here cast inf to int32 for a zero divisor: undefined.)
Value intFloorDivMod(Builder& b, Value x, Value y, bool mod) {
  const Value q = o::div(b, x, y);
  return mod ? o::sub(b, x, o::mul(b, q, y)) : q;
}

// +, * on strings, lists and tuples: concatenation and repetition; nothing for other types.
std::optional<Val> pythonSequences(Tracer& t, BinaryOp op, const Val& l, const Val& r,
                                   const SourceLoc& loc) {
  // Concatenation is bounded like repetition: `s = s + s` forty times would need 2^40 items
  // (it used to run for a minute and take 4 GB before failing without a location).
  auto checkLength = [&](size_t a, size_t b, const char* what) {
    if (a + b > size_t(maxPythonItems()))
      t.fail(loc, std::string("this concatenation makes more than ") +
                      std::to_string(maxPythonItems()) + " " + what + kRaiseItems);
  };
  if (op == BinaryOp::Add && l.kind() == Kind::Str && r.kind() == Kind::Str) {
    checkLength(l.text().size(), r.text().size(), "characters");
    return Val::str(l.text() + r.text());
  }
  if (op == BinaryOp::Add && l.isSeq() && l.kind() == r.kind()) {
    checkLength(l.items().size(), r.items().size(), "items");
    std::vector<Val> items = l.items();
    items.insert(items.end(), r.items().begin(), r.items().end());
    return Val::listOf(std::move(items), l.kind() == Kind::Tuple);
  }
  if (op == BinaryOp::Mul && (l.isSeq() || l.kind() == Kind::Str) && r.kind() == Kind::Int)
    return repeat(t, l, r.asInt(), loc);
  if (op == BinaryOp::Mul && (r.isSeq() || r.kind() == Kind::Str) && l.kind() == Kind::Int)
    return repeat(t, r, l.asInt(), loc);
  return std::nullopt;
}

// x op y on two tensors of one dtype; nothing where the dtype does not support op.
std::optional<Value> tensorBinary(Builder& b, BinaryOp op, Value x, Value y) {
  const DType dx = b.type(x).dtype;
  switch (op) {
    case BinaryOp::Add:
      return o::add(b, x, y);
    case BinaryOp::Sub:
      return o::sub(b, x, y);
    case BinaryOp::Mul:
      return o::mul(b, x, y);
    case BinaryOp::Div:
      return o::trueDiv(b, x, y);
    case BinaryOp::Pow:
      return o::pow(b, x, y);
    case BinaryOp::MatMul:
      return o::matmul(b, x, y);
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
      if (dx == DType::I32) return intFloorDivMod(b, x, y, op == BinaryOp::Mod);
      break;
    case BinaryOp::BitAnd:
      if (dx == DType::Bool) return o::logicalAnd(b, x, y);
      break;
    case BinaryOp::BitOr:
      if (dx == DType::Bool) return o::logicalOr(b, x, y);
      break;
    case BinaryOp::BitXor:
      if (dx == DType::Bool) return o::notEqual(b, x, y);
      break;
    default:
      break;
  }
  return std::nullopt;
}

// Python's `is`.
bool identical(const Val& l, const Val& r) {
  return l.kind() == r.kind() &&
         (l.kind() == Kind::None || l.kind() == Kind::Ellipsis ||
          (l.isTensor() && l.tensorValue() == r.tensorValue()) || (l.obj() && l.obj() == r.obj()) ||
          (l.list() && l.list() == r.list()) ||
          (l.kind() == Kind::Bool && l.asBool() == r.asBool()));
}

// Python's `x in container` on lists, tuples, strings and dicts (its keys).
bool contains(Tracer& t, const Val& container, const Val& x, const SourceLoc& loc) {
  bool found = false;
  if (container.isSeq()) {
    for (const Val& item : container.items()) found = found || sameValue(x, item);
  } else if (auto d = container.as<DictObj>()) {
    found = isDictKey(x) && d->find(x) >= 0;
    if (!found && d->environ) t.fail(loc, unsetEnvironMessage(x));
  } else if (container.kind() == Kind::Str && x.kind() == Kind::Str) {
    found = container.text().find(x.text()) != std::string::npos;
  } else {
    t.fail(loc, "argument of type '" + typeName(container) + "' does not support 'in'");
  }
  return found;
}

// <, <=, >, >=, == and != on two tensors of one dtype.
Value tensorCompare(Builder& b, CmpOp op, Value x, Value y) {
  switch (op) {
    case CmpOp::Lt:
      return o::less(b, x, y);
    case CmpOp::Le:
      return o::lessEqual(b, x, y);
    case CmpOp::Gt:
      return o::greater(b, x, y);
    case CmpOp::Ge:
      return o::greaterEqual(b, x, y);
    case CmpOp::Eq:
      return o::equal(b, x, y);
    default:
      return o::notEqual(b, x, y);
  }
}

// Below, at or above zero as l < r, l == r, l > r: Python numbers or strings (op names the
// operator in the error).
int pythonOrder(Tracer& t, CmpOp op, const Val& l, const Val& r, const SourceLoc& loc) {
  if (l.isNumber() && r.isNumber())
    return l.number() < r.number() ? -1 : l.number() > r.number() ? 1 : 0;
  if (l.kind() == Kind::Str && r.kind() == Kind::Str) return l.text().compare(r.text());
  t.fail(loc, std::string("'") + symbol(op) + "' is not supported between '" + typeName(l) +
                  "' and '" + typeName(r) + "'");
}

}  // namespace

std::string Tracer::describe(Value v) const {
  const Node& n = g_.node(v);
  std::string s = n.name.empty() ? n.label() : "'" + n.name + "' (" + std::string(n.opName()) + ")";
  if (n.loc.known()) s += " from line " + std::to_string(n.loc.line);
  return s;
}

void Tracer::checkRegion(Value v, const SourceLoc& loc) {
  const int vr = g_.node(v).region;
  if (g_.within(b_.currentRegion(), vr)) return;
  // A reverse body (a custom gradient's grad_fn traced there) reads its forward body's values
  // from what the forward loop saved (Builder::resolve).
  for (int r = b_.currentRegion(); r > 0; r = g_.region(r).parent)
    if (g_.region(r).forwardOf == vr) return;
  int r = vr;
  while (g_.region(r).parent >= 0 && !g_.within(b_.currentRegion(), g_.region(r).parent))
    r = g_.region(r).parent;
  const Region& body = g_.region(r);
  std::string where = "a loop or branch body";
  if (body.owner >= 0) {
    const Node& owner = g_.node(body.owner);
    where = "the body of the " + std::string(owner.opName()) + " at line " +
            std::to_string(owner.loc.line);
  } else if (isLoopBody(body.kind)) {
    where = "the body of a tensor loop";
  }
  fail(loc, describe(v) + " was computed inside " + where +
                ", and exists only within one iteration or branch there. Carry it out as a loop "
                "variable, collect it with a TensorArray (ta = ta.write(i, x)), or return it from "
                "the branch");
}

bool Tracer::eager() const {
  return opt_.model == ExecutionModel::Eager && functionDepth_ == 0 && b_.currentRegion() == 0;
}

Tensor Tracer::eagerValue(Value v, const SourceLoc& loc) {
  if (g_.node(v).is(NodeKind::Const)) return g_.node(v).value;
  if (g_.node(v).region != 0 || g_.type(v).list)
    fail(loc, describe(v) + " has no value while tracing");
  at(loc);
  return evaluateNow({v}).at(0);
}

std::optional<Tensor> Tracer::constantValue(Value v) {
  std::vector<int> stack{v.node};
  std::set<int> seen;
  while (!stack.empty()) {
    const Node& n = g_.node(stack.back());
    stack.pop_back();
    if (!seen.insert(n.id).second || n.is(NodeKind::Const)) continue;
    if (!n.prim || !n.regions.empty() || n.prim->stateful || n.type().list || seen.size() > 64)
      return std::nullopt;
    for (Value in : n.inputs) stack.push_back(in.node);
  }
  if (g_.node(v).is(NodeKind::Const)) return g_.node(v).value;
  if (g_.node(v).region != 0) return std::nullopt;
  try {
    return evaluateNow({v}).at(0);
  } catch (const CancelledError&) {
    throw;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

namespace {

// The trace's cancellation, as the executor asks for it.
class TraceMonitor : public RunMonitor {
 public:
  explicit TraceMonitor(const std::function<bool()>& cancelled) : cancelled_(cancelled) {}
  bool cancelled() const override { return cancelled_ && cancelled_(); }

 private:
  const std::function<bool()>& cancelled_;
};

}  // namespace

// Eager code asks for one new value at a time, whose inputs are mostly known: the top-level
// primitives it needs run one by one on known values, without planning a run of the whole
// graph. False (nothing lost) when it needs something else: a loop, a list, a placeholder.
bool Tracer::computeKnown(Value v) {
  std::vector<int> todo, stack{v.node};
  std::set<int> seen;
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second) continue;
    const Node& n = g_.node(id);
    if (n.is(NodeKind::Const) || n.is(NodeKind::Variable)) continue;
    const auto known = knownValues_.find(id);
    if (known != knownValues_.end() && known->second.size() == n.outputs.size()) continue;
    if (!n.is(NodeKind::Primitive) || n.region != 0 || seen.size() > 100000) return false;
    double bytes = 0;  // the run checks its memory budget before a kernel allocates
    for (const TypeInfo& t : n.outputs) {
      if (t.list) return false;
      double elements = 1;
      for (int64_t d : t.shape) elements *= d < 0 ? 0 : double(d);
      bytes += elements * double(dtypeSize(t.dtype));
    }
    if (bytes + double(knownBytes_) > double(opt_.memoryBudget) / 4) return false;
    for (Value in : n.inputs) stack.push_back(in.node);
    todo.push_back(id);
  }
  std::sort(todo.begin(), todo.end());  // ids are a topological order
  for (int id : todo) {
    if (opt_.cancelled && opt_.cancelled()) throw CancelledError();
    const Node& n = g_.node(id);
    std::vector<Datum> in;
    for (Value x : n.inputs) {
      const Node& from = g_.node(x);
      in.push_back(from.is(NodeKind::Const) || from.is(NodeKind::Variable)
                       ? Datum(from.value)
                       : knownValues_.at(x.node).at(size_t(x.index)));
    }
    std::vector<Datum> out;
    try {
      out = runTopLevelPrimitive(n, std::move(in));
    } catch (const EngineError& e) {
      throw e.located(n.loc, std::string(n.opName()));
    } catch (const ShapeError& e) {
      throw EngineError(e.what(), n.loc, std::string(n.opName()));
    }
    for (const Datum& d : out) knownBytes_ += d.t.defined() ? d.t.bytes() : 0;
    knownValues_[id] = std::move(out);
  }
  return true;
}

std::vector<Tensor> Tracer::evaluateNow(const std::vector<Value>& fetches) {
  if (opt_.cancelled && opt_.cancelled()) throw CancelledError();
  if (std::all_of(fetches.begin(), fetches.end(), [&](Value v) { return computeKnown(v); })) {
    std::vector<Tensor> out;
    for (Value v : fetches) {
      const Node& n = g_.node(v);
      out.push_back(n.is(NodeKind::Const) || n.is(NodeKind::Variable)
                        ? n.value
                        : knownValues_.at(v.node).at(size_t(v.index)).t);
    }
    if (knownBytes_ > opt_.memoryBudget / 4) {
      knownValues_.clear();
      knownBytes_ = 0;
    }
    return out;
  }
  return runNow(fetches, {0, 0}).first;
}

std::pair<std::vector<Tensor>, std::vector<std::string>> Tracer::runNow(
    const std::vector<Value>& fetches, std::pair<int, int> sideEffectNodes) {
  TraceMonitor monitor(opt_.cancelled);
  RunOptions ro;
  ro.records = false;
  ro.valueRecords = false;
  ro.timeline = false;
  ro.sideEffects = sideEffectNodes.first < sideEffectNodes.second;
  ro.sideEffectNodes = sideEffectNodes;
  ro.maxOps = opt_.maxOps;
  ro.memoryBudget = opt_.memoryBudget;
  ro.monitor = &monitor;
  ro.known = &knownValues_;
  std::map<int, std::vector<Datum>> computed;
  ro.computed = &computed;
  RunResult run = Executor(g_, ro).run(fetches);
  std::vector<Tensor> out;
  for (const Datum& d : run.values) out.push_back(d.t);
  for (auto& [id, values] : computed) {
    // Lists (TensorArrays) are left out, as kernels may grow a list they hold alone; so are
    // nodes with an output this run did not need (a loop's saved values for a gradient).
    if (values.size() != g_.node(id).outputs.size() ||
        std::any_of(values.begin(), values.end(),
                    [](const Datum& d) { return d.isList() || !d.defined(); }))
      continue;
    for (const Datum& d : values) knownBytes_ += d.t.defined() ? d.t.bytes() : 0;
    knownValues_.emplace(id, std::move(values));
  }
  if (knownBytes_ > opt_.memoryBudget / 4) {
    knownValues_.clear();
    knownBytes_ = 0;
  }
  return {std::move(out), std::move(run.log)};
}

bool Tracer::tensorish(const Val& v, int depth) const {
  if (v.isTensor()) return true;
  if (v.isSeq() && depth < kMaxListNesting)
    for (const Val& x : v.items())
      if (tensorish(x, depth + 1)) return true;
  return false;
}

Value Tracer::toTensor(const Val& v, const SourceLoc& loc, std::optional<DType> like) {
  switch (v.kind()) {
    case Kind::Tensor: {
      const Value t =
          v.var() ? v.var()->current : v.tensorValue();  // a variable held in a list: its value now
      checkRegion(t, loc);
      return t;
    }
    case Kind::Bool:
      return b_.constant(Tensor::scalar(v.asBool(), DType::Bool));
    case Kind::Int: {
      DType dt = like && *like != DType::Bool ? *like : DType::I32;
      if (dt == DType::I32 && (v.asInt() > INT32_MAX || v.asInt() < INT32_MIN))
        fail(loc, "the integer " + std::to_string(v.asInt()) + " does not fit in an int32 tensor");
      return b_.constant(Tensor::scalar(double(v.asInt()), dt));
    }
    case Kind::Float: {
      DType dt = like && isFloat(*like) ? *like : DType::F32;
      if (like && !isFloat(*like))
        fail(loc, "cannot mix the Python float " + repr(g_, v) + " with " +
                      article(dtypeName(*like)) + " tensor; use tf.cast");
      return b_.constant(Tensor::scalar(v.asFloat(), dt));
    }
    case Kind::List:
    case Kind::Tuple: {
      if (tensorish(v)) {
        std::optional<DType> dt = like;
        for (const Val& x : v.items())
          if (x.isTensor()) dt = b_.type(x.tensorValue()).dtype;
        std::vector<Value> parts;
        for (const Val& x : v.items()) parts.push_back(toTensor(x, loc, dt));
        if (parts.empty()) fail(loc, "cannot make a tensor from an empty list");
        at(loc);
        return o::stack(b_, parts, 0);
      }
      Shape shape;
      std::vector<double> flat;
      bool anyFloat = false, allBool = true;
      nestedNumbers(*this, v, 0, shape, flat, anyFloat, allBool, loc);
      if (flat.empty() && shape.empty()) shape = {0};
      DType dt = allBool && !flat.empty() ? DType::Bool : anyFloat ? DType::F32 : DType::I32;
      if (like && (*like == dt || (isFloat(*like) && dt != DType::Bool))) dt = *like;
      if (flat.empty()) dt = like ? *like : DType::F32;
      return b_.constant(Tensor::fromVector(flat, shape, dt));
    }
    case Kind::None: {
      std::string msg = "cannot use None as a tensor";
      if (v.why()) msg += "; it is a gradient that does not exist: " + v.why()->text;
      fail(loc, msg);
    }
    case Kind::Object:
      if (const NdArrayObj* a = asNdArray(v)) return ndarrayToTensor(cx_, *a, loc, like);
      if (v.as<TensorArrayObj>())
        fail(loc, "a TensorArray is not a tensor; read it with ta.stack() or ta.read(i)");
      if (const LazyRangeObj* lazy = v.as<LazyRangeObj>()) {
        const Value start = toTensor(lazy->range->start, loc, DType::I32);
        const Value limit = toTensor(lazy->range->limit, loc, DType::I32);
        const Value delta = toTensor(lazy->range->delta, loc, DType::I32);
        at(loc);
        return rangeTensor(b_, start, limit, delta);
      }
      [[fallthrough]];
    default:
      fail(loc, "cannot convert " + article(typeName(v)) + " to a tensor");
  }
}

Val Tracer::binary(BinaryOp op, const Val& l, const Val& r, const SourceLoc& loc) {
  if (op == BinaryOp::Mod && l.kind() == Kind::Str)
    return Val::str(percentFormat(cx_, l.text(), r, loc));
  for (const Val* v : {&l, &r})
    if (v->isNone() && v->why())
      fail(loc, std::string("an operand of '") + symbol(op) +
                    "' is None: it is a gradient that does not exist, because " + v->why()->text);
  // An ndarray with no tensor: numpy on the host (with a tensor: converted below, as TF does).
  if (auto v = ndarrayBinary(cx_, op, l, r, loc)) return *v;
  if (!l.isTensor() && !r.isTensor()) {
    if (l.isNumber() && r.isNumber()) return pythonArith(*this, op, l, r, loc);
    if (auto v = pythonSequences(*this, op, l, r, loc)) return *v;
    if (!tensorish(l) && !tensorish(r))
      fail(loc, std::string("unsupported operand types for ") + symbol(op) + ": '" + typeName(l) +
                    "' and '" + typeName(r) + "'");
  }
  std::optional<DType> likeL, likeR;
  if (l.isTensor()) likeR = b_.type(l.tensorValue()).dtype;
  if (r.isTensor()) likeL = b_.type(r.tensorValue()).dtype;
  // TF's left operand's operator converts a NumPy right operand with its own dtype for most
  // operators (the op's input conversion), but matmul converts it without one: a float32
  // tensor @ a float64 array is a dtype error, the array @ the tensor is not (r_binary_op_wrapper
  // forces one dtype).
  if (op == BinaryOp::MatMul && asNdArray(r)) likeR.reset();
  Value x = toTensor(l, loc, likeL);
  Value y = toTensor(r, loc, likeR);
  const DType dx = b_.type(x).dtype, dy = b_.type(y).dtype;
  if (dx != dy)
    fail(loc, "cannot combine " + article(dtypeName(dx)) + " tensor and " + article(dtypeName(dy)) +
                  " tensor with '" + symbol(op) + "'; use tf.cast to make them the same dtype");
  at(loc);
  if (auto v = tensorBinary(b_, op, x, y)) return Val::tensor(*v);
  fail(loc, std::string("the operator '") + symbol(op) + "' is not supported on " + dtypeName(dx) +
                " tensors");
}

Val Tracer::unary(UnaryOp op, const Val& v, const SourceLoc& loc) {
  if (auto r = ndarrayUnary(cx_, op, v, loc)) return *r;
  if (v.isTensor()) {
    const DType dt = b_.type(v.tensorValue()).dtype;
    switch (op) {
      case UnaryOp::Neg:
        return Val::tensor(o::neg(b_, v.tensorValue()));
      case UnaryOp::Pos:
        return v;
      case UnaryOp::Not:
        // Python's not on an eager tensor reads its truth (EagerTensor.__bool__); AutoGraph
        // makes a symbolic one tf.logical_not.
        if (eager()) return Val::boolean(!truthy(v, loc));
        [[fallthrough]];
      case UnaryOp::Invert:
        if (dt != DType::Bool)
          fail(loc, std::string("'") + symbol(op) + "' needs a bool tensor, got " + dtypeName(dt) +
                        "; compare first (x > 0)");
        return Val::tensor(o::logicalNot(b_, v.tensorValue()));
    }
  }
  if (op == UnaryOp::Not) return Val::boolean(!truthy(v, loc));
  if (v.isNumber()) {
    if (op == UnaryOp::Pos) return v.kind() == Kind::Bool ? Val::integer(v.asBool()) : v;
    if (op == UnaryOp::Neg) {
      if (v.kind() == Kind::Float) return Val::real(-v.asFloat());
      const int64_t i = v.kind() == Kind::Bool ? v.asBool() : v.asInt();
      if (i == INT64_MIN) fail(loc, "integer overflow");
      return Val::integer(-i);
    }
    if (op == UnaryOp::Invert && v.kind() != Kind::Float)
      return Val::integer(~(v.kind() == Kind::Bool ? int64_t(v.asBool()) : v.asInt()));
  }
  fail(loc, std::string("bad operand type for unary ") + symbol(op) + ": '" + typeName(v) + "'");
}

Val Tracer::compare(CmpOp op, const Val& l, const Val& r, const SourceLoc& loc) {
  if (op == CmpOp::Is || op == CmpOp::IsNot)
    return Val::boolean(identical(l, r) == (op == CmpOp::Is));
  if (op == CmpOp::In || op == CmpOp::NotIn)
    return Val::boolean(contains(*this, r, l, loc) == (op == CmpOp::In));
  if (auto v = ndarrayCompare(cx_, op, l, r, loc)) return *v;
  if (l.isTensor() || r.isTensor()) {
    if (l.isNone() || r.isNone()) return Val::boolean(op == CmpOp::NotEq);
    Value x = toTensor(l, loc,
                       r.isTensor() ? std::optional(b_.type(r.tensorValue()).dtype) : std::nullopt);
    Value y = toTensor(r, loc,
                       l.isTensor() ? std::optional(b_.type(l.tensorValue()).dtype) : std::nullopt);
    if (b_.type(x).dtype != b_.type(y).dtype)
      fail(loc, std::string("cannot compare a ") + dtypeName(b_.type(x).dtype) + " tensor with a " +
                    dtypeName(b_.type(y).dtype) + " tensor; use tf.cast");
    at(loc);
    return Val::tensor(tensorCompare(b_, op, x, y));
  }
  if (op == CmpOp::Eq) return Val::boolean(sameValue(l, r));
  if (op == CmpOp::NotEq) return Val::boolean(!sameValue(l, r));
  const int c = pythonOrder(*this, op, l, r, loc);
  switch (op) {
    case CmpOp::Lt:
      return Val::boolean(c < 0);
    case CmpOp::Le:
      return Val::boolean(c <= 0);
    case CmpOp::Gt:
      return Val::boolean(c > 0);
    default:
      return Val::boolean(c >= 0);
  }
}

bool Tracer::truthy(const Val& v, const SourceLoc& loc) {
  if (const std::optional<bool> t = truth(v)) return *t;
  if (asNdArray(v))
    fail(loc,
         "ValueError: The truth value of an array with more than one element is ambiguous. Use "
         "a.any() or a.all()");
  // A tensor: its value's truth where it runs eagerly, TF's error where it is symbolic.
  if (v.isTensor()) return tensorTruth(cx_, v, loc);
  fail(loc, "the truth value of " + article(typeName(v)) + " is not known while tracing");
}

}  // namespace gl::lang::trace
