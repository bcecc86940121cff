#pragma once
// Errors carry the op and the script location, so every layer can report "file:line:col: op: what".
#include <stdexcept>
#include <string>

namespace gl {

struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
  bool known() const { return line > 0; }
  std::string str() const;
};

class EngineError : public std::runtime_error {
 public:
  EngineError(std::string message, SourceLoc loc = {}, std::string op = {});
  const std::string& message() const { return message_; }
  const SourceLoc& loc() const { return loc_; }
  const std::string& op() const { return op_; }
  // Returns a copy that names op and loc, unless it already names them.
  EngineError located(const SourceLoc& loc, const std::string& op) const;

 private:
  std::string message_;
  SourceLoc loc_;
  std::string op_;
};

// Thrown by shape rules and kernels; the builder and executors add op and location.
class ShapeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gl
