// Export: PNG at the requested pixel size and DPI, SVG that parses with drawing elements, PDF,
// CSV with the plot's numbers; the panel's export menu with the file dialog bypassed.
#include "test_main.h"

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include "plot_test_runs.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/plot_export.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/scaling_plot.h"
#include "ui/plots/timeline_plot.h"
#include "ui/plots/timing_bars_plot.h"

using gl::ExecutorKind;
using namespace gl::ui;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList csvLines(const QString& path) {
  return QString::fromUtf8(readAll(path)).trimmed().split(QLatin1Char('\n'));
}

// A gradient-lines plot holding the decay run's per-step norms.
struct DecayPlot {
  std::unique_ptr<plottest::DecayRun> run = plottest::runDecay(8, 4, 0.5);
  GradientLinesPlot plot;
  DecayPlot() {
    plot.setSeries(gradientNormSeries(run->run.loops.at(run->loopNode), &run->graph));
    plot.setStepCursor(3);
  }
};

}  // namespace

class TestPlotExport : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  QString path(const QString& name) const { return dir_.filePath(name); }

 private slots:
  void pngHasTheRequestedPixelSize_data() {
    QTest::addColumn<QSize>("pixels");
    QTest::addColumn<int>("dpi");
    QTest::newRow("screen") << QSize(640, 400) << 96;
    QTest::newRow("print") << QSize(1600, 1000) << 300;
    QTest::newRow("odd") << QSize(777, 333) << 144;
  }
  void pngHasTheRequestedPixelSize() {
    QFETCH(QSize, pixels);
    QFETCH(int, dpi);
    DecayPlot p;
    const QString file = path(QStringLiteral("plot_%1.png").arg(dpi));
    QString error;
    QVERIFY2(exportPng(&p.plot, file, pixels, dpi, &error), qPrintable(error));
    QImage image;
    QVERIFY(image.load(file, "png"));
    QCOMPARE(image.size(), pixels);
    QVERIFY(std::abs(image.dotsPerMeterX() * 0.0254 - dpi) < 1);
    // Something was drawn: not a blank page.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 3);
  }

  // The red step cursor follows the step controls on screen; a figure has it only on request,
  // and the plot on screen keeps it either way.
  void stepCursorIsAnExportOption() {
    GradientLinesPlot plot;
    plot.setSeries({{QStringLiteral("x"), {0, 1, 2, 3, 4}, {1.0, 2.0, 1.5, 3.0, 2.5}}});
    plot.setStepCursor(2);
    QVERIFY(plot.stepCursorVisible());
    auto redPixels = [](const QString& file) {
      QImage image;
      if (!image.load(file, "png")) return -1;
      int n = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
          const QColor c = image.pixelColor(x, y);
          n += c.red() > 170 && c.green() < 90 && c.blue() < 90 ? 1 : 0;
        }
      return n;
    };
    ExportOptions options;
    options.size = QSize(600, 400);
    options.dpi = 96;
    QVERIFY(exportPlot(&plot, ExportFormat::Png, path("no_cursor.png"), options));
    QVERIFY(plot.stepCursorVisible());
    options.stepCursor = true;
    QVERIFY(exportPlot(&plot, ExportFormat::Png, path("cursor.png"), options));
    QCOMPARE(redPixels(path("no_cursor.png")), 0);
    QVERIFY(redPixels(path("cursor.png")) > 50);  // a dashed line across the axis rect
  }

  void svgParsesWithDrawingElements() {
    DecayPlot p;
    const QString file = path(QStringLiteral("plot.svg"));
    QString error;
    QVERIFY2(exportSvg(&p.plot, file, QSize(600, 400), &error), qPrintable(error));
    QXmlStreamReader xml(readAll(file));
    bool sawSvgRoot = false;
    int drawing = 0, text = 0;
    while (!xml.atEnd()) {
      if (xml.readNext() != QXmlStreamReader::StartElement) continue;
      const auto name = xml.name();
      if (name == QLatin1String("svg")) sawSvgRoot = true;
      if (name == QLatin1String("path") || name == QLatin1String("polyline") ||
          name == QLatin1String("rect") || name == QLatin1String("line"))
        ++drawing;
      if (name == QLatin1String("text")) ++text;
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(sawSvgRoot);
    QVERIFY(drawing > 5);
    QVERIFY(text > 3);  // tick labels, axis labels, title are text, not pixels
  }

  void pdfIsAPdf() {
    DecayPlot p;
    const QString file = path(QStringLiteral("plot.pdf"));
    QString error;
    QVERIFY2(exportPdf(&p.plot, file, QSize(600, 400), &error), qPrintable(error));
    const QByteArray bytes = readAll(file);
    QVERIFY(bytes.startsWith("%PDF"));
    QVERIFY(bytes.size() > 1000);
  }

  void csvHasHeaderRowsAndTheNumbers() {
    DecayPlot p;
    const QString file = path(QStringLiteral("grad.csv"));
    QVERIFY(exportCsv(&p.plot, file));
    const QStringList lines = csvLines(file);
    QCOMPARE(lines.size(), 1 + 9);
    QCOMPARE(lines[0], QStringLiteral("series,step,value"));
    const gl::LoopRecord& loop = p.run->run.loops.at(p.run->loopNode);
    for (int t = 0; t <= 8; ++t) {
      const QStringList cells = lines[t + 1].split(QLatin1Char(','));
      QCOMPARE(cells.size(), 3);
      QCOMPARE(cells[0], QStringLiteral("y"));
      QCOMPARE(cells[1].toInt(), t);
      QCOMPARE(cells[2].toDouble(), loop.adjoints[size_t(t)][1].l2);  // exact round trip
    }
  }

  void csvOfEveryPlot() {
    TimingBarsPlot bars;
    bars.setTimings({{QStringLiteral("serial"), ExecutorKind::Serial, 1.5},
                     {QStringLiteral("vectorized"), ExecutorKind::Serial, 0.02}});
    QVERIFY(exportCsv(&bars, path(QStringLiteral("bars.csv"))));
    QCOMPARE(
        csvLines(path(QStringLiteral("bars.csv"))),
        (QStringList{"variant,executor,seconds", "serial,serial,1.5", "vectorized,serial,0.02"}));

    HeatMapPlot heat;
    heat.setData(heatMapFromTensor(plottest::runPerStepJacobian(4).jacobian));
    QVERIFY(exportCsv(&heat, path(QStringLiteral("heat.csv"))));
    QCOMPARE(csvLines(path(QStringLiteral("heat.csv"))).size(), 1 + 16);

    auto d = plottest::runDecay(4, 4, 0.5);
    TimelinePlot timeline;
    timeline.setTimeline(timelineData(d->run, &d->graph));
    QVERIFY(exportCsv(&timeline, path(QStringLiteral("timeline.csv"))));
    const QStringList lines = csvLines(path(QStringLiteral("timeline.csv")));
    QCOMPARE(lines.size(), 1 + int(d->run.timeline.size()));
    QVERIFY(lines[0].startsWith(QStringLiteral("thread,op,node")));

    // A plain QCustomPlot exports its graphs.
    QCustomPlot plain;
    plain.addGraph()->setData({1, 2}, {3, 4});
    plain.graph(0)->setName(QStringLiteral("g"));
    QCOMPARE(plotCsv(&plain), QStringLiteral("series,x,y\ng,1,3\ng,2,4\n"));
  }

  void formatsAndErrors() {
    QCOMPARE(formatFromPath(QStringLiteral("/a/b.SVG")), std::optional(ExportFormat::Svg));
    QCOMPARE(formatFromPath(QStringLiteral("b.csv")), std::optional(ExportFormat::Csv));
    QVERIFY(!formatFromPath(QStringLiteral("b.txt")).has_value());
    DecayPlot p;
    QString error;
    QVERIFY(!exportCsv(&p.plot, QStringLiteral("/nonexistent-dir/x.csv"), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(
        !exportPng(&p.plot, QStringLiteral("/nonexistent-dir/x.png"), QSize(10, 10), 96, &error));
    QVERIFY(!exportPng(&p.plot, path(QStringLiteral("zero.png")), QSize(0, 10), 96, &error));
  }

  // The export menu with the file dialog replaced by a chooser that returns a path.
  void panelExportsTheCurrentPlotThroughTheMenu() {
    PlotsPanel panel;
    panel.showTimings({{QStringLiteral("serial"), ExecutorKind::Serial, 2.0},
                       {QStringLiteral("fused"), ExecutorKind::Serial, 0.5}});
    panel.showPlot(panel.timingBars());
    ExportOptions options;
    options.size = QSize(500, 300);
    options.dpi = 96;
    panel.setExportOptions(options);
    QList<ExportFormat> asked;
    panel.setPathChooser([&](ExportFormat f, const QString& suggested) {
      asked.push_back(f);
      return suggested.contains(QStringLiteral("time-per-variant"))
                 ? path(QStringLiteral("menu.") + formatSuffix(f))
                 : QString();
    });
    QSignalSpy exported(&panel, &PlotsPanel::exported);
    for (ExportFormat f :
         {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf, ExportFormat::Csv})
      panel.exportAction(f)->trigger();
    QCOMPARE(asked.size(), 4);
    QCOMPARE(exported.size(), 4);
    QImage png(path(QStringLiteral("menu.png")));
    QCOMPARE(png.size(), QSize(500, 300));
    QVERIFY(readAll(path(QStringLiteral("menu.pdf"))).startsWith("%PDF"));
    QVERIFY(readAll(path(QStringLiteral("menu.svg"))).contains("<svg"));
    QCOMPARE(csvLines(path(QStringLiteral("menu.csv"))).size(), 3);

    // An empty answer (the dialog cancelled) writes nothing.
    panel.setPathChooser([](ExportFormat, const QString&) { return QString(); });
    panel.exportAction(ExportFormat::Png)->trigger();
    QCOMPARE(exported.size(), 4);

    // A failed export says so.
    QSignalSpy failed(&panel, &PlotsPanel::exportFailed);
    QVERIFY(!panel.exportCurrent(ExportFormat::Csv, QStringLiteral("/nonexistent-dir/x.csv")));
    QCOMPARE(failed.size(), 1);
  }

  // Writes one PNG per plot, with sample data, to $GRADLAB_PLOT_SAMPLES (for looking at them).
  void samplePngs() {
    const QString out = qEnvironmentVariable("GRADLAB_PLOT_SAMPLES");
    if (out.isEmpty()) QSKIP("set GRADLAB_PLOT_SAMPLES=<dir> to write sample PNGs");
    for (bool dark : {false, true}) {
      PlotsPanel panel;
      panel.setDarkMode(dark);
      auto d = plottest::runDecay(30, 4, 0.8, true);
      panel.showLoopGradients(d->run.loops.at(d->loopNode), &d->graph);
      panel.showJacobian(plottest::runPerStepJacobian(12).jacobian);
      panel.showTimings({{"serial", ExecutorKind::Serial, 12.1},
                         {"serial", ExecutorKind::Parallel, 7.9},
                         {"parallel", ExecutorKind::Serial, 11.8},
                         {"parallel", ExecutorKind::Parallel, 3.2},
                         {"vectorized", ExecutorKind::Serial, 0.41},
                         {"vectorized", ExecutorKind::Parallel, 0.18},
                         {"fused", ExecutorKind::Serial, 0.2},
                         {"fused", ExecutorKind::Parallel, 0.09}});
      ScalingData s;
      s.param = QStringLiteral("N (layers)");
      for (double n : {1, 2, 4, 8, 16, 32}) {
        s.add("list", n, 0.004 * n);
        s.add("einsum", n, 0.0015 * std::pow(n, 0.6));
        s.add("vectorized_map", n, 0.002 * std::pow(n, 0.7));
      }
      panel.showScaling(s);
      panel.scaling()->setLogX(true);
      panel.scaling()->setLogY(true);
      panel.showTimeline(d->run, &d->graph);
      panel.setStepCursor(12);
      const QString suffix = dark ? QStringLiteral("_dark") : QString();
      const QStringList names = {"gradients", "heatmap", "timings", "scaling", "timeline"};
      for (int i = 0; i < names.size(); ++i) {
        const QString base = out + "/plot_" + names[i] + suffix;
        QVERIFY(exportPng(panel.plots()[i], base + ".png", QSize(1200, 750), 144));
        QVERIFY(exportSvg(panel.plots()[i], base + ".svg", QSize(800, 500)));
      }
    }
  }
};

GRADLAB_TEST_MAIN(TestPlotExport)
#include "test_plot_export.moc"
