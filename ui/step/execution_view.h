#pragma once
// The run as the step-through shows it when another execution of a loop is chosen: the same
// records with that loop's record replaced by the chosen execution, so the graph overlay, the
// inspector and the gradient plot, which read RunResult::loops, all follow the choice.
#include <QStringList>
#include <memory>

#include "engine/exec/run.h"

namespace gl::ui {

// `run` itself for execution 0 (or an unknown loop); else a copy with loops[loop] replaced,
// without the other executions' records and the timeline.
std::shared_ptr<const RunResult> withExecution(std::shared_ptr<const RunResult> run, int loop,
                                               int execution);

// The labels of a loop's executions ("jacobian row 17", "execution 3 of 10 (at 2)"); empty
// when it ran once.
QStringList executionLabels(const RunResult& run, int loop);
// Iterations per execution, in the same order.
QVector<qint64> executionIterations(const RunResult& run, int loop);
// Why fewer executions are offered than ran ("The record budget kept 7 of its 10
// executions"); empty when all are there.
QString executionsNote(const RunResult& run, int loop);

}  // namespace gl::ui
