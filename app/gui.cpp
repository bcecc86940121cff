#include "gui.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMap>
#include <QSettings>
#include <QTabWidget>
#include <QTextCursor>
#include <QTimer>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.h"
#include "commands.h"
#include "engine/lab/session.h"
#include "scripts.h"
#include "trace_export.h"
#include "ui/about.h"
#include "ui/export/handout.h"
#include "ui/export/lesson_export.h"
#include "ui/panels/lesson_browser.h"
#include "ui/panels/params_panel.h"
#include "ui/panels/run_log.h"
#include "ui/plots/plots_panel.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
#include "ui/window/presentation_mode.h"
#include "ui/window/translations.h"

namespace gl::app {

namespace {

void setIdentity() {
  QCoreApplication::setOrganizationName(ui::organizationName());
  QCoreApplication::setApplicationName(ui::applicationName());
  QCoreApplication::setApplicationVersion(ui::applicationVersion());
}

bool haveDisplay() {
  return !qEnvironmentVariableIsEmpty("DISPLAY") ||
         !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
         !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

}  // namespace

int runWindow(const args::Parsed& args, int& argc, char** argv) {
  const std::string file = args.positional("FILE");
  const std::string screenshot = args.text("--screenshot");
  const std::string variant = args.text("--variant");
  const QString plot = QString::fromStdString(args.text("--plot"));  // plots tab to bring up
  const bool run = args.flag("--run");
  const int64_t step = args.integer("--step", -1);
  QMap<QString, double> params;
  for (const args::Setting& s : args.settings("--set"))
    params[QString::fromStdString(s.name)] = s.value;
  if (!haveDisplay()) {
    std::fprintf(stderr,
                 "gradlab: no display. Run a lesson with `gradlab run FILE.gls` or write its "
                 "figures with `gradlab export FILE.gls --out DIR`.\n");
    return 2;
  }
  QApplication app(argc, argv);
  setIdentity();
  ui::initResources();
  ui::installLanguage(ui::languageSetting());
  ui::MainWindow window;
  QString path = QString::fromStdString(file.empty() ? file : locateScript(file));
  if (path.isEmpty()) {
    path = QSettings().value(QStringLiteral("lastFile")).toString();
    if (path.isEmpty() || !QFileInfo::exists(path)) path = ui::builtinLessons().value(0);
  }
  auto* controller = window.controller();
  window.setOpeningPreset(presetOf(args, lang::ParamPreset::Classroom));
  window.show();
  if (args.flag("--presentation")) window.presentation()->setOn(true);
  if (!window.openFile(path) && path != ui::builtinLessons().value(0))
    window.openFile(ui::builtinLessons().value(0));
  // After the open (which starts every lesson afresh): --set values are the user's, shown bold
  // in the dock, and the trace the open just asked for is superseded by this one.
  if (!params.isEmpty()) {
    window.params()->setUserValues(params);
    controller->setParamValues(params);
    controller->traceNow();
  }
  if (run || !screenshot.empty()) {
    // Once the (last) trace is in: pick the variant, run everything, step, then shoot.
    auto once = std::make_shared<bool>(false);
    QObject::connect(controller, &ui::LessonController::traced, &window, [=, &window] {
      if (*once) return;
      *once = true;
      if (!variant.empty()) {
        const int idx = window.variantBox()->findData(QString::fromStdString(variant));
        if (idx >= 0) window.variantBox()->setCurrentIndex(idx);
      }
      if (run)
        window.runCurrent(true);
      else if (!screenshot.empty())
        QTimer::singleShot(1500, &window, [&window, screenshot] {
          window.grab().save(QString::fromStdString(screenshot));
          QApplication::quit();
        });
    });
    // After the run, the shown variant is run again with records (the step-through's values):
    // stepping and the screenshot wait for it.
    auto finished = std::make_shared<bool>(false);
    auto finish = [=, &window] {
      if (*finished) return;
      *finished = true;
      if (step >= 0) window.stepControls()->setStep(step);
      // "--plot log" fronts the run log (its dock shares the plots' tab bar), scrolled to its
      // start: the first variant's outputs and why-None explanations.
      if (plot.compare(QStringLiteral("log"), Qt::CaseInsensitive) == 0)
        if (auto* dock = qobject_cast<QDockWidget*>(window.runLog()->parentWidget())) {
          dock->raise();
          window.runLog()->moveCursor(QTextCursor::Start);
          window.runLog()->ensureCursorVisible();
        }
      QTabWidget* tabs = window.plots()->tabs();
      for (int t = 0; t < tabs->count(); ++t)
        if (!plot.isEmpty() && tabs->tabText(t).remove('&').compare(plot, Qt::CaseInsensitive) == 0)
          tabs->setCurrentIndex(t);
      if (screenshot.empty()) return;
      QTimer::singleShot(1500, &window, [&window, screenshot] {
        window.grab().save(QString::fromStdString(screenshot));
        QApplication::quit();
      });
    };
    if (run) {
      QObject::connect(controller, &ui::LessonController::runFinished, &window, [=] {
        if (!controller->recording()) finish();
      });
      QObject::connect(controller, &ui::LessonController::recordsReady, &window, finish);
      QObject::connect(controller, &ui::LessonController::recordingStopped, &window, finish);
    }
  }
  return app.exec();
}

int exportCommand(const args::Parsed& args, int& argc, char** argv) {
  const std::string file = args.positional("FILE");
  const std::string out = args.text("--out");
  std::string formats = args.text("--format", kExportFormats);
  const bool wantsTrace = takeTraceFormat(formats);  // the rest are figures (maybe none)
  const lang::TraceOptions trace = traceOptions(args);
  const lab::RunRequest run = runRequest(args);
  const int64_t step = args.integer("--step", -1);
  // Figures need widgets but no screen.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  setIdentity();
  ui::initResources();
  ui::LessonExportOptions opt;
  QString error;
  // "handout" is one PDF (DIR/handout.pdf), not a format of each figure.
  QStringList figureFormats = QString::fromStdString(formats).split(',', Qt::SkipEmptyParts);
  const bool handout = figureFormats.removeAll(QStringLiteral("handout")) > 0;
  if (((!wantsTrace && !handout) || !figureFormats.isEmpty()) &&
      !ui::parseExportFormats(figureFormats.join(','), &opt.formats, &error)) {
    std::fprintf(stderr, "gradlab: --format: %s\n", qPrintable(error));
    return 2;
  }
  opt.step = step;
  try {
    const std::string source = readScript(file);
    const std::string name =
        QFileInfo(QString::fromStdString(locateScript(file))).fileName().toStdString();
    const lang::TracedProgram program = lang::traceProgram(source, name, trace);
    const lab::ProgramRun result = lab::runProgram(program, run);
    std::cout << lab::reportText(program, result, run);
    ui::LessonExportReport report;
    if (!figureFormats.isEmpty())
      report = ui::exportLesson(program, result, QString::fromStdString(out), opt);
    if (handout) {
      const QString dir = QString::fromStdString(out), path = QDir(dir).filePath("handout.pdf");
      const ui::HandoutResult h =
          QDir().mkpath(dir)
              ? ui::exportHandout(
                    program, result,
                    ui::LessonBrowser::lessonTitle(QString::fromStdString(locateScript(file))),
                    QString::fromStdString(source), path)
              : ui::HandoutResult{false, QStringLiteral("cannot create the folder %1").arg(dir)};
      if (h.ok)
        report.written << path;
      else
        report.errors << h.error;
    }
    for (const QString& f : report.written) std::cout << "wrote " << f.toStdString() << "\n";
    for (const QString& e : report.errors) std::fprintf(stderr, "gradlab: %s\n", qPrintable(e));
    std::string tracePath, traceError;
    const bool traceOk = !wantsTrace || writeTrace(program, result, out, &tracePath, &traceError);
    if (wantsTrace && traceOk) std::cout << "wrote " << tracePath << "\n";
    if (!traceOk) std::fprintf(stderr, "gradlab: %s\n", traceError.c_str());
    return report.ok() && traceOk && result.ok() ? 0 : 1;
  } catch (const EngineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace gl::app
