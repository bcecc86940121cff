#pragma once
// Python's string formatting on trace-time values: format specs (f-strings, format(),
// str.format) and %-formatting, with Python 3's rules and error texts. A tensor has no value
// while tracing: it formats only without a spec (as str() shows it), anything more is a located
// error that points to tf.print.
#include <string>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

// format(v, spec), e.g. spec ".3f", ">10", ",".
std::string formatValue(Context& cx, const Val& v, const std::string& spec, const SourceLoc& loc);
// !r, !s, !a: repr(v), str(v), ascii(v) (as repr(v)).
std::string convertValue(Context& cx, const Val& v, char conversion, const SourceLoc& loc);
// repr(v): strings quoted, as Python shows them; tensors as TF's __repr__ (their values where
// `values` has them, see repr()).
std::string pyRepr(const Graph& g, const Val& v, const TensorValues* values = nullptr);
// fmt % args.
std::string percentFormat(Context& cx, const std::string& fmt, const Val& args,
                          const SourceLoc& loc);
// str.format, str.join and the string methods people print with; format() and repr().
void addStringBuiltins(BuiltinTable& t);

}  // namespace gl::lang::trace
