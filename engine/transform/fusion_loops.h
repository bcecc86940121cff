#pragma once
// Loop interchange for the fusing executor: a while loop whose body is elementwise over some of
// its carried values, with a trip count that depends on none of them, may run element-major:
// each block of elements runs every iteration while it sits in cache, instead of every
// iteration sweeping all elements (seed-a's ODE: x <- x + dt * (-x + 1), forward and reverse;
// the hand-written fused_s of ../shared/peers/ode_limit.cpp).
//
// The loop's variables split into element variables (float tensors of one type and size,
// computed by an elementwise program) and control variables (the counter and anything else,
// computed per iteration by their own slice of the body, which must not read an element
// variable, and neither may the condition). Body values that read no loop variable are
// computed once, before the loop.
#include <string>
#include <vector>

#include "engine/transform/fusion.h"

namespace gl {

struct ElementMajorLoop {
  std::string why;                // empty when the loop can run element-major; else why not
  std::vector<int> elementVars;   // loop variable indices carried element-major
  std::vector<int> controlVars;   // the others, in order
  std::vector<int> condNodes;     // condition-region nodes the predicate needs, in order
  std::vector<int> controlNodes;  // body nodes the control variables need, in order
  std::vector<int> hoisted;       // body nodes reading no loop variable, in order
  // The element variables' step: reads their body params, hoisted and outer values; its
  // outputs are the body results of elementVars, in that order.
  FusedProgram program;
  bool ok() const { return why.empty(); }
};

// The analysis of one while node. What it cannot decide from the graph (records wanted, saved
// values read by a reverse loop) the executor checks at run time.
ElementMajorLoop analyseElementMajor(const Graph& g, const Node& loop);

}  // namespace gl
