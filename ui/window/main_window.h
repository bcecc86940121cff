#pragma once
// The main window: only wires panels together (Qt's application example: built from
// createActions()/createMenus()/createToolBars()/createDocks()/createStatusBar() helpers).
// The script's file state lives in the ScriptDocument, the lesson's in the LessonController,
// the run choice in RunOptions; each panel draws what it is given.
#include <QMainWindow>
#include <QMessageBox>
#include <memory>

#include "ui/plots/plot_data.h"
#include "ui/run/lesson_controller.h"

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;

namespace gl::ui {

class ScriptDocument;
class ScriptEditor;
class GraphView;
class PresentationMode;
class InspectorPanel;
class StepControls;
class RunOptions;
class RunProgress;
class PlotsPanel;
class ParamsPanel;
class RunLog;
class LessonBrowser;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a script (a path or a ":/lessons/..." resource); false (and a message) on failure.
  // Offers an autosaved copy holding unsaved work (the file's own, and on the first open of a
  // shown window the newest other one, as after a crash).
  bool openFile(const QString& path);
  bool saveTo(const QString& path);
  // The whole graph as shown (not just the viewport); the format follows the suffix:
  // .png (at `dpi`), .svg, .pdf, .dot. False (and the reason in the log) on failure.
  bool exportGraphTo(const QString& path, double dpi = 150);
  void runCurrent(bool allVariants);
  // The preset lessons open at (the window's --preset; the classroom's unless told).
  void setOpeningPreset(lang::ParamPreset preset) { openingPreset_ = preset; }
  // Times every variant at each value of `param`; the scaling plot fills in as results come.
  bool startSweep(const QString& param, const QVector<double>& values);

  // For tests and the exporter.
  LessonController* controller() const { return controller_; }
  ScriptDocument* document() const { return document_; }
  ScriptEditor* editor() const { return editor_; }
  GraphView* graphView() const { return graphView_; }
  PresentationMode* presentation() const { return presentation_; }
  InspectorPanel* inspector() const { return inspector_; }
  StepControls* stepControls() const { return steps_; }
  PlotsPanel* plots() const { return plots_; }
  ParamsPanel* params() const { return params_; }
  RunLog* runLog() const { return log_; }
  RunOptions* runOptions() const { return runOptions_; }
  RunProgress* runProgress() const { return progress_; }
  QComboBox* variantBox() const;
  QComboBox* executorBox() const;
  QString currentFile() const;
  // The run shown in the inspector, graph overlay and plots (the chosen variant): with its
  // records once its recording run is in.
  const lab::VariantRun* shownRun() const;

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  // Assembly (main_window.cpp), as in Qt's application example.
  void createActions();
  void createMenus();
  void createToolBars();
  void createDocks();
  void createStatusBar();
  void connectPanels();
  void readSettings();
  void writeSettings();
  void setRunning(bool running);  // every action and widget that depends on run state
  void setDark(bool dark);
  void showSettings();

  // The document and exports (main_window_files.cpp).
  bool maybeSave();
  void newLesson();
  void openDialog();
  bool save();
  bool saveAsDialog();
  void offerUnsavedWork(const QString& opened);
  QMessageBox::StandardButton askToRecover(const QString& question, const QString& now,
                                           const QString& copy,
                                           QMessageBox::StandardButtons buttons);
  void updateTitle();
  void startOver();
  QString dialogFolder() const;
  void exportLessonDialog();
  void exportHandoutDialog();
  void exportGraphDialog();

  // Runs and what comes back (main_window_results.cpp).
  void onTraced(std::shared_ptr<const lang::TracedProgram> program);
  void onTraceFailed(const QString& message, int line, int col);
  void onRunFinished(const RunOutcome& outcome);
  void onExecutionChanged(int loopNode, int execution);
  void sweepDialog();
  void onSweepFinished(const QString& param, const QString& error);
  void showVariantResults();
  void onRecordsReady(const QString& variant);
  void onRecordingStopped(const QString& variant, const QString& error);
  void onStep(int loopNode, qint64 step, bool backward);

  LessonController* controller_;
  ScriptDocument* document_ = nullptr;
  ScriptEditor* editor_ = nullptr;
  GraphView* graphView_ = nullptr;
  InspectorPanel* inspector_ = nullptr;
  StepControls* steps_ = nullptr;
  PlotsPanel* plots_ = nullptr;
  ParamsPanel* params_ = nullptr;
  RunLog* log_ = nullptr;
  LessonBrowser* lessons_ = nullptr;

  RunOptions* runOptions_ = nullptr;
  QLineEdit* search_ = nullptr;
  RunProgress* progress_ = nullptr;
  QLabel* status_ = nullptr;

  QAction *newAct_, *openAct_, *saveAct_, *saveAsAct_, *exportAct_, *exportGraphAct_, *quitAct_;
  QAction* exportHandoutAct_ = nullptr;
  QAction *runAct_, *runAllAct_, *cancelAct_, *sweepAct_;
  QAction *fitAct_, *zoomInAct_, *zoomOutAct_, *foldAllAct_, *unfoldAllAct_;
  QAction *showForwardAct_, *showBackwardAct_, *darkAct_, *settingsAct_, *aboutAct_;
  QAction* presentationAct_;
  PresentationMode* presentation_ = nullptr;
  QMenu* insertMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;

  RunOutcome lastRun_;
  // The shown variant's records as the step-through shows them (the chosen loop execution).
  std::shared_ptr<const RunResult> shownRecords_;
  // The last run found a NaN/Inf: the step-through goes there once the records are in.
  bool stepToNumericsFault_ = false;
  std::unique_ptr<ScalingData> sweep_;
  lang::ParamPreset openingPreset_ = lang::ParamPreset::Classroom;
  bool pendingRunAfterTrace_ = false;
  bool runOnNextTrace_ = false;
  bool unsavedWorkOffered_ = false;  // the first open of a shown window looks for other work
};

}  // namespace gl::ui
