#include "ui/window/presentation_mode.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QShortcut>

#include <qcustomplot.h>

#include "ui/editor/script_editor.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_style.h"
#include "ui/graph/graph_view.h"
#include "ui/step/step_controls.h"

namespace gl::ui {

namespace {

QDockWidget* dockOf(QWidget* w) {
  for (QWidget* p = w; p; p = p->parentWidget())
    if (auto* dock = qobject_cast<QDockWidget*>(p)) return dock;
  return nullptr;
}

QFont scaled(QFont f, double factor) {
  f.setPointSizeF(f.pointSizeF() * factor);
  return f;
}

}  // namespace

PresentationMode::PresentationMode(const Parts& parts, QObject* parent)
    : QObject(parent), parts_(parts) {
  // Stepping keys work wherever the focus is in the window, but only while presenting.
  const std::pair<QKeySequence, bool> keys[] = {{Qt::Key_Right, true},
                                                {Qt::Key_PageDown, true},
                                                {Qt::Key_Left, false},
                                                {Qt::Key_PageUp, false}};
  for (const auto& [key, forward] : keys) {
    auto* shortcut = new QShortcut(key, parts_.window);
    shortcut->setContext(Qt::WindowShortcut);
    shortcut->setEnabled(false);
    StepControls* steps = parts_.steps;
    connect(shortcut, &QShortcut::activated, steps,
            [steps, forward = forward] { forward ? steps->next() : steps->previous(); });
    keys_ << shortcut;
  }
}

QList<QDockWidget*> PresentationMode::keptDocks() const {
  QList<QDockWidget*> out;
  for (QWidget* w : {parts_.plots, static_cast<QWidget*>(parts_.steps)})
    if (QDockWidget* d = dockOf(w)) out << d;
  return out;
}

void PresentationMode::scalePlotFonts(double factor) {
  parts_.plots->setFont(scaled(parts_.plots->font(), factor));  // plots made from now on
  for (QCustomPlot* plot : parts_.plots->findChildren<QCustomPlot*>()) {
    for (QCPAxis* axis : plot->axisRect() ? plot->axisRect()->axes() : QList<QCPAxis*>{}) {
      axis->setTickLabelFont(scaled(axis->tickLabelFont(), factor));
      axis->setLabelFont(scaled(axis->labelFont(), factor));
    }
    if (plot->legend) plot->legend->setFont(scaled(plot->legend->font(), factor));
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
      if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
        title->setFont(scaled(title->font(), factor));
    plot->replot();
  }
}

void PresentationMode::setOn(bool on) {
  if (on == on_) return;
  on_ = on;
  QMainWindow* w = parts_.window;
  if (on) {
    savedState_ = w->saveState();
    wasFullScreen_ = w->isFullScreen();
    wasMaximized_ = w->isMaximized();
    const QList<QDockWidget*> keep = keptDocks();
    for (QDockWidget* d : w->findChildren<QDockWidget*>()) d->setVisible(keep.contains(d));
    for (QDockWidget* d : keep) d->raise();
    w->showFullScreen();
  } else {
    w->restoreState(savedState_);
    if (!wasFullScreen_) wasMaximized_ ? w->showMaximized() : w->showNormal();
  }
  const double factor = on ? kFontScale : 1 / kFontScale;
  style::setFontScale(on ? kFontScale : 1);
  parts_.graph->setMinimumFitZoom(on ? kMinFitZoom : GraphView::kMinZoom);
  parts_.graph->graphScene()->restyle();
  parts_.graph->fitGraph();
  on ? parts_.editor->zoomIn(kEditorZoomSteps) : parts_.editor->zoomOut(kEditorZoomSteps);
  scalePlotFonts(factor);
  for (QShortcut* s : keys_) s->setEnabled(on);
  emit toggled(on);
}

}  // namespace gl::ui
