// The handout PDF (File > Export Handout, `gradlab export --format handout`): one A4 document
// per lesson whose sections (script, graph, plots, agreement, why-None) each start a page,
// checked with poppler's pdfinfo/pdftotext when installed (page count parsed from the file
// otherwise).
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "test_main.h"

#include "engine/lab/session.h"
#include "engine/lang/program.h"
#include "support/isolated_settings.h"
#include "ui/about.h"
#include "ui/export/handout.h"
#include "ui/panels/lesson_browser.h"
#include "ui/window/translations.h"

using namespace gl;
using namespace gl::ui;

namespace {

QString readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// pdfinfo's "Pages:", or the page objects counted in the file (/Type /Page, not /Pages).
int pageCount(const QString& pdf) {
  if (!QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty()) {
    QProcess p;
    p.start(QStringLiteral("pdfinfo"), {pdf});
    if (p.waitForFinished(30000)) {
      const QRegularExpressionMatch m =
          QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(p.readAllStandardOutput());
      if (m.hasMatch()) return m.captured(1).toInt();
    }
  }
  QFile f(pdf);
  if (!f.open(QIODevice::ReadOnly)) return 0;
  return int(QString::fromLatin1(f.readAll())
                 .count(QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)"))));
}

QString pdfText(const QString& pdf) {
  QProcess p;
  p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
  if (!p.waitForFinished(60000)) return QString();
  return QString::fromUtf8(p.readAllStandardOutput());
}

struct Lesson {
  std::string source;
  lang::TracedProgram program;
  lab::ProgramRun run;
};

Lesson runLesson(const QString& resource) {
  Lesson l;
  l.source = readAll(resource).toStdString();
  lang::TraceOptions opt;
  opt.preset = lang::ParamPreset::Classroom;
  l.program = lang::traceProgram(l.source, QFileInfo(resource).fileName().toStdString(), opt);
  l.run = lab::runProgram(l.program, {});
  return l;
}

}  // namespace

class TestHandout : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
    QVERIFY(!gl::test::isolatedHome().isEmpty());
  }
  void cleanup() { installLanguage(QStringLiteral("en")); }

  void handoutHasEverySection_data() {
    QTest::addColumn<QString>("lesson");
    QTest::newRow("gradient_none") << ":/lessons/gradient_none.gls";
    QTest::newRow("parallel_layers") << ":/lessons/parallel_layers.gls";
  }
  void handoutHasEverySection() {
    QFETCH(QString, lesson);
    const Lesson l = runLesson(lesson);
    QTemporaryDir dir;
    const QString pdf = dir.filePath("handout.pdf");
    const QString title = LessonBrowser::lessonTitle(lesson);
    const HandoutResult r =
        exportHandout(l.program, l.run, title, QString::fromStdString(l.source), pdf);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(QFile(pdf).size() > 5000);
    QCOMPARE(r.sections, 5);
    const int pages = pageCount(pdf);
    QCOMPARE(pages, r.pages);
    QVERIFY2(pages >= r.sections, qPrintable(QString::number(pages)));
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
      QSKIP("pdftotext is not installed: the handout's text is not checked");
    const QString text = pdfText(pdf);
    const QString firstLine = QString::fromStdString(l.source).section('\n', 0, 0).trimmed();
    QVERIFY2(text.contains(firstLine), qPrintable(firstLine));
    for (const char* section :
         {"Script", "Graph", "Plots", "Variant agreement", "Why gradients are None"})
      QVERIFY2(text.contains(QLatin1String(section)), section);
    // Each section starts a page: its heading is on a page of its own (pdftotext separates
    // pages with form feeds).
    const QStringList pageTexts = text.split(QLatin1Char('\f'));
    QVERIFY(pageTexts.size() >= r.sections);
    int headed = 0;
    for (const QString& page : pageTexts)
      for (const char* section : {"Graph", "Plots", "Variant agreement", "Why gradients are None"})
        headed += page.trimmed().startsWith(QLatin1String(section));
    QCOMPARE(headed, 4);
  }

  // The why-None section explains every None of gradient_none, in the window's language.
  void whyNoneSectionInChinese() {
    const Lesson l = runLesson(QStringLiteral(":/lessons/gradient_none.gls"));
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QTemporaryDir dir;
    const QString pdf = dir.filePath("zh.pdf");
    const HandoutResult r =
        exportHandout(l.program, l.run, LessonBrowser::lessonTitle(":/lessons/gradient_none.gls"),
                      QString::fromStdString(l.source), pdf);
    QVERIFY2(r.ok, qPrintable(r.error));
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
      QSKIP("pdftotext is not installed: the handout's text is not checked");
    const QString text = pdfText(pdf);
    QVERIFY2(text.contains(QStringLiteral("为什么梯度是 None")), qPrintable(text.left(400)));
    QVERIFY2(text.contains(QStringLiteral("脚本")), qPrintable(text.left(400)));
    QVERIFY2(text.contains(QStringLiteral("断开")), qPrintable(text.right(2000)));
  }

  void unwritablePathIsAnError() {
    const Lesson l = runLesson(QStringLiteral(":/lessons/gradient_none.gls"));
    const HandoutResult r =
        exportHandout(l.program, l.run, "t", "x = 1", "/nonexistent-dir/sub/handout.pdf");
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains("/nonexistent-dir/sub/handout.pdf"), qPrintable(r.error));
  }
};

GRADLAB_TEST_MAIN(TestHandout)
#include "test_handout.moc"
