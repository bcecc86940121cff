#pragma once
// Python's exceptions in GradLab script: the built-in exception classes scripts catch and raise
// (Exception, ValueError, ..., tf.errors.InvalidArgumentError), their instances, and the
// mapping between them and GradLab's errors.
//
// An error travels as an EngineError whose message starts with the Python class it mirrors
// ("ValueError: math domain error", "InvalidArgumentError: ..."), as the tracer's messages for
// Python and TF behaviour already do. `except` catches an error only when that prefix names a
// known exception class: GradLab's own errors (an unsupported construct, a limit, a
// cancellation) have no such prefix, so no handler ever hides them, even `except Exception:`.
// Python: https://docs.python.org/3/reference/compound_stmts.html#the-try-statement
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/tracer_values.h"

namespace gl::lang::trace {

// One built-in exception class: its name, its base's name ("" for BaseException) and the
// module Python names in its repr ("builtins" or TF's errors_impl).
struct ExceptionKind {
  const char* name;
  const char* base;
  const char* module;
};

// The class named `name`, or null when GradLab does not know it.
const ExceptionKind* exceptionKind(const std::string& name);
// True when class `name` is `ancestor` or derives from it.
bool exceptionIsA(const std::string& name, const std::string& ancestor);

// A built-in exception class as a script value: ValueError, tf.errors.InvalidArgumentError.
struct ExceptionClassObj : Object {
  const ExceptionKind* kind = nullptr;
  std::string typeName() const override { return "type"; }
  bool callable() const override { return true; }
  Val call(Context& cx, CallArgs& args) override;
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override { return {"__name__"}; }
  std::string reprText() const override;
};

// An exception instance: ValueError("bad"), or a caught error (`except E as e`).
struct ExceptionObj : Object {
  const ExceptionKind* kind = nullptr;
  std::vector<Val> args;              // what the script passed; a caught GradLab error: its message
  std::vector<std::string> argReprs;  // repr() of each, for repr(e)
  std::string message;                // str(e)
  SourceLoc raisedAt;                 // where it was raised, once it was
  std::string typeName() const override { return kind->name; }
  std::optional<Val> attr(Context& cx, const std::string& name) override;
  std::vector<std::string> attrNames() const override;
  std::string reprText() const override;
  std::string strText() const override { return message; }
};

Val exceptionClass(const ExceptionKind& kind);

// The exception an error stands for: its class from the message's "Name: " prefix and str()
// the rest; nullopt for GradLab's own errors (no known class prefix).
std::shared_ptr<ExceptionObj> exceptionFromError(const std::string& message);

// The message of the EngineError a `raise` throws for e: "ValueError: text" (or just the class
// name when str(e) is empty, as Python's traceback shows it).
std::string errorMessage(const ExceptionObj& e);

}  // namespace gl::lang::trace
