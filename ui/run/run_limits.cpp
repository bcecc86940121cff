#include "ui/run/run_limits.h"

#include <QSettings>

namespace gl::ui {

namespace {

// One key per limit, under "limits/", named like the CLI option.
const struct {
  const char* key;
  qint64 RunLimits::*field;
} kKeys[] = {{"limits/memory-budget", &RunLimits::memoryBudget},
             {"limits/max-unroll", &RunLimits::maxUnroll},
             {"limits/max-nodes", &RunLimits::maxNodes},
             {"limits/max-items", &RunLimits::maxItems},
             {"limits/max-ops", &RunLimits::maxOps}};

}  // namespace

RunLimits RunLimits::load(const QSettings& settings) {
  RunLimits limits;
  for (const auto& k : kKeys) {
    bool ok = false;
    const qint64 v = settings.value(QLatin1String(k.key)).toLongLong(&ok);
    if (ok && v > 0) limits.*k.field = v;
  }
  return limits;
}

void RunLimits::save(QSettings& settings) const {
  for (const auto& k : kKeys) settings.setValue(QLatin1String(k.key), this->*k.field);
}

void RunLimits::applyTo(lang::TraceOptions& trace) const {
  trace.memoryBudget = size_t(memoryBudget);
  trace.maxUnroll = maxUnroll;
  trace.maxNodes = maxNodes;
  trace.maxItems = maxItems;
  trace.maxOps = maxOps;
}

void RunLimits::applyTo(gl::RunOptions& run) const {
  run.memoryBudget = size_t(memoryBudget);
  run.maxOps = maxOps;
}

}  // namespace gl::ui
