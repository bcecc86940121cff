#include "ui/inspect/inspector_panel.h"
#include "ui/run/release_off_thread.h"

#include "engine/control/kind.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/ops/registry.h"
#include "ui/i18n/diagnostic_text.h"
#include "ui/inspect/tensor_text.h"

namespace gl::ui {

namespace {

QString typeText(const TypeInfo& t) {
  QString s = QString::fromLatin1(dtypeName(t.dtype)) + shapeText(t.shape);
  return t.list ? QObject::tr("TensorArray of %1").arg(s) : s;
}

}  // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  title_->setTextFormat(Qt::PlainText);
  tree_ = new QTreeWidget(this);
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Property"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setWordWrap(true);
  tree_->setAlternatingRowColors(true);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::Monospace);
  tree_->setFont(mono);
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    const int line = item->data(1, Qt::UserRole).toInt();
    if (line > 0) emit locationActivated(line, item->data(1, Qt::UserRole + 1).toInt());
  });
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(title_);
  layout->addWidget(tree_);
  clear();
}

namespace {

// The same op at the same script place: kind and primitive identity, not names.
bool sameOpAt(const Node& a, const Node& b) {
  return a.kind == b.kind && a.prim == b.prim && a.loc.file == b.loc.file &&
         a.loc.line == b.loc.line && a.loc.col == b.loc.col;
}

}  // namespace

void InspectorPanel::setContext(std::shared_ptr<const Graph> graph,
                                std::shared_ptr<const RunResult> run) {
  // A node id of another graph (another lesson, or an edit that moved things) names an
  // unrelated node: keep the selection only where it is the same op at the same place.
  const bool sameNode = node_ >= 0 && graph_ && graph && node_ < graph->numNodes() &&
                        node_ < graph_->numNodes() &&
                        (graph == graph_ || sameOpAt(graph->node(node_), graph_->node(node_)));
  if (graph != graph_) {
    breaks_.clear();
    step_ = {};
  }
  graph_ = std::move(graph);
  releaseOffThread(run_);
  run_ = std::move(run);
  if (sameNode)
    showNode(node_);
  else
    clear();
}

void InspectorPanel::setBreaks(const std::vector<GradDiagnostic>& breaks) {
  breaks_.clear();
  for (const GradDiagnostic& d : breaks)
    if (d.node >= 0 && !d.text.empty()) breaks_[d.node] = whyNoneText(d).toStdString();
  if (node_ >= 0 && graph_) showNode(node_);
}

void InspectorPanel::setNote(const QString& note) {
  if (note == note_) return;
  note_ = note;
  if (node_ >= 0 && graph_) showNode(node_);
}

void InspectorPanel::clear() {
  node_ = -1;
  tree_->clear();
  title_->setText(tr("Select a node in the graph or a loop step to inspect it."));
}

QTreeWidgetItem* InspectorPanel::addRow(const QString& key, const QString& value,
                                        QTreeWidgetItem* parent) {
  auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
  item->setText(0, key);
  item->setText(1, value);
  item->setToolTip(1, value);
  return item;
}

void InspectorPanel::addRecord(const QString& key, const TensorRecord& r) {
  QTreeWidgetItem* item = addRow(key, recordSummary(r));
  const QString values = recordValues(r);
  if (!values.isEmpty()) {
    addRow(r.full.defined() ? tr("values") : tr("head"), values, item);
    item->setExpanded(true);
  }
}

void InspectorPanel::showNode(int nodeId) {
  tree_->clear();
  node_ = nodeId;
  if (!graph_ || nodeId < 0 || nodeId >= graph_->numNodes()) {
    clear();
    return;
  }
  const Node& n = graph_->node(nodeId);
  title_->setText(n.name.empty() ? QString::fromStdString(std::string(n.opName()))
                                 : QStringLiteral("%1 (%2)").arg(
                                       QString::fromStdString(n.name),
                                       QString::fromStdString(std::string(n.opName()))));
  addRow(tr("node"), QString::number(n.id));
  addRow(tr("op"), QString::fromStdString(std::string(n.opName())));
  // A teaching tool: the primitive's (or control-flow kind's) math as its entry states it, the
  // forward formula and the gradient rule its VJP builds, one line each.
  if (n.prim) {
    addRow(tr("math"), QString::fromStdString(n.prim->math));
  } else if (const ControlKind* kind = findControlKind(n.kind)) {
    addRow(tr("math"), QString::fromUtf8(kind->math.data(), qsizetype(kind->math.size())));
  }
  if (auto why = breaks_.find(n.id); why != breaks_.end()) {
    QTreeWidgetItem* none = addRow(tr("gradient is None"), tr("the chain breaks here"));
    addRow(tr("why"), QString::fromStdString(why->second), none);
    none->setExpanded(true);
  }
  if (!n.name.empty()) addRow(tr("name"), QString::fromStdString(n.name));
  addRow(tr("phase"), n.phase == Phase::Backward ? tr("backward (gradient)") : tr("forward"));
  if (n.loc.known()) {
    QTreeWidgetItem* loc = addRow(tr("script"), QStringLiteral("%1:%2:%3")
                                                    .arg(QString::fromStdString(n.loc.file))
                                                    .arg(n.loc.line)
                                                    .arg(n.loc.col));
    loc->setData(1, Qt::UserRole, n.loc.line);
    loc->setData(1, Qt::UserRole + 1, n.loc.col);
  }
  if (n.region > 0) {
    const Region& r = graph_->region(n.region);
    addRow(tr("inside"), QString::fromUtf8(regionKindName(r.kind)) +
                             (r.owner >= 0 ? tr(" of node %1").arg(r.owner) : QString()));
  }
  if (!note_.isEmpty()) addRow(tr("run values"), note_);
  addOutputs(n);
  if (run_) {
    if (auto loop = run_->loops.find(n.id); loop != run_->loops.end())
      addRow(tr("iterations"), QString::number(loop->second.iterations));
    addStepValues(n);
  }
}

// Each output's type, and what the run computed for it: its value and its gradients.
void InspectorPanel::addOutputs(const Node& n) {
  for (size_t i = 0; i < n.outputs.size(); ++i) {
    const Value v{n.id, int(i)};
    const QString out = n.outputs.size() > 1 ? tr("output %1").arg(i) : tr("output");
    addRow(out, typeText(n.outputs[i]));
    if (!run_) continue;
    if (auto it = run_->valueRecords.find(v); it != run_->valueRecords.end())
      addRecord(tr("value"), it->second);
    if (auto adj = graph_->adjoints.find(v); adj != graph_->adjoints.end()) {
      int k = 0;
      for (Value a : adj->second) {
        auto rec = run_->valueRecords.find(a);
        const QString key = adj->second.size() > 1 ? tr("gradient %1").arg(++k) : tr("gradient");
        if (rec != run_->valueRecords.end())
          addRecord(key, rec->second);
        else
          addRow(key, tr("not computed in this run"));
      }
    }
  }
}

// A loop variable of the loop being stepped through (a param of its body, or one of the
// body's results) has a record per step: the value at the step the controls show.
void InspectorPanel::addStepValues(const Node& n) {
  if (step_.loop < 0 || !graph_ || step_.loop >= graph_->numNodes()) return;
  auto it = run_->loops.find(step_.loop);
  if (it == run_->loops.end()) return;
  const Node& loop = graph_->node(step_.loop);
  const LoopRecord& rec = it->second;
  const auto& rows = step_.backward ? rec.adjoints : rec.carried;
  for (int r : loop.regions) {
    const Region& region = graph_->region(r);
    // The carried values come first (a scan's element index and slices follow, not recorded).
    for (size_t i = 0; i < region.params.size() && i < rec.width; ++i) {
      // A param holds var i before the step, a result var i after it (the next row).
      int64_t row = -1;
      if (region.params[i].node == n.id) row = step_.step;
      if (i < region.results.size() && region.results[i].node == n.id) row = step_.step + 1;
      if (row < 0) continue;
      const QString key = tr("at step %1").arg(step_.step);
      if (row >= int64_t(rows.size()) || i >= rows[size_t(row)].size()) {
        addRow(key, tr("not recorded"));
        return;
      }
      addRecord(step_.backward ? tr("%1, adjoint of var %2").arg(key).arg(i)
                               : tr("%1, var %2").arg(key).arg(i),
                rows[size_t(row)][i]);
      return;
    }
  }
}

void InspectorPanel::showLoopStep(int loopNode, int64_t step, bool backward) {
  if (!graph_ || !run_) return;
  auto it = run_->loops.find(loopNode);
  if (it == run_->loops.end()) return;
  step_ = {loopNode, step, backward};
  showNode(loopNode);
  // The step's values first; the loop node's own details folded underneath.
  auto* details = new QTreeWidgetItem;
  details->setText(0, tr("loop node"));
  details->setText(1, title_->text());
  while (tree_->topLevelItemCount() > 0) details->addChild(tree_->takeTopLevelItem(0));
  const LoopRecord& rec = it->second;
  const auto& rows = backward ? rec.adjoints : rec.carried;
  addRow(tr("step"), tr("%1 of %2 (%3)")
                         .arg(step)
                         .arg(rec.iterations)
                         .arg(backward ? tr("adjoints, backward pass") : tr("carried values")));
  if (step < 0 || size_t(step) >= rows.size()) {
    addRow(tr("record"), rec.truncated ? tr("not recorded: the record budget ran out")
                                       : tr("no record for this step"));
    tree_->addTopLevelItem(details);
    return;
  }
  for (size_t i = 0; i < rows[size_t(step)].size(); ++i)
    addRecord((backward ? tr("adjoint of var %1") : tr("var %1")).arg(i), rows[size_t(step)][i]);
  tree_->addTopLevelItem(details);
}

QString InspectorPanel::text() const {
  QStringList lines{title_->text()};
  std::function<void(QTreeWidgetItem*, int)> walk = [&](QTreeWidgetItem* item, int depth) {
    lines << QString(depth * 2, QLatin1Char(' ')) + item->text(0) + QStringLiteral(": ") +
                 item->text(1);
    for (int i = 0; i < item->childCount(); ++i) walk(item->child(i), depth + 1);
  };
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) walk(tree_->topLevelItem(i), 0);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace gl::ui
