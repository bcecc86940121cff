#include "ui/step/execution_view.h"

#include <QObject>

namespace gl::ui {

namespace {

const LoopExecutions* laterOf(const RunResult& run, int loop) {
  auto it = run.loopExecutions.find(loop);
  return it == run.loopExecutions.end() ? nullptr : &it->second;
}

QString place(const std::vector<int64_t>& at) {
  QStringList parts;
  for (int64_t i : at) parts << QString::number(i);
  return parts.join(QStringLiteral(", "));
}

// The run without what makes it big and no reader of the view needs: the other executions'
// records (choosing another execution reads them from the run itself) and the timeline. A whole
// copy took 440 ms of the GUI thread at seed-a's size (64 MiB of records; 21-27 ms once the
// memory was warm).
std::shared_ptr<RunResult> viewOf(const RunResult& r) {
  static_assert(sizeof(RunResult) == 408, "RunResult has a new member: copy it here too");
  auto v = std::make_shared<RunResult>();
  v->values = r.values;
  v->loops = r.loops;
  v->valueRecords = r.valueRecords;
  v->timelineTruncated = r.timelineTruncated;
  v->log = r.log;
  v->seconds = r.seconds;
  v->primitiveOps = r.primitiveOps;
  v->peakBytes = r.peakBytes;
  v->savedBytes = r.savedBytes;
  v->numerics = r.numerics;
  v->fusedGroups = r.fusedGroups;
  v->fusedNodes = r.fusedNodes;
  v->loopFusion = r.loopFusion;
  v->sideBySidePhases = r.sideBySidePhases;
  v->sideBySideNodes = r.sideBySideNodes;
  return v;
}

}  // namespace

std::shared_ptr<const RunResult> withExecution(std::shared_ptr<const RunResult> run, int loop,
                                               int execution) {
  if (!run || execution <= 0) return run;
  const LoopExecutions* more = laterOf(*run, loop);
  auto first = run->loops.find(loop);
  if (!more || first == run->loops.end() || size_t(execution) >= more->count()) return run;
  auto view = viewOf(*run);
  view->loops[loop] = loopExecution(first->second, more, size_t(execution));
  return view;
}

QStringList executionLabels(const RunResult& run, int loop) {
  const LoopExecutions* more = laterOf(run, loop);
  auto first = run.loops.find(loop);
  if (!more || first == run.loops.end()) return {};
  QStringList out;
  const size_t n = more->count();
  const size_t total = more->total();  // 10 when the budget kept 7: "execution 3 of 10"
  for (size_t k = 0; k < n; ++k) {
    const LoopRecord& rec = k == 0 ? first->second : more->later[k - 1];
    // A jacobian's rows share the forward values: the row is what differs.
    const bool row = k == 0 ? n > 1 && more->later[0].sharesCarried : rec.sharesCarried;
    if (row && !rec.at.empty())
      out << QObject::tr("jacobian row %1").arg(rec.at.front());
    else if (rec.at.empty())
      out << QObject::tr("execution %1 of %2").arg(k + 1).arg(total);
    else
      out << QObject::tr("execution %1 of %2 (at %3)").arg(k + 1).arg(total).arg(place(rec.at));
  }
  return out;
}

QString executionsNote(const RunResult& run, int loop) {
  const LoopExecutions* more = laterOf(run, loop);
  if (!more || more->total() <= more->count()) return {};
  return QObject::tr("The record budget kept the first %1 of this loop's %2 executions")
      .arg(more->count())
      .arg(more->total());
}

QVector<qint64> executionIterations(const RunResult& run, int loop) {
  QVector<qint64> out;
  const LoopExecutions* more = laterOf(run, loop);
  auto first = run.loops.find(loop);
  if (!more || first == run.loops.end()) return out;
  out << first->second.iterations;
  for (const LoopRecord& rec : more->later)
    out << (rec.sharesCarried ? first->second.iterations : rec.iterations);
  return out;
}

}  // namespace gl::ui
