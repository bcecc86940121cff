#pragma once
// Where the first NaN/Inf of a run (RunResult::numerics) shows in the window: its node
// outlined in the graph (the folded frame's node when it sits inside one) and the loop step
// the step-through jumps to.
#include <QString>
#include <optional>

#include "engine/exec/run.h"

namespace gl::ui {

class GraphScene;

struct NumericsStep {
  int loopNode = -1;  // a forward loop with records (a StepControls choice)
  qint64 step = 0;    // its iteration where the first bad value appeared
};

// Outlines the fault's node and clears any other outline; nothing is outlined when the run had
// no fault or the node is not drawn. Returns the outlined node's item id, or -1.
int markNumericsFault(GraphScene& scene, const NumericsFault& fault);
// The loop iteration to step to: the innermost while/map around the node, when the run kept its
// records; nullopt at the top level or when the loop has none.
std::optional<NumericsStep> numericsStep(const Graph& graph, const RunResult& run);
// "log made the first 1 NaN here (loop iteration 3)": the outline's tooltip.
QString numericsFaultText(const NumericsFault& fault);

}  // namespace gl::ui
