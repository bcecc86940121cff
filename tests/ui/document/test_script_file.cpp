// Loading refuses what is not a script with a reason; saving is all-or-nothing.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include "test_main.h"

#include <sys/stat.h>

#include "ui/document/script_file.h"

using namespace gl::ui;

class TestScriptFile : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString write(const QString& name, const QByteArray& bytes) {
    QFile f(dir_.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return f.fileName();
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void loadsUtf8Text() {
    const QString path = write("ok.gls", "# 梯度\nx = 1\n");
    LoadResult r = loadScript(path);
    QVERIFY(r.ok());
    QCOMPARE(r.text, QString::fromUtf8("# 梯度\nx = 1\n"));
  }

  void refusesBrokenFilesWithAReason() {
    QVERIFY(loadScript(dir_.filePath("missing.gls")).error.contains("does not exist"));
    QVERIFY(loadScript(write("nul.gls", QByteArray("x = 1\0y", 7))).error.contains("NUL"));
    QVERIFY(loadScript(write("latin1.gls", "x = \xff\xfe\n")).error.contains("UTF-8"));
    QVERIFY(loadScript(write("big.gls", QByteArray(5 << 20, 'x'))).error.contains("4 MiB"));
  }

  // Tests run as root, which reads any file whatever its mode: unreadable scripts are made of
  // what no one can read as text. A FIFO used to block the open until a writer came.
  void refusesWhatIsNotARegularFile() {
    QVERIFY(QDir(dir_.path()).mkdir("folder.gls"));
    QCOMPARE(loadScript(dir_.filePath("folder.gls")).error,
             dir_.filePath("folder.gls") + " is not a regular file");
    const QString fifo = dir_.filePath("pipe.gls");
    QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QElapsedTimer t;
    t.start();
    QCOMPARE(loadScript(fifo).error, fifo + " is not a regular file");
    QVERIFY(t.elapsed() < 5000);
  }

  void savesAtomically() {
    const QString path = dir_.filePath("saved.gls");
    QCOMPARE(saveScript(path, "a = 1\n"), QString());
    QCOMPARE(loadScript(path).text, QString("a = 1\n"));
    // A folder that does not exist: an error, and the old file is untouched.
    QVERIFY(!saveScript(dir_.filePath("no/such/dir/x.gls"), "b").isEmpty());
    QCOMPARE(loadScript(path).text, QString("a = 1\n"));
  }
  // Autosave copies and recovery: tests/ui/document/test_script_document.cpp.
};

GRADLAB_TEST_GUILESS_MAIN(TestScriptFile)
#include "test_script_file.moc"
