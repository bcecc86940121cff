// The open script: open, save and save-as asserted on the files written, dirty state
// following edits and undo, autosave copies written atomically into a temporary folder, and
// recovery offering the newest copy that still holds unsaved work.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include "test_main.h"

#include "ui/about.h"
#include "ui/document/script_document.h"
#include "ui/document/script_file.h"

using namespace gl::ui;

namespace {

// Replaces the whole text the way typing does: undoable, and marks the document modified.
void type(QTextDocument& doc, const QString& text) {
  QTextCursor c(&doc);
  c.select(QTextCursor::Document);
  c.insertText(text);
}

QString contents(const QString& path) {
  const LoadResult r = loadScript(path);
  return r.ok() ? r.text : QStringLiteral("<unreadable: %1>").arg(r.error);
}

// Moves a file's modification time `seconds` into the past; false if that failed.
bool age(const QString& path, int seconds) {
  QFile f(path);
  return f.open(QIODevice::ReadWrite) &&
         f.setFileTime(QDateTime::currentDateTime().addSecs(-seconds),
                       QFileDevice::FileModificationTime);
}

}  // namespace

class TestScriptDocument : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString write(const QString& name, const QString& text) {
    const QString path = dir_.filePath(name);
    if (!saveScript(path, text).isEmpty()) return QString();
    return path;
  }
  // A fresh autosave folder per test, so copies of one test never meet another's.
  QString folder() {
    static int n = 0;
    return dir_.filePath(QStringLiteral("autosave%1").arg(++n));
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QCoreApplication::setApplicationName("GradLabDocumentTest");
    initResources();
  }

  void openReadsTheFileAndIsClean() {
    const QString path = write("a.gls", "x = 1\n");
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QSignalSpy pathChanged(&doc, &ScriptDocument::pathChanged);
    QSignalSpy dirty(&doc, &ScriptDocument::dirtyChanged);
    QVERIFY(doc.isUntitled());
    QCOMPARE(doc.fileName(), QString("untitled.gls"));
    QVERIFY(doc.open(path));
    QCOMPARE(dirty.count(), 0);  // clean before, clean after: setting the text is no edit
    QCOMPARE(doc.path(), path);
    QCOMPARE(doc.fileName(), QString("a.gls"));
    QCOMPARE(doc.text(), QString("x = 1\n"));
    QCOMPARE(text.toPlainText(), QString("x = 1\n"));
    QVERIFY(!doc.isDirty());
    QVERIFY(!doc.needsSaveAs());
    QCOMPARE(pathChanged.count(), 1);
    QCOMPARE(pathChanged.at(0).at(0).toString(), path);
  }

  void editsMakeItDirtyAndUndoMakesItClean() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QVERIFY(doc.open(write("b.gls", "y = 2\n")));
    QSignalSpy dirty(&doc, &ScriptDocument::dirtyChanged);
    type(text, "y = 3\n");
    QVERIFY(doc.isDirty());
    QCOMPARE(dirty.count(), 1);
    QCOMPARE(dirty.at(0).at(0).toBool(), true);
    text.undo();
    QVERIFY(!doc.isDirty());
    QCOMPARE(dirty.count(), 2);
    QCOMPARE(dirty.at(1).at(0).toBool(), false);
    QCOMPARE(doc.text(), QString("y = 2\n"));
  }

  void failedOpenKeepsTheTextAndSaysWhy() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    const QString path = write("c.gls", "z = 1\n");
    QVERIFY(doc.open(path));
    type(text, "z = 2\n");
    QVERIFY(!doc.open(dir_.filePath("missing.gls")));
    QVERIFY2(doc.errorString().contains("does not exist"), qPrintable(doc.errorString()));
    QCOMPARE(doc.path(), path);
    QCOMPARE(doc.text(), QString("z = 2\n"));
    QVERIFY(doc.isDirty());
  }

  void saveWritesTheFileAndCleans() {
    const QString path = write("d.gls", "a = 1\n");
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QVERIFY(doc.open(path));
    type(text, "a = 2\n");
    QSignalSpy dirty(&doc, &ScriptDocument::dirtyChanged);
    QVERIFY(doc.save());
    QCOMPARE(contents(path), QString("a = 2\n"));
    QVERIFY(!doc.isDirty());
    QCOMPARE(dirty.count(), 1);
    QCOMPARE(dirty.at(0).at(0).toBool(), false);
    QCOMPARE(doc.errorString(), QString());
  }

  void untitledSavesAsAndTakesThePath() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    doc.reset("n = 1\n");
    QVERIFY(doc.isUntitled());
    QVERIFY(doc.needsSaveAs());
    QVERIFY(!doc.isDirty());
    type(text, "n = 2\n");
    QVERIFY(!doc.save());  // no file yet: the reason, not a silent no-op
    QVERIFY(!doc.errorString().isEmpty());
    QVERIFY(doc.isDirty());
    QSignalSpy pathChanged(&doc, &ScriptDocument::pathChanged);
    const QString path = dir_.filePath("new.gls");
    QVERIFY(doc.saveAs(path));
    QCOMPARE(doc.path(), path);
    QCOMPARE(pathChanged.count(), 1);
    QCOMPARE(contents(path), QString("n = 2\n"));
    QVERIFY(!doc.isDirty());
  }

  void builtInLessonsAreReadOnly() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    const QString lesson = builtinLessons().value(0);
    QVERIFY(lesson.startsWith(":/"));
    QVERIFY(doc.open(lesson));
    QVERIFY(doc.isReadOnly());
    QVERIFY(doc.needsSaveAs());
    type(text, "# mine\n");
    QVERIFY(!doc.save());
    QVERIFY2(doc.errorString().contains("built-in"), qPrintable(doc.errorString()));
    const QString mine = dir_.filePath("mine.gls");
    QVERIFY(doc.saveAs(mine));
    QCOMPARE(contents(mine), QString("# mine\n"));
    QVERIFY(!doc.isReadOnly());
  }

  void failedSaveKeepsTheWorkAndSaysWhy() {
    const QString path = write("e.gls", "b = 1\n");
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QVERIFY(doc.open(path));
    type(text, "b = 2\n");
    QVERIFY(doc.autosave());
    const QString bad = dir_.filePath("no/such/dir/e.gls");
    QVERIFY(!doc.saveAs(bad));
    QVERIFY2(doc.errorString().contains(bad), qPrintable(doc.errorString()));
    QCOMPARE(doc.path(), path);  // still the old file, still unsaved, copy still there
    QVERIFY(doc.isDirty());
    QCOMPARE(contents(path), QString("b = 1\n"));
    QCOMPARE(contents(doc.autosavePath()), QString("b = 2\n"));
  }

  // ---- Autosave ----
  void autosaveFollowsEveryEditNotJustTheFirst() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    doc.setAutosaveDelay(20);
    QVERIFY(doc.open(write("f.gls", "c = 1\n")));
    const QString copy = doc.autosavePath();
    QVERIFY(copy.startsWith(doc.autosaveFolder() + "/"));
    QVERIFY(!QFile::exists(copy));
    type(text, "c = 2\n");
    QTRY_COMPARE(contents(copy), QString("c = 2\n"));
    type(text, "c = 3\n");  // still dirty: a later edit must reach the copy too
    QTRY_COMPARE(contents(copy), QString("c = 3\n"));
    QVERIFY(doc.isDirty());
  }

  void steadyTypingStillGetsACopy() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    doc.setAutosaveDelay(100);
    QVERIFY(doc.open(write("g.gls", "d = 0\n")));
    // An edit every 20 ms for a second: a copy must appear while the typing goes on.
    int edits = 0;
    QTimer typing;
    typing.setInterval(20);
    connect(&typing, &QTimer::timeout, this, [&] {
      type(text, QStringLiteral("d = %1\n").arg(++edits));
      if (edits == 50) typing.stop();
    });
    typing.start();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(doc.autosavePath()), 5000);
    QVERIFY2(edits < 50, qPrintable(QString::number(edits)));
    typing.stop();
  }

  void unchangedCopyIsNotRewritten() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QVERIFY(doc.open(write("h.gls", "e = 1\n")));
    QVERIFY(doc.autosave());  // clean: nothing to write
    QVERIFY(!QFile::exists(doc.autosavePath()));
    type(text, "e = 2\n");
    QVERIFY(doc.autosave());
    QVERIFY(age(doc.autosavePath(), 60));
    const QDateTime written = QFileInfo(doc.autosavePath()).lastModified();
    QVERIFY(doc.autosave());
    QCOMPARE(QFileInfo(doc.autosavePath()).lastModified(), written);
  }

  void savingOrUndoingRemovesTheCopy() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QVERIFY(doc.open(write("i.gls", "f = 1\n")));
    type(text, "f = 2\n");
    QVERIFY(doc.autosave());
    QVERIFY(QFile::exists(doc.autosavePath()));
    text.undo();  // back to the file: the copy holds nothing the file lacks
    QVERIFY(!doc.isDirty());
    QVERIFY(!QFile::exists(doc.autosavePath()));
    type(text, "f = 3\n");
    QVERIFY(doc.autosave());
    QVERIFY(doc.save());
    QVERIFY(!QFile::exists(doc.autosavePath()));
    QVERIFY(!doc.newestRecovery().has_value());
  }

  void discardRemovesTheCopy() {
    QTextDocument text;
    ScriptDocument doc(&text, folder());
    QVERIFY(doc.open(write("j.gls", "g = 1\n")));
    type(text, "g = 2\n");
    QVERIFY(doc.autosave());
    doc.discardAutosave();
    QVERIFY(!QFile::exists(doc.autosavePath()));
    QVERIFY(!doc.recoveryFor(doc.path()).has_value());
  }

  void failedAutosaveIsReported() {
    const QString blocked = write("blocked", "a file, not a folder\n");
    QTextDocument text;
    ScriptDocument doc(&text, blocked + "/autosave");
    QSignalSpy failed(&doc, &ScriptDocument::autosaveFailed);
    doc.reset("h = 1\n");
    type(text, "h = 2\n");
    QVERIFY(!doc.autosave());
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(blocked),
             qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(doc.isDirty());
  }

  void withoutAFolderNothingIsWritten() {
    QTextDocument text;
    ScriptDocument doc(&text);
    doc.reset("k = 1\n");
    type(text, "k = 2\n");
    QCOMPARE(doc.autosavePath(), QString());
    QVERIFY(doc.autosave());
    QVERIFY(!doc.newestRecovery().has_value());
  }

  // ---- Recovery ----
  void copyIsOfferedOnlyWhenItDiffers() {
    const QString dir = folder();
    const QString path = write("doc.gls", "v = 1\n");
    QTextDocument text;
    ScriptDocument doc(&text, dir);
    QVERIFY(!doc.recoveryFor(path).has_value());
    QVERIFY(doc.open(path));
    type(text, "v = 2\n");
    QVERIFY(doc.autosave());
    QVERIFY(age(path, 60));  // the copy is newer than the file
    std::optional<ScriptDocument::Recovery> r = doc.recoveryFor(path);
    QVERIFY(r.has_value());
    QCOMPARE(r->text, QString("v = 2\n"));
    QCOMPARE(r->documentPath, path);
    QCOMPARE(r->copyPath, doc.autosavePath());
    type(text, "v = 1\n");  // edited back to the file's text (still "modified")
    QVERIFY(doc.autosave());
    QCOMPARE(contents(doc.autosavePath()), QString("v = 1\n"));
    QVERIFY(!doc.recoveryFor(path).has_value());  // same as the file: nothing to recover
    // A copy older than the file (saved elsewhere since) is not offered either.
    type(text, "v = 3\n");
    QVERIFY(doc.autosave());
    QVERIFY(age(doc.autosavePath(), 120));
    QVERIFY(!doc.recoveryFor(path).has_value());
  }

  void untitledDocumentsHaveTheirOwnCopies() {
    const QString dir = folder();
    QTextDocument a, b;
    ScriptDocument first(&a, dir), second(&b, dir);
    QVERIFY(first.autosavePath() != second.autosavePath());
    QVERIFY(first.open(write("k.gls", "w = 1\n")));
    QVERIFY(first.autosavePath() != second.autosavePath());
    second.reset("w = 0\n");
    type(b, "w = 3\n");
    QVERIFY(second.autosave());
    // Another session (after a crash) finds the untitled work.
    QTextDocument c;
    ScriptDocument later(&c, dir);
    std::optional<ScriptDocument::Recovery> r = later.newestRecovery();
    QVERIFY(r.has_value());
    QCOMPARE(r->text, QString("w = 3\n"));
    QCOMPARE(r->documentPath, QString());
  }

  void crashRecoveryOffersTheNewestCopy() {
    const QString dir = folder();
    const QString path = write("l.gls", "p = 1\n");
    QString untitledCopy, fileCopy;
    {
      // Two sessions' unsaved work, then a crash: the documents go, the copies stay.
      QTextDocument a, b;
      ScriptDocument untitled(&a, dir), file(&b, dir);
      untitled.reset("q = 1\n");
      type(a, "q = 2\n");
      QVERIFY(untitled.autosave());
      QVERIFY(file.open(path));
      type(b, "p = 2\n");
      QVERIFY(file.autosave());
      untitledCopy = untitled.autosavePath();
      fileCopy = file.autosavePath();
    }
    QVERIFY(age(path, 300));
    QVERIFY(age(untitledCopy, 200));
    QVERIFY(age(fileCopy, 100));  // the newest

    QTextDocument text;
    ScriptDocument doc(&text, dir);
    std::optional<ScriptDocument::Recovery> r = doc.newestRecovery();
    QVERIFY(r.has_value());
    QCOMPARE(r->copyPath, fileCopy);
    QCOMPARE(r->documentPath, QFileInfo(path).absoluteFilePath());
    QCOMPARE(r->text, QString("p = 2\n"));
    // The document already open is asked about on its own: skip it.
    r = doc.newestRecovery(path);
    QVERIFY(r.has_value());
    QCOMPARE(r->copyPath, untitledCopy);

    // Taking over the file's copy: its text, unsaved, at its path; autosave keeps to the copy.
    std::optional<ScriptDocument::Recovery> newest = doc.newestRecovery();
    QVERIFY(newest.has_value());
    QSignalSpy dirty(&doc, &ScriptDocument::dirtyChanged);
    doc.recover(*newest);
    QCOMPARE(dirty.count(), 1);
    QCOMPARE(dirty.at(0).at(0).toBool(), true);
    QCOMPARE(doc.text(), QString("p = 2\n"));
    QVERIFY(doc.isDirty());
    QCOMPARE(QFileInfo(doc.path()).absoluteFilePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(doc.autosavePath(), fileCopy);
    type(text, "p = 3\n");
    QVERIFY(doc.autosave());
    QCOMPARE(contents(fileCopy), QString("p = 3\n"));
    QCOMPARE(QDir(dir).entryList({"*.gls"}, QDir::Files).size(), 2);
    QVERIFY(doc.save());
    QCOMPARE(contents(path), QString("p = 3\n"));
    QVERIFY(!QFile::exists(fileCopy));
    // What is left: the untitled work.
    r = doc.newestRecovery();
    QVERIFY(r.has_value());
    QCOMPARE(r->copyPath, untitledCopy);
    doc.recover(*r);
    QVERIFY(doc.isUntitled());
    QCOMPARE(doc.autosavePath(), untitledCopy);
    QCOMPARE(doc.text(), QString("q = 2\n"));
  }

  void discardedRecoveryIsGoneWithItsCompanion() {
    const QString dir = folder();
    QTextDocument a;
    ScriptDocument lost(&a, dir);
    lost.reset("t = 1\n");
    type(a, "t = 2\n");
    QVERIFY(lost.autosave());
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 2);  // the copy and its companion file
    QTextDocument b;
    ScriptDocument doc(&b, dir);
    std::optional<ScriptDocument::Recovery> r = doc.newestRecovery();
    QVERIFY(r.has_value());
    doc.discardRecovery(*r);
    QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList());
    QVERIFY(!doc.newestRecovery().has_value());
  }

  void openingAnotherFileKeepsTheUnsavedCopy() {
    const QString dir = folder();
    QTextDocument text;
    ScriptDocument doc(&text, dir);
    const QString first = write("m.gls", "r = 1\n");
    QVERIFY(doc.open(first));
    type(text, "r = 2\n");
    QVERIFY(doc.autosave());
    QVERIFY(age(first, 60));
    QVERIFY(doc.open(write("n.gls", "s = 1\n")));  // without saving first
    std::optional<ScriptDocument::Recovery> r = doc.newestRecovery(doc.path());
    QVERIFY(r.has_value());
    QCOMPARE(r->text, QString("r = 2\n"));
    QCOMPARE(r->documentPath, QFileInfo(first).absoluteFilePath());
  }

  void defaultFolderFollowsTheSetting() {
    QVERIFY(!defaultAutosaveFolder().isEmpty());
    QSettings().setValue("autosave/folder", dir_.filePath("chosen"));
    QCOMPARE(defaultAutosaveFolder(), dir_.filePath("chosen"));
    QSettings().remove("autosave/folder");
    QVERIFY(defaultAutosaveFolder().endsWith("/autosave"));
  }
};

GRADLAB_TEST_MAIN(TestScriptDocument)
#include "test_script_document.moc"
