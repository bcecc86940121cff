// Python's exceptions: the built-in classes, their instances, and the try and raise statements
// (tracer_exceptions.h says how GradLab's errors map to them).
#include "engine/lang/tracer_exceptions.h"

#include <cctype>
#include <functional>

#include "engine/exec/run.h"
#include "engine/lang/tracer.h"
#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_format.h"

namespace gl::lang::trace {

namespace {

constexpr const char* kBuiltins = "builtins";
constexpr const char* kTfErrors = "tensorflow.python.framework.errors_impl";

// Python's hierarchy (https://docs.python.org/3/library/exceptions.html#exception-hierarchy),
// the classes scripts catch; TF's tf.errors (errors_impl.py: every one an OpError).
constexpr ExceptionKind kKinds[] = {
    {"BaseException", "", kBuiltins},
    {"Exception", "BaseException", kBuiltins},
    {"KeyboardInterrupt", "BaseException", kBuiltins},
    {"SystemExit", "BaseException", kBuiltins},
    {"ArithmeticError", "Exception", kBuiltins},
    {"ZeroDivisionError", "ArithmeticError", kBuiltins},
    {"OverflowError", "ArithmeticError", kBuiltins},
    {"FloatingPointError", "ArithmeticError", kBuiltins},
    {"AssertionError", "Exception", kBuiltins},
    {"AttributeError", "Exception", kBuiltins},
    {"ImportError", "Exception", kBuiltins},
    {"ModuleNotFoundError", "ImportError", kBuiltins},
    {"LookupError", "Exception", kBuiltins},
    {"IndexError", "LookupError", kBuiltins},
    {"KeyError", "LookupError", kBuiltins},
    {"NameError", "Exception", kBuiltins},
    {"UnboundLocalError", "NameError", kBuiltins},
    {"OSError", "Exception", kBuiltins},
    {"RuntimeError", "Exception", kBuiltins},
    {"NotImplementedError", "RuntimeError", kBuiltins},
    {"RecursionError", "RuntimeError", kBuiltins},
    {"StopIteration", "Exception", kBuiltins},
    {"TypeError", "Exception", kBuiltins},
    {"ValueError", "Exception", kBuiltins},
    {"OpError", "Exception", kTfErrors},
    {"CancelledError", "OpError", kTfErrors},
    {"UnknownError", "OpError", kTfErrors},
    {"InvalidArgumentError", "OpError", kTfErrors},
    {"DeadlineExceededError", "OpError", kTfErrors},
    {"NotFoundError", "OpError", kTfErrors},
    {"AlreadyExistsError", "OpError", kTfErrors},
    {"PermissionDeniedError", "OpError", kTfErrors},
    {"UnauthenticatedError", "OpError", kTfErrors},
    {"ResourceExhaustedError", "OpError", kTfErrors},
    {"FailedPreconditionError", "OpError", kTfErrors},
    {"AbortedError", "OpError", kTfErrors},
    {"OutOfRangeError", "OpError", kTfErrors},
    {"UnimplementedError", "OpError", kTfErrors},
    {"InternalError", "OpError", kTfErrors},
    {"UnavailableError", "OpError", kTfErrors},
    {"DataLossError", "OpError", kTfErrors},
};

bool isTfError(const ExceptionKind& k) { return std::string(k.module) == kTfErrors; }

// Python's repr of a str: single quotes, double quotes when the text holds a single one only.
std::string strReprOf(const std::string& text) {
  const bool dq = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out(1, q);
  for (char c : text) {
    if (c == '\\' || c == q) out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + q;
}

}  // namespace

const ExceptionKind* exceptionKind(const std::string& name) {
  for (const ExceptionKind& k : kKinds)
    if (name == k.name) return &k;
  return nullptr;
}

bool exceptionIsA(const std::string& name, const std::string& ancestor) {
  for (const ExceptionKind* k = exceptionKind(name); k; k = exceptionKind(k->base))
    if (ancestor == k->name) return true;
  return false;
}

Val exceptionClass(const ExceptionKind& kind) {
  auto c = std::make_shared<ExceptionClassObj>();
  c->kind = &kind;
  return Val::object(c);
}

// ValueError(*args): str() is '' for no argument, str(arg) for one, the tuple's repr for more
// (BaseException.__str__); KeyError shows its one argument's repr. TF's errors take
// (node_def, op, message) and show the message (errors_impl.py OpError.__str__).
Val ExceptionClassObj::call(Context& cx, CallArgs& args) {
  if (!args.kw.empty())
    cx.fail(args.kw.front().second.loc, std::string(kind->name) + "() takes no keyword arguments");
  auto e = std::make_shared<ExceptionObj>();
  e->kind = kind;
  for (const Arg& a : args.pos) {
    e->args.push_back(a.v);
    e->argReprs.push_back(reprOf(cx, a.v, a.loc));
  }
  if (isTfError(*kind)) {
    if (e->args.size() != 3)
      cx.fail(args.loc, "TypeError: " + std::string(kind->name) +
                            "() takes 3 arguments (node_def, op, message), got " +
                            std::to_string(e->args.size()));
    e->message = strOf(cx, e->args[2], args.loc);
  } else if (e->args.size() == 1) {
    e->message = std::string(kind->name) == "KeyError" ? reprOf(cx, e->args[0], args.loc)
                                                       : strOf(cx, e->args[0], args.loc);
  } else if (e->args.size() > 1) {
    e->message = reprOf(cx, Val::listOf(e->args, true), args.loc);
  }
  return Val::object(e);
}

std::optional<Val> ExceptionClassObj::attr(Context&, const std::string& name) {
  if (name == "__name__") return Val::str(kind->name);
  return std::nullopt;
}

std::string ExceptionClassObj::reprText() const {
  return std::string("<class '") + (isTfError(*kind) ? std::string(kTfErrors) + "." : "") +
         kind->name + "'>";
}

std::optional<Val> ExceptionObj::attr(Context&, const std::string& name) {
  if (name == "args") return Val::listOf(args, true);
  if (name == "__class__") return exceptionClass(*kind);
  if (name == "message" && isTfError(*kind)) return Val::str(message);
  return std::nullopt;
}

std::vector<std::string> ExceptionObj::attrNames() const {
  if (isTfError(*kind)) return {"args", "message", "__class__"};
  return {"args", "__class__"};
}

// BaseException.__repr__: the class name and the arguments' reprs, ValueError('text').
std::string ExceptionObj::reprText() const {
  std::string out = std::string(kind->name) + "(";
  for (size_t i = 0; i < argReprs.size(); ++i) out += (i ? ", " : "") + argReprs[i];
  return out + ")";
}

std::shared_ptr<ExceptionObj> exceptionFromError(const std::string& message) {
  size_t n = 0;
  while (n < message.size() &&
         (std::isalnum(static_cast<unsigned char>(message[n])) || message[n] == '_'))
    ++n;
  const ExceptionKind* kind = exceptionKind(message.substr(0, n));
  if (!kind) return nullptr;
  auto e = std::make_shared<ExceptionObj>();
  e->kind = kind;
  if (n == message.size()) return e;  // "AssertionError": no text
  if (message.compare(n, 2, ": ") != 0) return nullptr;
  e->message = message.substr(n + 2);
  e->args.push_back(Val::str(e->message));
  e->argReprs.push_back(strReprOf(e->message));
  return e;
}

std::string errorMessage(const ExceptionObj& e) {
  return e.message.empty() ? std::string(e.kind->name)
                           : std::string(e.kind->name) + ": " + e.message;
}

void addExceptionBuiltins(BuiltinTable& t) {
  for (const ExceptionKind& k : kKinds) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = exceptionClass(k);
    t[(isTfError(k) ? std::string("tf.errors.") : std::string()) + k.name] = std::move(d);
  }
}

// The try statement ---------------------------------------------------------------------------

// Python: the body runs; an exception it raises goes to the first clause whose class matches
// (bound to the `as` name for the clause, then unbound); else runs when the body raised none
// and did not jump; finally runs on every way out, and a jump in it replaces the outcome.
// https://docs.python.org/3/reference/compound_stmts.html#the-try-statement
Flow Tracer::execTry(const Stmt::Try& s, const SourceLoc& loc) {
  Flow flow = Flow::Normal;
  try {
    flow = tryBody(s, loc);
  } catch (const CancelledError&) {
    throw;
  } catch (const EngineError& e) {
    if (s.finalbody.empty() || !exceptionFromError(e.message())) throw;
    const Flow f = execBlock(s.finalbody);  // a jump in finally drops the exception
    if (f != Flow::Normal) return f;
    throw;
  }
  if (!s.finalbody.empty()) {
    const Flow f = execBlock(s.finalbody);
    if (f != Flow::Normal) return f;
  }
  return flow;
}

Flow Tracer::tryBody(const Stmt::Try& s, const SourceLoc&) {
  const int region = b_.currentRegion();
  const int regions = g_.numRegions();
  const int functions = functionDepth_;
  std::optional<EngineError> caught;
  std::shared_ptr<ExceptionObj> exc;
  try {
    const Flow f = execBlock(s.body);
    if (f != Flow::Normal || s.orelse.empty()) return f;
  } catch (const CancelledError&) {
    throw;
  } catch (const EngineError& e) {
    if (s.handlers.empty()) throw;
    // The instance a script raise made, if this is its error; else the one the error mirrors.
    const bool raisedHere = raised_ && errorMessage(*raised_) == e.message() &&
                            raised_->raisedAt.line == e.loc().line &&
                            raised_->raisedAt.col == e.loc().col;
    exc = raisedHere ? raised_ : exceptionFromError(e.message());
    if (!exc) throw;
    caught = e;
  }
  if (!caught) return execBlock(s.orelse);
  // An error raised while a tensor loop, branch or tf.function was being traced leaves that
  // trace unfinished; GradLab cannot resume from there, so the error is not catchable.
  bool clean = b_.currentRegion() == region && functionDepth_ == functions;
  for (int r = regions; clean && r < g_.numRegions(); ++r) clean = g_.region(r).owner >= 0;
  if (!clean)
    throw EngineError(
        "GradLab cannot catch this error: it was raised while a tensor loop, "
        "branch or tf.function was being traced, which GradLab cannot resume (" +
            caught->message() + ")",
        caught->loc(), caught->op());
  if (!exc->raisedAt.known()) exc->raisedAt = caught->loc();
  // Whether the exception is an instance of what a clause names: a class or a tuple of classes;
  // Python raises TypeError for anything else.
  std::function<bool(const Val&, const SourceLoc&)> handles = [&](const Val& what,
                                                                  const SourceLoc& at) {
    if (what.kind() == Kind::Tuple) {
      for (const Val& c : what.items())
        if (handles(c, at)) return true;
      return false;
    }
    if (auto c = what.as<ExceptionClassObj>()) return exceptionIsA(exc->kind->name, c->kind->name);
    fail(at,
         "TypeError: catching classes that do not inherit from BaseException is not allowed "
         "(GradLab knows Python's built-in exceptions and tf.errors)");
  };
  for (const Stmt::ExceptHandler& h : s.handlers) {
    if (h.type && !handles(eval(*h.type), h.type->loc)) continue;
    if (!h.name.empty()) bind(h.name, Val::object(exc), h.loc);
    handling_.emplace_back(*caught, exc);
    Flow f = Flow::Normal;
    try {
      f = execBlock(h.body);
    } catch (...) {
      handling_.pop_back();
      throw;
    }
    handling_.pop_back();
    if (!h.name.empty()) {  // Python deletes the name at the end of the clause
      auto home = scope_->declared.find(h.name);
      (home == scope_->declared.end() ? *scope_ : *home->second).vars.erase(h.name);
    }
    return f;
  }
  throw *caught;
}

// raise: a bare raise re-raises the exception being handled; `raise C` / `raise C(args)`
// raise an instance of a built-in exception class; `from cause` is accepted and not shown.
Flow Tracer::execRaise(const Stmt::Raise& r, const SourceLoc& loc) {
  if (!r.exc) {
    if (handling_.empty()) fail(loc, "RuntimeError: No active exception to reraise");
    throw handling_.back().first;
  }
  Val v = eval(*r.exc);
  if (r.cause) {
    const Val cause = eval(*r.cause);
    if (!cause.isNone() && !cause.as<ExceptionObj>() && !cause.as<ExceptionClassObj>())
      fail(r.cause->loc, "TypeError: exception causes must derive from BaseException");
  }
  if (v.as<ExceptionClassObj>()) {
    CallArgs none;
    none.loc = r.exc->loc;
    v = call(v, none, "the exception class");
  }
  auto e = v.as<ExceptionObj>();
  if (!e)
    fail(r.exc->loc,
         "TypeError: exceptions must derive from BaseException (GradLab raises "
         "Python's built-in exceptions and tf.errors, not " +
             article(typeName(v)) + ")");
  // A caught exception raised again keeps the place it was first raised.
  if (!e->raisedAt.known()) e->raisedAt = loc;
  raised_ = std::dynamic_pointer_cast<ExceptionObj>(v.obj());
  throw EngineError(errorMessage(*e), e->raisedAt);
}

}  // namespace gl::lang::trace
