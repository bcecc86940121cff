#include "trace_export.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "engine/lab/trace_json.h"

namespace gl::app {

bool takeTraceFormat(std::string& formats) {
  std::string rest;
  bool found = false;
  size_t start = 0;
  while (start <= formats.size()) {
    size_t end = formats.find(',', start);
    if (end == std::string::npos) end = formats.size();
    std::string item = formats.substr(start, end - start);
    item.erase(
        std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }),
        item.end());
    std::string lower = item;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (lower == "trace")
      found = true;
    else if (!item.empty())
      rest += (rest.empty() ? "" : ",") + item;
    start = end + 1;
  }
  formats = rest;
  return found;
}

bool writeTrace(const lang::TracedProgram& program, const lab::ProgramRun& run,
                const std::string& dir, std::string* path, std::string* error) {
  const bool any = std::any_of(run.variants.begin(), run.variants.end(),
                               [](const lab::VariantRun& v) { return !v.run.timeline.empty(); });
  if (!any) {
    *error = "trace: no variant recorded a timeline (did every variant fail?)";
    return false;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  *path = (std::filesystem::path(dir) / "trace.json").string();
  std::ofstream out(*path, std::ios::binary | std::ios::trunc);
  if (ec || !out) {
    *error = "cannot write " + *path;
    return false;
  }
  out << lab::chromeTraceJson(*program.graph, run);
  if (!out.flush()) {
    *error = "cannot write " + *path;
    return false;
  }
  return true;
}

}  // namespace gl::app
