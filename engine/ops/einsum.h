#pragma once
// Einsum equations: parsing and contraction planning, without tensors. linalg.cpp runs a plan as
// transpose + reshape + batched GEMM and builds VJPs from the parsed labels.
#include <cstdint>
#include <string>
#include <vector>

namespace gl::einsum {

// A parsed equation: one label string per operand and the output labels, e.g. "bti,ntic->bntc".
struct Equation {
  std::vector<std::string> inputs;
  std::string output;
  std::string str() const;  // explicit form, "bti,ntic->bntc"
};

// Parses `text` for operands of the given ranks (1 or 2 operands). Labels are letters; spaces are
// ignored; without "->" the output follows NumPy's implicit rule (labels that appear exactly once,
// in alphabetical order). Ellipses and labels repeated within one operand are not supported.
// Throws ShapeError naming the equation.
Equation parse(const std::string& text, const std::vector<int>& ranks);

// How one operand is brought into GEMM layout: permuted (copy) if its axes are not already in
// one of the two orders a GEMM can read, then its trailing `summed` axes are summed away.
struct OperandPlan {
  std::vector<int64_t> perm;  // transpose perm; empty = use as stored
  int summed = 0;             // trailing axes (after perm) that only this operand has
  bool transposed = false;    // the GEMM reads the operand transposed
};

// A two-operand contraction as a batched GEMM:
//   A -> [batch, freeA, contracted] (or [batch, contracted, freeA], transposed)
//   B -> [batch, contracted, freeB] (or [batch, freeB, contracted], transposed)
//   C = A @ B per batch: [batch, freeA, freeB], or [batch, freeB, freeA] = B^T A^T if `swap`,
//   which spares the output transpose when the output lists B's free labels first.
struct Plan {
  std::string batch;       // in both operands and the output, in output order
  std::string freeA;       // in A and the output only, in output order
  std::string freeB;       // in B and the output only, in output order
  std::string contracted;  // in both operands, not in the output, in A's order
  std::string sumA, sumB;  // in one operand only and not in the output: summed away first
  OperandPlan a, b;
  bool swap = false;
  std::vector<int64_t> outPerm;  // transpose of the GEMM result to the output; empty = none
  // The labels of the GEMM result, before outPerm.
  std::string resultLabels() const;
};
Plan planContraction(const Equation& eq);

// One operand: transpose to [output labels, summed labels], then sum the trailing ones.
OperandPlan planUnary(const Equation& eq);

}  // namespace gl::einsum
