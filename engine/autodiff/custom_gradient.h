#pragma once
// tf.custom_gradient's gradient functions, beside the graph rather than in it: a
// custom_gradient node -> the function that emits its inputs' adjoints from its outputs'
// (the script's grad_fn, traced when a tape asks). Reverse mode calls it in place of the
// primitive's VJP. Entries live while their trace can ask for gradients; a graph built later at
// the same address overwrites the entry of each custom_gradient node it creates.
#include <functional>
#include <vector>

#include "engine/graph/graph.h"

namespace gl {

using CustomVjp = std::function<std::vector<Value>(const std::vector<Value>& gout)>;

void setCustomGradient(const Graph& g, int node, CustomVjp vjp);
// The gradient function of custom_gradient node `node` of g; throws if none was recorded.
CustomVjp customGradient(const Graph& g, int node);

}  // namespace gl
