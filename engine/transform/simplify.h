#pragma once
// Arithmetic simplification for a run, as Grappler's arithmetic optimizer does for a TF graph:
// a negation whose only reader is an add or a sub is folded into it (x + -y = x - y,
// -x + y = y - x, x - -y = x + y). Reverse mode emits these everywhere: the gradient of
// `-x + 1` is `g + -(dt * g)` per ODE step, two passes over memory where one does.
//
// Only rewrites that give every value bit for bit are made: IEEE defines x - y as x + (-y),
// and float types only (negating the most negative integer overflows). The graph itself is
// untouched: the executor runs the rewritten copies (exec/plan.h) when no one reads the
// absorbed values (the inspector's value records need every node).
#include <vector>

#include "engine/graph/graph.h"

namespace gl {

struct SimplifiedNode {
  Node node;          // the replacement: the same id, outputs, location and name
  int absorbed = -1;  // the negation whose work it now does; nothing else reads it
};

// The rewrites for a run of `fetches`, in node order.
std::vector<SimplifiedNode> simplifyForRun(const Graph& g, const std::vector<Value>& fetches);

}  // namespace gl
