#pragma once
// Small helpers the tracer's tests share: run a script, keep what it says.
#include <string>

#include "engine/lang/program.h"

namespace gl::test {

// The located error a script stops with ("e.gls:3:5: ..."), or "" when it traces.
inline std::string traceError(const std::string& src) {
  try {
    gl::lang::traceProgram(src, "e.gls", {});
  } catch (const gl::EngineError& e) {
    return e.what();
  }
  return "";
}

}  // namespace gl::test
