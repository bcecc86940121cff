#include "gui.h"

#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QMap>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.h"
#include "engine/lab/session.h"
#include "scripts.h"
#include "ui/about.h"
#include "ui/export/lesson_export.h"
#include "ui/plots/plots_panel.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
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

void exportUsage() {
  std::fprintf(stderr,
               "usage: gradlab export FILE.gls --out DIR [--format png,svg,pdf,csv,dot]\n"
               "                      [--set name=value]... [--step T] [--variant V]\n"
               "                      [--executor serial|parallel] [--threads N]\n");
}

}  // namespace

int runWindow(int argc, char** argv, const std::vector<std::string>& args) {
  std::string file, screenshot, variant;
  QString plot;  // plots tab to bring to the front (for screenshots)
  bool run = false;
  long long step = -1;
  QMap<QString, double> params;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool hasValue = i + 1 < args.size();
    if (a == "--set" && hasValue) {
      std::string name;
      double x = 0;
      if (!parseSetting(args[++i], name, x))
        return std::fprintf(stderr, "gradlab: --set expects name=value\n"), 2;
      params[QString::fromStdString(name)] = x;
    } else if (a == "--screenshot" && hasValue) {
      screenshot = args[++i];
    } else if (a == "--variant" && hasValue) {
      variant = args[++i];
    } else if (a == "--step" && hasValue) {
      step = std::atoll(args[++i].c_str());
    } else if (a == "--plot" && hasValue) {
      plot = QString::fromStdString(args[++i]);
    } else if (a == "--run") {
      run = true;
    } else if (!a.empty() && a[0] != '-' && file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "gradlab: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
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
  // Params first: opening the file traces with them (and stops the params' debounce).
  if (!params.isEmpty()) controller->setParamValues(params);
  window.show();
  if (!window.openFile(path) && path != ui::builtinLessons().value(0))
    window.openFile(ui::builtinLessons().value(0));
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
    if (run)
      QObject::connect(controller, &ui::LessonController::runFinished, &window, [=, &window] {
        if (step >= 0) window.stepControls()->setStep(step);
        QTabWidget* tabs = window.plots()->tabs();
        for (int t = 0; t < tabs->count(); ++t)
          if (!plot.isEmpty() &&
              tabs->tabText(t).remove('&').compare(plot, Qt::CaseInsensitive) == 0)
            tabs->setCurrentIndex(t);
        if (screenshot.empty()) return;
        QTimer::singleShot(1500, &window, [&window, screenshot] {
          window.grab().save(QString::fromStdString(screenshot));
          QApplication::quit();
        });
      });
  }
  return app.exec();
}

int exportCommand(int argc, char** argv, const std::vector<std::string>& args) {
  std::string file, out, formats = "png,svg,pdf,csv,dot";
  lang::TraceOptions trace;
  lab::RunSettings run;
  int64_t step = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    std::string v;
    if (a == "--out") {
      if (!value(out)) return exportUsage(), 2;
    } else if (a == "--format") {
      if (!value(formats)) return exportUsage(), 2;
    } else if (a == "--set") {
      std::string name;
      double x = 0;
      if (!value(v) || !parseSetting(v, name, x)) return exportUsage(), 2;
      trace.overrides[name] = x;
    } else if (a == "--step") {
      if (!value(v)) return exportUsage(), 2;
      try {
        step = std::stoll(v);
      } catch (const std::logic_error&) {
        step = -2;
      }
      if (step < 0) return std::fprintf(stderr, "gradlab: --step expects an iteration >= 0\n"), 2;
    } else if (a == "--variant") {
      if (!value(run.variant)) return exportUsage(), 2;
    } else if (a == "--executor") {
      if (!value(v) || (v != "serial" && v != "parallel")) return exportUsage(), 2;
      run.parallel = v == "parallel";
    } else if (a == "--threads") {
      if (!value(v)) return exportUsage(), 2;
      try {
        run.threads = std::stoi(v);
      } catch (const std::logic_error&) {
        run.threads = 0;
      }
      if (run.threads < 1) return exportUsage(), 2;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "gradlab: unknown option '%s'\n", a.c_str());
      return exportUsage(), 2;
    } else if (file.empty()) {
      file = a;
    } else {
      return exportUsage(), 2;
    }
  }
  if (file.empty() || out.empty()) return exportUsage(), 2;
  // Figures need widgets but no screen.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  setIdentity();
  ui::initResources();
  ui::LessonExportOptions opt;
  QString error;
  if (!ui::parseExportFormats(QString::fromStdString(formats), &opt.formats, &error)) {
    std::fprintf(stderr, "gradlab: --format: %s\n", qPrintable(error));
    return 2;
  }
  opt.step = step;
  opt.executorLabel = run.parallel ? QStringLiteral("parallel") : QStringLiteral("serial");
  try {
    const std::string source = readScript(file);
    const std::string name =
        QFileInfo(QString::fromStdString(locateScript(file))).fileName().toStdString();
    const lang::TracedProgram program = lang::traceProgram(source, name, trace);
    const lab::ProgramRun result = lab::runProgram(program, run);
    std::cout << lab::reportText(program, result, run);
    const ui::LessonExportReport report =
        ui::exportLesson(program, result, QString::fromStdString(out), opt);
    for (const QString& f : report.written) std::cout << "wrote " << f.toStdString() << "\n";
    for (const QString& e : report.errors) std::fprintf(stderr, "gradlab: %s\n", qPrintable(e));
    return report.ok() && result.ok() ? 0 : 1;
  } catch (const EngineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace gl::app
