#include "ui/present/numerics_fault.h"

#include <QObject>

#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"

namespace gl::ui {

QString numericsFaultText(const NumericsFault& fault) {
  QString what;
  if (fault.nanCount) what = QObject::tr("%n NaN", nullptr, int(fault.nanCount));
  if (fault.infCount) {
    const QString inf = QObject::tr("%n Inf", nullptr, int(fault.infCount));
    what = what.isEmpty() ? inf : QObject::tr("%1 and %2").arg(what, inf);
  }
  QString text = QObject::tr("%1 made the first %2 of the run here")
                     .arg(QString::fromStdString(fault.op), what);
  if (fault.iteration >= 0) text += QObject::tr(" (loop iteration %1)").arg(fault.iteration);
  return text;
}

int markNumericsFault(GraphScene& scene, const NumericsFault& fault) {
  NodeItem* marked = fault.found() ? scene.nodeItem(fault.node) : nullptr;
  for (NodeItem* item : scene.nodeItems())
    if (item != marked && item->isNumericsFault()) item->setNumericsFault(QString());
  if (!marked) return -1;
  marked->setNumericsFault(numericsFaultText(fault));
  return marked->nodeId();
}

std::optional<NumericsStep> numericsStep(const Graph& graph, const RunResult& run) {
  const NumericsFault& fault = run.numerics;
  if (!fault.found() || fault.iteration < 0 || fault.node >= graph.numNodes()) return {};
  // Branches pass their frame's iteration on: the iteration is the nearest loop's or map's.
  for (int r = graph.node(fault.node).region; r > 0;) {
    const int owner = graph.region(r).owner;
    if (owner < 0) return {};
    const Node& n = graph.node(owner);
    if (n.is(NodeKind::While) || n.is(NodeKind::Map) || n.is(NodeKind::Scan)) {
      auto rec = run.loops.find(owner);
      if (n.phase != Phase::Forward || rec == run.loops.end()) return {};
      // A scan's iteration is its element; its steps run the elements last to first when
      // reversed.
      if (n.is(NodeKind::Scan) && n.control.reverse)
        return NumericsStep{owner, rec->second.iterations - 1 - fault.iteration};
      return NumericsStep{owner, fault.iteration};
    }
    r = n.region;
  }
  return {};
}

}  // namespace gl::ui
