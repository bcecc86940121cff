// Python string formatting while tracing: the format-spec mini-language, %-formatting,
// str.format and a few string methods.
#include "engine/lang/tracer_format.h"
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_numpy.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace gl::lang::trace {

namespace {

// [[fill]align][sign][z][#][0][width][grouping][.precision][type]
struct Spec {
  std::string fill = " ";
  char align = 0;
  char sign = '-';
  bool alt = false;
  int width = -1;
  char grouping = 0;
  int precision = -1;
  char type = 0;
};

bool isAlign(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

int readInt(const std::string& s, size_t& i) {
  int v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    v = v * 10 + (s[i++] - '0');
    if (v > 10000) v = 10000;  // a width this large is a mistake; it stays bounded
  }
  return v;
}

Spec parseSpec(Context& cx, const std::string& s, const SourceLoc& loc) {
  Spec p;
  size_t i = 0;
  // The fill may be any character, UTF-8 included.
  size_t first = 1;
  while (first < s.size() && (static_cast<unsigned char>(s[first]) & 0xC0) == 0x80) ++first;
  if (first < s.size() && isAlign(s[first])) {
    p.fill = s.substr(0, first);
    p.align = s[first];
    i = first + 1;
  } else if (!s.empty() && isAlign(s[0])) {
    p.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) p.sign = s[i++];
  if (i < s.size() && s[i] == 'z') ++i;
  if (i < s.size() && s[i] == '#') p.alt = true, ++i;
  if (i < s.size() && s[i] == '0') {
    if (!p.align) p.fill = "0", p.align = '=';
    ++i;
  }
  if (i < s.size() && s[i] >= '0' && s[i] <= '9') p.width = readInt(s, i);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) p.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9')
      cx.fail(loc, "Format specifier missing precision");
    p.precision = readInt(s, i);
  }
  if (i < s.size()) p.type = s[i++];
  if (i < s.size()) cx.fail(loc, "Invalid format specifier '" + s + "'");
  return p;
}

size_t codePoints(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// Pads body (after sign) to the width; '=' puts the padding between sign and digits.
std::string pad(const Spec& p, const std::string& sign, const std::string& body, char defAlign) {
  const size_t len = codePoints(sign) + codePoints(body);
  if (p.width < 0 || len >= size_t(p.width)) return sign + body;
  const size_t n = size_t(p.width) - len;
  auto fill = [&](size_t k) {
    std::string out;
    for (size_t j = 0; j < k; ++j) out += p.fill;
    return out;
  };
  switch (p.align ? p.align : defAlign) {
    case '<':
      return sign + body + fill(n);
    case '^':
      return fill(n / 2) + sign + body + fill(n - n / 2);
    case '=':
      return sign + fill(n) + body;
    default:
      return fill(n) + sign + body;
  }
}

std::string group(const std::string& digits, char sep, size_t every) {
  if (!sep) return digits;
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % every == 0) out += sep;
    out += digits[i];
  }
  return out;
}

std::string signOf(bool negative, char sign) {
  if (negative) return "-";
  return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

std::string chars(double x, std::chars_format f, int precision) {
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof buf, x, f, precision);
  if (r.ec != std::errc()) return std::to_string(x);
  return std::string(buf, r.ptr);
}

std::string formatFloat(Context& cx, double x, const Spec& p, const SourceLoc& loc) {
  const bool neg = std::signbit(x) && !std::isnan(x);
  const double a = std::fabs(x);
  const int prec = p.precision < 0 ? 6 : p.precision;
  std::string body;
  switch (p.type) {
    case 'f':
    case 'F':
      body = std::isfinite(a) ? chars(a, std::chars_format::fixed, prec) : "";
      break;
    case 'e':
    case 'E':
      body = std::isfinite(a) ? chars(a, std::chars_format::scientific, prec) : "";
      break;
    case '%':
      body = std::isfinite(a) ? chars(a * 100, std::chars_format::fixed, prec) + "%" : "";
      break;
    case 'g':
    case 'G':
    case 'n':
      body = std::isfinite(a) ? chars(a, std::chars_format::general, prec == 0 ? 1 : prec) : "";
      break;
    case 0:
      if (!std::isfinite(a)) break;
      if (p.precision < 0) {
        body = repr(cx.graph(), Val::real(a));
      } else {
        // Like 'g', but fixed notation keeps a digit after the point (format(2.0, '.3') is 2.0).
        body = chars(a, std::chars_format::general, prec == 0 ? 1 : prec);
        if (body.find_first_of(".e") == std::string::npos) body += ".0";
      }
      break;
    default:
      cx.fail(loc, std::string("Unknown format code '") + p.type + "' for object of type 'float'");
  }
  if (!std::isfinite(a)) body = std::isnan(a) ? "nan" : "inf";
  if (p.type == 'E' || p.type == 'F' || p.type == 'G')
    for (char& c : body) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (p.grouping) {
    const size_t end = body.find_first_not_of("0123456789");
    const std::string whole = body.substr(0, end);
    body = group(whole, p.grouping, 3) + (end == std::string::npos ? "" : body.substr(end));
  }
  return pad(p, signOf(neg, p.sign), body, '>');
}

std::string formatInt(Context& cx, int64_t v, const Spec& p, const SourceLoc& loc) {
  if (p.type && std::strchr("eEfFgG%", p.type)) return formatFloat(cx, double(v), p, loc);
  if (p.precision >= 0) cx.fail(loc, "Precision not allowed in integer format specifier");
  const bool neg = v < 0;
  const uint64_t a = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  int base = 10;
  std::string prefix;
  switch (p.type) {
    case 0:
    case 'd':
    case 'n':
      break;
    case 'b':
      base = 2, prefix = "0b";
      break;
    case 'o':
      base = 8, prefix = "0o";
      break;
    case 'x':
      base = 16, prefix = "0x";
      break;
    case 'X':
      base = 16, prefix = "0X";
      break;
    case 'c': {
      if (v < 0 || v > 0x10FFFF) cx.fail(loc, "%c arg not in range(0x110000)");
      std::string out;
      const auto cp = char32_t(v);
      if (cp < 0x80) {
        out += char(cp);
      } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
      } else {
        out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
      }
      return pad(p, "", out, '<');
    }
    default:
      cx.fail(loc, std::string("Unknown format code '") + p.type + "' for object of type 'int'");
  }
  char buf[80];
  auto r = std::to_chars(buf, buf + sizeof buf, a, base);
  std::string digits(buf, r.ptr);
  if (p.type == 'X')
    for (char& c : digits) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (p.grouping == ',' && base != 10)
    cx.fail(loc, std::string("Cannot specify ',' with '") + p.type + "'.");
  digits = group(digits, p.grouping, base == 10 ? 3 : 4);
  return pad(p, signOf(neg, p.sign) + (p.alt ? prefix : ""), digits, '>');
}

}  // namespace

std::string pyRepr(const Graph& g, const Val& v, const TensorValues* values) {
  if (const NdArrayObj* a = asNdArray(v)) return ndarrayText(*a, true);
  if (v.isTensor()) return tensorText(g, v, true, values);
  if (v.kind() == Kind::Object && v.obj()->strText() != v.obj()->reprText())
    return v.obj()->reprText();  // an exception: repr(e) is ValueError('text'), str(e) the text
  if (v.kind() != Kind::Str) return repr(g, v, 0, values);
  // Python prefers single quotes, and double quotes when the text holds a single one only.
  const bool dq =
      v.text().find('\'') != std::string::npos && v.text().find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out(1, q);
  for (char c : v.text()) {
    if (c == '\\' || c == q) {
      out += '\\', out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + q;
}

std::string convertValue(Context& cx, const Val& v, char conversion, const SourceLoc& loc) {
  if (conversion == 's') return strOf(cx, v, loc);
  return reprOf(cx, v, loc);
}

std::string formatValue(Context& cx, const Val& v, const std::string& spec, const SourceLoc& loc) {
  if (v.isTensor()) {
    // _EagerTensorBase.__format__ (ops.py): self._numpy().__format__(spec), also for an empty
    // spec (f"{x}" shows the value, not str(x)). A symbolic tensor has object's __format__:
    // str() for an empty spec, TypeError otherwise.
    const std::optional<Tensor> t = eagerValueOf(cx, v, loc);
    if (!t && spec.empty()) return strOf(cx, v, loc);
    if (!t)
      cx.fail(loc,
              "TypeError: unsupported format string passed to SymbolicTensor.__format__ "
              "(a tensor inside a tf.function or a tensor loop has no value while it is "
              "traced): print it with tf.print (e.g. tf.print(\"loss:\", loss))");
    if (t->rank() != 0 && !spec.empty())
      cx.fail(loc,
              "TypeError: unsupported format string passed to numpy.ndarray.__format__ "
              "(the tensor has shape " +
                  shapeStr(t->shape()) + "; format its elements, or print it with tf.print)");
    return formatValue(cx, ndVal(ndarrayOf(*t, true)), spec, loc);
  }
  // A numpy scalar formats as the Python number it holds (numpy's gentype_format converts it,
  // so f"{np.float32(0.1)}" shows the double 0.10000000149011612).
  if (auto n = npPythonNumber(v); n && asNdArray(v)->scalar) return formatValue(cx, *n, spec, loc);
  if (spec.empty()) return strOf(cx, v, loc);
  const Spec p = parseSpec(cx, spec, loc);
  switch (v.kind()) {
    case Kind::Int:
      return formatInt(cx, v.asInt(), p, loc);
    case Kind::Bool:
      return formatInt(cx, v.asBool(), p, loc);
    case Kind::Float:
      if (p.type && std::strchr("bcdoxX", p.type))
        cx.fail(loc,
                std::string("Unknown format code '") + p.type + "' for object of type 'float'");
      return formatFloat(cx, v.asFloat(), p, loc);
    case Kind::Str: {
      if (p.type && p.type != 's')
        cx.fail(loc, std::string("Unknown format code '") + p.type + "' for object of type 'str'");
      if (p.sign != '-') cx.fail(loc, "Sign not allowed in string format specifier");
      if (p.align == '=') cx.fail(loc, "'=' alignment not allowed in string format specifier");
      std::string s = v.text();
      if (p.precision >= 0) {  // truncates to that many code points
        size_t n = 0, i = 0;
        for (; i < s.size(); ++i)
          if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == size_t(p.precision))
            break;
        s.resize(i);
      }
      return pad(p, "", s, '<');
    }
    default:
      cx.fail(loc, "unsupported format string passed to " + typeName(v) + ".__format__");
  }
}

std::string percentFormat(Context& cx, const std::string& fmt, const Val& args,
                          const SourceLoc& loc) {
  std::vector<Val> items;
  const DictObj* mapping = args.as<DictObj>();
  if (args.kind() == Kind::Tuple)
    items = args.items();
  else if (!mapping)
    items.push_back(args);
  size_t next = 0;
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (++i >= fmt.size()) cx.fail(loc, "incomplete format");
    if (fmt[i] == '%') {
      out += '%';
      continue;
    }
    Val v;
    bool haveValue = false;
    if (fmt[i] == '(') {  // %(name)s
      const size_t close = fmt.find(')', i);
      if (close == std::string::npos) cx.fail(loc, "incomplete format key");
      if (!mapping) cx.fail(loc, "format requires a mapping");
      const int at = mapping->find(Val::str(fmt.substr(i + 1, close - i - 1)));
      if (at < 0) cx.fail(loc, "KeyError: '" + fmt.substr(i + 1, close - i - 1) + "'");
      v = mapping->values[size_t(at)];
      haveValue = true;
      i = close + 1;
    }
    std::string spec;
    char align = '>';
    bool zero = false;
    for (; i < fmt.size() && std::strchr("-+ 0#", fmt[i]); ++i) {
      if (fmt[i] == '-') align = '<';
      if (fmt[i] == '0') zero = true;
      if (fmt[i] == '+' || fmt[i] == ' ') spec += fmt[i];
      if (fmt[i] == '#') spec += '#';
    }
    std::string width, precision;
    auto starArg = [&] {
      if (next >= items.size()) cx.fail(loc, "not enough arguments for format string");
      const Val& w = items[next++];
      if (w.kind() != Kind::Int) cx.fail(loc, "* wants int");
      return std::to_string(w.asInt());
    };
    if (i < fmt.size() && fmt[i] == '*') width = starArg(), ++i;
    while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) width += fmt[i++];
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      if (i < fmt.size() && fmt[i] == '*') precision = starArg(), ++i;
      while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i])))
        precision += fmt[i++];
      if (precision.empty()) precision = "0";
    }
    while (i < fmt.size() && (fmt[i] == 'l' || fmt[i] == 'h' || fmt[i] == 'L')) ++i;
    if (i >= fmt.size()) cx.fail(loc, "incomplete format");
    const char type = fmt[i];
    if (!haveValue) {
      if (mapping) cx.fail(loc, "format requires a mapping");
      if (next >= items.size()) cx.fail(loc, "not enough arguments for format string");
      v = items[next++];
    }
    // A numpy scalar formats as the Python number it holds (numpy's __float__ / __int__).
    if (auto n = npPythonNumber(v); n && asNdArray(v)->scalar) v = *n;
    // %d/%f read an eager tensor's value as int()/float() do (%s and %r print it).
    if (v.isTensor() && std::strchr("sra", type) == nullptr)
      v = tensorToNumber(
          cx, v, type == 'c' || std::strchr("diuoxX", type) ? PyNumber::Int : PyNumber::Float,
          std::string("%") + type + " format", loc);
    std::string full = std::string(1, align == '<' ? '<' : (zero ? '=' : '>'));
    if (zero && align != '<') full = "0=";
    full += spec + width;
    if (!precision.empty()) full += "." + precision;
    switch (type) {
      case 's':
      case 'r':
      case 'a': {
        std::string s = type == 's' ? strOf(cx, v, loc) : reprOf(cx, v, loc);
        std::string sspec = std::string(align == '<' ? "<" : ">") + width;
        if (!precision.empty()) sspec += "." + precision;
        out += formatValue(cx, Val::str(s), sspec, loc);
        break;
      }
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        if (!v.isNumber())
          cx.fail(loc, std::string("%") + type + " format: a real number is required, not " +
                           typeName(v));
        Val n = v.kind() == Kind::Float ? Val::integer(int64_t(std::trunc(v.asFloat()))) : v;
        if (n.kind() == Kind::Bool) n = Val::integer(n.asBool());
        std::string ispec = full.substr(0, full.find('.'));
        if (type != 'd' && type != 'i' && type != 'u') ispec += type;
        out += formatValue(cx, n, ispec, loc);
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        if (!v.isNumber())
          cx.fail(loc, std::string("%") + type + " format: a real number is required, not " +
                           typeName(v));
        out += formatValue(cx, Val::real(v.number()), full + type, loc);
        break;
      }
      case 'c':
        out += formatValue(
            cx, v, full.substr(0, full.find('.')) + (v.kind() == Kind::Str ? "" : "c"), loc);
        break;
      default:
        cx.fail(loc, std::string("unsupported format character '") + type + "'");
    }
  }
  if (next < items.size() && !mapping)
    cx.fail(loc, "not all arguments converted during string formatting");
  return out;
}

namespace {

// "{0} {name!r:>10} {x[0]} {p.attr}".format(...)
std::string strFormat(Bound& a, const std::string& fmt, int depth);

Val formatField(Bound& a, const std::string& field, size_t& autoIndex, bool& manual) {
  size_t i = 0;
  while (i < field.size() && field[i] != '.' && field[i] != '[') ++i;
  const std::string head = field.substr(0, i);
  Val v;
  if (head.empty() || std::isdigit(static_cast<unsigned char>(head[0]))) {
    size_t index;
    if (head.empty()) {
      if (manual)
        a.cx.fail(a.callLoc,
                  "cannot switch from manual field specification to automatic field "
                  "numbering");
      index = autoIndex++;
    } else {
      if (autoIndex > 0)
        a.cx.fail(a.callLoc,
                  "cannot switch from automatic field numbering to manual field "
                  "specification");
      manual = true;
      index = size_t(std::stoul(head));
    }
    if (index >= a.rest.size())
      a.cx.fail(a.callLoc, "Replacement index " + std::to_string(index) +
                               " out of range for positional args tuple");
    v = a.rest[index].v;
  } else {
    bool found = false;
    for (const auto& [k, arg] : a.extra)
      if (k == head) v = arg.v, found = true;
    if (!found) a.cx.fail(a.callLoc, "KeyError: '" + head + "'");
  }
  while (i < field.size()) {
    if (field[i] == '.') {
      size_t j = ++i;
      while (j < field.size() && field[j] != '.' && field[j] != '[') ++j;
      v = a.cx.getAttr(v, field.substr(i, j - i), a.callLoc);
      i = j;
    } else {
      const size_t close = field.find(']', i);
      if (close == std::string::npos) a.cx.fail(a.callLoc, "Missing ']' in format string");
      const std::string key = field.substr(i + 1, close - i - 1);
      const bool numeric = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
      if (v.isSeq() && numeric) {
        const size_t k = size_t(std::stoul(key));
        if (k >= v.items().size()) a.cx.fail(a.callLoc, "IndexError: index out of range");
        v = v.items()[k];
      } else if (auto d = v.as<DictObj>()) {
        const int at = d->find(numeric ? Val::integer(std::stoll(key)) : Val::str(key));
        if (at < 0) a.cx.fail(a.callLoc, "KeyError: '" + key + "'");
        v = d->values[size_t(at)];
      } else {
        a.cx.fail(a.callLoc, "'" + typeName(v) + "' object is not subscriptable");
      }
      i = close + 1;
    }
  }
  return v;
}

std::string strFormat(Bound& a, const std::string& fmt, int depth) {
  std::string out;
  size_t autoIndex = 0;
  bool manual = false;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
        out += '}', ++i;
        continue;
      }
      a.cx.fail(a.callLoc, "Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{', ++i;
      continue;
    }
    // The field runs to its matching '}' (a spec may hold nested {} fields).
    size_t j = i + 1;
    int level = 1;
    for (; j < fmt.size(); ++j) {
      if (fmt[j] == '{') ++level;
      if (fmt[j] == '}' && --level == 0) break;
    }
    if (j >= fmt.size()) a.cx.fail(a.callLoc, "Single '{' encountered in format string");
    std::string field = fmt.substr(i + 1, j - i - 1), spec;
    char conversion = 0;
    const size_t colon = field.find(':');
    if (colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field.resize(colon);
    }
    const size_t bang = field.find('!');
    if (bang != std::string::npos) {
      if (bang + 2 != field.size() || !std::strchr("rsa", field[bang + 1]))
        a.cx.fail(a.callLoc, "expected ':' after conversion specifier");
      conversion = field[bang + 1];
      field.resize(bang);
    }
    if (spec.find('{') != std::string::npos) {
      if (depth > 0) a.cx.fail(a.callLoc, "Max string recursion exceeded");
      spec = strFormat(a, spec, depth + 1);
    }
    const Val v = formatField(a, field, autoIndex, manual);
    out +=
        formatValue(a.cx, conversion ? Val::str(convertValue(a.cx, v, conversion, a.callLoc)) : v,
                    spec, a.callLoc);
    i = j;
  }
  return out;
}

std::string selfString(Bound& a) {
  if (a.self.kind() != Kind::Str) a.cx.fail(a.callLoc, a.fn + "(): not a str");
  return a.self.text();
}

std::string strip(const std::string& s, const std::string& chars, bool left, bool right) {
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && chars.find(s[b]) != std::string::npos) ++b;
  if (right)
    while (e > b && chars.find(s[e - 1]) != std::string::npos) --e;
  return s.substr(b, e - b);
}

}  // namespace

void addStringBuiltins(BuiltinTable& t) {
  t["str.format"] = {Signature::parse("*args, **kwargs"),
                     [](Bound& a) { return Val::str(strFormat(a, selfString(a), 0)); }};
  t["format"] = {
      Signature::parse("value, format_spec=''"), [](Bound& a) {
        return Val::str(formatValue(a.cx, a["value"], a.string("format_spec"), a.loc("value")));
      }};
  t["repr"] = {Signature::parse("obj"),
               [](Bound& a) { return Val::str(reprOf(a.cx, a["obj"], a.loc("obj"))); }};
  t["str.join"] = {
      Signature::parse("iterable"), [](Bound& a) {
        const std::string sep = selfString(a);
        Val items =
            a.cx.callSimple(*lookupBuiltin("list"), {a["iterable"]}, a.loc("iterable"), "list");
        std::string out;
        for (size_t i = 0; i < items.items().size(); ++i) {
          const Val& x = items.items()[i];
          if (x.kind() != Kind::Str)
            a.fail("iterable", "sequence item " + std::to_string(i) + ": expected str instance, " +
                                   typeName(x) + " found");
          out += (i ? sep : "") + x.text();
        }
        return Val::str(out);
      }};
  for (const char* m : {"upper", "lower"})
    t[std::string("str.") + m] = {Signature::parse(""), [up = m[0] == 'u'](Bound& a) {
                                    std::string s = selfString(a);
                                    for (char& c : s)
                                      c = char(up ? std::toupper(static_cast<unsigned char>(c))
                                                  : std::tolower(static_cast<unsigned char>(c)));
                                    return Val::str(s);
                                  }};
  for (const char* m : {"strip", "lstrip", "rstrip"})
    t[std::string("str.") + m] = {
        Signature::parse("chars=None"), [m](Bound& a) {
          const std::string chars = a.none("chars") ? " \t\n\r\f\v" : a.string("chars");
          return Val::str(strip(selfString(a), chars, m[0] != 'r', m[0] != 'l'));
        }};
  for (const char* m : {"startswith", "endswith"})
    t[std::string("str.") + m] = {
        Signature::parse("prefix"), [m](Bound& a) {
          const std::string s = selfString(a), x = a.string("prefix");
          const bool ok = x.size() <= s.size() &&
                          (m[0] == 's' ? s.compare(0, x.size(), x) == 0
                                       : s.compare(s.size() - x.size(), x.size(), x) == 0);
          return Val::boolean(ok);
        }};
  t["str.replace"] = {Signature::parse("old, new"), [](Bound& a) {
                        std::string s = selfString(a);
                        const std::string from = a.string("old"), to = a.string("new");
                        if (from.empty()) a.fail("old", "must not be empty in GradLab");
                        std::string out;
                        for (size_t i = 0; i < s.size();) {
                          if (s.compare(i, from.size(), from) == 0) {
                            out += to, i += from.size();
                          } else {
                            out += s[i++];
                          }
                        }
                        return Val::str(out);
                      }};
  t["str.split"] = {Signature::parse("sep=None"), [](Bound& a) {
                      const std::string s = selfString(a);
                      std::vector<Val> out;
                      if (a.none("sep")) {
                        size_t i = 0;
                        while (i < s.size()) {
                          while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
                            ++i;
                          size_t j = i;
                          while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])))
                            ++j;
                          if (j > i) out.push_back(Val::str(s.substr(i, j - i)));
                          i = j;
                        }
                        return Val::listOf(std::move(out));
                      }
                      const std::string sep = a.string("sep");
                      if (sep.empty()) a.fail("sep", "is an empty separator");
                      size_t i = 0;
                      for (size_t j; (j = s.find(sep, i)) != std::string::npos; i = j + sep.size())
                        out.push_back(Val::str(s.substr(i, j - i)));
                      out.push_back(Val::str(s.substr(i)));
                      return Val::listOf(std::move(out));
                    }};
}

}  // namespace gl::lang::trace
