#pragma once
// One declarative argument parser for every gradlab command. A command declares its positional
// arguments and its options (kind, range or choices, help text); parse() turns the words after
// the command name into a typed Parsed or one error message, and usage()/help() are generated
// from the same declarations. Plain C++: no Qt, no exit(), no printing.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace gl::app::args {

enum class Kind {
  Flag,     // --json: no value
  Text,     // --variant V: any text
  Choice,   // --executor serial|parallel: one of `choices`
  Int,      // --threads N: an integer in [min, max]
  Real,     // --dt DT: a finite number
  Bytes,    // --memory-budget SIZE: bytes, with an optional K, M, G or T (powers of 1024)
  Setting,  // --set NAME=VALUE: repeatable, collected in order
};

struct Option {
  std::string name;  // "--threads"
  Kind kind = Kind::Flag;
  std::string metavar;  // "N" (Choice: generated from the choices)
  std::string help;
  std::vector<std::string> choices;
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
  std::string fallback;  // shown in --help as "default: ..."
  bool required = false;

  Option& byDefault(std::string text);
  Option& mandatory();
};

Option flag(std::string name, std::string help);
Option text(std::string name, std::string metavar, std::string help);
Option choice(std::string name, std::vector<std::string> choices, std::string help);
Option integer(std::string name, std::string metavar, int64_t min, int64_t max, std::string help);
Option real(std::string name, std::string metavar, std::string help);
Option bytes(std::string name, std::string metavar, std::string help);
Option setting(std::string name, std::string help);

struct Positional {
  std::string name;  // "FILE"
  std::string help;
  bool required = true;
};

struct Command {
  std::string name;     // "run"
  std::string summary;  // one line for the command list and the top of --help
  std::vector<Positional> positionals;
  std::vector<Option> options;
  bool isDefault = false;  // may be left out: usage shows "gradlab [window] ..."

  const Option* option(const std::string& name) const;  // nullptr when not declared
};

struct Setting {
  std::string name;
  double value = 0;
};

// The typed values of one parse. Asking for a name the command does not declare, or with the
// wrong kind, is a programming error and throws std::logic_error. It refers to the Command it
// was parsed against, which must outlive it (gradlab's table is static).
class Parsed {
 public:
  bool help = false;  // -h/--help was given: show help(command), exit 0

  bool has(const std::string& option) const;  // given on the command line
  bool flag(const std::string& option) const;
  std::string text(const std::string& option,
                   const std::string& fallback = {}) const;  // Text,Choice
  int64_t integer(const std::string& option, int64_t fallback) const;
  double real(const std::string& option, double fallback) const;
  int64_t bytes(const std::string& option, int64_t fallback) const;
  std::vector<Setting> settings(const std::string& option) const;  // in command-line order
  std::string positional(const std::string& name) const;           // "" when not given

 private:
  friend struct Parser;
  using Value = std::variant<bool, std::string, int64_t, double, std::vector<Setting>>;
  const Value* find(const std::string& option, Kind kind) const;
  const Command* command_ = nullptr;
  std::map<std::string, Value> values_;
  std::map<std::string, std::string> positionals_;
};

struct Result {
  Parsed parsed;
  std::string error;  // a usage error: "gradlab run: --threads expects ..."; empty when ok
  bool ok() const { return error.empty(); }
};

// Parses the words after the command name. Options take their value from the next word or
// after '=' (--threads=4); "--" ends the options; the last of a repeated option wins (Setting
// collects all).
Result parse(const Command& command, const std::vector<std::string>& words);

// "usage: gradlab run FILE [--variant V] ...", wrapped to 100 columns.
std::string usage(const Command& command);
// usage, summary, then one line per positional and option with its range, choices and default.
std::string help(const Command& command);

// Number parsing as the parser does it (whole text, finite); false on anything else.
bool parseInteger(const std::string& text, int64_t& value);
bool parseReal(const std::string& text, double& value);
// "2G", "512M", "1.5G", "4096" (bytes); K/M/G/T are powers of 1024, an optional "B" or "iB"
// follows. At least one byte, below 2^62.
bool parseBytes(const std::string& text, int64_t& value);
// "name=value" with a number after '='.
bool parseSetting(const std::string& text, std::string& name, double& value);

}  // namespace gl::app::args
