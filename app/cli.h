#pragma once
// The command line's script commands: `gradlab run FILE ...` and `gradlab check FILE`.
// They use the same trace/run/report code as the window (engine/lab/session.h). Their
// arguments are declared in commands.cpp and parsed before these are called.
#include "args.h"
#include "engine/lab/session.h"

namespace gl::app {

// Exit status: 0 ok, 1 script or runtime error (message on stderr with file:line:col).
int runCommand(const args::Parsed& args);
int checkCommand(const args::Parsed& args);

// What the shared options ask for: --set (every script command); --variant, --executor and
// --threads (run, export).
// --preset seed|class (the option's own default when not given).
lang::ParamPreset presetOf(const args::Parsed& args, lang::ParamPreset fallback);
lang::TraceOptions traceOptions(const args::Parsed& args);
lab::RunRequest runRequest(const args::Parsed& args);

}  // namespace gl::app
