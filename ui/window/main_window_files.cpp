// MainWindow: files (open, save through QSaveFile, autosave and recovery), settings and the
// few dialogs. Nothing here touches engine results.
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include "ui/about.h"
#include "ui/document/script_file.h"
#include "ui/editor/script_editor.h"
#include "ui/editor/templates.h"
#include "ui/export/lesson_export.h"
#include "ui/graph/graph_export.h"
#include "ui/graph/graph_view.h"
#include "ui/panels/lesson_browser.h"
#include "ui/panels/run_log.h"
#include "ui/plots/plots_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/theme.h"
#include "ui/window/translations.h"

namespace gl::ui {

QString MainWindow::fileLabel() const {
  return path_.isEmpty() ? tr("untitled.gls") : QFileInfo(path_).fileName();
}

bool MainWindow::openFile(const QString& path) {
  const LoadResult loaded = loadScript(path);
  if (!loaded.ok()) {
    log_->appendError(loaded.error);
    QMessageBox::warning(this, tr("Open"), loaded.error);
    return false;
  }
  QString text = loaded.text;
  const QString recovered = recoverableText(path);
  if (!recovered.isEmpty() && recovered != text && isVisible()) {
    const auto answer = QMessageBox::question(
        this, tr("Recover"),
        tr("An autosaved copy of %1 has changes that were not saved. Recover them?")
            .arg(QFileInfo(path).fileName()));
    if (answer == QMessageBox::Yes) text = recovered;
  }
  loading_ = true;
  path_ = path;
  editor_->setPlainText(text);
  editor_->document()->setModified(text != loaded.text);
  loading_ = false;
  if (!path.startsWith(QLatin1Char(':'))) {
    lessons_->addRecentFile(QFileInfo(path).absoluteFilePath());
  }
  QSettings().setValue(QStringLiteral("lastFile"), path);
  controller_->setSource(text, fileLabel());
  updateTitle();
  log_->appendInfo(tr("Opened %1").arg(path));
  return true;
}

bool MainWindow::saveTo(const QString& path) {
  const QString error = saveScript(path, editor_->toPlainText());
  if (!error.isEmpty()) {
    log_->appendError(error);
    QMessageBox::warning(this, tr("Save"), error);
    return false;
  }
  removeAutosave(path_);
  path_ = path;
  removeAutosave(path_);
  editor_->document()->setModified(false);
  lessons_->addRecentFile(QFileInfo(path).absoluteFilePath());
  QSettings().setValue(QStringLiteral("lastFile"), path);
  statusBar()->showMessage(tr("Saved %1").arg(path), 3000);
  updateTitle();
  return true;
}

bool MainWindow::save() {
  // Built-in lessons are read-only resources: saving asks for a file of one's own.
  if (path_.isEmpty() || path_.startsWith(QLatin1Char(':'))) return saveAsDialog();
  return saveTo(path_);
}

bool MainWindow::saveAsDialog() {
  const QString start = path_.startsWith(QLatin1Char(':')) || path_.isEmpty()
                            ? QDir::homePath() + QLatin1Char('/') + fileLabel()
                            : path_;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save Lesson"), start, tr("GradLab scripts (*.gls)"));
  return !path.isEmpty() && saveTo(path.endsWith(QStringLiteral(".gls")) ? path : path + ".gls");
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Lesson"), QDir::homePath(),
                                                    tr("GradLab scripts (*.gls);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::newLesson() {
  if (!maybeSave()) return;
  loading_ = true;
  path_.clear();
  editor_->setPlainText(expandPlaceholders(newLessonTemplate().text));
  editor_->document()->setModified(false);
  loading_ = false;
  controller_->setSource(editor_->toPlainText(), fileLabel());
  updateTitle();
}

bool MainWindow::maybeSave() {
  if (!dirty_) return true;
  const auto answer = QMessageBox::warning(
      this, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(fileLabel()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  if (answer == QMessageBox::Discard) removeAutosave(path_);
  return answer == QMessageBox::Discard;
}

void MainWindow::autosave() {
  if (!dirty_) return;
  const QString error = writeAutosave(path_, editor_->toPlainText());
  if (!error.isEmpty()) log_->appendError(tr("Autosave failed: %1").arg(error));
}

void MainWindow::updateTitle() {
  setWindowTitle(
      QStringLiteral("%1%2 — GradLab").arg(fileLabel(), dirty_ ? QStringLiteral(" *") : QString()));
  setWindowModified(dirty_);
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
  executor_->setCurrentIndex(s.value(QStringLiteral("executor"), 0).toInt());
}

void MainWindow::writeSettings() {
  QSettings s;
  s.setValue(QStringLiteral("geometry"), saveGeometry());
  s.setValue(QStringLiteral("windowState"), saveState());
  s.setValue(QStringLiteral("dark"), darkAct_->isChecked());
  s.setValue(QStringLiteral("executor"), executor_->currentIndex());
}

void MainWindow::setDark(bool dark) {
  applyTheme(dark);
  editor_->setDarkScheme(dark);
  plots_->setDarkMode(dark);
}

void MainWindow::showSettings() {
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Settings"));
  auto* form = new QFormLayout(&dialog);
  auto* language = new QComboBox(&dialog);
  language->addItem(tr("System default"), QString());
  language->addItem(QStringLiteral("English"), QStringLiteral("en"));
  language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
  language->setCurrentIndex(std::max(0, language->findData(languageSetting())));
  form->addRow(tr("Language"), language);
  auto* theme = new QComboBox(&dialog);
  theme->addItems({tr("Light"), tr("Dark")});
  theme->setCurrentIndex(darkAct_->isChecked() ? 1 : 0);
  form->addRow(tr("Palette"), theme);
  form->addRow(new QLabel(tr("A new language applies fully after a restart."), &dialog));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  if (dialog.exec() != QDialog::Accepted) return;
  setLanguageSetting(language->currentData().toString());
  installLanguage(language->currentData().toString());
  darkAct_->setChecked(theme->currentIndex() == 1);
  setDark(theme->currentIndex() == 1);
}

void MainWindow::exportGraphDialog() {
  const QString base =
      QDir::homePath() + QLatin1Char('/') + QFileInfo(fileLabel()).completeBaseName();
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
      QFileDialog::getExistingDirectory(this, tr("Export Lesson To"), QDir::homePath());
  if (dir.isEmpty()) return;
  if (!lastRun_.run || !lastRun_.program) {
    QMessageBox::information(
        this, tr("Export Lesson"),
        tr("Run the lesson first: the export holds its graph, plots and data."));
    return;
  }
  LessonExportOptions opt;
  const LessonExportReport report = exportLesson(*lastRun_.program, *lastRun_.run, dir, opt);
  for (const QString& f : report.written) log_->appendInfo(tr("Exported %1").arg(f));
  for (const QString& e : report.errors) log_->appendError(e);
  statusBar()->showMessage(tr("Exported %1 files to %2").arg(report.written.size()).arg(dir), 5000);
}

}  // namespace gl::ui
