#pragma once
// The inspector: what the selected node is (op and, for a primitive, its math; name, shape,
// dtype, phase, script line) and what the selected run computed for it (value and gradient
// summaries, small tensors in full), or the loop-carried values and adjoints of a loop at the
// current step.
#include <QWidget>
#include <memory>

#include "engine/exec/run.h"
#include "engine/graph/graph.h"

class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace gl::ui {

class InspectorPanel : public QWidget {
  Q_OBJECT
 public:
  explicit InspectorPanel(QWidget* parent = nullptr);

  // The graph and (optionally) the run of the variant being shown. Both must outlive the
  // calls that follow, or be replaced first; the panel keeps shared ownership.
  void setContext(std::shared_ptr<const Graph> graph, std::shared_ptr<const RunResult> run);
  void showNode(int nodeId);
  // Iteration `step` of loop `loopNode`: carried values (forward) or adjoints (backward).
  void showLoopStep(int loopNode, int64_t step, bool backward);
  void clear();

  int currentNode() const { return node_; }
  // Everything shown, as text: for tests and copy to clipboard.
  QString text() const;

 signals:
  void locationActivated(int line, int col);

 private:
  QTreeWidgetItem* addRow(const QString& key, const QString& value,
                          QTreeWidgetItem* parent = nullptr);
  void addRecord(const QString& key, const TensorRecord& r);

  QLabel* title_;
  QTreeWidget* tree_;
  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const RunResult> run_;
  int node_ = -1;
};

}  // namespace gl::ui
