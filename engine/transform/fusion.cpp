#include "engine/transform/fusion.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/ops/registry.h"
#include "engine/transform/fusion_affine.h"

namespace gl {

namespace {

bool knownNumel(const TypeInfo& t, int64_t& n) {
  if (t.list || !fullyKnown(t.shape)) return false;
  n = numel(t.shape);
  return true;
}

// x + (-y) and (-y) + x become x - y, dropping the neg when nothing else reads it: exact in
// IEEE arithmetic (signed zeros and NaN included), and one pass fewer per block. The ODE
// step -x + 1 and its adjoint g + -(g * dt) are this pattern.
std::vector<FusionStep> rewriteNegations(const Graph& g, const std::vector<int>& members,
                                         const std::set<Value>& kept) {
  const Primitive& neg = prims::neg();
  const Primitive& sub = prims::sub();
  std::map<Value, int> reads;
  for (int id : members)
    for (Value v : g.node(id).inputs) ++reads[v];
  std::map<int, Value> negOf;  // a neg member -> what it negates
  for (int id : members) {
    const Node& n = g.node(id);
    if (runs(n, neg) && !kept.count({id, 0}) && reads[{id, 0}] == 1) negOf[id] = n.inputs[0];
  }
  std::set<int> dropped;
  std::vector<FusionStep> steps;
  for (int id : members) {
    const Node& n = g.node(id);
    FusionStep st{id, n.prim, n.inputs};
    if (runs(n, prims::add())) {
      for (int k = 1; k >= 0; --k) {
        auto it = negOf.find(n.inputs[size_t(k)].node);
        if (it == negOf.end() || n.inputs[0] == n.inputs[1]) continue;
        st.prim = &sub;
        st.in = {n.inputs[size_t(1 - k)], it->second};
        dropped.insert(it->first);
        break;
      }
    }
    steps.push_back(std::move(st));
  }
  std::vector<FusionStep> out;
  for (FusionStep& st : steps)
    if (!dropped.count(st.node)) out.push_back(std::move(st));
  return out;
}

int inputIndex(const FusedProgram& p, Value v) {
  for (size_t k = 0; k < p.inputs.size(); ++k)
    if (p.inputs[k].value == v) return int(k);
  throw EngineError("internal: a fused program's scalar is not one of its inputs");
}

}  // namespace

bool fusible(const Graph& g, const Node& n, DType& dtype, std::string* why) {
  auto no = [why](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!n.is(NodeKind::Primitive) || !n.prim->elementwise.defined())
    return no(std::string(n.opName()) + " is not elementwise");
  if (n.prim->stateful) return no(std::string(n.opName()) + " draws random numbers");
  if (n.outputs.size() != 1) return no(std::string(n.opName()) + " has several outputs");
  int64_t size = 0;
  if (!knownNumel(n.type(), size)) return no("the shape of " + n.label() + " is not known");
  // The compute type: the first float among the output and the inputs.
  bool found = false;
  auto consider = [&](DType t) {
    if (!found && isFloat(t)) {
      dtype = t;
      found = true;
    }
  };
  consider(n.type().dtype);
  for (Value v : n.inputs) consider(g.type(v).dtype);
  if (!found) return no(n.label() + " computes on no float value");
  auto allowed = [&](DType t) { return t == dtype || t == DType::Bool; };
  if (!allowed(n.type().dtype)) return no(n.label() + " mixes dtypes");
  if ((n.type().dtype == DType::Bool) != n.prim->elementwise.boolOut)
    return no(n.label() + " has an unexpected output dtype");
  for (Value v : n.inputs) {
    int64_t k = 0;
    if (!knownNumel(g.type(v), k) || !allowed(g.type(v).dtype))
      return no(n.label() + " reads " + g.node(v).label() + " of type " + g.type(v).str());
    if (k != size && k != 1) return no(n.label() + " broadcasts " + g.node(v).label());
  }
  return true;
}

FusedProgram compileProgram(const Graph& g, const std::vector<int>& members,
                            const std::vector<Value>& outputs) {
  FusedProgram p;
  p.members = members;
  const Node& first = g.node(members.front());
  fusible(g, first, p.dtype);
  p.numel = numel(first.type().shape);
  const std::set<int> inside(members.begin(), members.end());
  const std::set<Value> kept(outputs.begin(), outputs.end());
  AffineFold folded =
      foldAffine(g, rewriteNegations(g, members, kept), inside, kept, p.dtype, p.numel);
  const std::vector<FusionStep>& steps = folded.steps;

  // Last instruction reading each value (inputs and member outputs alike).
  std::map<Value, int> lastRead;
  for (size_t i = 0; i < steps.size(); ++i)
    for (Value v : steps[i].in) lastRead[v] = int(i);

  std::map<Value, int> reg;
  std::vector<int> freeRegs;
  auto inputReg = [&](Value v) {
    auto it = reg.find(v);
    if (it != reg.end()) return it->second;
    FusedInput in;
    in.value = v;
    in.kind = numel(g.type(v).shape) == p.numel ? OperandKind::Full : OperandKind::Scalar;
    in.isBool = g.type(v).dtype == DType::Bool;
    in.reg = p.numRegisters++;
    p.inputs.push_back(in);
    reg[v] = in.reg;
    return in.reg;
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    const FusionStep& st = steps[i];
    FusedInstr ins;
    ins.kind = st.kind;
    ins.prim = st.prim;
    ins.node = st.node;
    ins.a = st.a;
    ins.b = st.b;
    ins.arity = int(st.in.size());
    for (size_t k = 0; k < st.in.size(); ++k) {
      const Value v = st.in[k];
      ins.in[k] = inside.count(v.node) ? reg.at(v) : inputReg(v);
    }
    const Value out{st.node, 0};
    if (!kept.count(out) && !freeRegs.empty()) {
      ins.out = freeRegs.back();
      freeRegs.pop_back();
    } else {
      ins.out = p.numRegisters++;
    }
    reg[out] = ins.out;
    p.code.push_back(ins);
    // Registers of member values read for the last time here go back to the free list (after
    // the output took its register, so an instruction never writes what it reads).
    std::set<int> released;
    for (const Value v : st.in)
      if (inside.count(v.node) && !kept.count(v) && lastRead.at(v) == int(i) &&
          released.insert(reg.at(v)).second)
        freeRegs.push_back(reg.at(v));
    // A value nobody reads frees at once, unless it is kept.
    if (!kept.count(out) && !lastRead.count(out)) freeRegs.push_back(ins.out);
  }
  p.scalars = std::move(folded.scalars);
  for (ScalarInstr& s : p.scalars)
    if (s.op == ScalarOp::Input) {
      inputReg(folded.scalarValues[size_t(s.input)]);
      s.input = inputIndex(p, folded.scalarValues[size_t(s.input)]);
    }
  for (Value v : outputs) {
    FusedOutput o;
    o.value = v;
    o.reg = inside.count(v.node) ? reg.at(v) : inputReg(v);
    o.isBool = g.type(v).dtype == DType::Bool;
    p.outputs.push_back(o);
  }
  p.isInputReg.assign(size_t(p.numRegisters), 0);
  for (const FusedInput& in : p.inputs) p.isInputReg[size_t(in.reg)] = 1;
  return p;
}

std::vector<FusedProgram> fuseRegion(const Graph& g, const std::vector<int>& order,
                                     const std::vector<Value>& roots) {
  struct Group {
    DType dtype = DType::F32;
    int64_t numel = 0;
    std::vector<int> members;
    bool open = true;
  };
  std::vector<Group> groups;
  std::map<int, int> groupOf;  // node id -> group
  auto groupOfValue = [&](Value v) {
    auto it = groupOf.find(v.node);
    return it == groupOf.end() ? -1 : it->second;
  };
  for (int id : order) {
    const Node& n = g.node(id);
    DType dt = DType::F32;
    const bool canFuse = fusible(g, n, dt);
    const int64_t size = canFuse ? numel(n.type().shape) : 0;
    int join = -1;
    if (canFuse)
      for (Value v : n.inputs) {
        const int gi = groupOfValue(v);
        if (gi >= 0 && groups[size_t(gi)].open && groups[size_t(gi)].dtype == dt &&
            groups[size_t(gi)].numel == size) {
          join = gi;
          break;
        }
      }
    // Any other open group n reads from ends here: its members stay before n.
    auto reads = [&](Value v) {
      const int gi = groupOfValue(v);
      if (gi >= 0 && gi != join) groups[size_t(gi)].open = false;
    };
    for (Value v : n.inputs) reads(v);
    for (Value v : n.captures) reads(v);
    if (!canFuse) continue;
    if (join < 0) {
      join = int(groups.size());
      groups.push_back({dt, size, {}, true});
    }
    groups[size_t(join)].members.push_back(id);
    groupOf[id] = join;
  }

  // Outputs: member values read by a non-member, or roots.
  std::vector<std::set<Value>> outs(groups.size());
  for (int id : order) {
    const Node& n = g.node(id);
    auto use = [&](Value v) {
      const int gi = groupOfValue(v);
      if (gi >= 0 && groupOfValue({id, 0}) != gi) outs[size_t(gi)].insert(v);
    };
    for (Value v : n.inputs) use(v);
    for (Value v : n.captures) use(v);
  }
  for (Value v : roots)
    if (const int gi = groupOfValue(v); gi >= 0) outs[size_t(gi)].insert(v);

  std::vector<FusedProgram> programs;
  for (size_t i = 0; i < groups.size(); ++i)
    if (groups[i].members.size() >= 2)
      programs.push_back(
          compileProgram(g, groups[i].members, std::vector<Value>(outs[i].begin(), outs[i].end())));
  return programs;
}

}  // namespace gl
