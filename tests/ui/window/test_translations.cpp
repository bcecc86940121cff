// The Simplified Chinese translation: compiled into gradlab_ui as :/i18n/gradlab_zh_CN.qm,
// installed by installLanguage(), shown by a freshly built window, and complete in its .ts.
#include <QComboBox>
#include <QFile>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include "test_main.h"

#include "engine/lab/report.h"
#include "engine/lang/program.h"
#include "support/isolated_settings.h"
#include "ui/about.h"
#include "ui/document/script_document.h"
#include "ui/editor/templates.h"
#include "ui/i18n/diagnostic_text.h"
#include "ui/panels/lesson_browser.h"
#include "ui/plots/plots_panel.h"
#include "ui/run/run_options.h"
#include "ui/step/step_controls.h"
#include "ui/window/main_window.h"
#include "ui/window/settings_dialog.h"
#include "ui/window/sweep_dialog.h"
#include "ui/window/translations.h"

using namespace gl::ui;

namespace {

const char* const kTsPath = GRADLAB_SOURCE_DIR "/resources/translations/gradlab_zh_CN.ts";

QString translate(const QMetaObject& mo, const char* source) {
  return QCoreApplication::translate(mo.className(), source);
}

QStringList menuTitles(MainWindow& w) {
  QStringList out;
  for (QAction* a : w.menuBar()->actions()) out << a->text();
  return out;
}

QStringList toolTips(QWidget* w) {
  QStringList out;
  for (QWidget* child : w->findChildren<QWidget*>()) out << child->toolTip();
  return out;
}

QStringList tabTexts(QTabWidget* tabs) {
  QStringList out;
  for (int i = 0; i < tabs->count(); ++i) out << tabs->tabText(i);
  return out;
}

QStringList placeholders(const QString& s) {
  QStringList out;
  for (const QRegularExpressionMatch& m :
       QRegularExpression(QStringLiteral("%\\d+")).globalMatch(s))
    out << m.captured();
  out.sort();
  return out;
}

QStringList tags(const QString& s) {
  QStringList out;
  for (const QRegularExpressionMatch& m :
       QRegularExpression(QStringLiteral("</?[A-Za-z][A-Za-z0-9]*>")).globalMatch(s))
    out << m.captured();
  return out;
}

bool hasHan(const QString& s) {
  for (QChar c : s)
    if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
  return false;
}

// Three English words in a row: a sentence the translation left in English. (Identifiers such
// as tape.watch(x), op names and shapes are single words.)
QString englishLeft(const QString& s) {
  return QRegularExpression(QStringLiteral("[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}"))
      .match(s)
      .captured();
}

// Each kind of why-None explanation the tape gives, one gradient each.
const char* const kNoneScript = R"(x = tf.constant([1.0, 2.0])
w = tf.Variable(3.0)
v = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * w
    s = tf.stop_gradient(v) * 2.0
    k = tf.cast(w * 2.0, tf.int32)
    kf = tf.cast(k, tf.float32)
    with tape.stop_recording():
        r = v * 5.0
z = w * 4.0
g_unwatched = tape.gradient(y, x)
g_stop = tape.gradient(s, v)
g_int = tape.gradient(kf, w)
g_after = tape.gradient(z, w)
g_unrelated = tape.gradient(y, v)
g_stopped = tape.gradient(r, v)
)";

// A translator that turns the diagnostics' templates on but translates nothing: the rendered
// English templates must then say exactly what the engine's sentence says.
class TemplatesOnly : public QTranslator {
 public:
  QString translate(const char* context, const char* source, const char* = nullptr,
                    int = -1) const override {
    return QByteArray(context) == "gl::ui::Diagnostic" && QByteArray(source) == "en"
               ? QStringLiteral("templates")
               : QString();
  }
  bool isEmpty() const override { return false; }
};

std::string readLesson(const char* name) {
  QFile f(QStringLiteral(GRADLAB_SOURCE_DIR "/resources/lessons/") + QLatin1String(name));
  return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

// "&File" has an accelerator; "&&" is a literal ampersand.
bool hasAccelerator(QString s) { return s.remove(QStringLiteral("&&")).contains(QLatin1Char('&')); }

}  // namespace

class TestTranslations : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("GradLabTest");
    QCoreApplication::setApplicationName("GradLabTest");
    initResources();
  }

  // Settings (window state, recent files, the language) go to this process's temporary folder.
  void settingsStayInATemporaryFolder() {
    QVERIFY(!gl::test::isolatedHome().isEmpty());
    QVERIFY2(QSettings().fileName().startsWith(gl::test::isolatedHome() + "/"),
             qPrintable(QSettings().fileName()));
  }

  void cleanup() { installLanguage(QStringLiteral("en")); }

  void qmIsCompiledIn() {
    QFile qm(QStringLiteral(":/i18n/gradlab_zh_CN.qm"));
    QVERIFY2(qm.exists(), "the .qm is not in the resources linked from gradlab_ui");
    QVERIFY(qm.open(QIODevice::ReadOnly));
    QVERIFY(qm.size() > 1000);
  }

  void installsChinese() {
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QCOMPARE(translate(MainWindow::staticMetaObject, "&File"), QStringLiteral("文件(&F)"));
    QCOMPARE(MainWindow::tr("&Run"), QStringLiteral("运行(&R)"));
    // The executor's name is its label in the toolbar's run options.
    QCOMPARE(
        MainWindow::tr("Running on the %1 executor…").arg(executorLabel(gl::ExecutorKind::Serial)),
        QStringLiteral("正在串行执行器上运行…"));
    QCOMPARE(translate(StepControls::staticMetaObject, "Loop to step through"),
             QStringLiteral("要单步执行的循环"));
    QCOMPARE(translate(StepControls::staticMetaObject,
                       "Forward pass: loop-carried values; backward pass: their adjoints"),
             QStringLiteral("前向传播：循环携带的值；反向传播：它们的伴随值"));
    QCOMPARE(translate(PlotsPanel::staticMetaObject, "Gradients"), QStringLiteral("梯度"));
    QCOMPARE(translate(PlotsPanel::staticMetaObject, "Timeline"), QStringLiteral("时间线"));
    QCOMPARE(QObject::tr("%1 does not exist").arg("a.gls"), QStringLiteral("a.gls 不存在"));
    // Strings that moved out of MainWindow keep their translations in their new classes.
    QCOMPARE(translate(SettingsDialog::staticMetaObject, "Palette"), QStringLiteral("配色"));
    QCOMPARE(translate(SweepDialog::staticMetaObject, "give at least one value"),
             QStringLiteral("请至少给出一个值"));
    QCOMPARE(translate(ScriptDocument::staticMetaObject, "untitled.gls"),
             QStringLiteral("未命名.gls"));
    // Placeholders survive translation.
    QCOMPARE(MainWindow::tr("Exported %1 files to %2").arg(3).arg("/tmp/x"),
             QStringLiteral("已将 3 个文件导出到 /tmp/x"));
    // The editor's templates (context ScriptTemplates), including the new lesson's title.
    bool found = false;
    for (const ScriptTemplate& t : scriptTemplates())
      found |= t.title == QStringLiteral("GradientTape 代码块");
    QVERIFY(found);
    QVERIFY(newLessonTemplate().text.contains(QStringLiteral("${课程标题}")));
    QVERIFY(newLessonTemplate().text.contains(QStringLiteral("用两种方法计算")));
  }

  void windowShowsChinese() {
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    MainWindow w;
    const QStringList menus = menuTitles(w);
    QCOMPARE(menus,
             (QStringList{"文件(&F)", "编辑(&E)", "插入(&I)", "运行(&R)", "视图(&V)", "帮助(&H)"}));
    QCOMPARE(w.executorBox()->itemText(0), QStringLiteral("串行"));
    QCOMPARE(w.runOptions()->executorLabel(), QStringLiteral("串行"));
    QVERIFY2(toolTips(w.stepControls()).contains(QStringLiteral("要单步执行的循环")),
             qPrintable(toolTips(w.stepControls()).join('|')));
    QTabWidget* tabs = w.plots()->findChild<QTabWidget*>();
    QVERIFY(tabs);
    QVERIFY2(tabTexts(tabs).contains(QStringLiteral("梯度")), qPrintable(tabTexts(tabs).join('|')));
    QVERIFY2(tabTexts(tabs).contains(QStringLiteral("时间线")),
             qPrintable(tabTexts(tabs).join('|')));
  }

  // The engine's why-None explanations, rendered from their codes: Chinese, no English sentence
  // left, and each names the script's variable.
  void whyNoneRendersInChinese() {
    const gl::lang::TracedProgram p = gl::lang::traceProgram(kNoneScript, "none.gls", {});
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QStringList seen;
    for (const gl::lang::Variant& v : p.variants)
      for (const gl::lang::Output& o : v.outputs)
        for (const gl::lang::OutputEntry& e : o.entries) {
          if (e.value.valid()) continue;
          const gl::GradDiagnostic why{e.whyNone, e.whyNode, e.whyLoc};
          QVERIFY2(gl::diagnosticOf(e.whyNone).known(), e.whyNone.c_str());
          const QString zh = whyNoneText(why);
          QVERIFY2(hasHan(zh), qPrintable(zh));
          QVERIFY2(englishLeft(zh).isEmpty(), qPrintable(englishLeft(zh) + " in " + zh));
          seen << QString::fromStdString(o.name) + ": " + zh;
        }
    QCOMPARE(seen.size(), 6);
    const QString all = seen.join('\n');
    QVERIFY2(all.contains(QStringLiteral("从未被监视")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("tf.stop_gradient")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("tape.watch(x)")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("int32")), qPrintable(all));
    // English stays the engine's own text.
    installLanguage(QStringLiteral("en"));
    for (const gl::lang::Output& o : p.variants[0].outputs)
      if (!o.entries[0].value.valid()) {
        const gl::GradDiagnostic why{o.entries[0].whyNone, -1, {}};
        QCOMPARE(whyNoneText(why), QString::fromStdString(o.entries[0].whyNone));
      }
  }

  // The errors users hit most: Chinese after the engine's "file:line:col: " location.
  void errorsRenderInChinese_data() {
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("chinese");
    QTest::newRow("unknown name") << "y = undefined_nam + 1.0\n"
                                  << "未知的名称";
    QTest::newRow("suggestion") << "value = 1.0\ny = valu + 1.0\n"
                                << "你是想写 'value' 吗";
    QTest::newRow("broadcast") << "y = tf.ones([2, 3]) + tf.ones([4])\n"
                               << "无法广播";
    QTest::newRow("matmul") << "y = tf.matmul(tf.ones([2, 3]), tf.ones([4, 2]))\n"
                            << "内维不匹配";
    QTest::newRow("arity") << "y = tf.ones([2], tf.float32, 3, 4, 5)\n"
                           << "个位置参数";
    QTest::newRow("keyword") << "y = tf.ones([2], colour=1)\n"
                             << "意外的关键字参数";
    QTest::newRow("index") << "a = [1.0, 2.0]\ny = a[5]\n"
                           << "超出";
    QTest::newRow("never closed") << "y = (1.0 + 2.0\n"
                                  << "没有闭合";
    QTest::newRow("unexpected") << "y = 1.0 2.0\n"
                                << "意外的数字 '2.0'";
  }
  void errorsRenderInChinese() {
    QFETCH(QString, script);
    QFETCH(QString, chinese);
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    try {
      gl::lang::traceProgram(script.toStdString(), "bad.gls", {});
      QFAIL("the script traced");
    } catch (const gl::EngineError& e) {
      const QString zh = errorText(e);
      QVERIFY2(zh.contains(chinese), qPrintable(zh + " / " + e.what()));
      QVERIFY2(englishLeft(zh).isEmpty(), qPrintable(zh));
      QVERIFY2(zh.startsWith(QStringLiteral("bad.gls:%1:%2: ").arg(e.loc().line).arg(e.loc().col)),
               qPrintable(zh));
    }
  }

  // The run log's body: every entry of a run report (prints aside) in Chinese.
  void runReportRendersInChinese() {
    const char* script = R"(x = tf.constant([1.0, 2.0])
w = tf.Variable(3.0)
with variant("a"):
    with tf.GradientTape(persistent=True) as tape:
        y = x * w
    g = tape.gradient(y, w)
    n = tape.gradient(y, x)
with variant("b"):
    with tf.GradientTape(persistent=True) as tape:
        y = x * w * 1.0
    g = tape.gradient(y, w)
    n = tape.gradient(y, x)
)";
    const gl::lang::TracedProgram p = gl::lang::traceProgram(script, "run.gls", {});
    gl::lab::ProgramRun run = gl::lab::runProgram(p, {});
    run.variants.at(0).coldSeconds = 0.42;  // as the window's warm second run of it says
    run.variants.at(0).coldFreshBytes = size_t(112) << 20;
    bool timedAgain = false;
    for (const gl::lab::ReportEntry& e : gl::lab::buildReport(p, run, {}))
      if (e.diag.code == gl::DiagCode::ReportTimedAgainWarm) {
        timedAgain = true;
        QCOMPARE(e.text, std::string("timed again, warm: its first run took 0.42 s, 112 MiB of "
                                     "its memory new to the process"));
      }
    QVERIFY(timedAgain);
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    int entries = 0;
    for (const gl::lab::ReportEntry& e : gl::lab::buildReport(p, run, {})) {
      const QString zh = reportEntryText(e);
      QVERIFY2(hasHan(zh), qPrintable(zh));
      QVERIFY2(englishLeft(zh).isEmpty(), qPrintable(zh));
      ++entries;
    }
    QVERIFY2(entries >= 13, qPrintable(QString::number(entries)));
    QCOMPARE(executorDisplayName("parallel"), QStringLiteral("并行"));
    QCOMPARE(executorLabel(gl::ExecutorKind::Fused), QStringLiteral("融合"));
  }

  // Numerics, vectorized_map and fusion entries carry codes whose templates rebuild the
  // engine's sentence word for word (so a translation of them is all zh_CN needs).
  void numericsVectorizedAndFusionEntriesHaveCodes() {
    gl::lang::TraceOptions classroom;
    classroom.preset = gl::lang::ParamPreset::Classroom;
    const std::vector<gl::lang::TracedProgram> programs = [&] {
      std::vector<gl::lang::TracedProgram> v;
      v.push_back(gl::lang::traceProgram(
          "x = tf.constant([-1.0, 2.0])\ny = tf.math.log(x) * 2.0\nz = y + 1.0\n", "nan.gls", {}));
      v.push_back(gl::lang::traceProgram(
          "x = tf.ones([3, 70]) * 5.0\n"
          "with tf.GradientTape() as tape:\n"
          "    tape.watch(x)\n"
          "    y = tf.while_loop(lambda v: tf.reduce_sum(v) > 1.0, lambda v: v * 0.5 + 0.01 * v,"
          " [x])\n"
          "    loss = tf.reduce_sum(y[0])\n"
          "g = tape.gradient(loss, x)\n",
          "trip.gls", {}));
      v.push_back(gl::lang::traceProgram(readLesson("ode_while_loop.gls"), "ode.gls", classroom));
      v.push_back(
          gl::lang::traceProgram(readLesson("parallel_layers.gls"), "layers.gls", classroom));
      return v;
    }();
    TemplatesOnly templates;
    QCoreApplication::installTranslator(&templates);
    // Templates on (else the English sentence would be shown as is and this compared nothing).
    QCOMPARE(QCoreApplication::translate("gl::ui::Diagnostic", "en"), QStringLiteral("templates"));
    QSet<int> seen;
    for (const gl::lang::TracedProgram& p : programs) {
      gl::lab::RunRequest settings;
      settings.options.executor = gl::ExecutorKind::Fused;
      settings.options.records = false;
      const gl::lab::ProgramRun run = gl::lab::runProgram(p, settings);
      for (const gl::lab::ReportEntry& e : gl::lab::buildReport(p, run, settings)) {
        using K = gl::lab::ReportKind;
        if (e.kind != K::Numerics && e.kind != K::Vectorized && e.kind != K::Fallback &&
            e.kind != K::Fusion)
          continue;
        QVERIFY2(e.diag.known(), e.text.c_str());
        seen.insert(int(e.diag.code));
        QCOMPARE(reportEntryText(e), QString::fromStdString(e.text));
      }
    }
    {
      // Independent products on the parallel executor: the side-by-side entry.
      const gl::lang::TracedProgram p = gl::lang::traceProgram(
          "x = tf.random.normal([64, 128])\nw = tf.Variable(tf.random.normal([4, 128, 128]))\n"
          "y = tf.concat([tf.matmul(x, w[i]) for i in range(4)], axis=1)\n",
          "side.gls", {});
      gl::lab::RunRequest settings;
      settings.options.executor = gl::ExecutorKind::Parallel;
      settings.options.threads = 2;
      settings.options.records = false;
      const gl::lab::ProgramRun run = gl::lab::runProgram(p, settings);
      for (const gl::lab::ReportEntry& e : gl::lab::buildReport(p, run, settings)) {
        if (e.kind != gl::lab::ReportKind::Fusion) continue;
        QVERIFY2(e.diag.known(), e.text.c_str());
        seen.insert(int(e.diag.code));
        QCOMPARE(reportEntryText(e), QString::fromStdString(e.text));
      }
    }
    QCoreApplication::removeTranslator(&templates);
    using gl::DiagCode;
    for (DiagCode c : {DiagCode::ReportNumerics, DiagCode::ReportVectorized, DiagCode::ReportFused,
                       DiagCode::ReportLoopElementMajor, DiagCode::ReportLoopStepByStep,
                       DiagCode::ReportSideBySide})
      QVERIFY2(seen.contains(int(c)), qPrintable(QString::number(int(c))));
  }

  // Lesson titles: the header's Chinese line in Chinese, the first line in English.
  void lessonTitlesFollowTheLanguage() {
    const QString lesson = QStringLiteral(":/lessons/gradient_none.gls");
    QVERIFY(QFile::exists(lesson));
    QVERIFY(LessonBrowser::lessonTitle(lesson).startsWith(QStringLiteral("Why is the gradient")));
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QVERIFY2(LessonBrowser::lessonTitle(lesson).startsWith(QStringLiteral("为什么梯度是 None")),
             qPrintable(LessonBrowser::lessonTitle(lesson)));
  }

  void englishRestores() {
    QCOMPARE(installLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QCOMPARE(installLanguage(QStringLiteral("en")), QStringLiteral("en"));
    QCOMPARE(translate(MainWindow::staticMetaObject, "&File"), QStringLiteral("&File"));
    QCOMPARE(translate(StepControls::staticMetaObject, "Loop to step through"),
             QStringLiteral("Loop to step through"));
    MainWindow w;
    QCOMPARE(menuTitles(w), (QStringList{"&File", "&Edit", "&Insert", "&Run", "&View", "&Help"}));
    QVERIFY(toolTips(w.stepControls()).contains(QStringLiteral("Loop to step through")));
  }

  void unknownLanguageFallsBackToEnglish() {
    QCOMPARE(installLanguage(QStringLiteral("xx_YY")), QStringLiteral("en"));
    QCOMPARE(translate(MainWindow::staticMetaObject, "&File"), QStringLiteral("&File"));
  }

  // Every message of the .ts is translated: none unfinished or empty, and each keeps the
  // source's placeholders, HTML tags and (as "(&X)") its keyboard accelerator.
  void tsFileIsComplete() {
    QFile file(QString::fromUtf8(kTsPath));
    QVERIFY2(file.open(QIODevice::ReadOnly), kTsPath);
    QXmlStreamReader xml(&file);
    QString context, source, translation, type;
    int messages = 0;
    QStringList problems;
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement()) continue;
      const auto name = xml.name();
      if (name == QLatin1String("TS")) {
        QCOMPARE(xml.attributes().value(QLatin1String("language")).toString(),
                 QStringLiteral("zh_CN"));
      } else if (name == QLatin1String("name")) {
        context = xml.readElementText();
      } else if (name == QLatin1String("source")) {
        source = xml.readElementText();
      } else if (name == QLatin1String("translation")) {
        type = xml.attributes().value(QLatin1String("type")).toString();
        // Plural messages (%n) hold their text in <numerusform> children.
        translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        if (type == QLatin1String("vanished") || type == QLatin1String("obsolete")) continue;
        ++messages;
        const QString where = context + QStringLiteral(": ") + source;
        if (type == QLatin1String("unfinished")) problems << QStringLiteral("unfinished: ") + where;
        if (translation.isEmpty()) problems << QStringLiteral("empty: ") + where;
        if (placeholders(translation) != placeholders(source))
          problems << QStringLiteral("placeholders differ: ") + where;
        if (tags(translation) != tags(source))
          problems << QStringLiteral("HTML tags differ: ") + where;
        if (hasAccelerator(source)) {
          const QRegularExpressionMatch m =
              QRegularExpression(QStringLiteral("&(\\w)")).match(source);
          const QString accel = QStringLiteral("(&") + m.captured(1).toUpper() + QLatin1Char(')');
          if (!translation.contains(accel))
            problems << QStringLiteral("accelerator lost: ") + where;
        }
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY2(messages >= 200, qPrintable(QString::number(messages)));
    qInfo("%d messages, all translated", messages);
  }
};

GRADLAB_TEST_MAIN(TestTranslations)
#include "test_translations.moc"
