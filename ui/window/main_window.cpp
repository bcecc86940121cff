#include "ui/window/main_window.h"

#include <QDir>

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

#include "ui/about.h"
#include "ui/document/script_document.h"
#include "ui/editor/script_editor.h"
#include "ui/editor/templates.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/inspect/inspector_panel.h"
#include "ui/panels/lesson_browser.h"
#include "ui/panels/params_panel.h"
#include "ui/panels/run_log.h"
#include "ui/plots/plots_panel.h"
#include "ui/run/run_options.h"
#include "ui/run/run_progress.h"
#include "ui/step/step_controls.h"
#include "ui/window/presentation_mode.h"
#include "ui/window/settings_dialog.h"
#include "ui/window/theme.h"
#include "ui/window/translations.h"

namespace gl::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("MainWindow"));
  controller_ = new LessonController(this);
  graphView_ = new GraphView(this);
  setCentralWidget(graphView_);
  createActions();
  createMenus();
  createToolBars();
  createDocks();
  presentation_ = new PresentationMode({this, graphView_, plots_, editor_, steps_}, this);
  connect(presentation_, &PresentationMode::toggled, presentationAct_, &QAction::setChecked);
  document_ = new ScriptDocument(editor_->document(), defaultAutosaveFolder(), this);
  createStatusBar();
  connectPanels();
  readSettings();
  setRunning(false);
  updateTitle();
}

MainWindow::~MainWindow() = default;

QComboBox* MainWindow::variantBox() const { return runOptions_->variantBox(); }

QComboBox* MainWindow::executorBox() const { return runOptions_->executorBox(); }

void MainWindow::createActions() {
  auto make = [this](const QString& text, QKeySequence key, auto slot) {
    auto* a = new QAction(text, this);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  newAct_ = make(tr("&New Lesson"), QKeySequence::New, [this] { newLesson(); });
  openAct_ = make(tr("&Open…"), QKeySequence::Open, [this] { openDialog(); });
  saveAct_ = make(tr("&Save"), QKeySequence::Save, [this] { save(); });
  saveAsAct_ = make(tr("Save &As…"), QKeySequence::SaveAs, [this] { saveAsDialog(); });
  exportAct_ =
      make(tr("&Export Lesson…"), QKeySequence(tr("Ctrl+E")), [this] { exportLessonDialog(); });
  exportHandoutAct_ = make(tr("Export &Handout…"), {}, [this] { exportHandoutDialog(); });
  exportGraphAct_ =
      make(tr("Export &Graph…"), QKeySequence(tr("Ctrl+Shift+E")), [this] { exportGraphDialog(); });
  quitAct_ = make(tr("&Quit"), QKeySequence::Quit, [this] { close(); });
  runAct_ = make(tr("&Run"), QKeySequence(tr("Ctrl+R")), [this] { runCurrent(false); });
  runAct_->setShortcuts({QKeySequence(tr("Ctrl+R")), QKeySequence(Qt::Key_F5)});
  runAct_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  runAct_->setToolTip(tr("Run the chosen variant (Ctrl+R, F5)"));
  runAllAct_ =
      make(tr("Run &All Variants"), QKeySequence(tr("Ctrl+Shift+R")), [this] { runCurrent(true); });
  runAllAct_->setToolTip(tr("Run every variant and compare their results"));
  cancelAct_ =
      make(tr("&Cancel Run"), QKeySequence(Qt::Key_Escape), [this] { controller_->cancel(); });
  cancelAct_->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
  sweepAct_ = make(tr("S&weep a Param…"), {}, [this] { sweepDialog(); });
  sweepAct_->setToolTip(tr("Time every variant over several values of a param (scaling plot)"));
  fitAct_ = make(tr("&Fit Graph"), QKeySequence(tr("Ctrl+0")), [this] { graphView_->fitGraph(); });
  zoomInAct_ = make(tr("Zoom &In"), QKeySequence::ZoomIn, [this] { graphView_->zoomIn(); });
  zoomOutAct_ = make(tr("Zoom &Out"), QKeySequence::ZoomOut, [this] { graphView_->zoomOut(); });
  foldAllAct_ = make(tr("Fold All Loops"), {}, [this] { graphView_->graphScene()->foldAll(); });
  unfoldAllAct_ =
      make(tr("Unfold All Loops"), {}, [this] { graphView_->graphScene()->unfoldAll(); });
  showForwardAct_ = make(tr("Show &Forward Graph"), {},
                         [this](bool on) { graphView_->graphScene()->setShowForward(on); });
  showForwardAct_->setCheckable(true);
  showForwardAct_->setChecked(true);
  showBackwardAct_ = make(tr("Show &Backward (Gradient) Graph"), {},
                          [this](bool on) { graphView_->graphScene()->setShowBackward(on); });
  showBackwardAct_->setCheckable(true);
  showBackwardAct_->setChecked(true);
  presentationAct_ = make(tr("&Presentation"), QKeySequence(Qt::Key_F11),
                          [this](bool on) { presentation_->setOn(on); });
  presentationAct_->setCheckable(true);
  darkAct_ = make(tr("&Dark Palette"), {}, [this](bool on) { setDark(on); });
  darkAct_->setCheckable(true);
  settingsAct_ = make(tr("&Settings…"), QKeySequence::Preferences, [this] { showSettings(); });
  aboutAct_ = make(tr("&About GradLab"), {}, [this] {
    QMessageBox::about(this, tr("About GradLab"),
                       tr("<b>GradLab %1</b><p>Loops, branches and gradients: build a "
                          "computation, step through its iterations, watch the gradient flow, "
                          "and time serial against vectorized versions.</p>")
                           .arg(applicationVersion()));
  });
  // Names for tests (and anything else driving the window).
  for (auto [action, name] : {std::pair{runAct_, "run"}, std::pair{runAllAct_, "runAll"},
                              std::pair{cancelAct_, "cancelRun"}, std::pair{sweepAct_, "sweep"},
                              std::pair{settingsAct_, "settings"}})
    action->setObjectName(QLatin1String(name));
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addActions({newAct_, openAct_, saveAct_, saveAsAct_});
  file->addSeparator();
  file->addAction(exportAct_);
  file->addAction(exportGraphAct_);
  file->addAction(exportHandoutAct_);
  file->addSeparator();
  file->addAction(quitAct_);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  auto* undo = edit->addAction(tr("&Undo"), QKeySequence::Undo, this, [this] { editor_->undo(); });
  auto* redo = edit->addAction(tr("&Redo"), QKeySequence::Redo, this, [this] { editor_->redo(); });
  undo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  redo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  edit->addSeparator();
  edit->addAction(settingsAct_);

  insertMenu_ = menuBar()->addMenu(tr("&Insert"));
  for (const ScriptTemplate& t : scriptTemplates())
    insertMenu_->addAction(t.title, this, [this, t] {
      editor_->insertTemplate(templateTextFor(t, editor_->toPlainText()));
      editor_->setFocus();
    });

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addActions({runAct_, runAllAct_, cancelAct_});
  run->addSeparator();
  run->addAction(sweepAct_);

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  viewMenu_->addActions({fitAct_, zoomInAct_, zoomOutAct_});
  viewMenu_->addSeparator();
  viewMenu_->addActions({foldAllAct_, unfoldAllAct_, showForwardAct_, showBackwardAct_});
  viewMenu_->addSeparator();
  viewMenu_->addAction(darkAct_);
  viewMenu_->addAction(presentationAct_);
  viewMenu_->addSeparator();

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(aboutAct_);
}

void MainWindow::createToolBars() {
  // Toolbar buttons show icon texts: Qt strips '&' from menus only, and Chinese menu texts
  // carry "(&R)"-style accelerators that would show on the buttons.
  openAct_->setIconText(tr("Open"));
  saveAct_->setIconText(tr("Save"));
  runAct_->setIconText(tr("Run"));
  runAllAct_->setIconText(tr("Run All Variants"));
  cancelAct_->setIconText(tr("Cancel"));
  fitAct_->setIconText(tr("Fit Graph"));
  QToolBar* bar = addToolBar(tr("Run"));
  bar->setObjectName(QStringLiteral("RunToolBar"));
  bar->addAction(openAct_);
  bar->addAction(saveAct_);
  bar->addSeparator();
  bar->addWidget(runOptions_ = new RunOptions(bar));
  bar->addSeparator();
  bar->addAction(runAct_);
  bar->addAction(runAllAct_);
  bar->addAction(cancelAct_);
  bar->addSeparator();
  bar->addAction(fitAct_);
  search_ = new QLineEdit(bar);
  search_->setPlaceholderText(tr("Find node…"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(200);
  search_->setToolTip(tr("Find a node by name or op; Enter again for the next match"));
  connect(search_, &QLineEdit::returnPressed, this, [this] {
    if (!graphView_->search(search_->text()))
      statusBar()->showMessage(tr("No node matches '%1'").arg(search_->text()), 3000);
  });
  bar->addWidget(search_);
  auto* find = new QAction(tr("&Find Node"), this);
  find->setShortcut(QKeySequence::Find);
  connect(find, &QAction::triggered, this, [this] {
    search_->setFocus();
    search_->selectAll();
  });
  addAction(find);
  viewMenu_->insertAction(viewMenu_->actions().value(3), find);
}

void MainWindow::createDocks() {
  auto dock = [this](QWidget* w, const QString& title, const QString& name,
                     Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    viewMenu_->addAction(d->toggleViewAction());
    return d;
  };
  lessons_ = new LessonBrowser(this);
  lessons_->setLessonDirectory(QStringLiteral(":/lessons"));
  editor_ = new ScriptEditor(this);
  params_ = new ParamsPanel(this);
  inspector_ = new InspectorPanel(this);
  steps_ = new StepControls(this);
  plots_ = new PlotsPanel(this);
  log_ = new RunLog(this);

  QDockWidget* lessons =
      dock(lessons_, tr("Lessons"), QStringLiteral("LessonsDock"), Qt::LeftDockWidgetArea);
  QDockWidget* editor =
      dock(editor_, tr("Script"), QStringLiteral("ScriptDock"), Qt::LeftDockWidgetArea);
  splitDockWidget(lessons, editor, Qt::Vertical);
  // Tall enough for every built-in lesson, the "Recent files" header and three recent files.
  const int row = lessons_->fontMetrics().height() + 6;
  const int builtIn =
      int(QDir(QStringLiteral(":/lessons")).entryList({QStringLiteral("*.gls")}).size());
  resizeDocks({lessons, editor}, {row * (builtIn + 6), 600}, Qt::Vertical);
  resizeDocks({editor}, {560}, Qt::Horizontal);
  QDockWidget* params =
      dock(params_, tr("Params"), QStringLiteral("ParamsDock"), Qt::RightDockWidgetArea);
  QDockWidget* inspector =
      dock(inspector_, tr("Inspector"), QStringLiteral("InspectorDock"), Qt::RightDockWidgetArea);
  splitDockWidget(params, inspector, Qt::Vertical);
  resizeDocks({params, inspector}, {330, 330}, Qt::Vertical);  // five params and the switch
  resizeDocks({inspector}, {330}, Qt::Horizontal);
  QDockWidget* steps =
      dock(steps_, tr("Step Through"), QStringLiteral("StepDock"), Qt::BottomDockWidgetArea);
  QDockWidget* plots =
      dock(plots_, tr("Plots"), QStringLiteral("PlotsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* log = dock(log_, tr("Run Log"), QStringLiteral("LogDock"), Qt::BottomDockWidgetArea);
  splitDockWidget(steps, plots, Qt::Vertical);
  tabifyDockWidget(plots, log);
  plots->raise();
  resizeDocks({steps, plots}, {40, 300}, Qt::Vertical);
}

void MainWindow::createStatusBar() {
  statusBar()->addWidget(status_ = new QLabel(this), 1);
  statusBar()->addPermanentWidget(progress_ = new RunProgress(this));
}

// Everything that depends on whether a run or a sweep is going on: what starts one is off,
// Cancel is on, the executor settings (read when a run starts) wait for the next one.
void MainWindow::setRunning(bool running) {
  for (QAction* start : {runAct_, runAllAct_, sweepAct_}) start->setEnabled(!running);
  // Cancel also stops a recording run, which goes on while the run controls are idle.
  cancelAct_->setEnabled(running || controller_->recording());
  runOptions_->setRunning(running);
  if (running)
    progress_->start();
  else
    progress_->finish();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  controller_->cancel();
  writeSettings();
  event->accept();
}

void MainWindow::readSettings() {
  QSettings s;
  if (!restoreGeometry(s.value(QStringLiteral("geometry")).toByteArray())) resize(1500, 920);
  restoreState(s.value(QStringLiteral("windowState")).toByteArray());
  const bool dark = s.value(QStringLiteral("dark"), false).toBool();
  darkAct_->setChecked(dark);
  setDark(dark);
  runOptions_->setExecutorIndex(s.value(QStringLiteral("executor"), 0).toInt());
  controller_->setLimits(RunLimits::load(s));
}

void MainWindow::writeSettings() {
  QSettings s;
  s.setValue(QStringLiteral("geometry"), saveGeometry());
  s.setValue(QStringLiteral("windowState"), saveState());
  s.setValue(QStringLiteral("dark"), darkAct_->isChecked());
  s.setValue(QStringLiteral("executor"), runOptions_->executorIndex());
}

void MainWindow::setDark(bool dark) {
  applyTheme(dark);
  editor_->setDarkScheme(dark);
  plots_->setDarkMode(dark);
  graphView_->setDark(dark);
  // Fusion's media icons are dark grey: on the dark palette the Run triangle disappeared.
  runAct_->setIcon(themedIcon(QStyle::SP_MediaPlay));
}

void MainWindow::showSettings() {
  SettingsDialog dialog(this);
  dialog.setLanguage(languageSetting());
  dialog.setDarkPalette(darkAct_->isChecked());
  dialog.setLimits(controller_->limits());
  if (dialog.exec() != QDialog::Accepted) return;
  {
    QSettings s;  // saved now, not at close: a crash must not lose them
    dialog.limits().save(s);
  }
  controller_->setLimits(dialog.limits());
  setLanguageSetting(dialog.language());
  installLanguage(dialog.language());
  darkAct_->setChecked(dialog.darkPalette());
  setDark(dialog.darkPalette());
}

}  // namespace gl::ui
