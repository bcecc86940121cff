#include "engine/lab/trace_json.h"

#include <cstdio>
#include <set>
#include <sstream>

namespace gl::lab {

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// Microseconds with a nanosecond's precision: the trace viewers read fractions of a µs.
std::string micros(double seconds) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e6);
  return buf;
}

// Metadata ("ph":"M") names the rows: the viewers otherwise show bare pid/tid numbers.
void metadata(std::ostream& os, const char* what, int pid, int tid, const std::string& name) {
  os << ",\n{\"name\":\"" << what << "\",\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << tid
     << ",\"args\":{\"name\":" << quoted(name) << "}}";
}

}  // namespace

TraceNodeNames traceNodeNames(const Graph& graph, int node) {
  if (node < 0 || node >= graph.numNodes()) return {"node", "node#" + std::to_string(node)};
  const Node& n = graph.node(node);
  return {std::string(n.opName()), n.label()};
}

std::string chromeTraceJson(const std::vector<TraceProcess>& processes, const TraceNamer& names) {
  std::ostringstream os;
  os << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
  bool first = true;
  for (size_t p = 0; p < processes.size(); ++p) {
    const int pid = int(p) + 1;  // pid 0 reads as "no process" in some viewers
    if (!processes[p].events) continue;
    std::set<int> threads;
    for (const TimelineEvent& e : *processes[p].events) {
      const TraceNodeNames n = names(e.node);
      os << (first ? "\n" : ",\n") << "{\"name\":" << quoted(n.op)
         << ",\"cat\":\"op\",\"ph\":\"X\",\"ts\":" << micros(e.start)
         << ",\"dur\":" << micros(e.end - e.start) << ",\"pid\":" << pid << ",\"tid\":" << e.thread
         << ",\"args\":{\"node\":" << e.node << ",\"label\":" << quoted(n.label)
         << ",\"iteration\":" << e.iteration << "}}";
      first = false;
      threads.insert(e.thread);
    }
    if (first) {  // metadata needs a comma before it: open with the process name instead
      os << "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << pid
         << ",\"tid\":0,\"args\":{\"name\":" << quoted(processes[p].name) << "}}";
      first = false;
    } else {
      metadata(os, "process_name", pid, 0, processes[p].name);
    }
    for (int t : threads) metadata(os, "thread_name", pid, t, "thread " + std::to_string(t));
  }
  os << "\n]}\n";
  return os.str();
}

std::string chromeTraceJson(const Graph& graph, const ProgramRun& run) {
  std::vector<TraceProcess> processes;
  for (const VariantRun& v : run.variants)
    if (!v.run.timeline.empty())
      processes.push_back({v.name.empty() ? std::string("main") : v.name, &v.run.timeline});
  return chromeTraceJson(processes, [&](int node) { return traceNodeNames(graph, node); });
}

}  // namespace gl::lab
