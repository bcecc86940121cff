// `gradlab bench`'s pure part (app/bench_table.h) on made-up numbers: medians, ratios, the
// table, the JSON, the yardsticks' output lines, and the --quick sizes against the lessons'
// own params.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "test_main.h"

#include "app/bench_table.h"
#include "engine/lang/program.h"

using namespace gl::app::bench;

namespace {

Case engine(const std::string& lesson, const std::string& variant, const std::string& executor,
            std::vector<double> seconds, size_t peak = 0) {
  Case c;
  c.name = caseName(lesson, variant, executor);
  c.lesson = lesson;
  c.variant = variant;
  c.executor = executor;
  c.seconds = std::move(seconds);
  c.peakBytes = peak;
  return c;
}

Case yardstick(const std::string& name, const std::string& lesson, std::vector<double> seconds) {
  Case c;
  c.name = name;
  c.lesson = lesson;
  c.yardstick = true;
  c.seconds = std::move(seconds);
  return c;
}

const Ratio* find(const std::vector<Ratio>& all, const std::string& of, const std::string& over) {
  for (const Ratio& r : all)
    if (r.of == of && r.over == over) return &r;
  return nullptr;
}

Report odeReport() {
  Report r;
  r.runs = 3;
  r.threads = 2;
  r.cases = {engine("ode", "vectorized", "serial", {0.6, 0.5, 0.7}, 3 << 20),
             engine("ode", "serial", "serial", {2.0, 1.0, 1.5}),
             engine("ode", "vectorized", "parallel", {0.4, 0.4, 0.4}),
             yardstick("ode/limit_step_major", "ode", {0.3, 0.3, 0.3}),
             yardstick("ode/limit_step_major_ftz", "ode", {0.25, 0.25, 0.25}),
             yardstick("ode/limit_fused", "ode", {0.05, 0.05, 0.05}),
             yardstick("torch/ode/vectorized", "ode", {5.0})};
  return r;
}

}  // namespace

class TestBench : public QObject {
  Q_OBJECT

 private slots:
  void statsTakeTheMiddle() {
    const Stats odd = stats({3.0, 1.0, 2.0});
    QCOMPARE(odd.median, 2.0);
    QCOMPARE(odd.min, 1.0);
    QCOMPARE(odd.max, 3.0);
    QCOMPARE(stats({4.0, 1.0, 2.0, 3.0}).median, 2.5);
    QCOMPARE(stats({7.0}).median, 7.0);
    QCOMPARE(stats({}).median, 0.0);
  }

  void ratiosCompareWithFastestVariantLimitsAndTorch() {
    const std::vector<Ratio> all = ratios(odeReport());
    // serial variant over the fastest on the same executor (vectorized), round by round:
    // 2.0/0.6, 1.0/0.5, 1.5/0.7, whose median is 1.5/0.7 (the medians' ratio would be 2.5)
    const Ratio* r = find(all, "ode/serial/serial", "ode/vectorized/serial");
    QVERIFY(r);
    QCOMPARE(r->value, 1.5 / 0.7);
    // the fastest variant is not compared with itself; other executors are apart
    QVERIFY(!find(all, "ode/vectorized/serial", "ode/vectorized/serial"));
    QVERIFY(!find(all, "ode/vectorized/parallel", "ode/vectorized/serial"));
    // the flush-to-zero limit wins over the plain one when both ran; plain when it is alone
    r = find(all, "ode/vectorized/serial", "ode/limit_step_major_ftz");
    QVERIFY(r);
    QCOMPARE(r->value, 0.6 / 0.25);
    QVERIFY(!find(all, "ode/vectorized/serial", "ode/limit_step_major"));
    r = find(all, "ode/vectorized/parallel", "ode/limit_fused");
    QVERIFY(r);
    QCOMPARE(r->value, 0.4 / 0.05);
    r = find(all, "ode/vectorized/serial", "torch/ode/vectorized");
    QVERIFY(r);
    QCOMPARE(r->value, 0.6 / 5.0);
    // the serial variant has no torch "vectorized" peer; its peer did not run
    QVERIFY(!find(all, "ode/serial/serial", "torch/ode/vectorized"));
    // yardsticks get no ratios of their own
    for (const Ratio& x : all) QVERIFY(x.of.rfind("ode/limit", 0) != 0);
  }

  void failedCasesHaveNoRatios() {
    Report r = odeReport();
    r.cases[0].error = "boom";
    const std::vector<Ratio> all = ratios(r);
    QVERIFY(!find(all, "ode/vectorized/serial", "ode/limit_fused"));
    // the serial variant is now the fastest one left on the serial executor
    QVERIFY(!find(all, "ode/serial/serial", "ode/vectorized/serial"));
  }

  void variantsWithNoneGradientsAreNotTheFastest() {
    Report r = odeReport();
    r.cases.push_back(engine("ode", "broken", "serial", {0.01}));
    r.cases.back().noneGradients = true;
    const std::vector<Ratio> all = ratios(r);
    QVERIFY(find(all, "ode/serial/serial", "ode/vectorized/serial"));
    QVERIFY(!find(all, "ode/serial/serial", "ode/broken/serial"));
    QVERIFY(find(all, "ode/broken/serial", "ode/vectorized/serial"));
    QVERIFY(QString::fromStdString(formatTable(r))
                .contains(QRegularExpression(R"(ode/broken/serial .*None gradients\n)")));
    QVERIFY(QString::fromStdString(toJson(r)).contains("\"none_gradients\": true"));
  }

  void tableShowsMediansPeakAndRatios() {
    Report r = odeReport();
    r.notes = {"PyTorch peer skipped"};
    r.cases.push_back(engine("per_step", "jacobian", "serial", {}));
    r.cases.back().error = "x.gls:3:1: bad";
    const std::string table = formatTable(r);
    const QString t = QString::fromStdString(table);
    QVERIFY2(t.startsWith("case"), qPrintable(t));
    QVERIFY2(
        t.contains(QRegularExpression(
            R"(ode/vectorized/serial +0\.6000 +0\.5000 +0\.7000 +3\.0 MiB  2\.40x )"
            R"(ode/limit_step_major_ftz, 12\.00x ode/limit_fused, 0\.12x torch/ode/vectorized)")),
        qPrintable(t));
    QVERIFY(t.contains(
        QRegularExpression(R"(ode/serial/serial +1\.5000 .* 2\.14x ode/vectorized/serial)")));
    QVERIFY(t.contains(QRegularExpression(R"(ode/limit_fused +0\.0500 +0\.0500 +0\.0500 +-\n)")));
    QVERIFY(t.contains("per_step/jacobian/serial  failed: x.gls:3:1: bad"));
    QVERIFY(t.endsWith("note: PyTorch peer skipped\n"));
  }

  // The per-op case shows its median over the primitive ops one run executed.
  void perOpCaseShowsMicrosecondsPerOp() {
    Report r;
    r.runs = 3;
    r.cases.push_back(engine("op_overhead", "scalar_while", "serial", {0.30, 0.20, 0.40}));
    r.cases.back().primitiveOps = 800000;
    r.cases.push_back(engine("ode", "vectorized", "serial", {0.6}));
    r.cases.back().primitiveOps = 1000;
    const QString t = QString::fromStdString(formatTable(r));
    QVERIFY2(t.contains(QRegularExpression(
                 R"(op_overhead/scalar_while/serial +0\.3000 .*0\.375 us/op \(800000 ops\)\n)")),
             qPrintable(t));
    QVERIFY(!t.contains(QRegularExpression(R"(ode/vectorized/serial .*us/op)")));
    QVERIFY(QString::fromStdString(toJson(r)).contains("\"primitive_ops\": 800000"));
  }

  void bytesAreReadable() {
    QCOMPARE(formatBytes(0), std::string("-"));
    QCOMPARE(formatBytes(512), std::string("512 B"));
    QCOMPARE(formatBytes(1536), std::string("1.5 KiB"));
    QCOMPARE(formatBytes(size_t(200) << 20), std::string("200.0 MiB"));
  }

  void jsonCarriesEveryNumber() {
    Report r = odeReport();
    r.quick = true;
    r.notes = {"a \"quoted\" note"};
    const QByteArray text = QByteArray::fromStdString(toJson(r));
    QJsonParseError err;
    const QJsonObject o = QJsonDocument::fromJson(text, &err).object();
    QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString() + "\n" + text));
    QCOMPARE(o["quick"].toBool(), true);
    QCOMPARE(o["runs"].toInt(), 3);
    QCOMPARE(o["threads"].toInt(), 2);
    const QJsonArray cases = o["cases"].toArray();
    QCOMPARE(cases.size(), 7);
    const QJsonObject first = cases[0].toObject();
    QCOMPARE(first["name"].toString(), QString("ode/vectorized/serial"));
    QCOMPARE(first["executor"].toString(), QString("serial"));
    QCOMPARE(first["seconds"].toArray().size(), 3);
    QCOMPARE(first["seconds"].toArray()[1].toDouble(), 0.5);
    QCOMPARE(first["median"].toDouble(), 0.6);
    QCOMPARE(first["peak_bytes"].toInteger(), qint64(3 << 20));
    QCOMPARE(cases[3].toObject()["yardstick"].toBool(), true);
    QCOMPARE(o["ratios"].toArray().size(), int(ratios(r).size()));
    QCOMPARE(o["notes"].toArray()[0].toString(), QString("a \"quoted\" note"));
  }

  void onlySelectsBySubstring() {
    QVERIFY(selects("", "ode/serial/serial"));
    QVERIFY(selects("vectorized/par", "ode/vectorized/parallel"));
    QVERIFY(!selects("jacobian", "ode/vectorized/parallel"));
  }

  void yardstickLinesParse() {
    LimitLine limit;
    QVERIFY(parseLimitLine(
        R"({"steps":2000,"step_major_s":0.0312,"fused_s":0.0041,"y0":1,"g0":0,"y0b":1})", limit));
    QCOMPARE(limit.steps, 2000);
    QCOMPARE(limit.stepMajor, 0.0312);
    QCOMPARE(limit.fused, 0.0041);
    QVERIFY(!parseLimitLine("Segmentation fault", limit));
    QVERIFY(!parseLimitLine(R"({"steps":2000})", limit));

    TorchLine torch;
    QVERIFY(parseTorchLine(R"({"case": "ode", "mode": "vectorized", "seconds": 7.53, )"
                           R"("threads": 2, "steps": 2000, "batch": 10, "dim": 5000})",
                           torch));
    QCOMPARE(torch.caseName, std::string("ode"));
    QCOMPARE(torch.mode, std::string("vectorized"));
    QCOMPARE(torch.seconds, 7.53);
    QCOMPARE(torch.numbers.at("steps"), 2000.0);
    QCOMPARE(torch.numbers.at("dim"), 5000.0);
    QVERIFY(!parseTorchLine(R"({"case": "per_step_grad", "mode": "vmap_vjp_failed", )"
                            R"("seconds": -1, "error": "no functorch"})",
                            torch));
    QVERIFY(!parseTorchLine("Traceback (most recent call last):", torch));
  }

  // Every --quick override names a param of its lesson, lies in the param's range and is
  // smaller than its default; torch sizes and modes name real params and variants.
  void quickSizesFitTheLessons() {
    QCOMPARE(lessons().size(), size_t(10));
    QCOMPARE(lessons()[8].name, std::string("op_overhead"));
    QVERIFY(lessons()[8].perOp);
    QCOMPARE(lessons().back().name, std::string("eager_dispatch"));
    QVERIFY(lessons().back().perOp && lessons().back().timesTrace);
    QCOMPARE(lessons()[0].name, std::string("ode"));
    QCOMPARE(lessons()[0].quick.at("steps"), 2000.0);
    QVERIFY(lessons()[0].odeLimit);
    for (const Lesson& lesson : lessons()) {
      // A lesson by name, or a resource path ":/bench/x.gls" (resources/bench/x.gls).
      const QString script = QString::fromStdString(lesson.script);
      QFile file(QStringLiteral(GRADLAB_SOURCE_DIR) + "/resources/" +
                 (script.startsWith(":/") ? script.mid(2) : "lessons/" + script + ".gls"));
      QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
      const gl::lang::TracedProgram program =
          gl::lang::traceProgram(file.readAll().toStdString(), file.fileName().toStdString());
      QVERIFY(!lesson.quick.empty());
      auto param = [&](const std::string& name) -> const gl::lang::Param* {
        for (const gl::lang::Param& p : program.params)
          if (p.name == name) return &p;
        return nullptr;
      };
      for (const auto& [name, value] : lesson.quick) {
        const gl::lang::Param* p = param(name);
        QVERIFY2(p, qPrintable(QString::fromStdString(lesson.name + ": " + name)));
        QVERIFY(value >= p->lo && value <= p->hi);
        QVERIFY2(value < p->value, qPrintable(QString::fromStdString(lesson.name + ": " + name)));
      }
      for (const auto& [field, name] : lesson.torchSize) QVERIFY(param(name));
      for (const auto& [variant, mode] : lesson.torchMode) {
        bool found = false;
        for (const gl::lang::Variant& v : program.variants) found = found || v.name == variant;
        QVERIFY2(found, qPrintable(QString::fromStdString(lesson.name + ": " + variant)));
      }
    }
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestBench)
#include "test_bench.moc"
