#pragma once
// The gradient-flow overlay's scale and badges from a run's loop records (the norms
// themselves come from the engine: lab/gradient_view.h).
#include <map>

#include "engine/exec/run.h"

namespace gl::ui {

// Widens a scale by every adjoint norm a run recorded, at every step of every loop, so that the
// colours stay put while the step slider moves (call it for each variant's run).
class GradientScale;
void includeRunInScale(GradientScale& scale, const RunResult& run);

// Iteration counts of the loops that ran, for the badges of folded frames.
std::map<int, int64_t> loopIterations(const RunResult& run);

}  // namespace gl::ui
