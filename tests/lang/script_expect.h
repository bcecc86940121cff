#pragma once
// What the conformance suite (tests/lang/conformance/*.gls) and the real-code corpus
// (tests/lang/realcode/*.py) share: a script's header of expected output, and the comparison of
// what a script printed with what TensorFlow prints.
//   # source: <where the script comes from>
//   # expect: <one line of output>           (trace-time print(), then run-time tf.print)
//   # expect-re: <one line of output, as an ECMAScript regex> (random numbers, timings)
//   # expect-error: <text the error contains> (instead of expect lines)
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/lab/session.h"
#include "engine/lang/program.h"
#include "executor_kinds.h"

namespace gl::test {

struct ScriptCase {
  std::string source;
  std::vector<std::string> expect;  // every expected line, in order
  std::vector<bool> isRegex;        // per line of expect: an expect-re line
  std::string expectError;
};

inline std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline ScriptCase parseHeader(const std::string& text) {
  ScriptCase c;
  std::istringstream in(text);
  std::string line;
  auto field = [&](const std::string& key, std::string& out) {
    if (line.rfind(key, 0) != 0) return false;
    out = line.substr(key.size());
    return true;
  };
  while (std::getline(in, line) && line.rfind('#', 0) == 0) {
    std::string v;
    if (field("# source: ", v)) c.source = v;
    for (bool regex : {false, true})
      if (field(regex ? "# expect-re:" : "# expect:", v)) {
        c.expect.push_back(v.empty() ? v : v.substr(1));  // "# expect:" alone: an empty line
        c.isRegex.push_back(regex);
      }
    if (field("# expect-error: ", v)) c.expectError = v;
  }
  return c;
}

// Brackets, parentheses and commas are tokens of their own; the rest splits on white space.
inline std::vector<std::string> tokens(const std::string& s) {
  static const std::regex kToken(R"([\[\]\(\),]|[^\s\[\]\(\),]+)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), kToken); it != std::sregex_iterator();
       ++it)
    out.push_back(it->str());
  return out;
}

inline bool number(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

// Empty when `got` matches `want` token by token (numbers within 1e-4 relative).
inline std::string mismatch(const std::string& want, const std::string& got) {
  const auto a = tokens(want), b = tokens(got);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
    double u = 0, v = 0;
    const bool same = number(x, u) && number(y, v)
                          ? std::abs(u - v) <= 1e-4 * std::max(1.0, std::abs(u)) ||
                                (std::isnan(u) && std::isnan(v))
                          : x == y;
    if (!same) return "token " + std::to_string(i) + ": expected '" + x + "', got '" + y + "'";
  }
  return "";
}

inline std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// What a script printed (trace-time print, then each variant's run log) and its first error.
struct ScriptOutput {
  std::vector<std::string> lines;
  std::string error;
};

// Notes: GradLab's own notes ("note: ...") kept, as conformance scripts expect them; the
// real-code corpus compares with what TF printed, which has none.
enum class Notes { Keep, Drop };

inline ScriptOutput runScript(const std::string& text, const std::string& file,
                              gl::ExecutorKind executor, Notes notes = Notes::Keep) {
  ScriptOutput out;
  try {
    const lang::TracedProgram p = lang::traceProgram(text, file, {});
    for (const std::string& l : p.traceLog)
      if (notes == Notes::Keep || l.rfind("note: ", 0) != 0) out.lines.push_back(l);
    lab::RunRequest s{{}, gltest::onExecutor(executor)};
    s.options.records = s.options.timeline = s.options.valueRecords = false;
    const lab::ProgramRun run = lab::runProgram(p, s);
    for (const auto& v : run.variants) {
      if (!v.error.empty() && out.error.empty()) out.error = v.error;
      out.lines.insert(out.lines.end(), v.run.log.begin(), v.run.log.end());
    }
  } catch (const EngineError& e) {
    out.error = e.what();
  }
  return out;
}

// Empty when the output is what the header expects, else why not.
inline std::string verdict(const ScriptCase& c, const ScriptOutput& out) {
  if (!c.expectError.empty())
    return out.error.find(c.expectError) != std::string::npos
               ? ""
               : "expected an error containing '" + c.expectError + "', got '" + out.error + "'";
  if (!out.error.empty()) return out.error;
  const std::string want = joined(c.expect), got = joined(out.lines);
  std::string why;
  if (std::find(c.isRegex.begin(), c.isRegex.end(), true) == c.isRegex.end()) {
    why = mismatch(want, got);
  } else {  // line by line: regex lines match whole lines, the others token by token
    for (size_t i = 0; i < std::max(c.expect.size(), out.lines.size()) && why.empty(); ++i) {
      if (i >= c.expect.size() || i >= out.lines.size()) {
        why = "line " + std::to_string(i + 1) + ": one output has more lines";
      } else if (c.isRegex[i]) {
        if (!std::regex_match(out.lines[i], std::regex(c.expect[i])))
          why = "line " + std::to_string(i + 1) + ": '" + out.lines[i] + "' does not match /" +
                c.expect[i] + "/";
      } else if (std::string m = mismatch(c.expect[i], out.lines[i]); !m.empty()) {
        why = "line " + std::to_string(i + 1) + ", " + m;
      }
    }
  }
  return why.empty() ? "" : why + "\nexpected:\n" + want + "got:\n" + got;
}

}  // namespace gl::test
