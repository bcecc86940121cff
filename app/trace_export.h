#pragma once
// `gradlab export --format trace`: the run's timeline as Chrome trace JSON (trace.json), beside
// or instead of the figures. The JSON itself comes from engine/lab/trace_json.
#include <string>

#include "engine/lab/session.h"

namespace gl::app {

// Removes `trace` from a comma-separated format list; true when it was there. The rest of the
// list (possibly empty) is what the figure export gets.
bool takeTraceFormat(std::string& formats);

// Writes DIR/trace.json; false with the reason in *error when it cannot, or when no variant
// recorded a timeline.
bool writeTrace(const lang::TracedProgram& program, const lab::ProgramRun& run,
                const std::string& dir, std::string* path, std::string* error);

}  // namespace gl::app
