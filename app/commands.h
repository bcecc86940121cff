#pragma once
// gradlab's commands as the argument parser declares them: one table in which the shared
// options (--set, --variant, --executor, --threads, FILE) are declared once, so every command
// that takes one follows the same rules. Plain C++, like args.h: tests read the real table.
#include <functional>
#include <string>
#include <vector>

#include "args.h"

namespace gl::app {

constexpr int64_t kMaxThreads = 256;
constexpr const char* kExportFormats = "png,svg,pdf,csv,dot";  // export's --format default

// window (the default command), run, check, export, ode, bench.
const std::vector<args::Command>& commands();
const args::Command* findCommand(const std::string& name);

// Which command the words after "gradlab" are for.
struct Route {
  const args::Command* command = nullptr;  // null for the overview and for errors
  std::vector<std::string> words;          // the words that command parses
  bool overview = false;                   // gradlab -h / --help: print overview(), exit 0
  std::string error;                       // "gradlab: unknown command 'x'" ..., exit 2
};

// A first word naming a command selects it. No words, an option, or a script (a word with '.',
// '/' or a leading ':', or one `isScript` accepts: an existing file, a built-in lesson) open
// the window. Any other word is an unknown command.
Route route(const std::vector<std::string>& words,
            const std::function<bool(const std::string&)>& isScript);

// gradlab --help: every command's usage line, then the command list.
std::string overview();

}  // namespace gl::app
