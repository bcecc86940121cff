#pragma once
// The "did you mean" candidate of an unknown name: the closest by edit distance, within a third
// of the name's length. suggest() (tracer_builtins.h) words it for English messages; a
// diagnostic keeps the name itself, for the window's translation.
#include <string>
#include <vector>

namespace gl::lang::trace {

// The closest candidate, or "" when none is close enough.
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace gl::lang::trace
