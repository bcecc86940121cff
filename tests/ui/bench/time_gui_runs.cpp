// A timing driver, not a test (no CTest registration: timings on a shared machine are noise):
// for each built-in lesson at seed size, the time from Run All to "Run finished" in the window
// (offscreen, as a user runs it: no loop or value records, the timeline on) against the same
// program run as `gradlab run` runs it (no timeline, loop or value records). The recording run
// that follows (the shown variant run again with records, for the step-through) is timed apart
// and waited for before the command-line run. Medians of five, after a warm-up round; the page
// faults and CPU seconds of the whole process during each, and each variant's time in the
// executor. GRADLAB_CLI_TIMELINE=1 keeps the timeline in the command-line runs too, to tell its
// cost from the window's. Run it alone:
//   QT_QPA_PLATFORM=offscreen build/tests/ui/ui_time_gui_runs [lessons:parallel_layers.gls]
#include <pthread.h>
#include <sys/resource.h>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "engine/lab/session.h"
#include "support/isolated_settings.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/run/lesson_controller.h"
#include "ui/window/main_window.h"

using namespace gl;
using namespace gl::ui;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The process's minor page faults and CPU seconds so far: a GUI run that faults or burns CPU
// beside the engine shows here.
struct Usage {
  double faults = 0, cpu = 0;
  static Usage now() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return {double(u.ru_minflt), sec(u.ru_utime) + sec(u.ru_stime)};
  }
};

// The command-line runs' own thread, kept between runs as `gradlab run` keeps its main thread, so
// the window's thread stays what it is in the app: one that frees old results and allocates no
// tensors.
class CliThread {
 public:
  CliThread() : thread_([this] { loop(); }) {}
  ~CliThread() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void run(std::function<void()> task) {
    std::unique_lock<std::mutex> lock(mu_);
    task_ = std::move(task);
    cv_.notify_all();
    cv_.wait(lock, [this] { return !task_; });
  }

 private:
  void loop() {
    pthread_setname_np(pthread_self(), "cli-run");
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || bool(task_); });
      if (stop_) return;
      task_();
      task_ = nullptr;
      cv_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> task_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

class TimeGuiRuns : public QObject {
  Q_OBJECT
  CliThread cliThread_;

 private slots:
  void lessons_data() {
    QTest::addColumn<QString>("lesson");
    for (const char* l : {"ode_while_loop.gls", "per_step_gradients.gls", "parallel_layers.gls",
                          "gradient_none.gls"})
      QTest::newRow(l) << QString(l);
  }

  void lessons() {
    QFETCH(QString, lesson);
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy traced(w.controller(), &LessonController::traced);
    QVERIFY(w.openFile(":/lessons/" + lesson));
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 1, 120000);
    w.controller()->setPreset(lang::ParamPreset::Seed);  // the window opens at classroom size
    w.controller()->traceNow();
    QTRY_VERIFY_WITH_TIMEOUT(traced.count() >= 2, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 120000);
    auto program = w.controller()->program();
    QVERIFY(program);

    std::vector<double> gui, cli, recording, guiEngine, cliEngine, guiFaults, cliFaults, guiCpu,
        cliCpu;
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> perVariant;
    auto engineSeconds = [](const lab::ProgramRun& r) {
      double sum = 0;
      for (const lab::VariantRun& v : r.variants) sum += v.run.seconds;
      return sum;
    };
    // Round 0 warms both up (the window's first run also allocates while the previous result
    // is still shown); rounds 1-5 are timed.
    for (int i = 0; i < 6; ++i) {
      QSignalSpy finished(w.controller(), &LessonController::runFinished);
      QElapsedTimer t;
      Usage before = Usage::now();
      t.start();
      w.runCurrent(true);
      // wait(), not QTRY_VERIFY: that polls every 50 ms, a quarter of a seed-c run.
      QVERIFY(finished.wait(600000));
      gui.push_back(double(t.elapsed()) / 1000);
      guiFaults.push_back(Usage::now().faults - before.faults);
      guiCpu.push_back(Usage::now().cpu - before.cpu);
      const lab::ProgramRun& shown = *w.controller()->outcome().run;
      guiEngine.push_back(engineSeconds(shown));
      for (const lab::VariantRun& v : shown.variants)
        perVariant[v.name].first.push_back(v.run.seconds);
      t.restart();
      QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->recording(), 600000);
      recording.push_back(double(t.elapsed()) / 1000);
      QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->graphScene()->layoutPending(), 120000);

      lab::RunRequest s;  // the window's executor and thread count ("auto")
      s.options.executor = shown.variants.front().executor;
      s.options.timeline = qEnvironmentVariableIsSet("GRADLAB_CLI_TIMELINE");
      s.options.records = s.options.valueRecords = false;
      before = Usage::now();
      t.restart();
      lab::ProgramRun r;
      cliThread_.run([&] { r = lab::runProgram(*program, s); });
      cli.push_back(double(t.elapsed()) / 1000);
      cliFaults.push_back(Usage::now().faults - before.faults);
      cliCpu.push_back(Usage::now().cpu - before.cpu);
      cliEngine.push_back(engineSeconds(r));
      for (const lab::VariantRun& v : r.variants)
        perVariant[v.name].second.push_back(v.run.seconds);
      QVERIFY(r.ok());
      if (i == 0)
        for (auto* v : {&gui, &cli, &recording, &guiEngine, &cliEngine, &guiFaults, &cliFaults,
                        &guiCpu, &cliCpu})
          v->clear();
      if (i == 0) perVariant.clear();
    }
    qInfo(
        "%s: GUI Run All %.2f s, as `gradlab run` %.2f s (medians of 5), ratio %.2f; then "
        "the recording run of the shown variant %.2f s. In the executor (sum over variants): "
        "GUI %.2f s, CLI %.2f s; minor page faults GUI %.0f, CLI %.0f; CPU seconds GUI %.2f, "
        "CLI %.2f",
        qPrintable(lesson), median(gui), median(cli), median(gui) / median(cli), median(recording),
        median(guiEngine), median(cliEngine), median(guiFaults), median(cliFaults), median(guiCpu),
        median(cliCpu));
    for (const auto& [name, times] : perVariant)
      qInfo("  variant %s: in the executor GUI %.3f s, CLI %.3f s", name.c_str(),
            median(times.first), median(times.second));
  }
};

QTEST_MAIN(TimeGuiRuns)
#include "time_gui_runs.moc"
