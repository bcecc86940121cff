// The side panels offscreen: the params panel (one slider and spin box per param, debounced
// changes, user values kept across re-parses), the run log (kinds of lines, clickable
// locations) and the lesson browser (titles from files, recent files, activation).
#include <QAbstractButton>
#include "test_main.h"

#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextBlock>

#include "ui/panels/lesson_browser.h"
#include "ui/panels/params_panel.h"
#include "ui/panels/run_log.h"

using gl::ui::LessonBrowser;
using gl::ui::ParamsPanel;
using gl::ui::RunLog;

namespace {

gl::lang::Param param(const char* name, bool isInt, double value, double lo, double hi) {
  gl::lang::Param p;
  p.name = name;
  p.isInt = isInt;
  p.value = p.seedValue = value;
  p.lo = lo;
  p.hi = hi;
  return p;
}

QVector<gl::lang::Param> threeParams(double stepsDefault = 20000) {
  return {param("steps", true, stepsDefault, 1, 100000), param("lr", false, 0.5, 0.001, 1.0),
          param("heads", true, 3, 0, 10)};
}

void writeFile(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

}  // namespace

class TestPanels : public QObject {
  Q_OBJECT

 private slots:
  // ---- Params panel ----
  void buildsOneSliderAndSpinBoxPerParam() {
    ParamsPanel panel;
    panel.setParams(threeParams());
    auto* steps = qobject_cast<QSpinBox*>(panel.spinBoxFor("steps"));
    QVERIFY(steps);
    QCOMPARE(steps->minimum(), 1);
    QCOMPARE(steps->maximum(), 100000);
    QCOMPARE(steps->value(), 20000);
    auto* lr = qobject_cast<QDoubleSpinBox*>(panel.spinBoxFor("lr"));
    QVERIFY(lr);
    QCOMPARE(lr->minimum(), 0.001);
    QCOMPARE(lr->maximum(), 1.0);
    QCOMPARE(lr->value(), 0.5);
    QSlider* heads = panel.sliderFor("heads");
    QVERIFY(heads);
    QCOMPARE(heads->minimum(), 0);  // a small int range maps one to one
    QCOMPARE(heads->maximum(), 10);
    QCOMPARE(heads->value(), 3);
    QVERIFY(panel.sliderFor("steps") && panel.sliderFor("lr"));
    QVERIFY(!panel.sliderFor("nope"));
    QCOMPARE(panel.findChildren<QSlider*>().size(), 3);
    const QMap<QString, double> values = panel.values();
    QCOMPARE(values.size(), 3);
    QCOMPARE(values["steps"], 20000.0);
    QCOMPARE(values["lr"], 0.5);
  }

  void spinBoxChangeEmitsOnceAfterTheDebounce() {
    ParamsPanel panel;
    panel.setParams(threeParams());
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    auto* steps = qobject_cast<QSpinBox*>(panel.spinBoxFor("steps"));
    steps->setValue(100);
    steps->setValue(200);
    steps->setValue(300);
    QCOMPARE(changed.count(), 0);
    QTRY_COMPARE(changed.count(), 1);
    QVERIFY(!changed.wait(400));  // once: nothing more in the next debounce interval
    QCOMPARE(changed.count(), 1);
    QCOMPARE(panel.values()["steps"], 300.0);
    QCOMPARE(panel.sliderFor("steps")->value() > 0, true);
  }

  void typingIntoTheSpinBoxWorks() {
    ParamsPanel panel;
    panel.setDebounceInterval(30);
    panel.setParams(threeParams());
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    auto* heads = qobject_cast<QSpinBox*>(panel.spinBoxFor("heads"));
    heads->selectAll();
    QTest::keyClicks(heads, "7");
    QTRY_COMPARE(changed.count(), 1);
    QCOMPARE(panel.values()["heads"], 7.0);
    QCOMPARE(panel.sliderFor("heads")->value(), 7);
  }

  void sliderMovesTheSpinBox() {
    ParamsPanel panel;
    panel.setDebounceInterval(30);
    panel.setParams(threeParams());
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    QSlider* lr = panel.sliderFor("lr");
    lr->setValue(lr->maximum());
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(panel.spinBoxFor("lr"))->value(), 1.0);
    QCOMPARE(panel.values()["lr"], 1.0);
    lr->setValue(lr->minimum());
    QCOMPARE(panel.values()["lr"], 0.001);
    QTRY_COMPARE(changed.count(), 1);
  }

  void setParamsKeepsUserValues() {
    ParamsPanel panel;
    panel.setParams(threeParams());
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    qobject_cast<QSpinBox*>(panel.spinBoxFor("steps"))->setValue(5000);
    // The script is edited: steps' default changes, lr's default too, a param is added.
    QVector<gl::lang::Param> edited = threeParams(777);
    edited[1].value = edited[1].seedValue = 0.25;
    edited.push_back(param("batch", true, 5, 1, 64));
    panel.setParams(edited);
    QCOMPARE(panel.values()["steps"], 5000.0);  // the user's value wins
    QCOMPARE(panel.values()["lr"], 0.25);       // untouched: follows the script
    QCOMPARE(panel.values()["batch"], 5.0);
    QCOMPARE(panel.userChangedNames(), QStringList{"steps"});
    // The param disappears and comes back: the user's value comes back with it.
    panel.setParams({param("lr", false, 0.25, 0.001, 1.0)});
    QCOMPARE(panel.values().size(), 1);
    panel.setParams(threeParams());
    QCOMPARE(panel.values()["steps"], 5000.0);
    // A narrower range clamps the user's value.
    panel.setParams({param("steps", true, 10, 1, 1000)});
    QCOMPARE(panel.values()["steps"], 1000.0);
    QTRY_COMPARE(changed.count(), 1);
    QVERIFY(!changed.wait(400));
    QCOMPARE(changed.count(), 1);  // only the user's change; setParams is silent
  }

  void resetReturnsToScriptValues() {
    ParamsPanel panel;
    panel.setDebounceInterval(30);
    panel.setParams(threeParams());
    qobject_cast<QSpinBox*>(panel.spinBoxFor("heads"))->setValue(9);
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    panel.resetToScriptValues();
    QCOMPARE(panel.values()["heads"], 3.0);
    QVERIFY(panel.userChangedNames().isEmpty());
    QTRY_COMPARE(changed.count(), 1);
  }

  // `class N` values: shown by default (the window opens lessons for a first look), the
  // switch shows the seed's, and switching forgets what the user set.
  void presetSwitchShowsClassroomOrSeedValues() {
    QVector<gl::lang::Param> params = threeParams();
    params[0].classroom = 200;
    ParamsPanel panel;
    panel.show();
    panel.setParams(params);
    QAbstractButton* classroom = panel.presetButton(gl::lang::ParamPreset::Classroom);
    QAbstractButton* seed = panel.presetButton(gl::lang::ParamPreset::Seed);
    QVERIFY(classroom->isVisible());
    QVERIFY(classroom->isChecked());
    QCOMPARE(panel.values()["steps"], 200.0);
    QCOMPARE(panel.values()["lr"], 0.5);  // no `class`: the same under both
    qobject_cast<QSpinBox*>(panel.spinBoxFor("heads"))->setValue(9);
    QSignalSpy switched(&panel, &ParamsPanel::presetChanged);
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    seed->click();
    QCOMPARE(switched.count(), 1);
    QCOMPARE(switched[0][0].value<gl::lang::ParamPreset>(), gl::lang::ParamPreset::Seed);
    QCOMPARE(panel.preset(), gl::lang::ParamPreset::Seed);
    QCOMPARE(panel.values()["steps"], 20000.0);
    QCOMPARE(panel.values()["heads"], 3.0);
    QVERIFY(panel.userValues().isEmpty());
    QVERIFY(!changed.wait(400));  // the debounced edit was dropped with the user's values
    seed->click();                // already there: nothing
    QCOMPARE(switched.count(), 1);
    // A script without any `class` has no switch.
    panel.setParams(threeParams());
    QVERIFY(!classroom->isVisible());
    panel.startOver(gl::lang::ParamPreset::Classroom);
    QCOMPARE(panel.preset(), gl::lang::ParamPreset::Classroom);
    QVERIFY(panel.values().isEmpty());
  }

  // A value set from outside (`gradlab --set steps=7`) or by hand is neither preset's: no
  // button pressed; pressing the preset again goes back to its values.
  void presetSwitchShowsNeitherForCustomValues() {
    QVector<gl::lang::Param> params = threeParams();
    params[0].classroom = 200;
    ParamsPanel panel;
    panel.show();
    panel.setParams(params);
    QAbstractButton* classroom = panel.presetButton(gl::lang::ParamPreset::Classroom);
    QAbstractButton* seed = panel.presetButton(gl::lang::ParamPreset::Seed);
    panel.setUserValues({{"steps", 200.0}});  // the classroom's own value: still Classroom
    QVERIFY(classroom->isChecked());
    panel.setUserValues({{"steps", 7.0}});  // what app/gui.cpp does with --set
    QCOMPARE(panel.values()["steps"], 7.0);
    QVERIFY(!classroom->isChecked());
    QVERIFY(!seed->isChecked());
    QCOMPARE(panel.preset(), gl::lang::ParamPreset::Classroom);  // still the sizes underneath
    QSignalSpy switched(&panel, &ParamsPanel::presetChanged);
    QSignalSpy changed(&panel, &ParamsPanel::paramsChanged);
    classroom->click();  // back to the classroom values, re-traced without the override
    QCOMPARE(switched.count(), 0);
    QVERIFY(classroom->isChecked());
    QVERIFY(!seed->isChecked());
    QCOMPARE(panel.values()["steps"], 200.0);
    QVERIFY(panel.userValues().isEmpty());
    QVERIFY(changed.wait(2000));
    // An edit by hand in the dock does the same.
    qobject_cast<QSpinBox*>(panel.spinBoxFor("heads"))->setValue(9);
    QVERIFY(!classroom->isChecked());
    QVERIFY(!seed->isChecked());
    seed->click();  // another preset forgets the edit and is pressed
    QVERIFY(seed->isChecked());
    QVERIFY(!classroom->isChecked());
    QCOMPARE(panel.values()["heads"], 3.0);
  }

  void noParamsShowsNoRows() {
    ParamsPanel panel;
    panel.setParams(threeParams());
    panel.setParams({});
    QVERIFY(panel.values().isEmpty());
    QCOMPARE(panel.findChildren<QSlider*>().size(), 0);
  }

  // ---- Run log ----
  void runLogAppendsLines() {
    RunLog log;
    log.appendInfo("Tracing...");
    log.appendPrint("[1 2 3]");
    log.appendError("unknown name 'xs'", "lesson.gls:21:28");
    log.appendError("shape mismatch", "a.gls", 3, 4);
    log.appendError("no location");
    QCOMPARE(log.blockCount(), 5);
    QCOMPARE(log.document()->findBlockByNumber(2).text(),
             QString("lesson.gls:21:28: unknown name 'xs'"));
    QCOMPARE(log.document()->findBlockByNumber(3).text(), QString("a.gls:3:4: shape mismatch"));
    QVERIFY(log.isReadOnly());
    log.clear();
    QCOMPARE(log.toPlainText(), QString());
  }

  void engineErrorPrefixBecomesALink() {
    RunLog log;
    log.appendError("lesson.gls:4:2: shape mismatch: [3] vs [4]");
    log.appendError("no location: here");
    const QTextBlock first = log.document()->firstBlock();
    QCOMPARE(first.text(), QString("lesson.gls:4:2: shape mismatch: [3] vs [4]"));
    const QTextFragment link = first.begin().fragment();
    QVERIFY(link.charFormat().isAnchor());
    QCOMPARE(link.charFormat().anchorHref(), QString("lesson.gls:4:2"));
    QVERIFY(!log.document()->lastBlock().begin().fragment().charFormat().isAnchor());
  }

  void runLogKeepsAtMostMaxLines() {
    RunLog log;
    log.setMaximumBlockCount(5);
    for (int i = 0; i < 12; ++i) log.appendPrint(QString::number(i));
    QCOMPARE(log.blockCount(), 5);
    QCOMPARE(log.document()->lastBlock().text(), QString("11"));
  }

  void parseLocation_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("col");
    QTest::newRow("file") << "lesson.gls:21:28" << true << "lesson.gls" << 21 << 28;
    QTest::newRow("no file") << "3:5" << true << "" << 3 << 5;
    QTest::newRow("colon in path") << "C:/x/a.gls:12:1" << true << "C:/x/a.gls" << 12 << 1;
    QTest::newRow("text") << "nope" << false << "" << 0 << 0;
    QTest::newRow("bad line") << "a.gls:x:1" << false << "" << 0 << 0;
    QTest::newRow("line zero") << "a.gls:0:1" << false << "" << 0 << 0;
  }
  void parseLocation() {
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const auto loc = RunLog::parseLocation(text);
    QCOMPARE(loc.has_value(), valid);
    if (!valid) return;
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, col);
    QCOMPARE(loc->file, file);
    QCOMPARE(loc->line, line);
    QCOMPARE(loc->col, col);
    QCOMPARE(RunLog::formatLocation(loc->file, loc->line, loc->col), text);
  }

  void clickingALocationEmitsIt() {
    RunLog log;
    log.resize(500, 200);
    log.appendInfo("Tracing...");
    log.appendError("unknown name 'xs'", "lesson.gls:21:28");
    log.show();
    QVERIFY(QTest::qWaitForWindowExposed(&log));
    QSignalSpy activated(&log, &RunLog::locationActivated);
    QSignalSpy inFile(&log, &RunLog::fileLocationActivated);

    QTextCursor onLink(log.document()->findBlockByNumber(1));
    onLink.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 3);
    const QPoint linkPoint = log.cursorRect(onLink).center();
    QTest::mouseClick(log.viewport(), Qt::LeftButton, {}, linkPoint);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 21);
    QCOMPARE(activated.at(0).at(1).toInt(), 28);
    QCOMPARE(inFile.at(0).at(0).toString(), QString("lesson.gls"));

    // The message text after the link is not a link.
    QTextCursor onMessage(log.document()->findBlockByNumber(1));
    onMessage.movePosition(QTextCursor::EndOfBlock);
    onMessage.movePosition(QTextCursor::Left, QTextCursor::MoveAnchor, 3);
    QTest::mouseClick(log.viewport(), Qt::LeftButton, {}, log.cursorRect(onMessage).center());
    QCOMPARE(activated.count(), 1);
  }

  // ---- Lesson browser ----
  void lessonTitleIsTheFirstCommentLine() {
    QTemporaryDir dir;
    writeFile(dir.filePath("a.gls"), "# Alpha lesson\n# more\nx = 1\n");
    writeFile(dir.filePath("b.gls"), "\n#\n##   Beta  \n");
    writeFile(dir.filePath("c.gls"), "x = 1\n# not a title\n");
    QCOMPARE(LessonBrowser::lessonTitle(dir.filePath("a.gls")), QString("Alpha lesson"));
    QCOMPARE(LessonBrowser::lessonTitle(dir.filePath("b.gls")), QString("Beta"));
    QCOMPARE(LessonBrowser::lessonTitle(dir.filePath("c.gls")), QString("c"));
    QCOMPARE(LessonBrowser::lessonTitle(dir.filePath("missing.gls")), QString("missing"));
  }

  void listsTheLessonsOfADirectory() {
    QTemporaryDir dir;
    writeFile(dir.filePath("seed-b.gls"), "# Per-step gradients\n");
    writeFile(dir.filePath("seed-a.gls"), "# Euler ODE\n");
    writeFile(dir.filePath("notes.txt"), "# not a lesson\n");
    LessonBrowser browser;
    browser.setSettingsFile(dir.filePath("settings.ini"));
    browser.setLessonDirectory(dir.path());
    QTreeWidgetItem* lessons = browser.builtInItem();
    QCOMPARE(lessons->childCount(), 2);
    QCOMPARE(lessons->child(0)->text(0), QString("Euler ODE"));  // ordered by file name
    QCOMPARE(lessons->child(1)->text(0), QString("Per-step gradients"));
    QCOMPARE(lessons->child(0)->data(0, LessonBrowser::kPathRole).toString(),
             dir.filePath("seed-a.gls"));
  }

  void activatingALessonEmitsItsPath() {
    QTemporaryDir dir;
    writeFile(dir.filePath("seed-a.gls"), "# Euler ODE\n");
    writeFile(dir.filePath("seed-b.gls"), "# Per-step gradients\n");
    LessonBrowser browser;
    browser.setSettingsFile(dir.filePath("settings.ini"));
    browser.setLessonDirectory(dir.path());
    browser.resize(300, 300);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    QSignalSpy activated(&browser, &LessonBrowser::lessonActivated);

    QTreeWidgetItem* second = browser.builtInItem()->child(1);
    const QPoint centre = browser.visualItemRect(second).center();
    QVERIFY(browser.viewport()->rect().contains(centre));
    // Item views want the press of a double click's first click before the double click.
    QTest::mouseClick(browser.viewport(), Qt::LeftButton, {}, centre);
    QTest::mouseDClick(browser.viewport(), Qt::LeftButton, {}, centre);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toString(), dir.filePath("seed-b.gls"));

    browser.setCurrentItem(browser.builtInItem()->child(0));
    QTest::keyClick(browser.viewport(), Qt::Key_Return);
    QCOMPARE(activated.count(), 2);
    QCOMPARE(activated.at(1).at(0).toString(), dir.filePath("seed-a.gls"));

    // The group headings are not lessons.
    browser.setCurrentItem(browser.builtInItem());
    QTest::keyClick(browser.viewport(), Qt::Key_Return);
    QCOMPARE(activated.count(), 2);
  }

  void recentFilesAreKeptNewestFirstAtMostTen() {
    QTemporaryDir dir;
    LessonBrowser browser;
    browser.setSettingsFile(dir.filePath("settings.ini"));
    QStringList paths;
    for (int i = 0; i < 12; ++i) {
      paths << dir.filePath(QString("f%1.gls").arg(i));
      writeFile(paths.back(), QString("# File %1\n").arg(i).toUtf8());
      browser.addRecentFile(paths.back());
    }
    QStringList recent = browser.recentFiles();
    QCOMPARE(recent.size(), LessonBrowser::kMaxRecentFiles);
    QCOMPARE(QFileInfo(recent.first()).fileName(), QString("f11.gls"));
    QCOMPARE(browser.recentItem()->childCount(), 10);
    // Listed by file name (the user's own files), the first comment line in the tooltip.
    QCOMPARE(browser.recentItem()->child(0)->text(0), QString("f11.gls"));
    QVERIFY(browser.recentItem()->child(0)->toolTip(0).startsWith("File 11\n"));
    QVERIFY(browser.recentItem()->child(0)->toolTip(0).endsWith("f11.gls"));

    browser.addRecentFile(paths[5]);  // reopened: moves to the top, no duplicate
    recent = browser.recentFiles();
    QCOMPARE(QFileInfo(recent.first()).fileName(), QString("f5.gls"));
    QCOMPARE(recent.size(), 10);
    QCOMPARE(recent.count(recent.first()), 1);

    // Another browser on the same settings sees the same list (it is persisted).
    LessonBrowser other;
    other.setSettingsFile(dir.filePath("settings.ini"));
    QCOMPARE(other.recentFiles(), recent);

    browser.removeRecentFile(recent.first());
    QCOMPARE(browser.recentFiles().size(), 9);
    browser.clearRecentFiles();
    QVERIFY(browser.recentFiles().isEmpty());
    QCOMPARE(browser.recentItem()->childCount(), 0);
  }
};

GRADLAB_TEST_MAIN(TestPanels)
#include "test_panels.moc"
