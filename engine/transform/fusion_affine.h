#pragma once
// Affine folding, the last rewrite before a fused program gets registers: a chain of add, sub,
// mul and neg that combines one full value with scalars is one affine map a * x + b, its
// coefficients computed once per run from the scalars. The ODE's Euler step x + dt * (1 - x) is
// 0.9 * x + 0.1 and its adjoint g - g * dt is 0.9 * g: one pass over the block instead of
// three and two, and an element-major loop whose step is one affine map per carried value runs
// it with the values in registers (exec/fused_program.cpp).
//
// Folding reassociates: (1 - dt) * x + dt rounds differently from x + dt * (1 - x) in the
// last bit, as a compiler's contraction of a * b + c into one FMA does. Maps with b = 0 or
// a = 1 stay a multiplication or an addition, exact like the instruction they replace.
#include <array>
#include <set>
#include <vector>

#include "engine/graph/graph.h"
#include "engine/transform/fusion.h"

namespace gl {

// One instruction before registers: the node it computes, its entry and the values it reads;
// an affine step reads one value and the scalar slots a and b.
struct FusionStep {
  int node = -1;
  const Primitive* prim = nullptr;
  std::vector<Value> in;
  InstrKind kind = InstrKind::Primitive;
  int a = -1, b = -1;
};

struct AffineFold {
  std::vector<FusionStep> steps;
  std::vector<ScalarInstr> scalars;  // Input entries' `input` indexes scalarValues
  std::vector<Value> scalarValues;   // the scalar graph values the coefficients read
};

// Folds `steps` (members of one program, in order; `inside` their node ids) of a program over
// `numel` elements of `dtype`. Values in `kept` are computed by the folded steps too.
AffineFold foldAffine(const Graph& g, const std::vector<FusionStep>& steps,
                      const std::set<int>& inside, const std::set<Value>& kept, DType dtype,
                      int64_t numel);

}  // namespace gl
