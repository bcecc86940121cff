#pragma once
// Facts about a traced program and its runs that the window shows but must not compute: the
// adjoint norm flowing along each edge at a step, and the nodes one variant consists of.
#include <map>
#include <memory>
#include <set>
#include <string>

#include "engine/exec/run.h"
#include "engine/lab/session.h"
#include "engine/lang/program.h"

namespace gl::lab {

// The L2 norm of the adjoint flowing along each value at loop iteration `step` (clamped to each
// loop's recorded range), decoded by each control-flow kind from its loop records. Loops
// without adjoint records (no gradient was run) contribute nothing.
std::map<Value, double> loopAdjointNorms(const Graph& g, const RunResult& run, int64_t step);

// loopAdjointNorms plus, for every other forward value with an adjoint, the norm of its
// adjoints' top-level value records (summed over gradient queries).
std::map<Value, double> adjointNorms(const Graph& g, const RunResult& run, int64_t step);

// The top-level nodes (loops folded into their owner) that the variant's outputs, gradients
// and loops depend on; null when the program has a single variant.
std::shared_ptr<const std::set<int>> variantNodes(const lang::TracedProgram& program,
                                                  const std::string& variant);

// The matrix the Jacobian tab shows: a rank-2 gradient output (tape.jacobian, a matrix of
// gradients), else a rank-2 float output computed from gradients (a backward node upstream:
// seed-b's tf.stack of T gradients); null for none.
const OutputResult* gradientMatrixOutput(const lang::TracedProgram& program, const VariantRun& run);

}  // namespace gl::lab
