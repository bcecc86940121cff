#pragma once
// The limits the window traces and runs under, as the user set them in Settings > Limits
// (the CLI's --memory-budget, --max-unroll, --max-nodes, --max-items, --max-ops). Kept in
// QSettings; the LessonController applies them to every trace, run and sweep.
#include <QtGlobal>

#include "engine/lab/session.h"

class QSettings;

namespace gl::ui {

struct RunLimits {
  qint64 memoryBudget = qint64(kDefaultMemoryBudget);  // bytes
  qint64 maxUnroll = kDefaultMaxUnroll;
  qint64 maxNodes = kDefaultMaxNodes;
  qint64 maxItems = kDefaultMaxItems;
  qint64 maxOps = kDefaultMaxOps;

  bool operator==(const RunLimits&) const = default;

  // Missing or unusable values (not positive) read as the defaults.
  static RunLimits load(const QSettings& settings);
  void save(QSettings& settings) const;

  void applyTo(lang::TraceOptions& trace) const;
  void applyTo(gl::RunOptions& run) const;
};

}  // namespace gl::ui
