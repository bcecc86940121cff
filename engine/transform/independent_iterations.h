#pragma once
// A pass over a traced graph: marks the while loops whose iterations are independent
// (ControlAttrs::independent), so the parallel executor may run them concurrently. This is
// seed-a's per-sample loop: `i < n`, `i + 1`, `ta.write(i, f(x[i]))`.
#include "engine/graph/graph.h"

namespace gl {

// The analysis of one while node; an unmarked result when the iterations may depend on each
// other (or the loop is a reverse loop, or its body has side effects).
IndependentIterations independentIterations(const Graph& g, const Node& loop);

// Marks every while loop of the graph. Returns how many it marked.
int markIndependentIterations(Graph& g);

}  // namespace gl
