// The TensorFlow conformance suite: every script in tests/lang/conformance/ is a small case
// ported from TensorFlow's guides or test files. Its header names the source and TF's output:
//   # source: <guide section or test file and test name>
//   # expect: <one line of output>           (trace-time print(), then run-time tf.print)
//   # expect-error: <text the error contains> (instead of expect lines)
//   # differs: <why GradLab deliberately differs from TF here>
// Each script runs on the serial and the parallel executor; numbers compare to 1e-4 relative.
#include "test_main.h"

#include <filesystem>

#include "script_expect.h"

using namespace gl;
using namespace gl::test;

namespace {

const std::filesystem::path kDir =
    std::filesystem::path(GRADLAB_SOURCE_DIR) / "tests" / "lang" / "conformance";

}  // namespace

class TestConformance : public QObject {
  Q_OBJECT
 private slots:
  void suiteIsComplete() {
    int scripts = 0;
    for (const auto& e : std::filesystem::directory_iterator(kDir)) {
      if (e.path().extension() != ".gls") continue;
      ++scripts;
      const ScriptCase c = parseHeader(readAll(e.path()));
      const std::string name = e.path().filename().string();
      QVERIFY2(!c.source.empty(), (name + " names no source").c_str());
      QVERIFY2(!c.expect.empty() || !c.expectError.empty(), (name + " expects nothing").c_str());
    }
    QVERIFY(scripts > 0);
  }

  void script_data() {
    QTest::addColumn<QString>("path");
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(kDir))
      if (e.path().extension() == ".gls") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
      QTest::newRow(f.filename().string().c_str()) << QString::fromStdString(f.string());
  }

  void script() {
    QFETCH(QString, path);
    const std::string file = path.toStdString();
    const std::string text = readAll(file);
    const ScriptCase c = parseHeader(text);
    for (ExecutorKind executor : kExecutorKinds) {
      const std::string why = verdict(c, runScript(text, file, executor));
      QVERIFY2(why.empty(), (executorName(executor) + (": " + why)).c_str());
    }
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestConformance)
#include "test_conformance.moc"
