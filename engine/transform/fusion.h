#pragma once
// Fusion of elementwise primitives (entries with an ElementwiseBlock, ops/registry.h): a chain
// or DAG of them over one element count becomes one fused program, which the fusing executor
// (exec/fused_*) runs block by block, in one pass over memory, instead of one pass and one
// tensor per node. Reverse mode emits graphs too, so backward chains fuse the same way.
//
// A program is straight-line code over registers, each a block of elements of one float type:
// inputs (values computed elsewhere, full-size or a single value broadcast), one instruction
// per member node, and outputs (member values something outside the program reads).
#include <array>
#include <string>
#include <vector>

#include "engine/graph/graph.h"

namespace gl {

// How an input fills its register: element by element, or one value repeated.
enum class OperandKind : uint8_t { Full, Scalar };

struct FusedInput {
  Value value;
  OperandKind kind = OperandKind::Full;
  bool isBool = false;  // a bool tensor, loaded as 0/1 of the program's type
  int reg = -1;
};

// A scalar the program computes once per run, before its first block: the coefficients of its
// affine instructions (transform/fusion_affine.h). Slot k of the program's scalar code is
// scalars[k]; operands are earlier slots.
enum class ScalarOp : uint8_t { Constant, Input, Add, Sub, Mul, Neg };

struct ScalarInstr {
  ScalarOp op = ScalarOp::Constant;
  double constant = 0;  // Constant: already rounded to the program's dtype
  int input = -1;       // Input: index into FusedProgram::inputs (a Scalar one)
  int a = -1, b = -1;   // operand slots
};

// What an instruction computes: its primitive's block function, or an affine map of one
// register with scalar coefficients (a folded chain of add, sub, mul and neg).
enum class InstrKind : uint8_t { Primitive, Affine, Scale, Shift };

struct FusedInstr {
  InstrKind kind = InstrKind::Primitive;
  const Primitive* prim = nullptr;  // the primitive, or the last one of a folded chain
  int node = -1;
  int out = -1;
  std::array<int, 3> in{-1, -1, -1};
  int arity = 0;
  // Affine: out = slot[a] * in[0] + slot[b]; Scale: out = slot[a] * in[0];
  // Shift: out = in[0] + slot[b].
  int a = -1, b = -1;
};

struct FusedOutput {
  Value value;
  int reg = -1;
  bool isBool = false;  // stored as a bool tensor
};

struct FusedProgram {
  DType dtype = DType::F32;  // of every register: float32 or float64
  int64_t numel = 0;         // elements of every full operand and every output
  int numRegisters = 0;
  std::vector<int> members;  // node ids, in execution order
  std::vector<FusedInput> inputs;
  std::vector<FusedInstr> code;
  std::vector<FusedOutput> outputs;
  std::vector<ScalarInstr> scalars;
  std::vector<uint8_t> isInputReg;  // per register: holds an input (never written)
  int lastMember() const { return members.back(); }
};

// The compute type of node n if it can be a member of a program: an elementwise primitive
// with one output whose every input and output is that float type or bool, all with fully
// known shapes, each input the output's size or a single value. Otherwise `why` says why not.
bool fusible(const Graph& g, const Node& n, DType& dtype, std::string* why = nullptr);

// Straight-line code for `members` (node ids of one region in topological order, all fusible
// with one dtype and size): every value they read that no member computes becomes an input,
// and `outputs` (member values, or inputs) are kept. Registers are reused after their last
// read, except those of inputs and outputs; an instruction never writes a register it reads.
FusedProgram compileProgram(const Graph& g, const std::vector<int>& members,
                            const std::vector<Value>& outputs);

// The pass over one region: `order` lists the nodes that run, in order; `roots` the values
// that must exist after the region besides those non-members read (results, saved values,
// fetches). Groups grow along producer -> consumer edges and close when a non-member reads
// them, so running each group at its last member keeps a topological order. Returns the
// groups of two or more members.
std::vector<FusedProgram> fuseRegion(const Graph& g, const std::vector<int>& order,
                                     const std::vector<Value>& roots);

}  // namespace gl
