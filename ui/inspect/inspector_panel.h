#pragma once
// The inspector teaches: what the selected node is (op and its math, as the registry entry
// states it; name, shape, dtype, phase, script line), why its gradient is None when the chain
// breaks there, and what the selected run computed for it (value and gradient summaries, small
// tensors in full) -- at the current step when the node is a loop variable of the loop being
// stepped through -- or the loop-carried values and adjoints of a loop at the current step.
#include <QWidget>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/autodiff/tape.h"
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
  // None gradients of the program: a node where a chain breaks shows the engine's why.
  void setBreaks(const std::vector<GradDiagnostic>& breaks);
  // Why the run's values are missing, shown with every node (e.g. while a recording run takes
  // them); empty: nothing said.
  void setNote(const QString& note);
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
  void addOutputs(const Node& n);
  void addStepValues(const Node& n);  // the node's loop variable at the current step

  QLabel* title_;
  QTreeWidget* tree_;
  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const RunResult> run_;
  int node_ = -1;
  std::map<int, std::string> breaks_;  // node -> why its gradient is None
  QString note_;
  struct Step {
    int loop = -1;
    int64_t step = 0;
    bool backward = false;
  } step_;
};

}  // namespace gl::ui
