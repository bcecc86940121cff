#pragma once
// GradLab script parser: a recursive-descent parser for the Python subset described in
// shared/DESIGN.md ("Script language"), producing the AST of ast.h.
//
// What the parser rejects (so the tracer never sees it):
//   - lexical and syntax errors, with Python-like messages ("unexpected ')'", "expected ':' after
//     the if condition", "'(' was never closed", "unterminated string", ...);
//   - assignment to something that is not a name, attribute, subscript or tuple/list of them;
//   - 'return' outside a def, 'break'/'continue' outside a loop (a def inside a loop starts over);
//   - duplicate parameters, a parameter without a default after one with a default, repeated
//     keyword arguments, a positional argument after a keyword one;
//   - `param` declarations that are not at the top level, declared twice, or whose value lies
//     outside their range;
//   - Python features GradLab script leaves out (class, try, yield, set literals, generator
//     expressions, loop-else, relative imports, ...), each named in its message;
//   - inputs nested beyond fixed limits (100 indentation levels, 200 open brackets, expression
//     trees deeper than kMaxExprDepth), so that neither the parser nor any recursive walker of the
//     AST can exhaust the stack.
// What is left to the tracer: everything about meaning (unknown names, assigning to `x[i]` of a
// tensor, calling a non-function, ...).
//
// `param` is a soft keyword: `param = 3` still assigns a variable named param.
#include <string>

#include "engine/lang/ast.h"

namespace gl::lang {

// Parses a whole script. Never crashes and always terminates; on bad input throws gl::EngineError
// whose loc() names fileName and the 1-based line:col of the offending token (columns count code
// points) and whose message() is the bare description.
Module parse(const std::string& source, const std::string& fileName);

}  // namespace gl::lang
