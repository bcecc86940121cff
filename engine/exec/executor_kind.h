#pragma once
// Which executor runs a graph: the one kind RunOptions, a lab::VariantRun, the command line's
// --executor, the bench's case names and the window's timing bars all say. Its name is a
// stable id (flags, JSON, CSV, file names); the window translates its own label for it.
#include <optional>
#include <string_view>

namespace gl {

enum class ExecutorKind : int {
  Serial,    // the reference: one node after another in plan order
  Parallel,  // kernels, loop and map iterations and independent nodes on `threads` threads
  Fused,     // elementwise chains fused, element-major while loops (exec/fused_executor.h)
};

// Every kind, in the order the window's menu and the command line's help list them.
inline constexpr ExecutorKind kExecutorKinds[] = {ExecutorKind::Serial, ExecutorKind::Parallel,
                                                  ExecutorKind::Fused};

constexpr const char* executorName(ExecutorKind k) {
  switch (k) {  // no default: a new kind needs its name
    case ExecutorKind::Serial:
      return "serial";
    case ExecutorKind::Parallel:
      return "parallel";
    case ExecutorKind::Fused:
      return "fused";
  }
  return "serial";
}

// The kind whose executorName is `name`; nullopt for any other text.
constexpr std::optional<ExecutorKind> executorFromName(std::string_view name) {
  for (ExecutorKind k : kExecutorKinds)
    if (name == executorName(k)) return k;
  return std::nullopt;
}

// Whether the executor runs on more than one thread (RunOptions::threads); the serial one
// never does.
constexpr bool usesThreads(ExecutorKind k) { return k != ExecutorKind::Serial; }

}  // namespace gl
