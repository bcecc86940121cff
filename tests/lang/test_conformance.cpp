// The TensorFlow conformance suite: every script in tests/lang/conformance/ is a small case
// ported from TensorFlow's guides or test files. Its header names the source and TF's output:
//   # source: <guide section or test file and test name>
//   # expect: <one line of output>           (trace-time print(), then run-time tf.print)
//   # expect-error: <text the error contains> (instead of expect lines)
//   # differs: <why GradLab deliberately differs from TF here>
// Each script runs on the serial and the parallel executor; numbers compare to 1e-4 relative.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "engine/lab/session.h"
#include "engine/lang/program.h"

using namespace gl;

namespace {

const std::filesystem::path kDir =
    std::filesystem::path(GRADLAB_SOURCE_DIR) / "tests" / "lang" / "conformance";

struct Case {
  std::string source;
  std::vector<std::string> expect;
  std::string expectError;
};

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Case parseHeader(const std::string& text) {
  Case c;
  std::istringstream in(text);
  std::string line;
  auto field = [&](const std::string& key, std::string& out) {
    if (line.rfind(key, 0) != 0) return false;
    out = line.substr(key.size());
    return true;
  };
  while (std::getline(in, line) && line.rfind('#', 0) == 0) {
    std::string v;
    if (field("# source: ", v)) c.source = v;
    if (field("# expect: ", v)) c.expect.push_back(v);
    if (field("# expect-error: ", v)) c.expectError = v;
  }
  return c;
}

// Brackets, parentheses and commas are tokens of their own; the rest splits on white space.
std::vector<std::string> tokens(const std::string& s) {
  static const std::regex kToken(R"([\[\]\(\),]|[^\s\[\]\(\),]+)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), kToken); it != std::sregex_iterator();
       ++it)
    out.push_back(it->str());
  return out;
}

bool number(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

// Empty when `got` matches `want` token by token (numbers within 1e-4 relative).
std::string mismatch(const std::string& want, const std::string& got) {
  const auto a = tokens(want), b = tokens(got);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
    double u = 0, v = 0;
    const bool same = number(x, u) && number(y, v)
                          ? std::abs(u - v) <= 1e-4 * std::max(1.0, std::abs(u)) ||
                                (std::isnan(u) && std::isnan(v))
                          : x == y;
    if (!same) return "token " + std::to_string(i) + ": expected '" + x + "', got '" + y + "'";
  }
  return "";
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace

class TestConformance : public QObject {
  Q_OBJECT
 private slots:
  void suiteIsComplete() {
    int scripts = 0;
    for (const auto& e : std::filesystem::directory_iterator(kDir)) {
      if (e.path().extension() != ".gls") continue;
      ++scripts;
      const Case c = parseHeader(readAll(e.path()));
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
    const Case c = parseHeader(text);
    std::string error;
    for (bool parallel : {false, true}) {
      std::vector<std::string> out;
      try {
        const lang::TracedProgram p = lang::traceProgram(text, file, {});
        out = p.traceLog;
        lab::RunSettings s;
        s.parallel = parallel;
        s.threads = 2;
        s.records = s.timeline = s.valueRecords = false;
        const lab::ProgramRun run = lab::runProgram(p, s);
        for (const auto& v : run.variants) {
          if (!v.error.empty()) error = v.error;
          out.insert(out.end(), v.run.log.begin(), v.run.log.end());
        }
      } catch (const EngineError& e) {
        error = e.what();
      }
      if (!c.expectError.empty()) {
        QVERIFY2(
            error.find(c.expectError) != std::string::npos,
            ("expected an error containing '" + c.expectError + "', got '" + error + "'").c_str());
        continue;
      }
      QVERIFY2(error.empty(), error.c_str());
      const std::string want = joined(c.expect), got = joined(out);
      const std::string why = mismatch(want, got);
      QVERIFY2(why.empty(), (std::string(parallel ? "parallel: " : "serial: ") + why +
                             "\nexpected:\n" + want + "got:\n" + got)
                                .c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "test_conformance.moc"
