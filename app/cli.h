#pragma once
// The command line's script commands: `gradlab run FILE ...` and `gradlab check FILE`.
// They use the same trace/run/report code as the window (engine/lab/session.h).
#include <string>
#include <vector>

namespace gl::app {

// Exit status: 0 ok, 1 script or runtime error (message on stderr with file:line:col),
// 2 usage error.
int runCommand(const std::vector<std::string>& args);
int checkCommand(const std::vector<std::string>& args);

// Parses "name=value" for --set; returns false on malformed text.
bool parseSetting(const std::string& text, std::string& name, double& value);

}  // namespace gl::app
