// The real-code corpus (tests/lang/realcode/*.py, issue #26 item 8): TensorFlow code as people
// paste it, each file with its source and TensorFlow's answer in the header (script_expect.h).
// The corpus is not expected to pass whole yet: passing.txt lists the files that give TF's
// answer today, and this test holds that list exact. A listed file that stops giving TF's answer
// fails (a regression); a file that starts giving it fails too, until it is added to the list, so
// the count the notes report is always the count in the repository. The run also prints what
// stops every other file, grouped by the first words of its error.
#include "test_main.h"

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "script_expect.h"

using namespace gl;
using namespace gl::test;

namespace {

const std::filesystem::path kDir =
    std::filesystem::path(GRADLAB_SOURCE_DIR) / "tests" / "lang" / "realcode";

std::vector<std::filesystem::path> corpus() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(kDir))
    if (e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::set<std::string> passingList() {
  std::set<std::string> names;
  std::istringstream in(readAll(kDir / "passing.txt"));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') names.insert(line);
  return names;
}

// "/path/file.py:12:5: 'class' is not supported ..." -> "'class' is not supported ..." cut to
// its first clause: what blocks the file.
std::string blocker(const std::string& why) {
  static const std::regex kLocation(R"(^\S+\.py:\d+:\d+: )");
  std::string s = std::regex_replace(why.substr(0, why.find('\n')), kLocation, "");
  if (auto cut = s.find_first_of(";("); cut != std::string::npos) s = s.substr(0, cut);
  return s.size() > 90 ? s.substr(0, 90) : s;
}

}  // namespace

class TestRealcode : public QObject {
  Q_OBJECT
 private slots:
  void everyFileNamesItsSourceAndAnswer() {
    const auto files = corpus();
    QVERIFY(files.size() >= 60);
    for (const auto& f : files) {
      const ScriptCase c = parseHeader(readAll(f));
      const std::string name = f.filename().string();
      QVERIFY2(!c.source.empty(), (name + " names no source").c_str());
      QVERIFY2(!c.expect.empty() || !c.expectError.empty(), (name + " expects nothing").c_str());
    }
  }

  void passingListIsExact() {
    const std::set<std::string> listed = passingList();
    std::set<std::string> passing;
    std::map<std::string, std::vector<std::string>> blockers;
    const auto files = corpus();
    for (const auto& f : files) {
      const std::string text = readAll(f);
      const std::string why = verdict(
          parseHeader(text), runScript(text, f.string(), ExecutorKind::Serial, Notes::Drop));
      const std::string name = f.filename().string();
      if (why.empty())
        passing.insert(name);
      else
        blockers[blocker(why)].push_back(name);
    }
    qInfo("real-code corpus: %zu of %zu give TensorFlow's answer", passing.size(), files.size());
    for (const auto& [why, names] : blockers)
      qInfo("  %zu stopped by: %s (%s%s)", names.size(), why.c_str(), names.front().c_str(),
            names.size() > 1 ? ", ..." : "");
    for (const auto& name : listed)
      QVERIFY2(passing.count(name),
               (name + " is in passing.txt but no longer gives TF's answer").c_str());
    for (const auto& name : passing)
      QVERIFY2(listed.count(name),
               (name + " now gives TF's answer: add it to realcode/passing.txt").c_str());
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestRealcode)
#include "test_realcode.moc"
