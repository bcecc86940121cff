#pragma once
// Gradient norms per graph Value from a run's loop records, for the gradient-flow overlay.
#include <map>

#include "engine/exec/run.h"

namespace gl::ui {

// The L2 norm of the adjoint flowing along each value at loop iteration `step` (clamped to each
// loop's recorded range): a while body's param i and the loop's inputs/outputs carry the adjoint
// of loop variable i; a body result i carries the adjoint of variable i at the next iteration.
// The reverse loop's edges carry the same adjoints (its var 1 + k is the adjoint of forward var
// adj_of[k]). Loops without adjoint records (no gradient was run) contribute nothing.
std::map<Value, double> gradientNormsAtStep(const Graph& g, const RunResult& run, int64_t step);

// Widens a scale by every adjoint norm a run recorded, at every step of every loop, so that the
// colours stay put while the step slider moves (call it for each variant's run).
class GradientScale;
void includeRunInScale(GradientScale& scale, const RunResult& run);

// Iteration counts of the loops that ran, for the badges of folded frames.
std::map<int, int64_t> loopIterations(const RunResult& run);

}  // namespace gl::ui
