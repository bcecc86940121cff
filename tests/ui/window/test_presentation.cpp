// Projector mode offscreen: F11 keeps only the graph, the plots and the step controls, makes
// the graph, editor and plot fonts larger, lets the arrow keys step, and puts it all back.
#include <QAction>
#include <QDockWidget>
#include "test_main.h"

#include "support/isolated_settings.h"
#include "ui/editor/script_editor.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_style.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
#include "ui/window/presentation_mode.h"

using namespace gl;
using namespace gl::ui;

namespace {

QAction* actionWithKey(QWidget& w, const QKeySequence& key) {
  for (QAction* a : w.findChildren<QAction*>())
    if (a->shortcut() == key) return a;
  return nullptr;
}

QStringList visibleDocks(QMainWindow& w) {
  QStringList out;
  for (QDockWidget* d : w.findChildren<QDockWidget*>())
    if (d->isVisible()) out << d->objectName();
  out.sort();
  return out;
}

}  // namespace

class TestPresentation : public QObject {
  Q_OBJECT
 private slots:
  void projectorModeShowsLessLargerAndStepsWithArrows() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy traced(w.controller(), &LessonController::traced);
    w.controller()->setParamValues({{"batch", 2}, {"dim", 3}, {"steps", 6}});
    QVERIFY(w.openFile(":/lessons/ode_while_loop.gls"));
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 1, 20000);
    QSignalSpy finished(w.controller(), &LessonController::runFinished);
    w.runCurrent(true);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
    // The shown variant's loop records come from the recording run after the run.
    QTRY_VERIFY_WITH_TIMEOUT(w.stepControls()->currentLoop() >= 0, 60000);
    GraphScene* scene = w.graphView()->graphScene();
    QTRY_VERIFY(!scene->layoutPending());
    const QStringList docksBefore = visibleDocks(w);
    const double editorPt = w.editor()->font().pointSizeF();
    const double nodeHeight = scene->nodeItems().front()->boundingRect().height();

    QAction* f11 = actionWithKey(w, QKeySequence(Qt::Key_F11));
    QVERIFY(f11);
    f11->trigger();
    QVERIFY(w.presentation()->isOn());
    QVERIFY(f11->isChecked());
    QCOMPARE(visibleDocks(w), (QStringList{"PlotsDock", "StepDock"}));
    QVERIFY(w.graphView()->isVisible());
    QVERIFY(w.editor()->font().pointSizeF() > editorPt);
    QCOMPARE(style::fontScale(), PresentationMode::kFontScale);
    QTRY_VERIFY(!scene->layoutPending());
    QVERIFY(scene->nodeItems().front()->boundingRect().height() > nodeHeight * 1.3);
    // Fit stops where labels are still large; the overview shows the rest.
    QVERIFY(w.graphView()->zoom() >= PresentationMode::kMinFitZoom - 1e-9);
    // The arrow keys step through the selected loop.
    StepControls* steps = w.stepControls();
    QVERIFY(steps->currentLoop() >= 0);
    steps->setStep(2);
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(steps->step(), qint64(3));
    QTest::keyClick(&w, Qt::Key_PageDown);
    QCOMPARE(steps->step(), qint64(4));
    QTest::keyClick(&w, Qt::Key_Left);
    QCOMPARE(steps->step(), qint64(3));

    f11->trigger();
    QVERIFY(!w.presentation()->isOn());
    QCOMPARE(visibleDocks(w), docksBefore);
    QCOMPARE(w.editor()->font().pointSizeF(), editorPt);
    QCOMPARE(style::fontScale(), 1.0);
    QTRY_VERIFY(!scene->layoutPending());
    QCOMPARE(scene->nodeItems().front()->boundingRect().height(), nodeHeight);
    QCOMPARE(w.graphView()->minimumFitZoom(), GraphView::kMinZoom);
    // Outside presentation the arrow keys are the focused widget's again.
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(steps->step(), qint64(3));
  }
};

GRADLAB_TEST_MAIN(TestPresentation)
#include "test_presentation.moc"
