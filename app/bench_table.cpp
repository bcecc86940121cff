#include "bench_table.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gl::app::bench {

namespace {

std::string printf1(const char* format, double x) {
  char text[64];
  std::snprintf(text, sizeof text, format, x);
  return text;
}

std::string seconds(double s) { return printf1(s < 10 ? "%.4f" : "%.2f", s); }

std::string padRight(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string padLeft(const std::string& text, size_t width) {
  return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string jsonNumber(double x) { return printf1("%.6g", x); }

const Case* findCase(const Report& report, const std::string& name) {
  for (const Case& c : report.cases)
    if (c.name == name && !c.seconds.empty()) return &c;
  return nullptr;
}

// A flat JSON object of strings and numbers, as the yardsticks print it (with or without
// spaces). Other values (true, null, nested) are skipped; false on anything malformed.
bool parseFlat(const std::string& s, std::map<std::string, std::string>& strings,
               std::map<std::string, double>& numbers) {
  size_t i = 0;
  auto skip = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  };
  auto quoted = [&](std::string& out) {
    if (i >= s.size() || s[i] != '"') return false;
    for (++i; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] == '\\' && i + 1 < s.size()) ++i;
      out += s[i];
    }
    if (i >= s.size()) return false;
    ++i;
    return true;
  };
  skip();
  if (i >= s.size() || s[i] != '{') return false;
  ++i;
  for (;;) {
    skip();
    if (i < s.size() && s[i] == '}') return true;
    std::string key;
    if (!quoted(key)) return false;
    skip();
    if (i >= s.size() || s[i] != ':') return false;
    ++i;
    skip();
    if (i < s.size() && s[i] == '"') {
      std::string value;
      if (!quoted(value)) return false;
      strings[key] = value;
    } else {
      const size_t end = s.find_first_of(",}", i);
      if (end == std::string::npos) return false;
      std::string text = s.substr(i, end - i);
      while (!text.empty() && text.back() == ' ') text.pop_back();
      char* rest = nullptr;
      const double value = std::strtod(text.c_str(), &rest);
      if (!text.empty() && rest && *rest == '\0') numbers[key] = value;
      i = end;
    }
    skip();
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    return i < s.size() && s[i] == '}';
  }
}

}  // namespace

const std::vector<Lesson>& lessons() {
  // --quick sizes: small enough that all the lessons, both executors and three runs take a
  // few seconds on two cores, and equal to torch_seeds.py --quick where that is cheap (ODE
  // 2000 steps at [10,5000], 200 per-step gradients, 64x64 images).
  static const std::vector<Lesson> table = {
      {.name = "ode",
       .script = "ode_while_loop",
       .quick = {{"steps", 2000}},
       .torchCase = "ode",
       .torchSize = {{"steps", "steps"}, {"batch", "batch"}, {"dim", "dim"}},
       .torchMode = {{"serial", "serial_per_sample"},
                     {"parallel", "serial_per_sample"},
                     {"vectorized", "vectorized"}},
       .odeLimit = true},
      {.name = "per_step",
       .script = "per_step_gradients",
       .quick = {{"steps", 200}},
       .torchCase = "per_step_grad",
       .torchSize = {{"steps", "steps"}},
       .torchMode = {{"backward_passes", "serial_T_backwards"}, {"jacobian", "vmap_vjp"}}},
      {.name = "layers",
       .script = "parallel_layers",
       .quick = {{"layers", 16}, {"batch", 8}},
       .torchCase = "parallel_layers",
       .torchSize = {{"n_layers", "layers"}},
       .torchMode = {{"python_list", "serial_list"},
                     {"einsum", "batched_einsum"},
                     {"vectorized_map", "batched_einsum"}}},
      {.name = "heads",
       .script = "gradient_none",
       .quick = {{"size", 64}},
       .torchCase = "three_heads",
       .torchSize = {{"hw", "size"}},
       .torchMode = {{"fix_map_fn", "per_head_grads"},
                     {"fix_python_list", "per_head_grads"},
                     {"fix_tensorarray", "per_head_grads"},
                     {"fix_vectorized", "per_head_grads"}}},
      {.name = "rnn", .script = "rnn_bptt", .quick = {{"T", 40}}},
      {.name = "checkpointing", .script = "checkpointing", .quick = {{"steps", 50}}},
      {.name = "custom_gradients", .script = "custom_gradients", .quick = {{"n", 101}}},
      // No PyTorch peer: the tensor-loop variants against the unrolled Python loop.
      {.name = "training", .script = "training_loop", .quick = {{"epochs", 50}}},
      // Not a lesson: a scalar while_loop of 100000 steps with its gradient, all overhead.
      {.name = "op_overhead",
       .script = ":/bench/op_overhead.gls",
       .quick = {{"steps", 10000}},
       .perOp = true},
      // Not a lesson: eager ops, each built and computed at once (issue #27).
      {.name = "eager_dispatch",
       .script = ":/bench/eager_dispatch.gls",
       .quick = {{"steps", 5000}},
       .perOp = true,
       .timesTrace = true},
  };
  return table;
}

const Lesson* findLesson(const std::string& name) {
  for (const Lesson& l : lessons())
    if (l.name == name) return &l;
  return nullptr;
}

Stats stats(std::vector<double> seconds) {
  Stats s;
  if (seconds.empty()) return s;
  std::sort(seconds.begin(), seconds.end());
  const size_t n = seconds.size();
  s.median = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  s.min = seconds.front();
  s.max = seconds.back();
  return s;
}

std::string caseName(const std::string& lesson, const std::string& variant,
                     const std::string& executor) {
  return lesson + "/" + variant + "/" + executor;
}

bool selects(const std::string& only, const std::string& name) {
  return only.empty() || name.find(only) != std::string::npos;
}

std::vector<Ratio> ratios(const Report& report) {
  std::vector<Ratio> out;
  // Cases timed in the same rounds are compared round by round, and the median of those ratios
  // taken: a long bench drifts (session 21: the ODE's per-sample rows 1.1-1.3 s in some rounds,
  // 0.8 s in others, while its limit held), and a pair from one round shares the drift.
  // Otherwise (a peer with runs of its own), the ratio of the medians.
  auto add = [&](const Case& c, const Case* over) {
    if (!over || over == &c) return;
    if (c.seconds.size() == over->seconds.size() &&
        std::all_of(over->seconds.begin(), over->seconds.end(), [](double x) { return x > 0; })) {
      std::vector<double> perRound;
      for (size_t i = 0; i < c.seconds.size(); ++i)
        perRound.push_back(c.seconds[i] / over->seconds[i]);
      out.push_back({c.name, over->name, stats(perRound).median});
      return;
    }
    const double denominator = over->summary().median;
    if (denominator > 0) out.push_back({c.name, over->name, c.summary().median / denominator});
  };
  for (const Case& c : report.cases) {
    if (c.yardstick || c.seconds.empty() || !c.error.empty()) continue;
    const Case* fastest = nullptr;
    for (const Case& other : report.cases)
      if (!other.yardstick && other.lesson == c.lesson && other.executor == c.executor &&
          !other.seconds.empty() && other.error.empty() && !other.noneGradients &&
          (!fastest || other.summary().median < fastest->summary().median))
        fastest = &other;
    add(c, fastest);
    const Lesson* lesson = findLesson(c.lesson);
    if (!lesson) continue;
    if (lesson->odeLimit)
      for (const char* limit : {"step_major", "fused"}) {
        const std::string plain = c.lesson + "/limit_" + limit;
        const Case* ftz = findCase(report, plain + "_ftz");
        add(c, ftz ? ftz : findCase(report, plain));
      }
    auto mode = lesson->torchMode.find(c.variant);
    if (mode != lesson->torchMode.end())
      add(c, findCase(report, "torch/" + lesson->torchCase + "/" + mode->second));
  }
  return out;
}

std::string formatBytes(size_t bytes) {
  if (bytes == 0) return "-";
  if (bytes < 1024) return std::to_string(bytes) + " B";
  if (bytes < 1024 * 1024) return printf1("%.1f KiB", double(bytes) / 1024);
  if (bytes < size_t(1024) * 1024 * 1024) return printf1("%.1f MiB", double(bytes) / 1048576);
  return printf1("%.2f GiB", double(bytes) / 1073741824.0);
}

std::string formatTable(const Report& report) {
  size_t width = 4;
  for (const Case& c : report.cases) width = std::max(width, c.name.size());
  const std::vector<Ratio> all = ratios(report);
  std::string out = padRight("case", width) + "  " + padLeft("median s", 9) + "  " +
                    padLeft("min s", 9) + "  " + padLeft("max s", 9) + "  " + padLeft("peak", 10) +
                    "  ratios (median of per-round ratios)\n";
  for (const Case& c : report.cases) {
    out += padRight(c.name, width) + "  ";
    if (c.seconds.empty()) {
      out += c.error.empty() ? "not run\n" : "failed: " + c.error + "\n";
      continue;
    }
    const Stats s = c.summary();
    out += padLeft(seconds(s.median), 9) + "  " + padLeft(seconds(s.min), 9) + "  " +
           padLeft(seconds(s.max), 9) + "  " + padLeft(formatBytes(c.peakBytes), 10);
    std::string list;
    for (const Ratio& r : all)
      if (r.of == c.name) list += (list.empty() ? "" : ", ") + printf1("%.2fx ", r.value) + r.over;
    if (c.noneGradients) list += std::string(list.empty() ? "" : ", ") + "None gradients";
    const Lesson* lesson = findLesson(c.lesson);
    if (lesson && lesson->perOp && c.primitiveOps > 0)
      list += std::string(list.empty() ? "" : ", ") +
              printf1("%.3f us/op", 1e6 * s.median / double(c.primitiveOps)) + " (" +
              std::to_string(c.primitiveOps) + " ops)";
    out += (list.empty() ? "" : "  " + list) + "\n";
    if (!c.error.empty()) out += padRight("", width) + "  failed: " + c.error + "\n";
  }
  for (const std::string& note : report.notes) out += "note: " + note + "\n";
  return out;
}

std::string toJson(const Report& report) {
  std::string out = "{\n  \"quick\": " + std::string(report.quick ? "true" : "false") +
                    ",\n  \"runs\": " + std::to_string(report.runs) +
                    ",\n  \"threads\": " + std::to_string(report.threads) + ",\n  \"cases\": [";
  for (size_t i = 0; i < report.cases.size(); ++i) {
    const Case& c = report.cases[i];
    const Stats s = c.summary();
    out += std::string(i ? "," : "") + "\n    {\"name\": " + jsonString(c.name) +
           ", \"lesson\": " + jsonString(c.lesson) + ", \"variant\": " + jsonString(c.variant) +
           ", \"executor\": " + jsonString(c.executor) +
           ", \"yardstick\": " + (c.yardstick ? "true" : "false") + ", \"seconds\": [";
    for (size_t k = 0; k < c.seconds.size(); ++k) out += (k ? ", " : "") + jsonNumber(c.seconds[k]);
    out += "], \"median\": " + jsonNumber(s.median) + ", \"min\": " + jsonNumber(s.min) +
           ", \"max\": " + jsonNumber(s.max) + ", \"peak_bytes\": " + std::to_string(c.peakBytes) +
           ", \"trace_seconds\": " + jsonNumber(c.traceSeconds) +
           ", \"primitive_ops\": " + std::to_string(c.primitiveOps) +
           ", \"none_gradients\": " + (c.noneGradients ? "true" : "false") +
           ", \"error\": " + jsonString(c.error) + "}";
  }
  out += "\n  ],\n  \"ratios\": [";
  const std::vector<Ratio> all = ratios(report);
  for (size_t i = 0; i < all.size(); ++i)
    out += std::string(i ? "," : "") + "\n    {\"of\": " + jsonString(all[i].of) +
           ", \"over\": " + jsonString(all[i].over) + ", \"ratio\": " + jsonNumber(all[i].value) +
           "}";
  out += "\n  ],\n  \"notes\": [";
  for (size_t i = 0; i < report.notes.size(); ++i)
    out += std::string(i ? ", " : "") + jsonString(report.notes[i]);
  return out + "]\n}\n";
}

bool parseLimitLine(const std::string& line, LimitLine& out) {
  std::map<std::string, std::string> strings;
  std::map<std::string, double> numbers;
  if (!parseFlat(line, strings, numbers) || !numbers.count("steps") ||
      !numbers.count("step_major_s") || !numbers.count("fused_s"))
    return false;
  out.steps = int(numbers["steps"]);
  out.stepMajor = numbers["step_major_s"];
  out.fused = numbers["fused_s"];
  return true;
}

bool parseTorchLine(const std::string& line, TorchLine& out) {
  std::map<std::string, std::string> strings;
  std::map<std::string, double> numbers;
  if (!parseFlat(line, strings, numbers) || !strings.count("case") || !strings.count("mode") ||
      !numbers.count("seconds") || numbers["seconds"] < 0)
    return false;
  out.caseName = strings["case"];
  out.mode = strings["mode"];
  out.seconds = numbers["seconds"];
  out.numbers = numbers;
  return true;
}

}  // namespace gl::app::bench
