#pragma once
// A run's Timeline as Chrome trace-event JSON (the format Perfetto and chrome://tracing open):
// {"traceEvents":[{"name","cat","ph":"X","ts","dur","pid","tid","args"}...]}, times in
// microseconds. One process per variant, one thread per Timeline thread. `gradlab export
// --format trace` and the window's timeline export write the same text.
#include <functional>
#include <string>
#include <vector>

#include "engine/lab/session.h"

namespace gl::lab {

// One process of the trace: a variant and its run's events.
struct TraceProcess {
  std::string name;
  const std::vector<TimelineEvent>* events = nullptr;
};

// How an event's node reads: its op is the slice name (so the trace viewers sum time per op),
// its label ("mul#12 'y'") goes into the event's args.
struct TraceNodeNames {
  std::string op, label;
};
using TraceNamer = std::function<TraceNodeNames(int node)>;

std::string chromeTraceJson(const std::vector<TraceProcess>& processes, const TraceNamer& names);

// Every variant of `run` that recorded a timeline, its nodes named by `graph`.
std::string chromeTraceJson(const Graph& graph, const ProgramRun& run);

// The names chromeTraceJson(graph, run) gives a node; "node#N" for ids outside the graph.
TraceNodeNames traceNodeNames(const Graph& graph, int node);

}  // namespace gl::lab
