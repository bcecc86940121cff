#pragma once
// What the AutoGraph rules for `if` (tracer_autograph.cpp) and for loops (tracer_loops.cpp)
// share: jumps that cannot be traced, values a cond or loop can carry, scalar predicates, and
// snapshots of the names a branch or body assigns.
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/tracer.h"

namespace gl::lang::trace {

// The first return (or break/continue at this loop level) in a block, not in nested defs.
const Stmt* findJump(const Block& block, bool loopLevel);
const char* jumpWord(const Stmt& s);  // "return", "break" or "continue"

// Tensors, numbers, TensorArrays and non-empty lists of them: what a cond returns and a
// loop carries.
bool flattenable(const Val& v, int depth = 0);

// test as a scalar bool tensor for `what` ("an if", "a while loop").
Value scalarPredicate(Context& cx, const Val& test, const SourceLoc& loc, const char* what);

// Saves and restores the local bindings of some names around a traced branch or body.
struct Snapshot {
  std::vector<std::string> names;
  std::vector<std::optional<Binding>> before;
  Snapshot(Scope& s, std::vector<std::string> ns) : names(std::move(ns)) {
    for (const auto& n : names) {
      auto it = s.vars.find(n);
      before.push_back(it == s.vars.end() ? std::nullopt : std::optional<Binding>(it->second));
    }
  }
  void restore(Scope& s) const {
    for (size_t i = 0; i < names.size(); ++i) {
      if (before[i])
        s.vars[names[i]] = *before[i];
      else
        s.vars.erase(names[i]);
    }
  }
  std::optional<Val> current(Scope& s, size_t i) const {
    auto it = s.vars.find(names[i]);
    if (it == s.vars.end()) return std::nullopt;
    return it->second.v;
  }
};

}  // namespace gl::lang::trace
