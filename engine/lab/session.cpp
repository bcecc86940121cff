#include "engine/lab/session.h"

#include "engine/control/kind.h"
#include "engine/lab/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "engine/exec/executor.h"
#include "engine/tensor/dtype_dispatch.h"

namespace gl::lab {

using lang::Output;
using lang::OutputEntry;
using lang::Param;
using lang::TracedProgram;
using lang::Variant;

namespace {

std::vector<const Variant*> selected(const TracedProgram& p, const std::string& name) {
  std::vector<const Variant*> out;
  for (const Variant& v : p.variants)
    if (name.empty() || v.name == name) out.push_back(&v);
  if (out.empty()) {
    std::string names;
    for (const Variant& v : p.variants) names += (names.empty() ? "" : ", ") + v.name;
    throw EngineError("no variant named '" + name + "' (variants: " + names + ")");
  }
  return out;
}

VariantRun runVariant(const TracedProgram& p, const Variant& v, const RunRequest& request) {
  VariantRun vr;
  vr.name = v.name;
  vr.executor = request.options.executor;
  vr.vectorized = v.vectorized;
  std::vector<Value> fetches;
  for (const Output& o : v.outputs)
    for (const OutputEntry& e : o.entries)
      if (e.value.valid()) fetches.push_back(e.value);
  RunOptions opt = request.options;
  opt.alsoRun = v.eagerNodes;
  const size_t heldBefore = memoryHighWater();
  try {
    vr.run = Executor(*p.graph, opt).run(fetches);
    vr.freshBytes = memoryHighWater() - heldBefore;
  } catch (const CancelledError&) {
    vr.cancelled = true;
    vr.error = "the run was cancelled";
  } catch (const EngineError& e) {
    vr.error = e.what();
    vr.errorLoc = e.loc();
    // The located error keeps its message's structure, for the window's translated log.
    diagnosed(vr.error, diagnosticOf(vr.error, e.message()));
  } catch (const std::exception& e) {
    vr.error = std::string("internal error: ") + e.what();
  }
  size_t k = 0;
  for (const Output& o : v.outputs) {
    OutputResult r{o.name, o.loc, o.isGradient, o.isList, {}};
    for (const OutputEntry& e : o.entries) {
      EntryResult er;
      er.whyNone = e.whyNone;
      er.whyNode = e.whyNode;
      er.whyLoc = e.whyLoc;
      if (e.value.valid()) {
        if (vr.ok() && k < vr.run.values.size()) er.value = vr.run.values[k];
        ++k;
        er.record = TensorRecord::of(er.value, 64);
      }
      r.entries.push_back(std::move(er));
    }
    vr.outputs.push_back(std::move(r));
  }
  return vr;
}

template <class T>
double maxAbsOf(const T* p, int64_t n) {
  double m = 0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, std::abs(static_cast<double>(p[i])));
  return m;
}

double maxAbs(const Tensor& t) {
  return dispatchAll(t.dtype(), [&](auto z) { return maxAbsOf(t.data<decltype(z)>(), t.numel()); });
}

// The largest |x - y|, a NaN on either side counting as infinite. Typed loops: this runs over
// every output of every variant after each run.
template <class T>
double maxAbsDiffOf(const T* x, const T* y, int64_t n) {
  double m = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = std::abs(static_cast<double>(x[i]) - static_cast<double>(y[i]));
    m = d != d ? INFINITY : std::max(m, d);
    if (m == INFINITY) break;
  }
  return m;
}

double maxAbsDiff(const Tensor& x, const Tensor& y) {
  if (x.dtype() == y.dtype())
    return dispatchAll(x.dtype(), [&](auto z) {
      using T = decltype(z);
      return maxAbsDiffOf(x.data<T>(), y.data<T>(), x.numel());
    });
  double m = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double d = std::abs(x.at(i) - y.at(i));
    m = std::max(m, std::isnan(d) ? INFINITY : d);
  }
  return m;
}

// Compares two entries; returns false when shapes or None-ness differ.
void compareEntry(const EntryResult& a, const EntryResult& b, Agreement& ag) {
  if (a.none() != b.none()) {
    ag.noneMatch = false;
    return;
  }
  if (a.none()) return;
  if (a.value.isList() || b.value.isList()) {
    ag.shapesMatch = ag.shapesMatch && a.record.shape == b.record.shape;
    return;
  }
  const Tensor& x = a.value.t;
  const Tensor& y = b.value.t;
  if (x.shape() != y.shape()) {
    ag.shapesMatch = false;
    return;
  }
  // float32 accumulations in different orders (serial sums vs batched GEMMs) differ by a few
  // ulps of the largest magnitude involved.
  const bool f64 = x.dtype() == DType::F64 && y.dtype() == DType::F64;
  ag.tolerance = std::max(ag.tolerance, (f64 ? 1e-9 : 2e-4) * std::max(1.0, maxAbs(x)));
  ag.maxAbsDiff = std::max(ag.maxAbsDiff, maxAbsDiff(x, y));
}

std::string fmt(double v) {
  if (std::isnan(v)) return "nan";  // printf would say "-nan" for a NaN with its sign bit set
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string shapeText(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
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

std::string jsonNumber(double v) { return std::isfinite(v) ? fmt(v) : "null"; }

// The executor the run used: its variants record it, so a report written later (the window's
// export, report.txt) names it whatever request the writer passes.
ExecutorKind ranExecutor(const ProgramRun& run, const RunRequest& request) {
  return run.variants.empty() ? request.options.executor : run.variants.front().executor;
}

}  // namespace

bool ProgramRun::ok() const {
  for (const VariantRun& v : variants)
    if (!v.ok()) return false;
  return true;
}

std::vector<Agreement> compareVariants(const std::vector<VariantRun>& runs) {
  std::vector<Agreement> out;
  std::map<std::string, const OutputResult*> first;
  std::map<std::string, std::string> firstVariant;
  for (const VariantRun& v : runs) {
    if (!v.ok()) continue;
    for (const OutputResult& o : v.outputs) {
      auto it = first.find(o.name);
      if (it == first.end()) {
        first[o.name] = &o;
        firstVariant[o.name] = v.name;
        continue;
      }
      Agreement ag;
      ag.output = o.name;
      ag.reference = firstVariant[o.name];
      ag.other = v.name;
      const OutputResult& ref = *it->second;
      if (ref.entries.size() != o.entries.size()) {
        ag.shapesMatch = false;
      } else {
        for (size_t i = 0; i < o.entries.size(); ++i)
          compareEntry(ref.entries[i], o.entries[i], ag);
      }
      out.push_back(ag);
    }
  }
  return out;
}

bool worthTimingAgainWarm(const VariantRun& v) {
  return v.ok() && v.coldSeconds == 0 && v.freshBytes >= kWarmAgainBytes &&
         v.run.seconds <= kWarmAgainSeconds;
}

ProgramRun runProgram(const TracedProgram& program, const RunRequest& request) {
  ProgramRun pr;
  for (const Variant* v : selected(program, request.variant)) {
    pr.variants.push_back(runVariant(program, *v, request));
    if (pr.variants.back().cancelled) break;
  }
  pr.agreement = compareVariants(pr.variants);
  return pr;
}

namespace {

// Each vectorized_map of the variant: batched, or which parts loop over the batch and why.
void addVectorizedEntries(const VariantRun& v, std::vector<ReportEntry>& out) {
  for (const VectorizedMapRecord& m : v.vectorized) {
    const std::string where = m.what + " at line " + std::to_string(m.loc.line);
    if (m.fallbacks.empty())
      out.push_back({ReportKind::Vectorized,
                     Severity::Info,
                     2,
                     where + ": one batched graph, no fallback",
                     m.loc,
                     {DiagCode::ReportVectorized, {}, {m.what, std::to_string(m.loc.line)}}});
    for (const BatchFallback& f : m.fallbacks)
      out.push_back(
          {ReportKind::Fallback,
           Severity::Warning,
           2,
           where + ": fallback: " + f.op + " at line " + std::to_string(f.loc.line) +
               " runs in a loop over the batch (" + f.reason + ")",
           f.loc,
           {DiagCode::ReportFallback,
            {},
            {m.what, std::to_string(m.loc.line), f.op, std::to_string(f.loc.line), f.reason}}});
  }
}

// The parallel and fusing executors: how many independent nodes ran side by side, one per thread.
void addSideBySideEntry(const VariantRun& v, std::vector<ReportEntry>& out) {
  if (!usesThreads(v.executor) || v.run.sideBySidePhases == 0) return;
  const std::string nodes = std::to_string(v.run.sideBySideNodes);
  const std::string phases = std::to_string(v.run.sideBySidePhases);
  out.push_back(
      {ReportKind::Fusion,
       Severity::Info,
       2,
       "side by side: " + nodes + " independent ops ran one per thread, in " + phases + " phases",
       {},
       {DiagCode::ReportSideBySide, {}, {nodes, phases}}});
}

// The fusing executor: how much it fused, and each while loop run element-major or why not.
void addFusionEntries(const Graph& g, const VariantRun& v, std::vector<ReportEntry>& out) {
  if (v.executor != ExecutorKind::Fused) return;
  out.push_back({ReportKind::Fusion,
                 Severity::Info,
                 2,
                 "fused: " + std::to_string(v.run.fusedNodes) + " elementwise ops in " +
                     std::to_string(v.run.fusedGroups) + " fused groups",
                 {},
                 {DiagCode::ReportFused,
                  {},
                  {std::to_string(v.run.fusedNodes), std::to_string(v.run.fusedGroups)}}});
  for (const LoopFusion& l : v.run.loopFusion) {
    const Node& n = g.node(l.node);
    const std::string loop = n.forwardNode >= 0 ? "reverse while_loop" : "while_loop";
    const std::string where = loop + " at line " + std::to_string(n.loc.line);
    Diagnostic diag =
        l.elementMajor
            ? Diagnostic{DiagCode::ReportLoopElementMajor,
                         {},
                         {loop, std::to_string(n.loc.line), std::to_string(l.iterations)}}
            : Diagnostic{
                  DiagCode::ReportLoopStepByStep, {}, {loop, std::to_string(n.loc.line), l.reason}};
    out.push_back({ReportKind::Fusion, Severity::Info, 2,
                   l.elementMajor ? where + ": element-major, " + std::to_string(l.iterations) +
                                        " iterations per block of elements"
                                  : where + ": fallback: runs step by step (" + l.reason + ")",
                   n.loc, std::move(diag)});
  }
}

// The same as JSON: [{"what", "line", "fallbacks": [{"op", "line", "col", "reason"}]}].
void vectorizedJson(std::ostream& os, const VariantRun& v) {
  os << "[";
  for (size_t mi = 0; mi < v.vectorized.size(); ++mi) {
    const VectorizedMapRecord& m = v.vectorized[mi];
    os << (mi ? "," : "") << "{\"what\":" << jsonString(m.what) << ",\"line\":" << m.loc.line
       << ",\"fallbacks\":[";
    for (size_t fi = 0; fi < m.fallbacks.size(); ++fi) {
      const BatchFallback& f = m.fallbacks[fi];
      os << (fi ? "," : "") << "{\"op\":" << jsonString(f.op) << ",\"line\":" << f.loc.line
         << ",\"col\":" << f.loc.col << ",\"reason\":" << jsonString(f.reason) << "}";
    }
    os << "]}";
  }
  os << "]";
}

// Which parts of a variant ran eagerly (op by op, as TF 2 runs code outside a tf.function) and
// which as tf.function graphs, and what its time covers: the run replays every eager op and
// every call (issue #27). Nothing for a script traced as one function.
void addExecutionEntries(const TracedProgram& program, const VariantRun& v,
                         std::vector<ReportEntry>& out) {
  const lang::Variant* variant = nullptr;
  for (const lang::Variant& candidate : program.variants)
    if (candidate.name == v.name) variant = &candidate;
  if (!variant || variant->eagerNodes.first >= variant->eagerNodes.second) return;
  const Graph& g = *program.graph;
  const auto [first, end] = variant->eagerNodes;
  std::vector<char> inCall(size_t(std::max(0, end - first)), 0);
  // Calls per concrete function, in first-call order.
  std::vector<std::pair<std::string, std::pair<int, std::set<int>>>> functions;
  for (const FunctionCall& call : g.functionCalls) {
    if (call.first < first || call.end > end) continue;
    for (int id = call.first; id < call.end; ++id) inCall[size_t(id - first)] = 1;
    auto it = std::find_if(functions.begin(), functions.end(),
                           [&](const auto& f) { return f.first == call.function; });
    if (it == functions.end()) it = functions.insert(functions.end(), {call.function, {0, {}}});
    ++it->second.first;
    it->second.second.insert(call.concrete);
  }
  int eagerOps = 0;
  for (int id = first; id < end; ++id) {
    const Node& n = g.node(id);
    if (!inCall[size_t(id - first)] && n.region <= 0 &&
        (n.is(NodeKind::Primitive) || !n.regions.empty()))
      ++eagerOps;
  }
  if (eagerOps > 0)
    out.push_back({ReportKind::Execution,
                   Severity::Info,
                   2,
                   "eager: " + std::to_string(eagerOps) +
                       " ops run one at a time, as TF 2 runs code outside a tf.function",
                   {},
                   {DiagCode::ReportEagerOps, {}, {std::to_string(eagerOps)}}});
  for (const auto& [name, calls] : functions) {
    const std::string count = std::to_string(calls.first),
                      traces = std::to_string(calls.second.size());
    out.push_back({ReportKind::Execution,
                   Severity::Info,
                   2,
                   "graph: tf.function " + name + " (calls: " + count + ", traces: " + traces + ")",
                   {},
                   {DiagCode::ReportFunctionCalls, {}, {name, count, traces}}});
  }
  const std::string executor = executorName(v.executor);
  out.push_back({ReportKind::Execution,
                 Severity::Info,
                 2,
                 "the time covers all of them, replayed by the " + executor + " executor",
                 {},
                 {DiagCode::ReportTimeCovers, {}, {executor}}});
}

}  // namespace

// The request is not read: each variant records the executor it ran on.
std::vector<ReportEntry> buildReport(const TracedProgram& program, const ProgramRun& run,
                                     const RunRequest& /*request*/) {
  std::vector<ReportEntry> out;
  auto add = [&](ReportKind k, Severity s, int indent, std::string text, SourceLoc loc = {},
                 Diagnostic diag = {}) {
    out.push_back({k, s, indent, std::move(text), std::move(loc), std::move(diag)});
  };
  for (const std::string& line : program.traceLog)
    add(ReportKind::TracePrint, Severity::Print, 0, "print: " + line);
  for (const VariantRun& v : run.variants) {
    add(ReportKind::Variant, Severity::Info, 0,
        "variant " + (v.name.empty() ? std::string("(main)") : "'" + v.name + "'") + "  [" +
            executorName(v.executor) + " executor]",
        {}, {DiagCode::ReportVariant, {}, {v.name, executorName(v.executor)}});
    addExecutionEntries(program, v, out);
    addVectorizedEntries(v, out);
    addFusionEntries(*program.graph, v, out);
    addSideBySideEntry(v, out);
    for (const std::string& line : v.run.log)
      add(ReportKind::RunPrint, Severity::Print, 2, "tf.print: " + line);
    if (v.cancelled) {
      add(ReportKind::RunCancelled, Severity::Info, 2, "cancelled", {},
          {DiagCode::ReportCancelled, {}, {}});
      continue;
    }
    if (!v.ok()) {
      add(ReportKind::RunError, Severity::Error, 2, v.error, v.errorLoc, diagnosticOf(v.error));
      continue;
    }
    for (const OutputResult& o : v.outputs) {
      // Long lists (a per-step list of 1000 tensors) show their ends; --json has them all.
      const size_t n = o.entries.size();
      for (size_t i = 0; i < n; ++i) {
        if (n > 8 && i == 3) {
          size_t none = 0;
          for (size_t k = 3; k + 2 < n; ++k) none += o.entries[k].none();
          std::string text = "... " + std::to_string(n - 5) + " more entries of " + o.name;
          if (none) text += " (" + std::to_string(none) + " None)";
          add(ReportKind::Elided, none ? Severity::Warning : Severity::Info, 2, text, {},
              {DiagCode::ReportElided, {}, {std::to_string(n - 5), o.name, std::to_string(none)}});
          i = n - 2;
        }
        const EntryResult& e = o.entries[i];
        std::string name = o.name;
        if (o.isList) name += "[" + std::to_string(i) + "]";
        const std::string head = (o.isGradient ? "grad " : "out  ") + name + ": ";
        if (e.none()) {
          add(ReportKind::NoneGradient, Severity::Warning, 2, head + "None", {},
              {DiagCode::ReportNoneGradient, {}, {name}});
          add(ReportKind::WhyNone, Severity::Warning, 6, "why: " + e.whyNone, e.whyLoc,
              diagnosticOf(e.whyNone));
          continue;
        }
        const TensorRecord& r = e.record;
        std::string text = head + std::string(dtypeName(r.dtype)) + shapeText(r.shape);
        if (!e.value.isList())
          text += "  min " + fmt(r.min) + "  max " + fmt(r.max) + "  mean " + fmt(r.mean) +
                  "  l2 " + fmt(r.l2);
        // min and max skip NaN: without the counts a tensor holding NaN would look finite.
        if (r.nanCount) text += "  NaN " + std::to_string(r.nanCount);
        if (r.infCount) text += "  Inf " + std::to_string(r.infCount);
        Diagnostic diag{DiagCode::ReportValue,
                        {},
                        {o.isGradient ? "grad" : "out", name,
                         std::string(dtypeName(r.dtype)) + shapeText(r.shape)}};
        if (!e.value.isList())
          diag.args.insert(diag.args.end(), {fmt(r.min), fmt(r.max), fmt(r.mean), fmt(r.l2)});
        // NaN/Inf counts keep the English form: no code for them yet.
        if (r.nanCount || r.infCount) diag.code = DiagCode::None;
        add(o.isGradient ? ReportKind::Gradient : ReportKind::Output,
            r.nanCount || r.infCount ? Severity::Warning : Severity::Info, 2, text, {},
            std::move(diag));
      }
    }
    if (const NumericsFault& nf = v.run.numerics; nf.found()) {
      std::string counts;
      if (nf.nanCount) counts = std::to_string(nf.nanCount) + " NaN";
      if (nf.infCount)
        counts += (counts.empty() ? "" : " and ") + std::to_string(nf.infCount) + " Inf";
      add(ReportKind::Numerics, Severity::Warning, 2,
          "numerics: " + nf.op + " made the first " + counts + " at " + nf.loc.str() +
              (nf.iteration >= 0 ? " (loop iteration " + std::to_string(nf.iteration) + ")" : "") +
              "; values computed from it are not finite either",
          nf.loc,
          {DiagCode::ReportNumerics,
           {},
           {nf.op, std::to_string(nf.nanCount), std::to_string(nf.infCount), nf.loc.str(),
            nf.iteration >= 0 ? std::to_string(nf.iteration) : std::string()}});
    }
    add(ReportKind::Resources, Severity::Info, 2,
        "time " + fmt(v.run.seconds) + " s   peak memory " +
            fmt(double(v.run.peakBytes) / (1 << 20)) + " MiB   saved for reverse " +
            fmt(double(v.run.savedBytes) / (1 << 20)) + " MiB",
        {},
        {DiagCode::ReportResources,
         {},
         {fmt(v.run.seconds), fmt(double(v.run.peakBytes) / (1 << 20)),
          fmt(double(v.run.savedBytes) / (1 << 20))}});
    if (v.coldSeconds > 0) {
      const std::string cold = fmt(v.coldSeconds),
                        fresh = fmt(double(v.coldFreshBytes) / (1 << 20));
      add(ReportKind::Resources, Severity::Info, 2,
          "timed again, warm: its first run took " + cold + " s, " + fresh +
              " MiB of its memory new to the process",
          {}, {DiagCode::ReportTimedAgainWarm, {}, {cold, fresh}});
    }
  }
  if (!run.agreement.empty()) {
    add(ReportKind::AgreementHeader, Severity::Info, 0, "agreement:", {},
        {DiagCode::ReportAgreementHeader, {}, {}});
    for (const Agreement& a : run.agreement) {
      std::string text = a.output + ": '" + a.other + "' vs '" + a.reference + "': ";
      Diagnostic diag{DiagCode::None, {}, {a.output, a.other, a.reference}};
      if (!a.shapesMatch) {
        text += "DIFFERENT SHAPES";
        diag.code = DiagCode::ReportDifferentShapes;
      } else if (!a.noneMatch) {
        text += "DIFFER (None in one variant only)";
        diag.code = DiagCode::ReportNoneInOne;
      } else {
        text += std::string(a.agree() ? "agree" : "DIFFER") + " (max abs diff " +
                fmt(a.maxAbsDiff) + ")";
        diag.code = a.agree() ? DiagCode::ReportAgree : DiagCode::ReportDiffer;
        diag.args.push_back(fmt(a.maxAbsDiff));
      }
      add(ReportKind::Agreement, a.agree() ? Severity::Info : Severity::Error, 2, text, {},
          std::move(diag));
    }
  }
  if (run.variants.size() > 1) {
    std::string text = "time per variant:";
    Diagnostic diag{DiagCode::ReportTiming, {}, {}};
    for (const VariantRun& v : run.variants) {
      text += "  " + v.name + " " + (v.ok() ? fmt(v.run.seconds) + " s" : "failed");
      diag.args.push_back(v.name);
      diag.args.push_back(v.ok() ? fmt(v.run.seconds) : std::string());
    }
    add(ReportKind::Timing, Severity::Info, 0, text, {}, std::move(diag));
  }
  return out;
}

std::string_view reportKindName(ReportKind k) {
  switch (k) {
    case ReportKind::TracePrint:
      return "trace_print";
    case ReportKind::Variant:
      return "variant";
    case ReportKind::RunPrint:
      return "run_print";
    case ReportKind::RunError:
      return "run_error";
    case ReportKind::RunCancelled:
      return "run_cancelled";
    case ReportKind::Output:
      return "output";
    case ReportKind::Gradient:
      return "gradient";
    case ReportKind::NoneGradient:
      return "none_gradient";
    case ReportKind::WhyNone:
      return "why_none";
    case ReportKind::Elided:
      return "elided";
    case ReportKind::Resources:
      return "resources";
    case ReportKind::AgreementHeader:
      return "agreement_header";
    case ReportKind::Agreement:
      return "agreement";
    case ReportKind::Timing:
      return "timing";
    case ReportKind::Vectorized:
      return "vectorized";
    case ReportKind::Fallback:
      return "fallback";
    case ReportKind::Numerics:
      return "numerics";
    case ReportKind::Fusion:
      return "fusion";
    case ReportKind::Execution:
      return "execution";
  }
  return "?";
}

std::string_view severityName(Severity s) {
  switch (s) {
    case Severity::Info:
      return "info";
    case Severity::Print:
      return "print";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "?";
}

std::string reportText(const TracedProgram& program, const ProgramRun& run,
                       const RunRequest& request) {
  std::string text;
  for (const ReportEntry& e : buildReport(program, run, request))
    text += std::string(size_t(e.indent), ' ') + (e.kind == ReportKind::RunError ? "error: " : "") +
            e.text + "\n";
  return text;
}

std::string reportJson(const TracedProgram& program, const ProgramRun& run,
                       const RunRequest& request) {
  std::ostringstream os;
  os << "{\"executor\":" << jsonString(executorName(ranExecutor(run, request))) << ",\"params\":{";
  for (size_t i = 0; i < program.params.size(); ++i)
    os << (i ? "," : "") << jsonString(program.params[i].name) << ":"
       << jsonNumber(program.params[i].value);
  os << "},\"trace_log\":[";
  for (size_t i = 0; i < program.traceLog.size(); ++i)
    os << (i ? "," : "") << jsonString(program.traceLog[i]);
  os << "],\"variants\":[";
  for (size_t vi = 0; vi < run.variants.size(); ++vi) {
    const VariantRun& v = run.variants[vi];
    os << (vi ? "," : "") << "{\"name\":" << jsonString(v.name)
       << ",\"ok\":" << (v.ok() ? "true" : "false");
    if (!v.ok()) os << ",\"error\":" << jsonString(v.error);
    os << ",\"seconds\":" << jsonNumber(v.run.seconds) << ",\"peak_bytes\":" << v.run.peakBytes
       << ",\"saved_bytes\":" << v.run.savedBytes << ",\"vectorized_maps\":";
    vectorizedJson(os, v);
    os << ",\"log\":[";
    for (size_t i = 0; i < v.run.log.size(); ++i) os << (i ? "," : "") << jsonString(v.run.log[i]);
    os << "]";
    if (const NumericsFault& nf = v.run.numerics; nf.found())
      os << ",\"numerics\":{\"node\":" << nf.node << ",\"op\":" << jsonString(nf.op)
         << ",\"line\":" << nf.loc.line << ",\"col\":" << nf.loc.col
         << ",\"iteration\":" << nf.iteration << ",\"nan_count\":" << nf.nanCount
         << ",\"inf_count\":" << nf.infCount << "}";
    os << ",\"outputs\":[";
    for (size_t oi = 0; oi < v.outputs.size(); ++oi) {
      const OutputResult& o = v.outputs[oi];
      os << (oi ? "," : "") << "{\"name\":" << jsonString(o.name) << ",\"line\":" << o.loc.line
         << ",\"gradient\":" << (o.isGradient ? "true" : "false")
         << ",\"list\":" << (o.isList ? "true" : "false") << ",\"entries\":[";
      for (size_t i = 0; i < o.entries.size(); ++i) {
        const EntryResult& e = o.entries[i];
        os << (i ? "," : "");
        if (e.none()) {
          os << "{\"none\":true,\"why\":" << jsonString(e.whyNone)
             << ",\"why_line\":" << e.whyLoc.line << ",\"why_col\":" << e.whyLoc.col << "}";
          continue;
        }
        const TensorRecord& r = e.record;
        os << "{\"none\":false,\"dtype\":" << jsonString(dtypeName(r.dtype)) << ",\"shape\":[";
        for (size_t d = 0; d < r.shape.size(); ++d) os << (d ? "," : "") << r.shape[d];
        os << "],\"min\":" << jsonNumber(r.min) << ",\"max\":" << jsonNumber(r.max)
           << ",\"mean\":" << jsonNumber(r.mean) << ",\"l2\":" << jsonNumber(r.l2)
           << ",\"nan_count\":" << r.nanCount << ",\"inf_count\":" << r.infCount << ",\"head\":[";
        for (size_t h = 0; h < r.head.size(); ++h) os << (h ? "," : "") << jsonNumber(r.head[h]);
        os << "]}";
      }
      os << "]}";
    }
    os << "]}";
  }
  os << "],\"agreement\":[";
  for (size_t i = 0; i < run.agreement.size(); ++i) {
    const Agreement& a = run.agreement[i];
    os << (i ? "," : "") << "{\"output\":" << jsonString(a.output)
       << ",\"reference\":" << jsonString(a.reference) << ",\"other\":" << jsonString(a.other)
       << ",\"shapes_match\":" << (a.shapesMatch ? "true" : "false")
       << ",\"none_match\":" << (a.noneMatch ? "true" : "false")
       << ",\"max_abs_diff\":" << jsonNumber(a.maxAbsDiff)
       << ",\"agree\":" << (a.agree() ? "true" : "false") << "}";
  }
  os << "],\"report\":[";
  const std::vector<ReportEntry> report = buildReport(program, run, request);
  for (size_t i = 0; i < report.size(); ++i) {
    const ReportEntry& e = report[i];
    os << (i ? "," : "") << "{\"kind\":" << jsonString(std::string(reportKindName(e.kind)))
       << ",\"severity\":" << jsonString(std::string(severityName(e.severity)))
       << ",\"text\":" << jsonString(e.text);
    if (e.loc.known()) os << ",\"line\":" << e.loc.line << ",\"col\":" << e.loc.col;
    os << "}";
  }
  os << "],\"ok\":" << (run.ok() ? "true" : "false") << "}\n";
  return os.str();
}

std::string checkSummary(const TracedProgram& program, const std::string& fileName) {
  const Graph& g = *program.graph;
  std::map<std::string, int> byOp;
  int forward = 0, backward = 0;
  std::map<NodeKind, int> control;
  for (const Node& n : g.nodes()) {
    ++byOp[std::string(n.opName())];
    (n.phase == Phase::Backward ? backward : forward)++;
    if (findControlKind(n.kind)) ++control[n.kind];
  }
  std::ostringstream os;
  os << fileName << ": ok\n";
  os << "  nodes: " << g.numNodes() << " (" << forward << " forward, " << backward
     << " backward), regions: " << g.numRegions() << "\n";
  os << " ";
  for (const ControlKind* k : controlKinds())
    os << " " << k->userName << "s: " << control[k->kind] << ",";
  os << " unrolled Python-loop iterations: " << program.unrolledCopies << "\n";
  for (const Param& p : program.params) {
    os << "  param " << p.name << " = " << fmt(p.value) << " in " << fmt(p.lo) << ".." << fmt(p.hi);
    if (p.classroom) os << " class " << fmt(*p.classroom);
    os << "\n";
  }
  for (const Variant& v : program.variants) {
    os << "  variant " << (v.name.empty() ? "(main)" : "'" + v.name + "'") << ": "
       << v.outputs.size() << " outputs, " << v.loops.size() << " control-flow nodes, "
       << v.tapes.size() << " tapes\n";
  }
  std::vector<std::pair<int, std::string>> ops;
  for (auto& [op, n] : byOp) ops.push_back({-n, op});
  std::sort(ops.begin(), ops.end());
  os << "  nodes by kind:";
  for (auto& [n, op] : ops) os << " " << op << "=" << -n;
  os << "\n";
  for (const std::string& line : program.traceLog) os << "  print: " << line << "\n";
  return os.str();
}

}  // namespace gl::lab
