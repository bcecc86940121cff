#pragma once
// The memory a run's top level will hold at once, known from the plan before any kernel runs:
// the nodes' static output shapes, kept from where they are made until the plan frees them.
#include <cstddef>

#include "engine/exec/plan.h"

namespace gl {

// Throws an EngineError at the first top-level node after which the tensors alive together
// (plus `live`, what is held already) would pass `budget`. Outputs of unknown size, lists and
// outputs that may share an input's buffer (a reshape, an identity) are not counted, so the
// estimate never exceeds what the run will really hold.
void checkPlannedMemory(const Graph& g, const ExecutionPlan& plan, size_t live, size_t budget);

}  // namespace gl
