#include "args.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace gl::app::args {

namespace {

constexpr const char* kProgram = "gradlab";
constexpr size_t kWidth = 100;
constexpr size_t kHelpColumn = 26;

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Flag:
      return "flag";
    case Kind::Text:
      return "text";
    case Kind::Choice:
      return "choice";
    case Kind::Int:
      return "integer";
    case Kind::Real:
      return "number";
    case Kind::Bytes:
      return "size";
    case Kind::Setting:
      return "setting";
  }
  return "?";
}

bool takesValue(const Option& o) { return o.kind != Kind::Flag; }

std::string joined(const std::vector<std::string>& words, const std::string& sep,
                   const std::string& lastSep) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) s += i + 1 == words.size() ? lastSep : sep;
    s += words[i];
  }
  return s;
}

std::string metavar(const Option& o) {
  if (o.kind == Kind::Choice) return joined(o.choices, "|", "|");
  return o.metavar;
}

// "--threads N", "--json", "--executor serial|parallel"
std::string synopsis(const Option& o) { return takesValue(o) ? o.name + " " + metavar(o) : o.name; }

// What an Int option accepts, for messages and --help: "an integer from 1 to 256".
std::string intRange(const Option& o) {
  const bool low = o.min != std::numeric_limits<int64_t>::min();
  const bool high = o.max != std::numeric_limits<int64_t>::max();
  if (low && high)
    return "an integer from " + std::to_string(o.min) + " to " + std::to_string(o.max);
  if (low) return "an integer >= " + std::to_string(o.min);
  if (high) return "an integer <= " + std::to_string(o.max);
  return "an integer";
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// "[--json]". (Not "[" + s + "]": GCC 12 reports that as an overlapping memcpy, bug 105329.)
std::string bracketed(std::string s) {
  s.insert(s.begin(), '[');
  s.push_back(']');
  return s;
}

}  // namespace

Option& Option::byDefault(std::string text) {
  fallback = std::move(text);
  return *this;
}

Option& Option::mandatory() {
  required = true;
  return *this;
}

namespace {
Option option(std::string name, Kind kind, std::string metavar, std::string help) {
  Option o;
  o.name = std::move(name);
  o.kind = kind;
  o.metavar = std::move(metavar);
  o.help = std::move(help);
  return o;
}
}  // namespace

Option flag(std::string name, std::string help) {
  return option(std::move(name), Kind::Flag, {}, std::move(help));
}

Option text(std::string name, std::string metavar, std::string help) {
  return option(std::move(name), Kind::Text, std::move(metavar), std::move(help));
}

Option choice(std::string name, std::vector<std::string> choices, std::string help) {
  Option o = option(std::move(name), Kind::Choice, {}, std::move(help));
  o.choices = std::move(choices);
  return o;
}

Option integer(std::string name, std::string metavar, int64_t min, int64_t max, std::string help) {
  Option o = option(std::move(name), Kind::Int, std::move(metavar), std::move(help));
  o.min = min;
  o.max = max;
  return o;
}

Option real(std::string name, std::string metavar, std::string help) {
  return option(std::move(name), Kind::Real, std::move(metavar), std::move(help));
}

Option bytes(std::string name, std::string metavar, std::string help) {
  return option(std::move(name), Kind::Bytes, std::move(metavar), std::move(help));
}

Option setting(std::string name, std::string help) {
  Option o;
  o.name = std::move(name);
  o.kind = Kind::Setting;
  o.metavar = "NAME=VALUE";
  o.help = std::move(help);
  return o;
}

const Option* Command::option(const std::string& name) const {
  for (const Option& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

// ---- numbers ----

bool parseInteger(const std::string& text, int64_t& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;  // "+4", as std::stoi read it
  if (begin == end || (*begin == '-' && begin != text.data())) return false;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  return ec == std::errc() && ptr == end;
}

// Decimal only, as Python's float() reads a number: no hex ("0x5", which strtod took), no inf or
// nan. A value too small for a double ("1e-400") is 0, as Python's float() rounds it; a value too
// large ("1e999") is refused.
bool parseReal(const std::string& text, double& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end || (*begin == '-' && begin != text.data())) return false;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, v, std::chars_format::general);
  if (ptr != end) return false;
  if (ec == std::errc::result_out_of_range) {
    v = std::strtod(std::string(begin, end).c_str(), nullptr);  // underflow: 0 or a denormal
    if (std::fabs(v) > 1) return false;
  } else if (ec != std::errc()) {
    return false;
  }
  if (!std::isfinite(v)) return false;
  value = v;
  return true;
}

bool parseBytes(const std::string& text, int64_t& value) {
  std::string number = text;
  for (const char* unit : {"iB", "B"})
    if (number.size() > 1 && number.ends_with(unit)) {
      number.resize(number.size() - std::char_traits<char>::length(unit));
      break;
    }
  double scale = 1;
  if (!number.empty()) {
    const char u = char(std::toupper(static_cast<unsigned char>(number.back())));
    const std::string units = "KMGT";
    if (const size_t k = units.find(u); k != std::string::npos) {
      scale = std::ldexp(1.0, 10 * int(k + 1));
      number.pop_back();
    }
  }
  double x = 0;
  if (!parseReal(number, x)) return false;
  const double b = x * scale;
  if (!(b >= 1 && b < std::ldexp(1.0, 62))) return false;
  value = int64_t(b);
  return true;
}

bool parseSetting(const std::string& text, std::string& name, double& value) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  if (!parseReal(text.substr(eq + 1), value)) return false;
  name = text.substr(0, eq);
  return true;
}

// ---- Parsed ----

const Parsed::Value* Parsed::find(const std::string& option, Kind kind) const {
  const Option* o = command_ ? command_->option(option) : nullptr;
  if (!o)
    throw std::logic_error("gradlab " + (command_ ? command_->name : std::string("?")) +
                           " declares no option " + option);
  const bool textLike = kind == Kind::Text && o->kind == Kind::Choice;
  if (o->kind != kind && !textLike)
    throw std::logic_error(option + " is a " + kindName(o->kind) + " option, read as " +
                           kindName(kind));
  auto it = values_.find(option);
  return it == values_.end() ? nullptr : &it->second;
}

bool Parsed::has(const std::string& option) const {
  if (!command_ || !command_->option(option))
    throw std::logic_error("no option " + option + " declared");
  return values_.count(option) > 0;
}

bool Parsed::flag(const std::string& option) const {
  const Value* v = find(option, Kind::Flag);
  return v && std::get<bool>(*v);
}

std::string Parsed::text(const std::string& option, const std::string& fallback) const {
  const Value* v = find(option, Kind::Text);
  return v ? std::get<std::string>(*v) : fallback;
}

int64_t Parsed::integer(const std::string& option, int64_t fallback) const {
  const Value* v = find(option, Kind::Int);
  return v ? std::get<int64_t>(*v) : fallback;
}

double Parsed::real(const std::string& option, double fallback) const {
  const Value* v = find(option, Kind::Real);
  return v ? std::get<double>(*v) : fallback;
}

int64_t Parsed::bytes(const std::string& option, int64_t fallback) const {
  const Value* v = find(option, Kind::Bytes);
  return v ? std::get<int64_t>(*v) : fallback;
}

std::vector<Setting> Parsed::settings(const std::string& option) const {
  const Value* v = find(option, Kind::Setting);
  return v ? std::get<std::vector<Setting>>(*v) : std::vector<Setting>{};
}

std::string Parsed::positional(const std::string& name) const {
  bool declared = false;
  if (command_)
    for (const Positional& p : command_->positionals) declared = declared || p.name == name;
  if (!declared) throw std::logic_error("no positional " + name + " declared");
  auto it = positionals_.find(name);
  return it == positionals_.end() ? std::string() : it->second;
}

// ---- parsing ----

struct Parser {
  const Command& command;
  Result result;

  std::string prefix() const { return std::string(kProgram) + " " + command.name + ": "; }

  bool fail(const std::string& message) {
    result.error = prefix() + message;
    return false;
  }

  // Checks and stores `value` for option `o`.
  bool store(const Option& o, const std::string& value) {
    Parsed& p = result.parsed;
    switch (o.kind) {
      case Kind::Flag:
        p.values_[o.name] = true;
        return true;
      case Kind::Text:
        p.values_[o.name] = value;
        return true;
      case Kind::Choice:
        for (const std::string& c : o.choices)
          if (c == value) {
            p.values_[o.name] = value;
            return true;
          }
        return fail(o.name + " expects " + joined(o.choices, ", ", " or ") + ", got " +
                    quoted(value));
      case Kind::Int: {
        int64_t n = 0;
        if (!parseInteger(value, n) || n < o.min || n > o.max)
          return fail(o.name + " expects " + intRange(o) + ", got " + quoted(value));
        p.values_[o.name] = n;
        return true;
      }
      case Kind::Real: {
        double x = 0;
        if (!parseReal(value, x)) return fail(o.name + " expects a number, got " + quoted(value));
        p.values_[o.name] = x;
        return true;
      }
      case Kind::Bytes: {
        int64_t n = 0;
        if (!parseBytes(value, n))
          return fail(o.name + " expects a size such as 2G, 512M or 4096, got " + quoted(value));
        p.values_[o.name] = n;
        return true;
      }
      case Kind::Setting: {
        Setting s;
        if (!parseSetting(value, s.name, s.value))
          return fail(o.name + " expects name=value with a number, got " + quoted(value));
        auto [it, fresh] = p.values_.try_emplace(o.name, std::vector<Setting>{});
        std::get<std::vector<Setting>>(it->second).push_back(std::move(s));
        return true;
      }
    }
    return fail("internal: unknown kind of " + o.name);
  }

  bool positional(const std::string& word) {
    Parsed& p = result.parsed;
    const size_t given = p.positionals_.size();
    if (given >= command.positionals.size()) {
      if (command.positionals.empty()) return fail("takes no arguments, got " + quoted(word));
      const Positional& last = command.positionals.back();
      return fail("unexpected argument " + quoted(word) + " (" + last.name + " is already " +
                  quoted(p.positionals_[last.name]) + ")");
    }
    p.positionals_[command.positionals[given].name] = word;
    return true;
  }

  bool run(const std::vector<std::string>& words) {
    result.parsed.command_ = &command;
    bool optionsEnded = false;
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (optionsEnded || w.size() < 2 || w[0] != '-') {
        if (!positional(w)) return false;
        continue;
      }
      if (w == "--") {
        optionsEnded = true;
        continue;
      }
      if (w == "-h" || w == "--help") {
        result.parsed.help = true;
        return true;
      }
      const size_t eq = w.find('=');
      const std::string name = w.substr(0, eq);
      const Option* o = command.option(name);
      if (!o) return fail("unknown option " + quoted(name));
      if (!takesValue(*o)) {
        if (eq != std::string::npos) return fail(name + " takes no value");
        if (!store(*o, {})) return false;
      } else if (eq != std::string::npos) {
        if (!store(*o, w.substr(eq + 1))) return false;
      } else if (i + 1 < words.size()) {
        if (!store(*o, words[++i])) return false;
      } else {
        return fail(name + " needs a value (" + synopsis(*o) + ")");
      }
    }
    for (const Positional& p : command.positionals)
      if (p.required && !result.parsed.positionals_.count(p.name)) return fail("missing " + p.name);
    for (const Option& o : command.options)
      if (o.required && !result.parsed.values_.count(o.name))
        return fail(synopsis(o) + " is required");
    return true;
  }
};

Result parse(const Command& command, const std::vector<std::string>& words) {
  Parser parser{command, {}};
  parser.run(words);
  return std::move(parser.result);
}

// ---- help ----

std::string usage(const Command& command) {
  std::vector<std::string> parts;
  for (const Positional& p : command.positionals)
    parts.push_back(p.required ? p.name : bracketed(p.name));
  for (const Option& o : command.options) {
    std::string s = o.required ? synopsis(o) : bracketed(synopsis(o));
    if (o.kind == Kind::Setting) s += "...";
    parts.push_back(s);
  }
  const std::string lead = std::string("usage: ") + kProgram + " " +
                           (command.isDefault ? bracketed(command.name) : command.name);
  const std::string indent(lead.size(), ' ');
  std::string out = lead, line = lead;
  for (const std::string& part : parts) {
    if (line.size() + 1 + part.size() > kWidth && line != indent) {
      out += "\n" + indent;
      line = indent;
    }
    out += " " + part;
    line += " " + part;
  }
  return out + "\n";
}

std::string help(const Command& command) {
  std::string out = usage(command) + "\n" + command.summary + "\n";
  // "  --threads N      text", the text wrapped in its column.
  auto row = [&](const std::string& left, const std::string& right) {
    const std::string indent(kHelpColumn, ' ');
    std::string line = "  " + left;
    if (line.size() + 2 > kHelpColumn) {
      out += line + "\n";
      line = indent;
    }
    line.resize(kHelpColumn, ' ');
    size_t start = 0;
    while (start < right.size()) {
      size_t end = right.find(' ', start);
      if (end == std::string::npos) end = right.size();
      const std::string word = right.substr(start, end - start);
      if (line.size() > kHelpColumn && line.size() + 1 + word.size() > kWidth) {
        out += line + "\n";
        line = indent;
      }
      if (line.size() > kHelpColumn) line += ' ';
      line += word;
      start = end + 1;
    }
    out += line + "\n";
  };
  if (!command.positionals.empty()) {
    out += "\narguments:\n";
    for (const Positional& p : command.positionals)
      row(p.name, p.help + (p.required ? "" : " (optional)"));
  }
  out += "\noptions:\n";
  for (const Option& o : command.options) {
    std::string text = o.help;
    if (o.kind == Kind::Int) text += "; " + intRange(o);
    if (o.kind == Kind::Setting) text += "; repeatable";
    if (o.required) text += " (required)";
    if (!o.fallback.empty()) text += " (default: " + o.fallback + ")";
    row(synopsis(o), text);
  }
  row("-h, --help", "show this help");
  return out;
}

}  // namespace gl::app::args
