// The TF API checklist (#28): tests/lang/tf_api_checklist.txt lists the 283 TF 2 names that
// gradient code reaches for. A script holding only `f = NAME` must trace for every name not
// marked "missing"; a marked name that traces fails too, so the marks shrink as names land.
#include "test_main.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/lang/program.h"
#include "engine/tensor/error.h"

using namespace gl;

namespace {

struct Entry {
  std::string name;
  bool missing = false;
};

std::vector<Entry> checklist() {
  std::ifstream in(std::filesystem::path(GRADLAB_SOURCE_DIR) / "tests" / "lang" /
                   "tf_api_checklist.txt");
  std::vector<Entry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Entry e;
    std::string mark;
    words >> e.name >> mark;
    e.missing = mark == "missing";
    out.push_back(e);
  }
  return out;
}

bool resolves(const std::string& name) {
  try {
    lang::traceProgram("f = " + name + "\n", "probe.gls");
    return true;
  } catch (const EngineError&) {
    return false;
  }
}

}  // namespace

class TestApiChecklist : public QObject {
  Q_OBJECT
 private slots:
  void everyNameResolvesUnlessMarked() {
    const std::vector<Entry> names = checklist();
    QCOMPARE(int(names.size()), 283);
    int resolved = 0;
    QStringList nowResolve, stopped;
    for (const Entry& e : names) {
      const bool ok = resolves(e.name);
      resolved += ok;
      if (e.missing && ok) nowResolve << QString::fromStdString(e.name);
      if (!e.missing && !ok) stopped << QString::fromStdString(e.name);
    }
    QVERIFY2(nowResolve.isEmpty(),
             qPrintable("these resolve now, remove their 'missing' mark: " + nowResolve.join(' ')));
    QVERIFY2(stopped.isEmpty(), qPrintable("these do not resolve: " + stopped.join(' ')));
    qInfo("%d of %d checklist names resolve", resolved, int(names.size()));
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestApiChecklist)
#include "test_api_checklist.moc"
