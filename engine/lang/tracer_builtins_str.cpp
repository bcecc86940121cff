// More str methods, the ones print lines and tables are made with (docs.python.org/3/library/
// stdtypes.html#string-methods): ljust, rjust, center, zfill, title, capitalize, count, find,
// isdigit, isalpha, isspace. (format, join, split, strip, replace, upper/lower and
// startswith/endswith are in tracer_format.cpp.)
#include <algorithm>
#include <cctype>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

namespace {

const std::string& strReceiver(Bound& a) {
  if (a.self.kind() != Kind::Str) a.cx.fail(a.callLoc, a.fn + "(): not a str");
  return a.self.text();
}

char fillChar(Bound& a) {
  const std::string f = a.string("fillchar");
  if (f.size() != 1) a.fail("fillchar", "must be exactly one character long");
  return f[0];
}

// s padded to width with fill: `left` of the padding before it (center puts the odd one after,
// as CPython's pad does).
std::string padded(const std::string& s, int64_t width, char fill, size_t left) {
  const size_t n = width > int64_t(s.size()) ? size_t(width) - s.size() : 0;
  left = std::min(left, n);
  return std::string(left, fill) + s + std::string(n - left, fill);
}

template <class Pred>
Val allChars(Bound& a, Pred pred) {
  const std::string& s = strReceiver(a);
  return Val::boolean(!s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
    return pred(static_cast<unsigned char>(c)) != 0;
  }));
}

}  // namespace

void addStringMethodBuiltins(BuiltinTable& t) {
  t["str.ljust"] = {Signature::parse("width, fillchar=' '"), [](Bound& a) {
                      return Val::str(padded(strReceiver(a), a.integer("width"), fillChar(a), 0));
                    }};
  t["str.rjust"] = {
      Signature::parse("width, fillchar=' '"), [](Bound& a) {
        return Val::str(padded(strReceiver(a), a.integer("width"), fillChar(a), SIZE_MAX));
      }};
  t["str.center"] = {Signature::parse("width, fillchar=' '"), [](Bound& a) {
                       const std::string& s = strReceiver(a);
                       const int64_t w = a.integer("width");
                       const size_t n = w > int64_t(s.size()) ? size_t(w) - s.size() : 0;
                       // CPython: left = n / 2 + (n & width & 1).
                       return Val::str(padded(s, w, fillChar(a), n / 2 + (n & size_t(w) & 1)));
                     }};
  t["str.zfill"] = {
      Signature::parse("width"), [](Bound& a) {
        std::string s = strReceiver(a);
        const bool sign = !s.empty() && (s[0] == '+' || s[0] == '-');
        const std::string digits = sign ? s.substr(1) : s;
        const int64_t w = a.integer("width") - (sign ? 1 : 0);
        return Val::str((sign ? s.substr(0, 1) : "") + padded(digits, w, '0', SIZE_MAX));
      }};
  t["str.title"] = {Signature::parse(""), [](Bound& a) {
                      std::string s = strReceiver(a);
                      bool start = true;
                      for (char& c : s) {
                        const auto u = static_cast<unsigned char>(c);
                        c = char(start ? std::toupper(u) : std::tolower(u));
                        start = !std::isalpha(u);
                      }
                      return Val::str(s);
                    }};
  t["str.capitalize"] = {Signature::parse(""), [](Bound& a) {
                           std::string s = strReceiver(a);
                           for (size_t i = 0; i < s.size(); ++i) {
                             const auto u = static_cast<unsigned char>(s[i]);
                             s[i] = char(i == 0 ? std::toupper(u) : std::tolower(u));
                           }
                           return Val::str(s);
                         }};
  t["str.count"] = {Signature::parse("sub"), [](Bound& a) {
                      const std::string& s = strReceiver(a);
                      const std::string sub = a.string("sub");
                      if (sub.empty()) return Val::integer(int64_t(s.size()) + 1);
                      int64_t n = 0;
                      for (size_t i = s.find(sub); i != std::string::npos;
                           i = s.find(sub, i + sub.size()))
                        ++n;
                      return Val::integer(n);
                    }};
  t["str.find"] = {Signature::parse("sub"), [](Bound& a) {
                     const size_t at = strReceiver(a).find(a.string("sub"));
                     return Val::integer(at == std::string::npos ? -1 : int64_t(at));
                   }};
  t["str.isdigit"] = {Signature::parse(""), [](Bound& a) { return allChars(a, ::isdigit); }};
  t["str.isalpha"] = {Signature::parse(""), [](Bound& a) { return allChars(a, ::isalpha); }};
  t["str.isspace"] = {Signature::parse(""), [](Bound& a) { return allChars(a, ::isspace); }};
}

}  // namespace gl::lang::trace
