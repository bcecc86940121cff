// `gradlab run` and `gradlab check` driven as a user would: exit codes, output, JSON, errors.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include "test_main.h"

#include <sys/stat.h>

namespace {

struct Result {
  int code = -1;
  QString out, err;
};

Result gradlab(const QStringList& args, const QString& workingDir = {}) {
  QProcess p;
  if (!workingDir.isEmpty()) p.setWorkingDirectory(workingDir);
  p.start(QStringLiteral(GRADLAB_BINARY), args);
  p.waitForFinished(120000);
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

// Without any display, so that a window command that parses stops at "no display".
Result gradlabWithoutDisplay(const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(v);
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(GRADLAB_BINARY), args);
  p.waitForFinished(120000);
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

// The first line of stderr.
QString firstLine(const Result& r) { return r.err.section('\n', 0, 0); }

QString lesson(const char* name) {
  return QStringLiteral(GRADLAB_SOURCE_DIR) + "/resources/lessons/" + name;
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString write(const QString& name, const QByteArray& text) {
    QFile f(dir_.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return f.fileName();
  }

 private slots:
  void runPrintsOutputsAgreementAndTimes() {
    Result r = gradlab({"run", lesson("ode_while_loop.gls"), "--set", "batch=2", "--set", "dim=3",
                        "--set", "steps=4"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("variant 'serial'"), qPrintable(r.out));
    QVERIFY(r.out.contains("variant 'vectorized'"));
    QVERIFY(r.out.contains("grad fx_grads: float32[2,3]"));
    // (1 - 0.1)^4 = 0.6561 everywhere
    QVERIFY2(r.out.contains("min 0.6561  max 0.6561"), qPrintable(r.out));
    QVERIFY(r.out.contains("agree"));
    QVERIFY(r.out.contains("time per variant:"));
  }

  void denormalsFlushUnlessNoFtz() {
    // 1e-30 * 1e-10 is a float32 denormal (9.99995e-41): flushed to zero by default, as
    // TensorFlow on CPU.
    const QString script = write("underflow.gls", "x = tf.constant([1e-30])\ny = x * 1e-10\n");
    for (const char* executor : {"serial", "parallel"}) {
      Result flushed = gradlab({"run", script, "--executor", executor});
      QCOMPARE(flushed.code, 0);
      QVERIFY2(flushed.out.contains("out  y: float32[1]  min 0  max 0"), qPrintable(flushed.out));
      Result ieee = gradlab({"run", script, "--executor", executor, "--no-ftz"});
      QCOMPARE(ieee.code, 0);
      QVERIFY2(ieee.out.contains("out  y: float32[1]  min 9.99995e-41"), qPrintable(ieee.out));
    }
  }

  void jsonIsOneDocument() {
    Result r = gradlab({"run", lesson("ode_while_loop.gls"), "--set", "batch=2", "--set", "dim=3",
                        "--set", "steps=4", "--variant", "vectorized", "--executor", "parallel",
                        "--threads", "2", "--json"});
    QCOMPARE(r.code, 0);
    QJsonParseError err;
    QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &err);
    QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
    QJsonObject o = doc.object();
    QCOMPARE(o["executor"].toString(), QString("parallel"));
    QCOMPARE(o["params"].toObject()["steps"].toDouble(), 4.0);
    QJsonArray variants = o["variants"].toArray();
    QCOMPARE(variants.size(), 1);
    QJsonObject v = variants[0].toObject();
    QCOMPARE(v["name"].toString(), QString("vectorized"));
    bool found = false;
    for (const auto& out : v["outputs"].toArray()) {
      QJsonObject oo = out.toObject();
      if (oo["name"].toString() != "fx_grads") continue;
      found = true;
      QJsonObject e = oo["entries"].toArray()[0].toObject();
      QCOMPARE(e["shape"].toArray().size(), 2);
      QVERIFY(std::abs(e["max"].toDouble() - 0.6561) < 1e-5);
    }
    QVERIFY(found);
  }

  void noneGradientsAreExplained() {
    Result r = gradlab({"run", lesson("per_step_gradients.gls"), "--set", "steps=3", "--variant",
                        "variable_in_loop"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("None"), qPrintable(r.out));
    QVERIFY(r.out.contains("why:"));
  }

  void checkSummarizesTheGraph() {
    Result r = gradlab({"check", lesson("ode_while_loop.gls"), "--set", "steps=3"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("while_loops:"), qPrintable(r.out));
    QVERIFY(r.out.contains("variant 'parallel'"));
    QVERIFY(r.out.contains("param steps = 3"));
  }

  // The lessons' `class N` values under --preset class; the seed's without it; --set wins.
  void presetClassTakesTheClassroomValues() {
    Result seed = gradlab({"check", lesson("ode_while_loop.gls")});
    QCOMPARE(seed.code, 0);
    QVERIFY2(seed.out.contains("param steps = 20000 in 1..100000 class 200\n"),
             qPrintable(seed.out));
    Result cls = gradlab({"check", lesson("ode_while_loop.gls"), "--preset", "class"});
    QCOMPARE(cls.code, 0);
    QVERIFY2(cls.out.contains("param steps = 200 in"), qPrintable(cls.out));
    QVERIFY(cls.out.contains("param batch = 4 in"));
    QVERIFY(cls.out.contains("param dt = 0.1 in 0.001..1\n"));  // no `class`: the seed's value
    Result set =
        gradlab({"check", lesson("ode_while_loop.gls"), "--preset", "class", "--set", "steps=7"});
    QVERIFY2(set.out.contains("param steps = 7 in"), qPrintable(set.out));
    Result run = gradlab({"run", lesson("per_step_gradients.gls"), "--preset", "class"});
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains("[20,20]"), qPrintable(run.out));  // the 20-step jacobian
    QCOMPARE(gradlab({"run", lesson("ode_while_loop.gls"), "--preset", "big"}).code, 2);
  }

  void scriptErrorsNameFileLineAndColumn() {
    const QString f = write("bad.gls", "x = tf.constant([1.0, 2.0])\ny = x + tape2\n");
    Result r = gradlab({"run", f});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("bad.gls:2:9:"), qPrintable(r.err));
    QVERIFY(r.err.contains("tape2"));
    Result c = gradlab({"check", f});
    QCOMPARE(c.code, 1);
    QVERIFY(c.err.contains("bad.gls:2:9:"));
  }

  void usageErrorsExitTwo() {
    QCOMPARE(gradlab({"run"}).code, 2);
    QCOMPARE(gradlab({"run", lesson("ode_while_loop.gls"), "--executor", "gpu"}).code, 2);
    QCOMPARE(gradlab({"run", lesson("ode_while_loop.gls"), "--threads", "zero"}).code, 2);
    QCOMPARE(gradlab({"run", lesson("ode_while_loop.gls"), "--set", "steps"}).code, 2);
    QCOMPARE(gradlab({"--frobnicate"}).code, 2);
  }

  void missingFileAndBadParamsAreScriptErrors() {
    Result r = gradlab({"run", dir_.filePath("nope.gls")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("cannot open"));
    Result p = gradlab({"check", lesson("ode_while_loop.gls"), "--set", "stepz=3"});
    QCOMPARE(p.code, 1);
    QVERIFY2(p.err.contains("stepz"), qPrintable(p.err));
    Result range = gradlab({"check", lesson("ode_while_loop.gls"), "--set", "steps=0"});
    QCOMPARE(range.code, 1);
  }

  void theFirstNanIsReportedUnlessAskedNotTo() {
    const QString f = write("nan.gls", "y = tf.math.log(tf.constant([-1.0, 2.0]))\n");
    Result r = gradlab({"run", f});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("  numerics: log made the first 1 NaN at " + f + ":1:5;"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("mean nan  l2 nan  NaN 1\n"));
    Result off = gradlab({"run", f, "--no-check-numerics"});
    QCOMPARE(off.code, 0);
    QVERIFY(!off.out.contains("numerics:"));
    QVERIFY(off.out.contains("NaN 1"));  // the summary still counts them
  }

  void limitsAreSettingsOfEveryScriptCommand() {
    const QString f = write("big.gls", "x = tf.zeros([1000, 1000])\ny = x + 1.0\n");
    QCOMPARE(gradlab({"check", f}).code, 0);
    Result c = gradlab({"check", f, "--memory-budget", "1M"});
    QCOMPARE(c.code, 1);
    QVERIFY2(firstLine(c).startsWith(f + ":1:5: ") &&
                 firstLine(c).endsWith("over the memory budget of 1.0 MiB (set a larger one "
                                       "with --memory-budget or in Settings)"),
             qPrintable(c.err));
    Result r = gradlab({"run", f, "--memory-budget=1.5MiB"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("memory budget of 1.5 MiB"), qPrintable(r.err));
    Result bad = gradlab({"run", f, "--memory-budget", "2X"});
    QCOMPARE(bad.code, 2);
    QCOMPARE(firstLine(bad), QString("gradlab run: --memory-budget expects a size such as 2G, "
                                     "512M or 4096, got '2X'"));
    const QString loop = write("loop.gls", "x = 0\nfor i in range(50):\n    x += 1\n");
    Result u = gradlab({"check", loop, "--max-unroll", "10"});
    QCOMPARE(u.code, 1);
    QVERIFY2(u.err.contains("(the maxUnroll limit, --max-unroll or in Settings)"),
             qPrintable(u.err));
  }

  // The list/string size and the ops a run may execute are settings like the budget: the
  // error names the line and the option, and raising the option lets the script through.
  void itemAndOpLimitsAreOptions() {
    const QString list = write("list.gls",
                               "xs = []\nfor i in range(30):\n    xs.append(i)\n"
                               "n = tf.constant(float(len(xs)))\n");
    QCOMPARE(gradlab({"check", list}).code, 0);
    Result c = gradlab({"check", list, "--max-items", "20"});
    QCOMPARE(c.code, 1);
    QCOMPARE(firstLine(c), list +
                               ":3:5: this list grew past 20 items (the maxItems limit, "
                               "--max-items or in Settings)");
    Result bad = gradlab({"check", list, "--max-items", "0"});
    QCOMPARE(bad.code, 2);
    const QString loop = write("spin.gls",
                               "n = tf.while_loop(lambda i: i < 100000, lambda i: "
                               "i + 1, [tf.constant(0)])\n");
    Result r = gradlab({"run", loop, "--max-ops", "500"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(loop + ":1:5: while: the run executed more than 500 ops (the maxOps "
                                   "limit, --max-ops or in Settings)"),
             qPrintable(r.err));
    Result ok = gradlab({"run", loop, "--max-ops", "1000000"});
    QCOMPARE(ok.code, 0);
    QVERIFY2(ok.out.contains("100000"), qPrintable(ok.out));
    // check runs nothing of the graph, but a value computed while tracing (a tf.Variable's
    // initial value) counts its ops against the same limit (issue #31).
    QCOMPARE(gradlab({"check", loop, "--max-ops", "5"}).code, 0);
    const QString init = write("init.gls",
                               "n = tf.while_loop(lambda i: i < 100000, lambda i: i + 1, "
                               "[tf.constant(0)])[0]\nv = tf.Variable(n)\n");
    Result initRun = gradlab({"check", init, "--max-ops", "500"});
    QCOMPARE(initRun.code, 1);
    QVERIFY2(initRun.err.contains(init + ":2:") && initRun.err.contains("more than 500 ops"),
             qPrintable(initRun.err));
  }

  // Only regular files are read, and their size is checked before reading: a FIFO would block
  // the open, /dev/zero never ends, and a directory used to run as an empty script.
  void onlyRegularFilesUpTo4MiBAreRead() {
    QVERIFY(QDir(dir_.path()).mkpath("folder.gls"));
    Result d = gradlab({"run", dir_.filePath("folder.gls")});
    QCOMPARE(d.code, 1);
    QCOMPARE(firstLine(d),
             "'" + dir_.filePath("folder.gls") + "' is not a regular file (a directory)");
    Result z = gradlab({"check", "/dev/zero"});
    QCOMPARE(z.code, 1);
    QCOMPARE(firstLine(z), QString("'/dev/zero' is not a regular file"));
    const QString fifo = dir_.filePath("pipe.gls");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    Result f = gradlab({"run", fifo});  // returns at once: nobody ever writes into the FIFO
    QCOMPARE(f.code, 1);
    QCOMPARE(firstLine(f), "'" + fifo + "' is not a regular file");
    const QString big = write("big.gls", QByteArray((4 << 20) + 1, '#'));
    Result b = gradlab({"check", big});
    QCOMPARE(b.code, 1);
    QCOMPARE(firstLine(b), "'" + big + "' is larger than 4 MiB");
  }

  void exportWritesEveryFigureWithoutADisplay() {
    QTemporaryDir out;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("QT_QPA_PLATFORM");  // the command must pick offscreen itself
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(GRADLAB_BINARY),
            {"export", lesson("per_step_gradients.gls"), "--out", out.path(), "--set", "steps=5",
             "--format", "png,svg,pdf,csv,dot", "--step", "2"});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const QString log = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(log.contains("wrote "), qPrintable(log));
    QImage png(out.filePath("jacobian_jacobian.png"));
    QCOMPARE(png.size(), QSize(1200, 750));
    QFile svg(out.filePath("jacobian_graph.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svg);
    int elements = 0;
    bool sawSvg = false;
    while (!xml.atEnd())
      if (xml.readNext() == QXmlStreamReader::StartElement) {
        sawSvg = sawSvg || xml.name() == QLatin1String("svg");
        ++elements;
      }
    QVERIFY(!xml.hasError());
    QVERIFY(sawSvg && elements > 20);
    QFile pdf(out.filePath("timings.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    QFile csv(out.filePath("timings.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 1 + 3);  // header + one bar per variant
    QFile dot(out.filePath("backward_passes_graph.dot"));
    QVERIFY(dot.open(QIODevice::ReadOnly));
    QVERIFY(dot.readAll().contains("digraph"));
    QVERIFY(QFile::exists(out.filePath("report.txt")));
    // Bad formats are usage errors.
    QCOMPARE(gradlab({"export", lesson("per_step_gradients.gls"), "--out", out.path(), "--format",
                      "gif"})
                 .code,
             2);
  }

  // --format trace: the run's timeline as Chrome trace JSON, one X event per op execution,
  // one process per variant; with the parallel executor the report says so.
  void exportWritesAChromeTrace() {
    QTemporaryDir out;
    Result r = gradlab({"export", "ode_while_loop", "--out", out.path(), "--format", "trace",
                        "--set", "batch=2", "--set", "dim=3", "--set", "steps=4", "--executor",
                        "parallel", "--threads", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains("[parallel executor]"));
    QVERIFY(r.out.contains("trace.json"));
    QVERIFY(!QFile::exists(out.filePath("report.txt")));  // only what was asked for
    QFile file(out.filePath("trace.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QSet<int> pids;
    QStringList processes;
    int xs = 0;
    for (const QJsonValue& v : doc.object().value("traceEvents").toArray()) {
      const QJsonObject e = v.toObject();
      if (e.value("ph").toString() == "X") {
        ++xs;
        pids.insert(e.value("pid").toInt());
        QVERIFY(e.contains("tid") && e.value("dur").toDouble() >= 0);
      }
      if (e.value("name").toString() == "process_name")
        processes << e.value("args").toObject().value("name").toString();
    }
    QVERIFY(xs > 10);
    QCOMPARE(pids.size(), 3);
    QCOMPARE(processes, (QStringList{"serial", "parallel", "vectorized"}));
    // Traces and figures together; an unknown format is still a usage error.
    QCOMPARE(gradlab({"export", "ode_while_loop", "--out", out.path(), "--format", "csv,trace",
                      "--set", "steps=2"})
                 .code,
             0);
    QVERIFY(QFile::exists(out.filePath("report.txt")));
    QCOMPARE(
        gradlab({"export", "ode_while_loop", "--out", out.path(), "--format", "trace,gif"}).code,
        2);
  }

  void runCheckAndExportReadBuiltInLessons() {
    const QStringList small{"--set", "batch=2", "--set", "dim=3", "--set", "steps=4"};
    for (const QString& name : {QString("ode_while_loop"), QString("ode_while_loop.gls"),
                                QString(":/lessons/ode_while_loop.gls")}) {
      Result r = gradlab(QStringList{"run", name} + small, dir_.path());
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.contains("min 0.6561  max 0.6561"), qPrintable(name + ": " + r.out + r.err));
      QVERIFY(r.out.contains("variant 'vectorized'"));
    }
    Result c = gradlab({"check", "per_step_gradients", "--set", "steps=3"}, dir_.path());
    QCOMPARE(c.code, 0);
    QVERIFY2(c.out.startsWith(":/lessons/per_step_gradients.gls: ok"), qPrintable(c.out));
    QVERIFY(c.out.contains("param steps = 3"));
    QTemporaryDir out;
    Result e = gradlab({"export", "per_step_gradients", "--out", out.path(), "--set", "steps=3",
                        "--format", "dot"},
                       dir_.path());
    QCOMPARE(e.code, 0);
    QFile dot(out.filePath("jacobian_graph.dot"));
    QVERIFY2(dot.open(QIODevice::ReadOnly), qPrintable(e.out + e.err));
    QVERIFY(dot.readAll().contains("digraph"));
  }

  void aFileWinsOverABuiltInLessonOfTheSameName() {
    QTemporaryDir cwd;
    QFile f(cwd.filePath("ode_while_loop"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("x = tf.constant(1.0)\nprint('the local file')\n");
    f.close();
    Result r = gradlab({"check", "ode_while_loop"}, cwd.path());
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("print: the local file"), qPrintable(r.out + r.err));
    QVERIFY(!r.out.contains("while_loops: 8"));
    Result missing = gradlab({"run", "no_such_lesson"}, cwd.path());
    QCOMPARE(missing.code, 1);
    QCOMPARE(missing.err.trimmed(), QString("cannot open 'no_such_lesson'"));
    QCOMPARE(missing.out, QString());
  }

  void threadsAcceptOneTo256InEveryCommand() {
    const QString ode = lesson("ode_while_loop.gls");
    const QList<QStringList> commands{
        {"run", ode},
        {"export", ode, "--out", dir_.filePath("threads")},
        {"ode"},
    };
    for (const QStringList& c : commands)
      for (const QString bad : {"0", "257", "-4", "many", "2.5", "8x"}) {
        Result r = gradlab(c + QStringList{"--threads", bad});
        QCOMPARE(r.code, 2);
        QCOMPARE(
            firstLine(r),
            "gradlab " + c[0] + ": --threads expects an integer from 1 to 256, got '" + bad + "'");
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
      }
    // The old run limit was 1024, export's none and ode's any integer: now one rule.
    QCOMPARE(gradlab({"run", ode, "--threads", "1000"}).code, 2);
    QCOMPARE(gradlab({"ode", "--threads", "0"}).code, 2);
    const QStringList small{"--set", "batch=2", "--set", "dim=3", "--set", "steps=4"};
    for (const QString n : {"1", "256"}) {
      Result r = gradlab(QStringList{"run", ode, "--threads", n} + small);
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.contains("min 0.6561  max 0.6561"), qPrintable(r.err));
    }
    Result eq =
        gradlab(QStringList{"run", ode, "--threads=2", "--executor=parallel", "--json"} + small);
    QCOMPARE(eq.code, 0);
    QCOMPARE(QJsonDocument::fromJson(eq.out.toUtf8()).object()["executor"].toString(),
             QString("parallel"));
    Result o = gradlab({"ode", "--threads", "256", "--steps", "3", "--batch", "2", "--dim", "3",
                        "--variant", "vectorized", "--executor", "serial"});
    QCOMPARE(o.code, 0);
    QVERIFY2(o.out.contains("closed form: (1-dt)^N = 0.729"), qPrintable(o.out + o.err));
    QCOMPARE(o.out.count("vectorized   serial"), 1);
  }

  void unknownCommandListsTheCommands() {
    Result r = gradlab({"rnu", lesson("ode_while_loop.gls")});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err,
             QString("gradlab: unknown command 'rnu'\n"
                     "commands: window, run, check, export, ode, bench (gradlab --help shows "
                     "them all)\n"));
    QVERIFY(r.out.isEmpty());
  }

  void unknownOptionNamesTheOptionAndTheCommand() {
    const QString ode = lesson("ode_while_loop.gls");
    const QList<QStringList> commands{{"run", ode},
                                      {"check", ode},
                                      {"export", ode, "--out", dir_.path()},
                                      {"ode"},
                                      {"window", ode}};
    for (const QStringList& c : commands) {
      Result r = gradlabWithoutDisplay(c + QStringList{"--bogus"});
      QCOMPARE(r.code, 2);
      QCOMPARE(firstLine(r), "gradlab " + c[0] + ": unknown option '--bogus'");
      QVERIFY2(r.err.section('\n', 1, 1).startsWith("usage: gradlab "), qPrintable(r.err));
    }
    // run's options are not check's.
    Result c = gradlab({"check", ode, "--json"});
    QCOMPARE(c.code, 2);
    QCOMPARE(firstLine(c), QString("gradlab check: unknown option '--json'"));
    // Options before any file go to the window.
    Result w = gradlabWithoutDisplay({"--frobnicate"});
    QCOMPARE(w.code, 2);
    QCOMPARE(firstLine(w), QString("gradlab window: unknown option '--frobnicate'"));
  }

  void missingValuesNameTheOption() {
    const QString ode = lesson("ode_while_loop.gls");
    Result r = gradlab({"run", ode, "--variant"});
    QCOMPARE(r.code, 2);
    QCOMPARE(firstLine(r), QString("gradlab run: --variant needs a value (--variant V)"));
    Result e = gradlab({"export", ode, "--out"});
    QCOMPARE(e.code, 2);
    QCOMPARE(firstLine(e), QString("gradlab export: --out needs a value (--out DIR)"));
    Result w = gradlabWithoutDisplay({ode, "--screenshot"});
    QCOMPARE(w.code, 2);
    QCOMPARE(firstLine(w),
             QString("gradlab window: --screenshot needs a value (--screenshot PNG)"));
    Result o = gradlab({"ode", "--executor"});
    QCOMPARE(o.code, 2);
    QCOMPARE(firstLine(o),
             QString("gradlab ode: --executor needs a value (--executor serial|parallel|both)"));
    Result out = gradlab({"export", ode});
    QCOMPARE(out.code, 2);
    QCOMPARE(firstLine(out), QString("gradlab export: --out DIR is required"));
    Result file = gradlab({"check"});
    QCOMPARE(file.code, 2);
    QCOMPARE(firstLine(file), QString("gradlab check: missing FILE"));
  }

  void badValuesNameTheOptionAndTheValue() {
    const QString ode = lesson("ode_while_loop.gls");
    Result x = gradlab({"run", ode, "--executor", "gpu"});
    QCOMPARE(firstLine(x),
             QString("gradlab run: --executor expects serial, parallel or fused, got 'gpu'"));
    Result ex = gradlab({"export", ode, "--out", dir_.path(), "--executor", "both"});
    QCOMPARE(ex.code, 2);
    QCOMPARE(firstLine(ex),
             QString("gradlab export: --executor expects serial, parallel or fused, got 'both'"));
    Result s = gradlab({"export", ode, "--out", dir_.path(), "--step", "-1"});
    QCOMPARE(s.code, 2);
    QCOMPARE(firstLine(s), QString("gradlab export: --step expects an integer >= 0, got '-1'"));
    Result set = gradlab({"check", ode, "--set", "steps"});
    QCOMPARE(set.code, 2);
    QCOMPARE(firstLine(set),
             QString("gradlab check: --set expects name=value with a number, got 'steps'"));
    Result b = gradlab({"ode", "--batch", "0"});
    QCOMPARE(b.code, 2);
    QCOMPARE(firstLine(b),
             QString("gradlab ode: --batch expects an integer from 1 to 2147483647, got '0'"));
    Result dt = gradlab({"ode", "--dt", "small"});
    QCOMPARE(dt.code, 2);
    QCOMPARE(firstLine(dt), QString("gradlab ode: --dt expects a number, got 'small'"));
    Result two = gradlab({"run", ode, ode});
    QCOMPARE(two.code, 2);
    QCOMPARE(firstLine(two),
             "gradlab run: unexpected argument '" + ode + "' (FILE is already '" + ode + "')");
    Result w = gradlabWithoutDisplay({"window", ode, "--step", "later"});
    QCOMPARE(w.code, 2);
    QCOMPARE(firstLine(w), QString("gradlab window: --step expects an integer >= 0, got 'later'"));
  }

  void helpIsGeneratedForEveryCommand() {
    const QMap<QString, QStringList> options{
        {"window",
         {"--preset seed|class", "--set NAME=VALUE", "--variant V", "--run", "--step T",
          "--plot NAME", "--presentation", "--screenshot PNG"}},
        {"run",
         {"--variant V", "--executor serial|parallel|fused", "--threads N", "--no-ftz",
          "--no-check-numerics", "--preset seed|class", "--set NAME=VALUE", "--json", "--max-ops N",
          "--memory-budget SIZE", "--max-unroll N", "--max-nodes N", "--max-items N"}},
        {"check",
         {"--preset seed|class", "--set NAME=VALUE", "--max-ops N", "--memory-budget SIZE",
          "--max-unroll N", "--max-nodes N", "--max-items N"}},
        {"export",
         {"--out DIR", "--format LIST", "--preset seed|class", "--set NAME=VALUE", "--step T",
          "--variant V", "--executor serial|parallel|fused", "--threads N", "--no-ftz",
          "--no-check-numerics", "--max-ops N", "--memory-budget SIZE", "--max-unroll N",
          "--max-nodes N", "--max-items N"}},
        {"ode",
         {"--steps N", "--batch B", "--dim D", "--dt DT", "--executor serial|parallel|both",
          "--threads N", "--variant serial|parallel|vectorized|all"}},
        {"bench",
         {"--quick", "--runs N", "--json FILE", "--only CASE", "--preset seed|class",
          "--set NAME=VALUE", "--threads N"}},
    };
    for (auto it = options.begin(); it != options.end(); ++it) {
      for (const char* h : {"--help", "-h"}) {
        Result r = gradlabWithoutDisplay({it.key(), h});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        const QString lead =
            it.key() == "window" ? "usage: gradlab [window]" : "usage: gradlab " + it.key();
        QVERIFY2(r.out.startsWith(lead), qPrintable(r.out));
        for (const QString& o : it.value())
          QVERIFY2(r.out.contains("\n  " + o + " ") || r.out.contains("\n  " + o + "\n"),
                   qPrintable(it.key() + ": " + o + "\n" + r.out));
        QVERIFY(r.out.contains("\n  -h, --help "));
        QCOMPARE(r.out.count("\n  --"), it.value().size());  // nothing undeclared
      }
    }
    Result run = gradlab({"run", "--help"});
    QVERIFY(run.out.contains("an integer from 1 to 256"));
    QVERIFY(run.out.contains("built-in lesson"));
    Result ode = gradlab({"ode", "--help"});
    QVERIFY(ode.out.contains("Euler steps; an integer from 0 to 2147483647 (default: 20000)"));
    // --help after a file, and even with a required option missing.
    QCOMPARE(gradlab({"export", lesson("ode_while_loop.gls"), "--help"}).code, 0);
    Result window = gradlabWithoutDisplay({lesson("ode_while_loop.gls"), "--help"});
    QCOMPARE(window.code, 0);
    QVERIFY(window.out.startsWith("usage: gradlab [window] [FILE]"));
  }

  void overviewListsEveryCommand() {
    for (const char* h : {"--help", "-h"}) {
      Result r = gradlab({h});
      QCOMPARE(r.code, 0);
      QVERIFY(r.err.isEmpty());
      QVERIFY2(r.out.startsWith("usage: gradlab [window] [FILE]"), qPrintable(r.out));
      for (const char* c : {"run FILE", "check FILE", "export FILE --out DIR", "ode [--steps N]",
                            "bench [--quick]"})
        QVERIFY2(r.out.contains(QString("\n       gradlab ") + c), c);
      for (const char* c : {"window", "run", "check", "export", "ode", "bench"})
        QVERIFY(r.out.contains(QString("\n  ") + c + " "));
    }
  }

  void benchTimesOneCaseAndWritesJson() {
    const QString json = dir_.filePath("bench.json");
    Result r = gradlab({"bench", "--quick", "--only", "heads/fix_vectorized/serial", "--runs", "1",
                        "--threads", "2", "--json", json});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith("case "), qPrintable(r.out));
    QVERIFY2(
        r.out.contains(QRegularExpression(
            R"(\nheads/fix_vectorized/serial +\d+\.\d{4} +\d+\.\d{4} +\d+\.\d{4} +[\d.]+ MiB)")),
        qPrintable(r.out));
    QVERIFY(!r.out.contains("heads/fix_vectorized/parallel"));
    QVERIFY(!r.out.contains("ode/"));  // no ODE case, so no ODE limit either
    QVERIFY2(r.err.contains("[1/1] heads/fix_vectorized/serial: "), qPrintable(r.err));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(o["quick"].toBool(), true);
    QCOMPARE(o["threads"].toInt(), 2);
    // With python3-torch installed the PyTorch peer's row for the lesson follows ours.
    const QJsonArray cases = o["cases"].toArray();
    QVERIFY(cases.size() >= 1);
    for (int i = 1; i < cases.size(); ++i)
      QVERIFY(cases[i].toObject()["name"].toString().startsWith("torch/three_heads/"));
    QCOMPARE(cases[0].toObject()["name"].toString(), QString("heads/fix_vectorized/serial"));
    QCOMPARE(cases[0].toObject()["seconds"].toArray().size(), 1);
    QVERIFY(cases[0].toObject()["median"].toDouble() > 0);
    QVERIFY(cases[0].toObject()["peak_bytes"].toDouble() > 0);
  }

  void benchWithTheOdeLimit() {
    Result r = gradlab(
        {"bench", "--quick", "--only", "ode/vectorized/parallel", "--runs", "1", "--threads", "2"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QRegularExpression(
                 R"(\node/vectorized/parallel +.*x ode/limit_step_major_ftz, [\d.]+x )"
                 R"(ode/limit_fused_ftz(, [\d.]+x torch/\S+)*\n)")),
             qPrintable(r.out));
    QVERIFY(r.out.contains("\node/limit_fused "));
    QVERIFY(r.out.contains("\node/limit_step_major_ftz "));
  }

  // --set sizes the lessons that have the param, after --quick's sizes; a name no lesson has is
  // an error. The jacobian's output is [steps, steps]: its peak grows about fourfold from 40 to
  // 80 (3.5x: some of it does not grow).
  void benchSetsTheParamOfTheLessonsThatHaveIt() {
    auto peakAt = [&](int steps) {
      const QString json = dir_.filePath(QString("set%1.json").arg(steps));
      Result r = gradlab({"bench", "--quick", "--only", "per_step/jacobian/serial", "--runs", "1",
                          "--set", QString("steps=%1").arg(steps), "--json", json});
      if (r.code != 0) qWarning("%s", qPrintable(r.err));
      const QString note = QString("note: param set: steps = %1 (in the lessons that have it)");
      if (!r.out.contains(note.arg(steps))) qWarning("%s", qPrintable(r.out));
      QFile file(json);
      if (!file.open(QIODevice::ReadOnly)) return 0.0;
      const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
      return o["cases"].toArray()[0].toObject()["peak_bytes"].toDouble();
    };
    const double at40 = peakAt(40), at80 = peakAt(80);
    QVERIFY2(at40 > 4 * 40 * 40 && at80 > 3 * at40,
             qPrintable(QString("%1 -> %2 bytes").arg(at40).arg(at80)));
    Result r = gradlab({"bench", "--quick", "--set", "stepz=3"});
    QCOMPARE(r.code, 2);
    QCOMPARE(firstLine(r),
             QString("gradlab bench: --set stepz: no lesson has a param named 'stepz'"));
  }

  void benchUsageErrors() {
    Result r = gradlab({"bench", "--quick", "--only", "no_such_case"});
    QCOMPARE(r.code, 2);
    QCOMPARE(firstLine(r), QString("gradlab bench: --only 'no_such_case' matches no case"));
    QVERIFY(r.err.contains("cases: ode/serial/serial "));
    QVERIFY(r.err.contains(" heads/fix_vectorized/parallel "));
    QVERIFY(r.out.isEmpty());
    r = gradlab({"bench", "--runs", "0"});
    QCOMPARE(r.code, 2);
    QCOMPARE(firstLine(r),
             QString("gradlab bench: --runs expects an integer from 1 to 1000, got '0'"));
    r = gradlab({"bench", "--threads", "257"});
    QCOMPARE(r.code, 2);
    QCOMPARE(firstLine(r),
             QString("gradlab bench: --threads expects an integer from 1 to 256, got '257'"));
  }

  void theWindowCommandStillNeedsADisplay() {
    for (const QStringList& args :
         {QStringList{}, QStringList{"window"}, QStringList{"ode_while_loop", "--run"},
          QStringList{lesson("ode_while_loop.gls"), "--set", "steps=3", "--step", "2"}}) {
      Result r = gradlabWithoutDisplay(args);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.startsWith("gradlab: no display."), qPrintable(r.err));
    }
  }

  void printAtTraceTimeAndRunTime() {
    const QString f =
        write("print.gls",
              "x = tf.constant(1.0)\n"
              "def body(i, x):\n"
              "    print('tracing body')\n"
              "    tf.print('step', i)\n"
              "    return i + 1, x * 2.0\n"
              "_, y = tf.while_loop(lambda i, x: i < 3, body, [tf.constant(0), x])\n");
    Result r = gradlab({"run", f});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.count("print: tracing body"), 1);
    QCOMPARE(r.out.count("tf.print: step"), 3);
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
