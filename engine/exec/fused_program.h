#pragma once
// Runs fused programs (transform/fusion.h) block by block: every instruction on a block of
// kFusedBlock values, registers in a per-thread scratch arena that is reused from run to run,
// so a fused group or an element-major loop allocates nothing per instruction, per block or
// per iteration (only its output tensors, from the buffer pool).
#include <vector>

#include "engine/tensor/tensor.h"
#include "engine/transform/fusion.h"

namespace gl {

// Values per block: 1 KiB of float32 per register, so a body's registers stay in L1.
inline constexpr int kFusedBlock = 256;

// One fused group: `in` holds one tensor per program input, `out` one preallocated tensor per
// program output (the output's dtype and static shape). With checkFinite, nonFinite is set when
// an instruction produced a NaN or an Inf (the executor then reruns the members one by one to
// say which). Blocks run across the OpenMP team when the group is large.
void runFusedGroup(const FusedProgram& p, const std::vector<const Tensor*>& in,
                   std::vector<Tensor>& out, bool checkFinite, bool& nonFinite);

// An element-major loop (transform/fusion_loops.h): `carried[j]` is the initial value of the
// program's output j (an element variable), `paramInput[j]` the program input holding its
// current value (-1 when the step never reads it); `in` has one tensor per program input
// (ignored for those inputs). Each block of elements runs all `trips` iterations; `out` gets
// the final values (preallocated like `carried`). With `parallel`, blocks spread over the team.
void runElementMajor(const FusedProgram& p, const std::vector<int>& paramInput,
                     const std::vector<const Tensor*>& carried,
                     const std::vector<const Tensor*>& in, int64_t trips, bool parallel,
                     std::vector<Tensor>& out, bool checkFinite, bool& nonFinite);

}  // namespace gl
