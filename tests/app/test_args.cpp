// The declarative argument parser (app/args.h) on a command declared here: typed values,
// every error message, and --help generated from the declarations. Then gradlab's own command
// table (app/commands.h): the same rules for the options commands share, and the routing of the
// first word to a command.
#include "test_main.h"

#include <cmath>
#include <stdexcept>

#include "app/args.h"
#include "app/commands.h"

using namespace gl::app;

namespace {

args::Command demo() {
  args::Command c;
  c.name = "demo";
  c.summary = "A command to test the parser with.";
  c.positionals = {{"FILE", "the input", true}, {"EXTRA", "another input", false}};
  c.options = {
      args::flag("--json", "print JSON"),
      args::text("--name", "V", "a name").byDefault("all"),
      args::choice("--mode", {"serial", "parallel"}, "how to run"),
      args::integer("--threads", "N", 1, 256, "threads"),
      args::integer("--step", "T", 0, INT64_MAX, "a step"),
      args::real("--dt", "DT", "step size"),
      args::setting("--set", "a param"),
      args::text("--out", "DIR", "output folder").mandatory(),
  };
  return c;
}

args::Result parse(const QStringList& words) {
  std::vector<std::string> w;
  for (const QString& s : words) w.push_back(s.toStdString());
  static const args::Command command = demo();
  return args::parse(command, w);
}

QString error(const QStringList& words) { return QString::fromStdString(parse(words).error); }

}  // namespace

class TestArgs : public QObject {
  Q_OBJECT

 private slots:
  void typedValues() {
    const args::Result r =
        parse({"in.gls", "--json", "--name", "fast", "--mode", "parallel", "--threads", "8",
               "--step", "3", "--dt", "0.25", "--set", "a=1", "--set", "b=-2.5e1", "--out", "d"});
    QVERIFY2(r.ok(), r.error.c_str());
    const args::Parsed& p = r.parsed;
    QVERIFY(!p.help);
    QCOMPARE(p.positional("FILE"), std::string("in.gls"));
    QCOMPARE(p.positional("EXTRA"), std::string());
    QVERIFY(p.flag("--json"));
    QCOMPARE(p.text("--name"), std::string("fast"));
    QCOMPARE(p.text("--mode"), std::string("parallel"));
    QCOMPARE(p.integer("--threads", 0), int64_t(8));
    QCOMPARE(p.integer("--step", -1), int64_t(3));
    QCOMPARE(p.real("--dt", 0.1), 0.25);
    const std::vector<args::Setting> s = p.settings("--set");
    QCOMPARE(s.size(), size_t(2));
    QCOMPARE(s[0].name, std::string("a"));
    QCOMPARE(s[0].value, 1.0);
    QCOMPARE(s[1].name, std::string("b"));
    QCOMPARE(s[1].value, -25.0);
    QCOMPARE(p.text("--out"), std::string("d"));
  }

  void absentOptionsGiveTheFallback() {
    const args::Result r = parse({"--out", "d", "in.gls", "more"});
    QVERIFY2(r.ok(), r.error.c_str());
    const args::Parsed& p = r.parsed;
    QCOMPARE(p.positional("EXTRA"), std::string("more"));
    QVERIFY(!p.flag("--json"));
    QVERIFY(!p.has("--threads"));
    QVERIFY(p.has("--out"));
    QCOMPARE(p.text("--name", "dflt"), std::string("dflt"));
    QCOMPARE(p.integer("--threads", 0), int64_t(0));
    QCOMPARE(p.real("--dt", 0.1), 0.1);
    QVERIFY(p.settings("--set").empty());
  }

  void equalsFormAndLastWins() {
    const args::Result r =
        parse({"in", "--out=x=y", "--threads=2", "--threads", "3", "--set=k=4", "--name="});
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.parsed.text("--out"), std::string("x=y"));
    QCOMPARE(r.parsed.integer("--threads", 0), int64_t(3));
    QCOMPARE(r.parsed.settings("--set").at(0).name, std::string("k"));
    QCOMPARE(r.parsed.settings("--set").at(0).value, 4.0);
    QCOMPARE(r.parsed.text("--name", "unset"), std::string());
  }

  void doubleDashEndsOptions() {
    const args::Result r = parse({"--out", "d", "--", "--json", "-"});
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.parsed.positional("FILE"), std::string("--json"));
    QCOMPARE(r.parsed.positional("EXTRA"), std::string("-"));
    QVERIFY(!r.parsed.flag("--json"));
  }

  void valuesMayStartWithADash() {
    const args::Result r = parse({"in", "--out", "-d", "--name", "--json"});
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.parsed.text("--out"), std::string("-d"));
    QCOMPARE(r.parsed.text("--name"), std::string("--json"));
    QVERIFY(!r.parsed.flag("--json"));
  }

  void helpWinsOverMissingArguments() {
    for (const char* h : {"-h", "--help"}) {
      const args::Result r = parse({h});
      QVERIFY2(r.ok(), r.error.c_str());
      QVERIFY(r.parsed.help);
    }
    // An error before --help is still reported.
    QCOMPARE(error({"--bogus", "--help"}), QString("gradlab demo: unknown option '--bogus'"));
  }

  void errorMessagesNameTheCommandOptionAndValue_data() {
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QString>("message");
    const QStringList ok{"in", "--out", "d"};
    QTest::newRow("unknown option")
        << (ok + QStringList{"--frob"}) << "gradlab demo: unknown option '--frob'";
    QTest::newRow("unknown option=value")
        << (ok + QStringList{"--frob=1"}) << "gradlab demo: unknown option '--frob'";
    QTest::newRow("unknown short option")
        << (ok + QStringList{"-x"}) << "gradlab demo: unknown option '-x'";
    QTest::newRow("missing value")
        << (ok + QStringList{"--threads"}) << "gradlab demo: --threads needs a value (--threads N)";
    QTest::newRow("missing choice value")
        << (ok + QStringList{"--mode"})
        << "gradlab demo: --mode needs a value (--mode serial|parallel)";
    QTest::newRow("threads zero") << (ok + QStringList{"--threads", "0"})
                                  << "gradlab demo: --threads expects an integer from 1 to 256, "
                                     "got '0'";
    QTest::newRow("threads 257") << (ok + QStringList{"--threads", "257"})
                                 << "gradlab demo: --threads expects an integer from 1 to 256, "
                                    "got '257'";
    QTest::newRow("threads word") << (ok + QStringList{"--threads", "zero"})
                                  << "gradlab demo: --threads expects an integer from 1 to 256, "
                                     "got 'zero'";
    QTest::newRow("threads trailing text")
        << (ok + QStringList{"--threads=4x"})
        << "gradlab demo: --threads expects an integer from 1 to 256, got '4x'";
    QTest::newRow("threads huge")
        << (ok + QStringList{"--threads", "99999999999999999999"})
        << "gradlab demo: --threads expects an integer from 1 to 256, got '99999999999999999999'";
    QTest::newRow("step negative") << (ok + QStringList{"--step", "-1"})
                                   << "gradlab demo: --step expects an integer >= 0, got '-1'";
    QTest::newRow("choice") << (ok + QStringList{"--mode", "gpu"})
                            << "gradlab demo: --mode expects serial or parallel, got 'gpu'";
    QTest::newRow("real") << (ok + QStringList{"--dt", "fast"})
                          << "gradlab demo: --dt expects a number, got 'fast'";
    QTest::newRow("real not finite")
        << (ok + QStringList{"--dt", "nan"}) << "gradlab demo: --dt expects a number, got 'nan'";
    QTest::newRow("setting without =")
        << (ok + QStringList{"--set", "steps"})
        << "gradlab demo: --set expects name=value with a number, got 'steps'";
    QTest::newRow("setting not a number")
        << (ok + QStringList{"--set", "steps=many"})
        << "gradlab demo: --set expects name=value with a number, got 'steps=many'";
    QTest::newRow("setting without name")
        << (ok + QStringList{"--set", "=3"})
        << "gradlab demo: --set expects name=value with a number, got '=3'";
    QTest::newRow("flag with value")
        << (ok + QStringList{"--json=yes"}) << "gradlab demo: --json takes no value";
    QTest::newRow("missing positional")
        << QStringList{"--out", "d"} << "gradlab demo: missing FILE";
    QTest::newRow("missing required option")
        << QStringList{"in"} << "gradlab demo: --out DIR is required";
    QTest::newRow("too many positionals")
        << (ok + QStringList{"b", "c"})
        << "gradlab demo: unexpected argument 'c' (EXTRA is already 'b')";
  }

  void errorMessagesNameTheCommandOptionAndValue() {
    QFETCH(QStringList, words);
    QFETCH(QString, message);
    const args::Result r = parse(words);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error), message);
  }

  void noPositionalsDeclared() {
    args::Command c;
    c.name = "bare";
    c.options = {args::flag("--x", "x")};
    QCOMPARE(args::parse(c, {"file"}).error,
             std::string("gradlab bare: takes no arguments, got 'file'"));
    QVERIFY(args::parse(c, {"--x"}).ok());
    QVERIFY(args::parse(c, {}).ok());
  }

  void readingUndeclaredOrMistypedOptionsThrows() {
    const args::Result r = parse({"in", "--out", "d"});
    QVERIFY(r.ok());
    QVERIFY_THROWS_EXCEPTION(std::logic_error, r.parsed.flag("--nope"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, r.parsed.integer("--name", 0));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, r.parsed.text("--threads"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, r.parsed.positional("OTHER"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, r.parsed.has("--nope"));
    // A choice reads as text.
    QCOMPARE(r.parsed.text("--mode", "serial"), std::string("serial"));
  }

  void numbers() {
    int64_t n = 0;
    QVERIFY(args::parseInteger("42", n));
    QCOMPARE(n, int64_t(42));
    QVERIFY(args::parseInteger("+7", n));
    QCOMPARE(n, int64_t(7));
    QVERIFY(args::parseInteger("-3", n));
    QCOMPARE(n, int64_t(-3));
    for (const char* bad : {"", "+", "-", "+-3", " 4", "4 ", "4x", "0x10", "1e3", "3.0"})
      QVERIFY2(!args::parseInteger(bad, n), bad);
    double x = 0;
    QVERIFY(args::parseReal("1e-3", x));
    QCOMPARE(x, 1e-3);
    QVERIFY(args::parseReal("-2", x));
    QCOMPARE(x, -2.0);
    QVERIFY(args::parseReal("+.5", x));
    QCOMPARE(x, 0.5);
    // Too small for a double: 0, as Python's float("1e-400") gives; the sign is kept.
    QVERIFY(args::parseReal("1e-400", x));
    QCOMPARE(x, 0.0);
    QVERIFY(args::parseReal("-1e-400", x));
    QVERIFY(x == 0 && std::signbit(x));
    QVERIFY(args::parseReal("4e-320", x));  // a denormal stays a denormal
    QCOMPARE(x, 4e-320);
    for (const char* bad : {"", " 1", "1 ", "1,5", "inf", "nan", "1e999", "0.1abc", "0x5", "0x1p3",
                            "infinity", "+-1", "--1", "-inf", "1e", "."})
      QVERIFY2(!args::parseReal(bad, x), bad);
    int64_t b = 0;
    for (const auto& [text, bytes] : {std::pair{"4096", int64_t(4096)},
                                      {"2G", int64_t(2) << 30},
                                      {"512m", int64_t(512) << 20},
                                      {"1.5GiB", int64_t(3) << 29},
                                      {"3KB", int64_t(3072)},
                                      {"1T", int64_t(1) << 40}}) {
      QVERIFY2(args::parseBytes(text, b), text);
      QCOMPARE(b, bytes);
    }
    for (const char* bad : {"", "G", "B", "0", "-1G", "0.5", "2X", "2 G", "1e30", "nan", "0x10"})
      QVERIFY2(!args::parseBytes(bad, b), bad);
    std::string name;
    QVERIFY(args::parseSetting("steps=3", name, x));
    QCOMPARE(name, std::string("steps"));
    QCOMPARE(x, 3.0);
    for (const char* bad : {"steps", "steps=", "=3", "steps=3x", "steps=nan"})
      QVERIFY2(!args::parseSetting(bad, name, x), bad);
  }

  void usageIsGeneratedAndWrapped() {
    const std::string u = args::usage(demo());
    QCOMPARE(
        QString::fromStdString(u),
        QString("usage: gradlab demo FILE [EXTRA] [--json] [--name V] [--mode serial|parallel] "
                "[--threads N]\n"
                "                    [--step T] [--dt DT] [--set NAME=VALUE]... --out DIR\n"));
    for (const QString& line : QString::fromStdString(u).split('\n'))
      QVERIFY2(line.size() <= 100, qPrintable(line));
    args::Command d = demo();
    d.isDefault = true;
    QVERIFY(args::usage(d).starts_with("usage: gradlab [demo] FILE"));
  }

  void helpListsEveryDeclaration() {
    const QString h = QString::fromStdString(args::help(demo()));
    QVERIFY2(h.startsWith("usage: gradlab demo FILE"), qPrintable(h));
    QVERIFY(h.contains("\nA command to test the parser with.\n"));
    QVERIFY2(h.contains("\n  FILE                    the input\n"), qPrintable(h));
    QVERIFY(h.contains("\n  EXTRA                   another input (optional)\n"));
    QVERIFY(h.contains("\n  --threads N             threads; an integer from 1 to 256\n"));
    QVERIFY(h.contains("\n  --name V                a name (default: all)\n"));
    QVERIFY(h.contains("\n  --mode serial|parallel  how to run\n"));
    QVERIFY(h.contains("\n  --set NAME=VALUE        a param; repeatable\n"));
    QVERIFY(h.contains("\n  --out DIR               output folder (required)\n"));
    QVERIFY(h.contains("\n  -h, --help              show this help\n"));
    // Every declared option is listed exactly once.
    for (const args::Option& o : demo().options)
      QCOMPARE(h.count(QString::fromStdString("\n  " + o.name + " ")), 1);
  }

  void longHelpWrapsInItsColumn() {
    args::Command c;
    c.name = "wrap";
    c.options = {
        args::text("--a-very-long-option-name", "VALUE",
                   std::string(30, 'x') + " " + std::string(40, 'y') + " " + std::string(10, 'z'))};
    QCOMPARE(QString::fromStdString(args::help(c)).section("options:\n", 1),
             QString("  --a-very-long-option-name VALUE\n" + QString(26, ' ') + QString(30, 'x') +
                     " " + QString(40, 'y') + "\n" + QString(26, ' ') + QString(10, 'z') + "\n" +
                     "  -h, --help              show this help\n"));
  }

  // ---- gradlab's commands ----

  void theCommands() {
    QStringList names;
    for (const args::Command& c : commands()) {
      names << QString::fromStdString(c.name);
      QVERIFY(!c.summary.empty());
      QCOMPARE(findCommand(c.name), &c);
      QCOMPARE(c.isDefault, c.name == "window");
    }
    QCOMPARE(names, QStringList({"window", "run", "check", "export", "ode", "bench"}));
    QCOMPARE(findCommand("benchmark"), nullptr);
  }

  void sharedOptionsFollowTheSameRulesEverywhere() {
    int withThreads = 0, withFile = 0, withSet = 0, withPreset = 0;
    for (const args::Command& c : commands()) {
      if (const args::Option* t = c.option("--threads")) {
        ++withThreads;
        QCOMPARE(t->kind, args::Kind::Int);
        QCOMPARE(t->min, int64_t(1));
        QCOMPARE(t->max, int64_t(256));
        std::vector<std::string> base;
        if (!c.positionals.empty() && c.positionals[0].required) base = {"f.gls"};
        if (c.option("--out")) base.insert(base.end(), {"--out", "d"});
        for (const char* bad : {"0", "257", "-1", "zero", "2.5", ""}) {
          std::vector<std::string> w = base;
          w.insert(w.end(), {"--threads", bad});
          QCOMPARE(args::parse(c, w).error, "gradlab " + c.name +
                                                ": --threads expects an integer from 1 to 256, "
                                                "got '" +
                                                bad + "'");
        }
        for (const char* good : {"1", "256"}) {
          std::vector<std::string> w = base;
          w.insert(w.end(), {"--threads", good});
          const args::Result r = args::parse(c, w);
          QVERIFY2(r.ok(), r.error.c_str());
          QCOMPARE(r.parsed.integer("--threads", 0), std::stoll(good));
        }
      }
      if (!c.positionals.empty()) {
        ++withFile;
        QCOMPARE(c.positionals.size(), size_t(1));
        QCOMPARE(c.positionals[0].name, std::string("FILE"));
        QVERIFY(QString::fromStdString(c.positionals[0].help).contains("built-in lesson"));
        QCOMPARE(c.positionals[0].required, c.name != "window");
      }
      if (const args::Option* s = c.option("--set")) {
        ++withSet;
        QCOMPARE(s->kind, args::Kind::Setting);
      }
      if (const args::Option* p = c.option("--preset")) {
        ++withPreset;
        QCOMPARE(p->choices, std::vector<std::string>({"seed", "class"}));
        // The window opens lessons small for a first look; the command line keeps the seed's.
        QCOMPARE(p->fallback, std::string(c.name == "window" ? "class" : "seed"));
      }
      if (const args::Option* s = c.option("--step")) {
        QCOMPARE(s->kind, args::Kind::Int);
        QCOMPARE(s->min, int64_t(0));
      }
    }
    QCOMPARE(withThreads, 4);  // run, export, ode, bench
    QCOMPARE(withFile, 4);     // window, run, check, export
    QCOMPARE(withSet, 5);      // window, run, check, export, bench
    QCOMPARE(withPreset, 5);   // window, run, check, export, bench
    QCOMPARE(findCommand("run")->option("--executor")->choices,
             findCommand("export")->option("--executor")->choices);
    QCOMPARE(findCommand("run")->option("--executor")->choices,
             std::vector<std::string>({"serial", "parallel", "fused"}));
    QCOMPARE(findCommand("ode")->option("--executor")->choices,
             std::vector<std::string>({"serial", "parallel", "both"}));
    // check: --preset, --set, --max-ops (values computed while tracing) and the limits, which
    // every command that traces takes alike.
    QCOMPARE(findCommand("check")->options.size(), size_t(7));
    for (const char* name : {"run", "check", "export"}) {
      QCOMPARE(findCommand(name)->option("--memory-budget")->kind, args::Kind::Bytes);
      QCOMPARE(findCommand(name)->option("--max-unroll")->kind, args::Kind::Int);
      QCOMPARE(findCommand(name)->option("--max-nodes")->kind, args::Kind::Int);
      QCOMPARE(findCommand(name)->option("--max-items")->kind, args::Kind::Int);
    }
    QCOMPARE(findCommand("run")->option("--max-ops")->kind, args::Kind::Int);
    QCOMPARE(findCommand("export")->option("--max-ops")->kind, args::Kind::Int);
    // check runs nothing, but values computed while tracing count against --max-ops too.
    QCOMPARE(findCommand("check")->option("--max-ops")->kind, args::Kind::Int);
    QVERIFY(findCommand("export")->option("--out")->required);
  }

  void odeKeepsItsDefaultsAndSizes() {
    const args::Command& ode = *findCommand("ode");
    QCOMPARE(ode.option("--steps")->fallback, std::string("20000"));
    QCOMPARE(ode.option("--dt")->fallback, std::string("0.1"));
    QCOMPARE(args::parse(ode, {"--batch", "0"}).error,
             std::string("gradlab ode: --batch expects an integer from 1 to 2147483647, got '0'"));
    QCOMPARE(args::parse(ode, {"file"}).error,
             std::string("gradlab ode: takes no arguments, got 'file'"));
    const args::Result r = args::parse(ode, {"--steps", "0", "--dt", "0.5", "--variant", "all"});
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.parsed.integer("--steps", -1), int64_t(0));
    QCOMPARE(r.parsed.real("--dt", 0), 0.5);
  }

  void benchTakesRunsOnlyAndAJsonFile() {
    const args::Command& bench = *findCommand("bench");
    QVERIFY(bench.positionals.empty());
    QCOMPARE(bench.option("--runs")->fallback, std::string("3"));
    QCOMPARE(args::parse(bench, {"--runs", "0"}).error,
             std::string("gradlab bench: --runs expects an integer from 1 to 1000, got '0'"));
    const args::Result r =
        args::parse(bench, {"--quick", "--only", "ode/", "--json", "out.json", "--runs", "5"});
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.parsed.flag("--quick"));
    QCOMPARE(r.parsed.text("--only"), std::string("ode/"));
    QCOMPARE(r.parsed.text("--json"), std::string("out.json"));
    QCOMPARE(r.parsed.integer("--runs", 3), int64_t(5));
    const args::Result set = args::parse(bench, {"--set", "steps=2000", "--set", "batch=4"});
    QVERIFY2(set.ok(), set.error.c_str());
    QCOMPARE(set.parsed.settings("--set").size(), size_t(2));
    QCOMPARE(set.parsed.settings("--set")[0].name, std::string("steps"));
    QCOMPARE(set.parsed.settings("--set")[0].value, 2000.0);
  }

  void routing_data() {
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QString>("command");  // "" for the overview or an error
    QTest::addColumn<QStringList>("rest");
    QTest::newRow("nothing") << QStringList{} << "window" << QStringList{};
    QTest::newRow("run") << QStringList{"run", "a.gls", "--json"} << "run"
                         << QStringList{"a.gls", "--json"};
    QTest::newRow("window named") << QStringList{"window", "--run"} << "window"
                                  << QStringList{"--run"};
    QTest::newRow("option first") << QStringList{"--set", "a=1", "x.gls"} << "window"
                                  << QStringList{"--set", "a=1", "x.gls"};
    QTest::newRow("unknown option first")
        << QStringList{"--frobnicate"} << "window" << QStringList{"--frobnicate"};
    QTest::newRow("file") << QStringList{"x.gls", "--run"} << "window"
                          << QStringList{"x.gls", "--run"};
    QTest::newRow("path") << QStringList{"dir/x"} << "window" << QStringList{"dir/x"};
    QTest::newRow("resource") << QStringList{":/lessons/x"} << "window"
                              << QStringList{":/lessons/x"};
    QTest::newRow("lesson name") << QStringList{"known"} << "window" << QStringList{"known"};
    QTest::newRow("help") << QStringList{"--help"} << "" << QStringList{};
    QTest::newRow("unknown") << QStringList{"rnu", "x.gls"} << "" << QStringList{};
  }

  void routing() {
    QFETCH(QStringList, words);
    QFETCH(QString, command);
    QFETCH(QStringList, rest);
    std::vector<std::string> w;
    for (const QString& s : words) w.push_back(s.toStdString());
    const Route r = route(w, [](const std::string& s) { return s == "known"; });
    QCOMPARE(QString::fromStdString(r.command ? r.command->name : ""), command);
    QStringList got;
    for (const std::string& s : r.words) got << QString::fromStdString(s);
    QCOMPARE(got, rest);
    QCOMPARE(r.overview, words == QStringList{"--help"});
    QCOMPARE(!r.error.empty(), words.value(0) == "rnu");
  }

  void unknownCommandListsTheCommands() {
    const Route r = route({"rnu"}, [](const std::string&) { return false; });
    QCOMPARE(
        QString::fromStdString(r.error),
        QString(
            "gradlab: unknown command 'rnu'\n"
            "commands: window, run, check, export, ode, bench (gradlab --help shows them all)"));
    QCOMPARE(route({"-h"}, [](const std::string&) { return false; }).overview, true);
  }

  void overviewShowsEveryCommand() {
    const QString o = QString::fromStdString(overview());
    QVERIFY2(
        o.startsWith("usage: gradlab [window] [FILE] [--preset seed|class] [--set NAME=VALUE]..."),
        qPrintable(o));
    for (const args::Command& c : commands()) {
      QVERIFY2(o.contains(QString::fromStdString(c.summary)), c.name.c_str());
      if (!c.isDefault) QVERIFY(o.contains(QString::fromStdString("\n       gradlab " + c.name)));
    }
    QVERIFY(
        o.contains("\n       gradlab run FILE [--variant V] [--executor serial|parallel|fused]"));
    for (const QString& line : o.split('\n')) QVERIFY2(line.size() <= 100, qPrintable(line));
  }

  void runHelpIsGeneratedFromTheTable() {
    const QString h = QString::fromStdString(args::help(*findCommand("run")));
    QVERIFY2(
        h.startsWith("usage: gradlab run FILE [--variant V] [--executor serial|parallel|fused] "
                     "[--threads N]"),
        qPrintable(h));
    QVERIFY2(h.contains(
                 "\n  --threads N             threads of the parallel executor; an integer from 1 "
                 "to 256 (default: one\n                          per idle core, rechecked as it "
                 "runs)\n"),
             qPrintable(h));
    QVERIFY(
        h.contains("\n  --executor serial|parallel|fused\n                          the executor "
                   "to run on (default: serial)\n"));
    for (const args::Command& c : commands())
      for (const QString& line : QString::fromStdString(args::help(c)).split('\n'))
        QVERIFY2(line.size() <= 100, qPrintable(line));
    QVERIFY(
        h.contains("\n  FILE                    a script file, or the name of a built-in lesson"));
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestArgs)
#include "test_args.moc"
