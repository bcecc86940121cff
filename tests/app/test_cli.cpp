// `gradlab run` and `gradlab check` driven as a user would: exit codes, output, JSON, errors.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

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

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
