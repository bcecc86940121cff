#pragma once
// Copies a fragment of a graph: the nodes [first, end) built during one call (a tf.function's
// first trace), so a later call with the same signature gets the same computation without
// running the Python body again (a "concrete function").
//
// The fragment's nodes live in the region the call ran in (`home`) and in regions made during
// the call, nested inside it. The copy puts the first in `target` and copies the others (their
// parents remapped). Everything that names a node, value or region of the fragment is remapped:
// inputs, captures, saved values, owned regions, forwardNode, the independent-iterations marks
// of loops, region owners, params, results, forwardOf, iterationIndex and savedReads, and the
// Graph's adjoints and vectorizedMaps entries. A value from outside the fragment becomes
// substitute[v] when present (this call's arguments, a variable's value now), else it stays
// (captured constants are shared, not copied).
//
// Copies are added through the Builder's tapes: a tape recording now records them, as if the
// body had been traced again (a tf.function called under a GradientTape).
#include <functional>
#include <map>

#include "engine/build/builder.h"

namespace gl {

struct FragmentClone {
  std::map<int, int> nodes;    // original node id -> its copy
  std::map<int, int> regions;  // original region id -> its copy (not home: that is target)
  // A value of the fragment -> its copy's; others unchanged.
  Value map(Value v) const;
};

// Copies nodes [first, end) of b.graph() (see the file comment). `adjust` sees each copy before
// it is added (its id is still the original's, its fields already remapped): the caller gives
// random ops fresh seeds there. A const's or variable's value shares its buffer with the
// original: give it a new tensor rather than writing into it.
//
// Throws EngineError, before adding anything, when the range or a region is not one of the
// graph, or when the fragment is not one call's nodes: a node in a region that is neither `home`
// nor made in the fragment, a region made in the fragment whose parent is neither, a node added
// to a fragment region after `end`; or when the copy would read a value from outside that
// `target` cannot see (an argument of the first call without a substitute).
//
// The copy resolves no forward values into saved reads, so a call inside a reverse body being
// built is not supported. Not copied: custom_gradient functions (autodiff/custom_gradient.h keys
// them by node id, and their grad_fn was traced against the first call's values); the caller
// finds the copied custom_gradient nodes in FragmentClone::nodes.
FragmentClone cloneFragment(Builder& b, int first, int end, int home, int target,
                            const std::map<Value, Value>& substitute,
                            const std::function<void(Node&)>& adjust = {});

}  // namespace gl
