#include "engine/tensor/error.h"

namespace gl {

std::string SourceLoc::str() const {
  if (!known()) return file.empty() ? std::string() : file;
  return (file.empty() ? std::string("<script>") : file) + ":" + std::to_string(line) + ":" +
         std::to_string(col);
}

static std::string compose(const std::string& message, const SourceLoc& loc,
                           const std::string& op) {
  std::string s;
  if (loc.known() || !loc.file.empty()) s += loc.str() + ": ";
  // Shape rules often name their op already ("matmul inner dimensions ..."): say it once.
  const bool named =
      message.starts_with(op) &&
      (message.size() == op.size() || message[op.size()] == ' ' || message[op.size()] == ':');
  if (!op.empty() && !named) s += op + ": ";
  return s + message;
}

EngineError::EngineError(std::string message, SourceLoc loc, std::string op)
    : std::runtime_error(compose(message, loc, op)),
      message_(std::move(message)),
      loc_(std::move(loc)),
      op_(std::move(op)) {}

EngineError EngineError::located(const SourceLoc& loc, const std::string& op) const {
  return EngineError(message_, loc_.known() ? loc_ : loc, op_.empty() ? op : op_);
}

}  // namespace gl
