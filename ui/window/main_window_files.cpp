// MainWindow: the document (open, save, recovery: ScriptDocument does the work) and the
// exports. Nothing here touches engine results.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include "ui/document/script_document.h"
#include "ui/document/script_file.h"
#include "ui/document/text_diff.h"
#include "ui/editor/script_editor.h"
#include "ui/editor/templates.h"
#include "ui/export/handout.h"
#include "ui/export/lesson_export.h"
#include "ui/graph/graph_export.h"
#include "ui/graph/graph_view.h"
#include "ui/inspect/inspector_panel.h"
#include "ui/panels/lesson_browser.h"
#include "ui/panels/params_panel.h"
#include "ui/panels/run_log.h"
#include "ui/plots/plots_panel.h"
#include "ui/run/release_off_thread.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"

namespace gl::ui {

QString MainWindow::currentFile() const { return document_->path(); }

// Where file dialogs start: the open lesson's folder when it is a file of the user's, else the
// folder of the last file opened or saved, else home (built-in lessons live in resources).
QString MainWindow::dialogFolder() const {
  if (!document_->needsSaveAs() && !document_->isUntitled())
    return QFileInfo(document_->path()).absolutePath();
  const QString last = QSettings().value(QStringLiteral("lastFile")).toString();
  if (!last.isEmpty() && !last.startsWith(QLatin1Char(':')) && QFileInfo::exists(last))
    return QFileInfo(last).absolutePath();
  return QDir::homePath();
}

bool MainWindow::openFile(const QString& path) {
  if (!document_->open(path)) {
    log_->appendError(document_->errorString());
    QMessageBox::warning(this, tr("Open"), document_->errorString());
    return false;
  }
  if (isVisible()) {
    if (const auto copy = document_->recoveryFor(path)) {
      const auto answer =
          askToRecover(tr("An autosaved copy of %1 has changes that were not saved. Recover them?")
                           .arg(QFileInfo(path).fileName()),
                       document_->text(), copy->text, QMessageBox::Yes | QMessageBox::No);
      if (answer == QMessageBox::Yes) document_->recover(*copy);
    }
    offerUnsavedWork(path);
  }
  editor_->moveCursor(QTextCursor::Start);
  const QString shown = document_->isUntitled() ? path : document_->path();  // after recovery
  if (!shown.startsWith(QLatin1Char(':')))
    lessons_->addRecentFile(QFileInfo(shown).absoluteFilePath());
  QSettings().setValue(QStringLiteral("lastFile"), shown);
  startOver();
  controller_->setSource(document_->text(), document_->fileName());
  updateTitle();
  log_->appendInfo(tr("Opened %1").arg(path));
  return true;
}

// After a crash: the newest autosaved work of another document (an untitled one, say), once,
// unless the document just opened has unsaved changes of its own.
void MainWindow::offerUnsavedWork(const QString& opened) {
  if (unsavedWorkOffered_ || document_->isDirty()) return;
  unsavedWorkOffered_ = true;
  const auto copy = document_->newestRecovery(opened);
  if (!copy) return;
  const QString name = copy->documentPath.isEmpty() ? tr("an untitled script") : copy->documentPath;
  const LoadResult saved =
      copy->documentPath.isEmpty() ? LoadResult{} : loadScript(copy->documentPath);
  const auto answer =
      askToRecover(tr("GradLab found work in %1 that was never saved (autosaved %2). Recover it?")
                       .arg(name, QLocale().toString(copy->written, QLocale::ShortFormat)),
                   saved.ok() ? saved.text : QString(), copy->text,
                   QMessageBox::Yes | QMessageBox::No | QMessageBox::Discard);
  if (answer == QMessageBox::Yes) {
    document_->recover(*copy);
    log_->appendInfo(tr("Recovered unsaved work of %1").arg(name));
  } else if (answer == QMessageBox::Discard) {
    document_->discardRecovery(*copy);
  }
}

// Shows what recovering would change, as a diff against what is there now, before anything
// is replaced; the first lines in the dialog, all of them behind "Show Details".
QMessageBox::StandardButton MainWindow::askToRecover(const QString& question, const QString& now,
                                                     const QString& copy,
                                                     QMessageBox::StandardButtons buttons) {
  const TextDiff diff = diffLines(now, copy);
  QMessageBox box(QMessageBox::Question, tr("Recover"), question, buttons, this);
  box.setDefaultButton(QMessageBox::Yes);
  constexpr int kShownLines = 16;
  QStringList lines = diff.text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  const bool cut = lines.size() > kShownLines;
  if (cut) lines = lines.mid(0, kShownLines);
  box.setInformativeText(tr("Recovering changes %n line(s):", nullptr, diff.added + diff.removed) +
                         QStringLiteral("<pre>%1%2</pre>")
                             .arg(lines.join(QLatin1Char('\n')).toHtmlEscaped(),
                                  cut ? QStringLiteral("\n…") : QString()));
  box.setDetailedText(diff.text);
  return QMessageBox::StandardButton(box.exec());
}

bool MainWindow::saveTo(const QString& path) {
  if (!document_->saveAs(path)) {
    log_->appendError(document_->errorString());
    QMessageBox::warning(this, tr("Save"), document_->errorString());
    return false;
  }
  lessons_->addRecentFile(QFileInfo(path).absoluteFilePath());
  QSettings().setValue(QStringLiteral("lastFile"), path);
  statusBar()->showMessage(tr("Saved %1").arg(path), 3000);
  updateTitle();
  return true;
}

bool MainWindow::save() {
  // Built-in lessons are read-only resources: saving asks for a file of one's own.
  return document_->needsSaveAs() ? saveAsDialog() : saveTo(document_->path());
}

bool MainWindow::saveAsDialog() {
  const QString start = document_->needsSaveAs()
                            ? dialogFolder() + QLatin1Char('/') + document_->fileName()
                            : document_->path();
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Lesson"), start,
                                                    tr("GradLab scripts (*.gls *.py)"));
  // A .py file stays one (GradLab runs TensorFlow code as written); anything else gets .gls.
  const bool known = path.endsWith(QStringLiteral(".gls")) || path.endsWith(QStringLiteral(".py"));
  return !path.isEmpty() && saveTo(known ? path : path + ".gls");
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Lesson"), dialogFolder(), tr("GradLab scripts (*.gls *.py);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::newLesson() {
  if (!maybeSave()) return;
  document_->reset(expandPlaceholders(newLessonTemplate().text));
  editor_->moveCursor(QTextCursor::Start);
  startOver();
  controller_->setSource(document_->text(), document_->fileName());
  updateTitle();
}

// One lesson at a time: nothing the user set for the previous one carries over.
void MainWindow::startOver() {
  releaseOffThread(lastRun_.run);
  lastRun_ = {};
  releaseOffThread(shownRecords_);
  sweep_.reset();
  plots_->clearResults();
  plots_->setExportFolder(dialogFolder());
  inspector_->clear();
  inspector_->setNote({});
  steps_->setNote({});
  steps_->setLoops({});
  params_->startOver(openingPreset_);
  controller_->startOver(openingPreset_);
  pendingRunAfterTrace_ = false;
}

bool MainWindow::maybeSave() {
  if (!document_->isDirty()) return true;
  const auto answer =
      QMessageBox::warning(this, tr("Unsaved changes"),
                           tr("%1 has unsaved changes. Save them?").arg(document_->fileName()),
                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  if (answer == QMessageBox::Discard) document_->discardAutosave();
  return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle() {
  // Qt shows "[*]" as "*" while the window is modified (and warns without the placeholder).
  setWindowTitle(tr("%1[*] — GradLab").arg(document_->fileName()));
  setWindowModified(document_->isDirty());
}

void MainWindow::exportGraphDialog() {
  const QString base =
      dialogFolder() + QLatin1Char('/') + QFileInfo(document_->fileName()).completeBaseName();
  QString filter;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export Graph"), base + QStringLiteral(".svg"),
      tr("SVG (*.svg);;PNG image (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)"), &filter);
  if (!path.isEmpty()) exportGraphTo(path);
}

bool MainWindow::exportGraphTo(const QString& path, double dpi) {
  QString error;
  if (!exportGraph(*graphView_->graphScene(), path, dpi, &error)) {
    log_->appendError(tr("Graph export failed: %1").arg(error));
    return false;
  }
  log_->appendInfo(tr("Exported the graph to %1").arg(path));
  return true;
}

void MainWindow::exportLessonDialog() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Export Lesson To"), dialogFolder());
  if (dir.isEmpty()) return;
  if (!lastRun_.run || !lastRun_.program) {
    QMessageBox::information(
        this, tr("Export Lesson"),
        tr("Run the lesson first: the export holds its graph, plots and data."));
    return;
  }
  LessonExportOptions opt;
  // Variants recorded for the step-through export their per-step plots too.
  auto run = controller_->runWithRecords();
  const LessonExportReport report = exportLesson(*lastRun_.program, *run, dir, opt);
  releaseOffThread(run);
  for (const QString& f : report.written) log_->appendInfo(tr("Exported %1").arg(f));
  for (const QString& e : report.errors) log_->appendError(e);
  statusBar()->showMessage(tr("Exported %1 files to %2").arg(report.written.size()).arg(dir), 5000);
}

void MainWindow::exportHandoutDialog() {
  if (!lastRun_.run || !lastRun_.program) {
    QMessageBox::information(this, tr("Export Handout"),
                             tr("Run the lesson first: the handout shows its graph, plots and "
                                "agreement table."));
    return;
  }
  const QString base = QFileInfo(document_->fileName()).completeBaseName();
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export Handout"), QDir(dialogFolder()).filePath(base + tr("_handout.pdf")),
      tr("PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  const QString title = document_->isUntitled() ? document_->fileName()
                                                : LessonBrowser::lessonTitle(document_->path());
  auto run = controller_->runWithRecords();
  const HandoutResult r = exportHandout(*lastRun_.program, *run, title, document_->text(), path);
  releaseOffThread(run);
  if (!r.ok) {
    log_->appendError(r.error);
    return;
  }
  log_->appendInfo(tr("Exported the handout (%1 pages) to %2").arg(r.pages).arg(path));
  statusBar()->showMessage(tr("Exported the handout to %1").arg(path), 5000);
}

}  // namespace gl::ui
