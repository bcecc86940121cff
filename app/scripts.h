#pragma once
// What a FILE argument names, the same for every command: a script file, a resource path
// (":/lessons/ode_while_loop.gls") or a built-in lesson by name ("ode_while_loop" or
// "ode_while_loop.gls"). An existing file wins over a built-in lesson of the same name.
#include <string>

namespace gl::app {

// The path to read: `spec` for a file or resource path, the resource path for a built-in
// lesson, `spec` unchanged when it names nothing (reading it then fails with "cannot open").
std::string locateScript(const std::string& spec);

// True when `spec` is an existing file, resource or built-in lesson.
bool scriptExists(const std::string& spec);

// Reads locateScript(spec); throws gl::EngineError naming `spec` when it cannot be read or is
// larger than 4 MiB.
std::string readScript(const std::string& spec);

}  // namespace gl::app
