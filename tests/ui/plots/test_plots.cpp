// The plots show the engine's numbers: gradient lines, heat map, timing bars, scaling curves and
// the per-thread timeline, fed from real runs; cursor, log-y, dark mode and hover on real widgets.
#include "test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>

#include "plot_test_runs.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/scaling_plot.h"
#include "ui/plots/timeline_plot.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/present/result_views.h"

using gl::ExecutorKind;
using namespace gl::ui;

namespace {

// Lays a plot out at a fixed size so that pixel <-> coordinate conversions are defined.
void layOut(QCustomPlot* plot) {
  plot->resize(800, 500);
  plot->replot(QCustomPlot::rpImmediateRefresh);
}

int csvRows(const QString& csv) { return int(csv.trimmed().split(QLatin1Char('\n')).size()) - 1; }

}  // namespace

class TestPlots : public QObject {
  Q_OBJECT
 private slots:
  // LoopRecord l2 == adapter numbers == graph data, and all equal the closed form.
  void gradientLinesHoldTheEngineNumbers() {
    auto d = plottest::runDecay(8, 4, 0.5);
    QVERIFY(d->run.loops.count(d->loopNode));
    const gl::LoopRecord& loop = d->run.loops.at(d->loopNode);
    QCOMPARE(loop.adjoints.size(), size_t(9));

    const QVector<SeriesData> series = gradientNormSeries(loop, &d->graph);
    QCOMPARE(series.size(), 1);  // the int32 counter has no gradient
    QCOMPARE(series[0].name, QStringLiteral("y"));
    QCOMPARE(series[0].x.size(), 9);

    GradientLinesPlot plot;
    plot.setSeries(series);
    QCOMPARE(plot.graphCount(), 1);
    const auto data = plot.graph(0)->data();
    QCOMPARE(data->size(), 9);
    for (int t = 0; t <= 8; ++t) {
      const double recorded = loop.adjoints[size_t(t)][1].l2;
      QCOMPARE(series[0].x[t], double(t));
      QCOMPARE(series[0].y[t], recorded);
      QCOMPARE(data->at(t)->key, double(t));
      QCOMPARE(data->at(t)->value, recorded);
      QVERIFY2(std::abs(recorded - d->expectedNorm(t)) < 1e-12,
               qPrintable(
                   QStringLiteral("t=%1: %2 vs %3").arg(t).arg(recorded).arg(d->expectedNorm(t))));
    }
    QCOMPARE(plot.graph(0)->name(), QStringLiteral("y"));
    QVERIFY(plot.legend->visible());
    QVERIFY(!plot.yAxis->label().isEmpty());
    QVERIFY(plot.xAxis->label().contains(QStringLiteral("step")));
  }

  void valueNormsComeFromCarriedRecords() {
    auto d = plottest::runDecay(5, 9, 0.5);
    const gl::LoopRecord& loop = d->run.loops.at(d->loopNode);
    const SeriesData s = valueNormSeries(loop, 1, QStringLiteral("y"));
    QCOMPARE(s.y.size(), int(loop.carried.size()));
    for (int t = 0; t < s.y.size(); ++t) {
      QCOMPARE(s.y[t], loop.carried[size_t(t)][1].l2);
      QVERIFY(std::abs(s.y[t] - 3.0 * std::pow(0.5, t)) < 1e-12);  // sqrt(9) * 0.5^t
    }
  }

  // Seed-b: the heat map cells are the engine's jacobian d x_t / d w_k, lower triangular.
  void heatMapCellsEqualTheJacobian() {
    const int T = 6;
    const plottest::JacobianRun r = plottest::runPerStepJacobian(T);
    QCOMPARE(r.jacobian.shape(), (gl::Shape{T, T}));
    const HeatMapData data = heatMapFromTensor(r.jacobian);
    QCOMPARE(data.rows, T);
    QCOMPARE(data.cols, T);
    HeatMapPlot plot;
    plot.setData(data);
    for (int t = 0; t < T; ++t)
      for (int k = 0; k < T; ++k) {
        const double engine = r.jacobian.at(t * T + k);
        QCOMPARE(data.at(t, k), engine);
        QCOMPARE(plot.cellValue(t, k), engine);
        const double closedForm = k <= t ? r.xs.at(t) / r.w.at(k) : 0.0;
        QVERIFY(std::abs(engine - closedForm) < 1e-12);
      }
    QVERIFY(plot.colorMap()->colorScale() == plot.colorScale());
    QCOMPARE(plot.colorMap()->data()->keySize(), T);
    QCOMPARE(plot.colorMap()->data()->valueSize(), T);
    QVERIFY(!plot.colorScale()->axis()->label().isEmpty());
    // The colour range spans the data.
    double lo = data.values[0], hi = data.values[0];
    for (double v : data.values) lo = std::min(lo, v), hi = std::max(hi, v);
    QCOMPARE(plot.colorMap()->dataRange().lower, lo);
    QCOMPARE(plot.colorMap()->dataRange().upper, hi);
    QCOMPARE(csvRows(plot.toCsv()), T * T);
  }

  void heatMapHoverNamesTheCell() {
    HeatMapPlot plot;
    plot.setData(HeatMapData{2, 3, {1, 2, 3, 4, 5, 6.5}});
    layOut(&plot);
    const QPointF pixel(plot.xAxis->coordToPixel(2), plot.yAxis->coordToPixel(1));
    const QString text = plot.hoverText(pixel);
    QVERIFY2(text.contains(QStringLiteral("6.5")), qPrintable(text));
  }

  void timingBarsEqualTheTimings() {
    auto serialRun = plottest::runDecay(50, 4, 0.5, false);
    auto parallelRun = plottest::runDecay(50, 4, 0.5, true);
    const QVector<TimingData> timings = {
        timingOf(QStringLiteral("serial"), ExecutorKind::Serial, serialRun->run),
        timingOf(QStringLiteral("serial"), ExecutorKind::Parallel, parallelRun->run),
        {QStringLiteral("vectorized"), ExecutorKind::Serial, 0.25},
        {QStringLiteral("vectorized"), ExecutorKind::Parallel, 0.125},
        {QStringLiteral("fused"), ExecutorKind::Serial, 0.0625}};
    QCOMPARE(timings[0].seconds, serialRun->run.seconds);
    QCOMPARE(timings[1].seconds, parallelRun->run.seconds);

    TimingBarsPlot plot;
    plot.setTimings(timings);
    QCOMPARE(plot.variants(), (QStringList{"serial", "vectorized", "fused"}));
    QVERIFY(plot.executors() ==
            (QList<ExecutorKind>{ExecutorKind::Serial, ExecutorKind::Parallel}));
    QCOMPARE(plot.yAxis->label(), QStringLiteral("seconds"));
    QCOMPARE(plot.group()->size(), 2);
    QCPBars* serial = plot.barsFor(ExecutorKind::Serial);
    QCPBars* parallel = plot.barsFor(ExecutorKind::Parallel);
    QVERIFY(serial && parallel);
    QCOMPARE(serial->data()->size(), 3);
    QCOMPARE(parallel->data()->size(), 2);
    QCOMPARE(serial->data()->at(0)->key, 0.0);
    QCOMPARE(serial->data()->at(0)->value, serialRun->run.seconds);
    QCOMPARE(serial->data()->at(1)->value, 0.25);
    QCOMPARE(serial->data()->at(2)->key, 2.0);
    QCOMPARE(serial->data()->at(2)->value, 0.0625);
    QCOMPARE(parallel->data()->at(0)->value, parallelRun->run.seconds);
    QCOMPARE(parallel->data()->at(1)->value, 0.125);
    QCOMPARE(csvRows(plot.toCsv()), 5);
    QVERIFY(plot.toCsv().startsWith(QStringLiteral("variant,executor,seconds\n")));

    layOut(&plot);
    // Hovering the middle of the "vectorized"/serial bar names it.
    // Two executors side by side: "serial" is the left bar, half a bar (plus spacing) left of
    // the category centre.
    const double keyPx = plot.xAxis->coordToPixel(1 - (serial->width() + 0.02) / 2);
    const QString text = plot.hoverText(QPointF(keyPx, plot.yAxis->coordToPixel(0.1)));
    QVERIFY2(text.contains(QStringLiteral("vectorized")) && text.contains(QStringLiteral("0.25")),
             qPrintable(text));
  }

  // The title and labels say what is plotted: the gradient's script name and its shape, not
  // seed-b's "Per-step jacobian, output step t, weight k" for every matrix.
  void heatMapTitledByTheGradient() {
    const gl::Tensor m = gl::Tensor::full(gl::DType::F32, {10, 50}, 0.5f);
    const HeatMapData data = heatMapFromTensor(m, QStringLiteral("fx_grads"));
    QCOMPARE(data.title, QStringLiteral("fx_grads  [10, 50]"));
    HeatMapPlot plot;
    plot.setData(data);
    QCOMPARE(plot.plotTitle(), QStringLiteral("fx_grads  [10, 50]"));
    QCOMPARE(plot.colorScale()->axis()->label(), QStringLiteral("fx_grads"));
    for (const QString& text : {plot.plotTitle(), plot.xAxis->label(), plot.yAxis->label()})
      QVERIFY2(!text.contains(QStringLiteral("step")) && !text.contains(QStringLiteral("weight")),
               qPrintable(text));
    QVERIFY(plot.yAxis->label().contains(QStringLiteral("10")));
    QVERIFY(plot.xAxis->label().contains(QStringLiteral("50")));
    PlotsPanel panel;
    panel.showJacobian(m, QStringLiteral("dx_dw"));
    QCOMPARE(panel.heatMap()->plotTitle(), QStringLiteral("dx_dw  [10, 50]"));
  }

  // Hover where a cell is drawn (found in the rendered pixels, not through the axes' own
  // mapping) names that cell: one bright cell among dark ones, on a shown, resized widget.
  void heatMapHoverAtTheDrawnCell() {
    const int rows = 10, cols = 50, hotRow = 7, hotCol = 31;
    HeatMapData data;
    data.rows = rows;
    data.cols = cols;
    data.values.fill(0.0, rows * cols);
    data.values[hotRow * cols + hotCol] = 42.0;
    HeatMapPlot plot;
    plot.setData(data);
    plot.resize(640, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.resize(1300, 760);  // hover after a resize: the mapping follows the new layout
    plot.replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = plot.toPixmap(plot.width(), plot.height()).toImage();
    // The hot cell is the gradient's top colour (yellow): bright red and green, little blue.
    double sx = 0, sy = 0;
    int n = 0;
    const QRect area = plot.axisRect()->rect();
    for (int y = area.top(); y <= area.bottom(); ++y)
      for (int x = area.left(); x <= area.right(); ++x) {
        const QColor c = image.pixelColor(x, y);
        if (c.red() > 200 && c.green() > 200 && c.blue() < 100) sx += x, sy += y, ++n;
      }
    QVERIFY2(n > 4, "the hot cell was not found in the rendered plot");
    const QPointF centre(sx / n, sy / n);
    const QString text = plot.hoverText(centre);
    QVERIFY2(text.contains(QStringLiteral("= 42")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(": %1").arg(hotRow)) &&
                 text.contains(QStringLiteral(": %1").arg(hotCol)),
             qPrintable(text));
    // One cell to the left is another cell, with value 0.
    const double cellWidth = double(area.width()) / cols;
    QVERIFY(plot.hoverText(centre - QPointF(cellWidth, 0)).contains(QStringLiteral("= 0")));
  }

  // Variants appear in the script's order (the window's timings come from a sorted map), and
  // the legend sits outside the data: it covers no bar.
  void timingBarsInScriptOrderLegendOutside() {
    const QVector<TimingData> alphabetical = {
        {QStringLiteral("einsum"), ExecutorKind::Parallel, 0.5},
        {QStringLiteral("einsum"), ExecutorKind::Serial, 0.9},
        {QStringLiteral("python_list"), ExecutorKind::Parallel, 2.0},
        {QStringLiteral("python_list"), ExecutorKind::Serial, 3.0},
        {QStringLiteral("vectorized"), ExecutorKind::Serial, 0.1}};
    TimingBarsPlot plot;
    plot.setTimings(alphabetical, {QStringLiteral("python_list"), QStringLiteral("einsum"),
                                   QStringLiteral("unrun"), QStringLiteral("vectorized")});
    QCOMPARE(plot.variants(), (QStringList{"python_list", "einsum", "vectorized"}));
    QCOMPARE(plot.barsFor(ExecutorKind::Serial)->data()->at(0)->value, 3.0);
    layOut(&plot);
    QVERIFY(plot.legend->visible());
    const QRect legend = plot.legend->outerRect();
    QVERIFY(legend.isValid());
    QVERIFY(!legend.intersects(plot.axisRect()->rect()));
    const double n = plot.executors().size();
    int checked = 0;
    for (int b = 0; b < plot.executors().size(); ++b) {
      const QCPBars* bars = plot.barsFor(plot.executors()[b]);
      const double offset = (b - (n - 1) / 2) * (bars->width() + 0.02);
      for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        const double k = it->key + offset;
        const QRectF bar(
            QPointF(plot.xAxis->coordToPixel(k - bars->width() / 2),
                    plot.yAxis->coordToPixel(it->value)),
            QPointF(plot.xAxis->coordToPixel(k + bars->width() / 2), plot.yAxis->coordToPixel(0)));
        QVERIFY2(!QRectF(legend).intersects(bar.normalized()),
                 qPrintable(QStringLiteral("legend covers the bar at %1").arg(k)));
        ++checked;
      }
    }
    QCOMPARE(checked, 5);
  }

  // Before any sweep the Scaling tab says how to fill it; its button asks for the Sweep dialog.
  void emptyScalingOffersASweep() {
    PlotsPanel panel;
    panel.resize(800, 500);
    panel.show();
    panel.showPlot(panel.scaling());
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QPushButton* button = panel.scaling()->sweepButton();
    QVERIFY(button->isVisible());
    QVERIFY(panel.scaling()->rect().contains(button->geometry()));
    QSignalSpy asked(&panel, &PlotsPanel::sweepRequested);
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(asked.count(), 1);
    ScalingData started;
    started.param = QStringLiteral("N");  // a sweep under way, no point yet
    panel.showScaling(started);
    QVERIFY(!button->isVisible());
    panel.clearResults();  // another lesson: empty again
    QVERIFY(button->isVisible());
  }

  // The ops with the most self time get colours, the rest one grey; the legend has one entry
  // per coloured op and one for the others.
  void timelineColoursTheTopOps() {
    TimelineData data;
    // Op i takes i+1 ms, on thread 0 for i < 2, else 1 or 2; a loop on thread 0 encloses op 0..1
    // (its self time is what is left: 20 - 1 - 2 = 17 ms, the largest).
    data.events.push_back({100, "while", "while#100", 0, -1, 0.0, 20.0});
    double t = 0;
    for (int i = 0; i < 12; ++i) {
      const QString op = QStringLiteral("op%1").arg(i, 2, 10, QLatin1Char('0'));
      const int thread = i < 2 ? 0 : 1 + i % 2;
      data.events.push_back({i, op, op, thread, -1, t, t + i + 1});
      t += i + 1;
    }
    TimelinePlot plot;
    plot.setTimeline(data);
    QCOMPARE(plot.rowCount(), 3);
    QCOMPARE(plot.selfMs(QStringLiteral("while")), 17.0);
    QCOMPARE(plot.ops().size(), 13);
    QCOMPARE(plot.ops().first(), QStringLiteral("while"));
    QCOMPARE(plot.ops()[1], QStringLiteral("op11"));
    int entries = 0;  // itemCount() counts the empty cells of the wrapped grid too
    for (int i = 0; i < plot.legend->itemCount(); ++i) entries += plot.legend->item(i) ? 1 : 0;
    QCOMPARE(entries, TimelinePlot::kColouredOps + 1);
    QSet<QRgb> colours;
    for (int i = 0; i < TimelinePlot::kColouredOps; ++i) {
      QVERIFY(plot.isColoured(plot.ops()[i]));
      colours.insert(plot.colorOfOp(plot.ops()[i]).rgb());
    }
    QCOMPARE(colours.size(), TimelinePlot::kColouredOps);
    for (int i = TimelinePlot::kColouredOps; i < plot.ops().size(); ++i) {
      QVERIFY(!plot.isColoured(plot.ops()[i]));
      QCOMPARE(plot.colorOfOp(plot.ops()[i]), plot.otherColor());
    }
    QVERIFY(!colours.contains(plot.otherColor().rgb()));
  }

  // The window's trace export: the Timeline tab's events as Chrome trace JSON, one X event per
  // engine timeline event, tid = the engine's thread.
  void timelineExportsChromeTrace() {
    auto d = plottest::runDecay(6, 4, 0.5, true);
    PlotsPanel panel;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("trace.json"));
    QSignalSpy failed(&panel, &PlotsPanel::exportFailed);
    QVERIFY(!panel.exportTrace(path));  // nothing run yet
    QCOMPARE(failed.count(), 1);
    panel.showTimeline(d->run, &d->graph, QStringLiteral("decay"));
    QString chosen;
    panel.setTracePathChooser([&](const QString& suggested) {
      chosen = suggested;
      return path;
    });
    QSignalSpy exported(&panel, &PlotsPanel::exported);
    panel.traceAction()->trigger();
    QCOMPARE(exported.count(), 1);
    QVERIFY(chosen.endsWith(QStringLiteral("trace.json")));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVector<QJsonObject> xs;
    QString process;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
      const QJsonObject e = v.toObject();
      if (e.value(QStringLiteral("ph")).toString() == QStringLiteral("X")) xs.push_back(e);
      if (e.value(QStringLiteral("name")).toString() == QStringLiteral("process_name"))
        process =
            e.value(QStringLiteral("args")).toObject().value(QStringLiteral("name")).toString();
    }
    QCOMPARE(process, QStringLiteral("decay"));
    QCOMPARE(xs.size(), qsizetype(d->run.timeline.size()));
    for (size_t i = 0; i < d->run.timeline.size(); ++i) {
      const gl::TimelineEvent& t = d->run.timeline[i];
      const QJsonObject& e = xs[qsizetype(i)];
      QCOMPARE(e.value(QStringLiteral("tid")).toInt(), t.thread);
      QCOMPARE(e.value(QStringLiteral("name")).toString(),
               QString::fromStdString(std::string(d->graph.node(t.node).opName())));
      QVERIFY(std::abs(e.value(QStringLiteral("ts")).toDouble() - t.start * 1e6) < 0.01);
      QVERIFY(std::abs(e.value(QStringLiteral("dur")).toDouble() - (t.end - t.start) * 1e6) < 0.01);
    }
  }

  void scalingCurvesAndLogAxes() {
    ScalingData data;
    data.param = QStringLiteral("N");
    for (double n : {1.0, 2.0, 4.0, 8.0}) {
      data.add(QStringLiteral("list"), n, 0.01 * n);
      data.add(QStringLiteral("einsum"), n, 0.002 * n);
    }
    ScalingPlot plot;
    plot.setScaling(data);
    QCOMPARE(plot.graphCount(), 2);
    QCOMPARE(plot.graph(0)->name(), QStringLiteral("list"));
    QCOMPARE(plot.graph(1)->data()->at(3)->value, 0.016);
    QCOMPARE(plot.xAxis->label(), QStringLiteral("N"));
    QCOMPARE(plot.yAxis->label(), QStringLiteral("seconds"));
    plot.setLogX(true);
    plot.setLogY(true);
    QCOMPARE(plot.xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot.yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot.graph(0)->data()->at(2)->value, 0.04);
    QCOMPARE(csvRows(plot.toCsv()), 8);
    QVERIFY(plot.toCsv().startsWith(QStringLiteral("variant,N,seconds\n")));
  }

  // One rectangle per engine timeline event, spanning its start..end in ms, on its thread row.
  void timelineHasOneRectPerEvent() {
    auto d = plottest::runDecay(6, 4, 0.5, true);
    QVERIFY(!d->run.timeline.empty());
    const TimelineData data = timelineData(d->run, &d->graph);
    TimelinePlot plot;
    plot.setTimeline(data);
    QCOMPARE(plot.rectCount(), int(d->run.timeline.size()));
    int threads = 0;
    for (const auto& e : d->run.timeline) threads = std::max(threads, e.thread + 1);
    QCOMPARE(plot.rowCount(), threads);
    for (int i = 0; i < data.events.size(); ++i) {
      const gl::TimelineEvent& e = d->run.timeline[size_t(i)];
      const QRectF r = plot.eventRect(i);
      QCOMPARE(r.left(), e.start * 1e3);
      QCOMPARE(r.right(), e.end * 1e3);
      QVERIFY(std::abs(r.center().y() - e.thread) < 1e-12);
      QCOMPARE(data.events[i].op,
               QString::fromStdString(std::string(d->graph.node(e.node).opName())));
    }
    QCOMPARE(csvRows(plot.toCsv()), int(d->run.timeline.size()));
  }

  void timelineRowsPerThreadAndHover() {
    TimelineData data;
    data.events = {{1, "mul", "mul#1", 0, 0, 0.0, 2.0},
                   {2, "add", "add#2 'y'", 1, 3, 1.0, 4.0},
                   {1, "mul", "mul#1", 2, 1, 0.5, 1.5},
                   {2, "add", "add#2 'y'", 2, 2, 2.0, 3.0}};
    TimelinePlot plot;
    plot.setTimeline(data);
    QCOMPARE(plot.rectCount(), 4);
    QCOMPARE(plot.rowCount(), 3);
    QCOMPARE(plot.ops(), (QStringList{"add", "mul"}));
    QVERIFY(plot.colorOfOp("add") != plot.colorOfOp("mul"));
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot.yAxis->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 3);
    QCOMPARE(ticker->ticks().value(2), QStringLiteral("thread 2"));
    QCOMPARE(plot.xAxis->label(), QStringLiteral("time (ms)"));
    layOut(&plot);
    const QPointF onSecond(plot.xAxis->coordToPixel(2.5), plot.yAxis->coordToPixel(1));
    QCOMPARE(plot.eventAt(onSecond), 1);
    const QString text = plot.hoverText(onSecond);
    QVERIFY2(text.contains(QStringLiteral("add#2")) &&
                 text.contains(QStringLiteral("iteration 3")) &&
                 text.contains(QStringLiteral("3 ms")),
             qPrintable(text));
    QCOMPARE(plot.eventAt(QPointF(plot.xAxis->coordToPixel(3.5), plot.yAxis->coordToPixel(0))), -1);
  }

  // A loop's bar encloses its body's ops: they are drawn inside it and win the hover.
  void timelineNestsBodyOpsInsideTheirLoop() {
    TimelineData data;
    data.events = {{5, "while", "while#5", 0, -1, 0.0, 10.0},
                   {6, "mul", "mul#6", 0, 0, 1.0, 2.0},
                   {7, "add", "add#7", 0, 1, 3.0, 4.0}};
    TimelinePlot plot;
    plot.setTimeline(data);
    QCOMPARE(plot.nestingDepth(0), 0);
    QCOMPARE(plot.nestingDepth(1), 1);
    QCOMPARE(plot.nestingDepth(2), 1);
    QVERIFY(plot.eventRect(1).height() < plot.eventRect(0).height());
    QCOMPARE(plot.legend->itemCount(), 3);
    layOut(&plot);
    const double row = plot.yAxis->coordToPixel(0);
    QCOMPARE(plot.eventAt(QPointF(plot.xAxis->coordToPixel(1.5), row)), 1);
    QCOMPARE(plot.eventAt(QPointF(plot.xAxis->coordToPixel(5.0), row)), 0);
  }

  void cursorMovesToTheStep() {
    PlotsPanel panel;
    auto d = plottest::runDecay(8, 4, 0.5);
    panel.showLoopGradients(d->run.loops.at(d->loopNode), &d->graph);
    panel.showJacobian(plottest::runPerStepJacobian(6).jacobian);
    panel.setStepCursor(3);
    QVERIFY(panel.gradientLines()->stepCursorVisible());
    QCOMPARE(panel.gradientLines()->stepCursorLine()->point1->coords().x(), 3.0);
    QCOMPARE(panel.gradientLines()->stepCursorLine()->point2->coords().x(), 3.0);
    // The heat map's step axis is its rows: a horizontal line at t.
    QCOMPARE(panel.heatMap()->stepCursorLine()->point1->coords().y(), 3.0);
    QCOMPARE(panel.heatMap()->stepCursorLine()->point2->coords().y(), 3.0);
    QVERIFY(!panel.timingBars()->stepCursorVisible());
    QVERIFY(!panel.timeline()->stepCursorVisible());
    // The timeline has no step axis: it outlines the events of iteration t instead.
    auto d2 = plottest::runDecay(6, 4, 0.5);
    panel.showTimeline(d2->run, &d2->graph);
    panel.setStepCursor(3);
    QCOMPARE(panel.timeline()->highlightedIteration(), qint64(3));
    int atThree = 0;
    for (const auto& e : d2->run.timeline) atThree += e.iteration == 3 ? 1 : 0;
    QVERIFY(atThree > 0);
    QCOMPARE(panel.timeline()->highlightedEventCount(), atThree);
    panel.setStepCursor(5);
    QCOMPARE(panel.gradientLines()->stepCursor(), 5.0);
    QCOMPARE(panel.gradientLines()->stepCursorLine()->point1->coords().x(), 5.0);
  }

  // The Jacobian tab after a run: seed-b's backward_passes stacks T gradients into dx_dw, a
  // matrix of gradients that is no gradient output itself; a variant without one empties the
  // tab (it kept the last lesson's matrix and scale, issue #30 item 5).
  void jacobianTabShowsAStackOfGradientsAndEmptiesWithout() {
    const gl::lang::TracedProgram p = gl::lang::traceProgram(R"(w = tf.Variable([1.5, 2.0, 0.5])
with variant("stacked"):
    with tf.GradientTape(persistent=True) as tape:
        x = tf.math.cumprod(w)
        xs = [x[t] for t in range(3)]
    dx_dw = tf.stack([tape.gradient(xs[t], w) for t in range(3)])
    square = tf.ones([3, 3]) * 2.0
with variant("plain"):
    square = tf.ones([3, 3]) * 2.0
)",
                                                             "jac.gls", {});
    const gl::lab::ProgramRun run = gl::lab::runProgram(p, {});
    PlotsPanel panel;
    showRunOnPlots(panel, p, run.variants.at(0));
    const HeatMapData& shown = panel.heatMap()->data();
    QCOMPARE(shown.rows, 3);
    QCOMPARE(shown.cols, 3);
    // d x_t / d w_k = x_t / w_k for k <= t, 0 above the diagonal (x = cumprod(w)).
    const double w[3] = {1.5, 2.0, 0.5}, x[3] = {1.5, 3.0, 1.5};
    for (int t = 0; t < 3; ++t)
      for (int k = 0; k < 3; ++k)
        QVERIFY(std::abs(shown.at(t, k) - (k <= t ? x[t] / w[k] : 0.0)) < 1e-6);
    showRunOnPlots(panel, p, run.variants.at(1));
    QCOMPARE(panel.heatMap()->data().rows, 0);  // `square` is no gradient matrix
  }

  // A variant switch is cheap (issue #30: 0.4-1.1 s per ODE switch at seed size, building the
  // hidden timeline's 200,000 events): a timeline on a tab not in front keeps the engine's
  // events and expands and draws them when shown, or when asked about.
  void aHiddenTimelineWaitsUntilShown() {
    PlotsPanel panel;
    panel.showPlot(panel.gradientLines());
    panel.resize(800, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto d = plottest::runDecay(8, 4, 0.5);
    panel.showTimeline(d->run, &d->graph, QStringLiteral("decay"));
    TimelinePlot* timeline = panel.timeline();
    QVERIFY(timeline->waitingToBeShown());
    panel.showPlot(timeline);
    QTRY_VERIFY(!timeline->waitingToBeShown());
    QCOMPARE(timeline->rectCount(), int(d->run.timeline.size()));
    QCOMPARE(timeline->timeline().process, QStringLiteral("decay"));
    // Hidden again, a new run waits; a question about it expands it at once.
    panel.showPlot(panel.gradientLines());
    auto d2 = plottest::runDecay(5, 4, 0.5);
    panel.showTimeline(d2->run, &d2->graph);
    QVERIFY(timeline->waitingToBeShown());
    QCOMPARE(timeline->timeline().events.size(), qsizetype(d2->run.timeline.size()));
    QCOMPARE(timeline->rectCount(), int(d2->run.timeline.size()));
    QVERIFY(!timeline->waitingToBeShown());
    for (int i = 0; i < timeline->timeline().events.size(); ++i)
      QCOMPARE(timeline->timeline().events[i].node, d2->run.timeline[size_t(i)].node);
    QVERIFY(timeline->ops().contains(timeline->timeline().events[0].op));
  }

  // A timeline the engine cut at RunOptions::timelineLimit says so in its title, with how much
  // of the run it covers (issue #30 item 6).
  void aCutTimelineSaysHowMuchItShows() {
    gl::RunResult run;
    run.seconds = 3.43;
    run.timeline.push_back({});
    run.timeline.back().start = 0.010;
    run.timeline.back().end = 0.040;
    run.timeline.push_back(run.timeline.back());
    run.timeline.back().start = 0.050;
    run.timeline.back().end = 0.085;
    TimelinePlot plot;
    plot.setTimeline(timelineData(run));
    QCOMPARE(plot.plotTitle(), QStringLiteral("Timeline per thread"));
    run.timelineTruncated = true;
    plot.setTimeline(timelineData(run));
    QCOMPARE(plot.plotTitle(),
             QStringLiteral("Timeline per thread: the first 2 events only, 75.0 ms of a 3430.0 "
                            "ms run"));
  }

  // The same for the Jacobian tab: per_step's 1000x1000 dx_dw filled a hidden colour map on
  // every variant switch.
  void aHiddenHeatMapWaitsUntilShown() {
    PlotsPanel panel;
    panel.showPlot(panel.gradientLines());
    panel.resize(800, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const gl::Tensor m = plottest::runPerStepJacobian(6).jacobian;
    panel.showJacobian(m);
    HeatMapPlot* heat = panel.heatMap();
    QVERIFY(heat->waitingToBeShown());
    panel.showPlot(heat);
    QTRY_VERIFY(!heat->waitingToBeShown());
    const std::vector<double> v = m.toVector();
    QCOMPARE(heat->cellValue(5, 2), v[5 * 6 + 2]);
    panel.showPlot(panel.gradientLines());
    panel.showJacobian(gl::Tensor());  // an empty matrix, asked about while hidden
    QVERIFY(heat->waitingToBeShown());
    QCOMPARE(heat->colorMap()->data()->keySize(), 1);
    QVERIFY(!heat->waitingToBeShown());
  }

  // Stepping is cheap (issue #30: 0.31 s per step at seed size, 92 % of it the hidden
  // timeline's replot): a plot on a tab not shown replots only when shown, and a shown plot
  // whose cursor moves repaints the cursor's layer, not its data.
  void aStepReplotsOnlyWhatIsShown() {
    PlotsPanel panel;
    auto d = plottest::runDecay(8, 4, 0.5);
    panel.showLoopGradients(d->run.loops.at(d->loopNode), &d->graph);
    panel.showTimeline(d->run, &d->graph);
    panel.showPlot(panel.gradientLines());
    panel.resize(800, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setStepCursor(1);  // the first cursor: a full replot
    QTest::qWait(100);       // queued replots (zero timers) of the setup all done
    QSignalSpy lines(panel.gradientLines(), &QCustomPlot::afterReplot);
    QSignalSpy timeline(panel.timeline(), &QCustomPlot::afterReplot);
    panel.setStepCursor(3);
    QCoreApplication::processEvents();
    QCOMPARE(lines.count(), 0);
    QCOMPARE(panel.gradientLines()->stepCursorLine()->point1->coords().x(), 3.0);
    QCOMPARE(timeline.count(), 0);
    QVERIFY(panel.timeline()->replotPending());
    QCOMPARE(panel.timeline()->highlightedIteration(), qint64(3));
    // (grab() lays out the hidden tabs too, so it comes after the counts.)
    // The repainted layer shows the cursor at its new step, and no longer at the old one.
    PlotWidget* g = panel.gradientLines();
    QCOMPARE(g->layer(QStringLiteral("overlay"))->mode(), QCPLayer::lmBuffered);
    const QImage shot = g->grab().toImage();
    const double ratio = shot.width() / double(g->width());
    auto cursorPixels = [&](double step) {
      const int x = int(std::lround(g->xAxis->coordToPixel(step) * ratio));
      int red = 0;
      for (int y = int(g->axisRect()->top() * ratio); y < int(g->axisRect()->bottom() * ratio);
           ++y) {
        const QColor c = shot.pixelColor(x, y);
        red += c.red() > 170 && c.green() < 110 && c.blue() < 110;
      }
      return red;
    };
    QVERIFY2(cursorPixels(3) > 20, qPrintable(QString::number(cursorPixels(3))));
    QCOMPARE(cursorPixels(1), 0);
    panel.showPlot(panel.timeline());
    QTRY_VERIFY(timeline.count() >= 1);
    QVERIFY(!panel.timeline()->replotPending());
    // The shown timeline redraws its outlined events on every step.
    const int before = int(timeline.count());
    panel.setStepCursor(4);
    QTRY_VERIFY(timeline.count() > before);
  }

  // A series over more than three decades opens on a log axis; the user's toggle then wins.
  void logAxisChosenForWideSeries() {
    PlotsPanel panel;
    panel.showPlot(panel.gradientLines());
    GradientLinesPlot* plot = panel.gradientLines();
    const SeriesData wide{QStringLiteral("fx_grads"), {0, 1, 2, 3}, {1e-10, 1e-6, 0.1, 7.0}};
    const SeriesData narrow{QStringLiteral("x"), {0, 1, 2}, {1.0, 20.0, 900.0}};
    plot->setSeries({wide});
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
    plot->setSeries({narrow});
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);  // under 3 decades: linear
    plot->setSeries({wide});
    panel.logYAction()->trigger();  // the user turns it off
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);
    plot->setSeries({wide});
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);  // the choice is kept
    QVERIFY(!panel.logYAction()->isChecked());
    // The ODE lesson's real adjoints: from the engine, through the panel.
    PlotsPanel ode;
    auto d = plottest::runDecay(200, 4, 0.9);  // 0.9^200 = 7e-10: the ODE adjoint's span
    ode.showLoopGradients(d->run.loops.at(d->loopNode), &d->graph);
    QCOMPARE(ode.gradientLines()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(ode.logYAction()->isChecked());
  }

  // A y label longer than a short plot is tall (projector mode's fonts) goes on two lines, so
  // neither end is cut off; on a tall plot it is one line again.
  void longYLabelWrapsOnAShortPlot() {
    GradientLinesPlot plot;
    plot.setSeries({{QStringLiteral("x"), {0, 1, 2}, {1.0, 2.0, 3.0}}});
    QFont big = plot.yAxis->labelFont();
    big.setPointSizeF(16);
    plot.yAxis->setLabelFont(big);
    const QString one = plot.yAxis->label();
    QVERIFY(!one.contains(QLatin1Char('\n')));
    plot.resize(800, 230);
    plot.show();  // a hidden widget gets its resize event only when shown
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot(QCustomPlot::rpImmediateRefresh);
    plot.replot(QCustomPlot::rpImmediateRefresh);  // the first one laid out the short rect
    const QString two = plot.yAxis->label();
    QCOMPARE(two.count(QLatin1Char('\n')), 1);
    QCOMPARE(QString(two).replace(QLatin1Char('\n'), QLatin1Char(' ')), one);
    const QStringList lines = two.split(QLatin1Char('\n'));
    const QFontMetrics metrics(big);
    for (const QString& line : lines)
      QVERIFY2(metrics.horizontalAdvance(line) <= plot.axisRect()->height(), qPrintable(line));
    plot.resize(800, 900);
    QTRY_COMPARE(plot.height(), 900);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(plot.yAxis->label(), one);
  }

  void logYToggleSwitchesTheAxis() {
    PlotsPanel panel;
    panel.gradientLines()->setSeries({{QStringLiteral("x"), {0, 1, 2}, {0.0, 1e-3, 1.0}}});
    panel.showPlot(panel.gradientLines());
    QVERIFY(panel.logYAction()->isEnabled());
    panel.logYAction()->trigger();
    QCOMPARE(panel.gradientLines()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    // Zero has no place on a log axis: a gap, while the stored series keeps the engine's 0.
    QVERIFY(std::isnan(panel.gradientLines()->graph(0)->data()->at(0)->value));
    QCOMPARE(panel.gradientLines()->series()[0].y[0], 0.0);
    QCOMPARE(panel.gradientLines()->graph(0)->data()->at(1)->value, 1e-3);
    // Every decade reads 10^n: "0.0001" beside "10⁻⁶" on one axis was confusing.
    panel.gradientLines()->replot();
    const QVector<QString> labels = panel.gradientLines()->yAxis->tickVectorLabels();
    QVERIFY(labels.size() >= 2);
    static const QRegularExpression kPower(QStringLiteral("^1e[-+]\\d+$"));
    for (const QString& label : labels) QVERIFY2(kPower.match(label).hasMatch(), qPrintable(label));
    panel.logYAction()->trigger();
    QCOMPARE(panel.gradientLines()->yAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(panel.gradientLines()->graph(0)->data()->at(0)->value, 0.0);
    // Bars and the timeline have no log option: the toggle is off there.
    panel.showPlot(panel.timingBars());
    QVERIFY(!panel.logYAction()->isEnabled());
    panel.showPlot(panel.scaling());
    QVERIFY(panel.logYAction()->isEnabled());
    QVERIFY(!panel.logYAction()->isChecked());
  }

  void darkModeRecolours() {
    PlotsPanel panel;
    panel.gradientLines()->setSeries({{QStringLiteral("x"), {0, 1}, {1, 2}}});
    const QColor lightBg = panel.gradientLines()->axisRect()->backgroundBrush().color();
    panel.setDarkMode(true);
    for (PlotWidget* p : panel.plots()) {
      QVERIFY(p->darkMode());
      QVERIFY(p->axisRect()->backgroundBrush().color().lightness() < 80);
      QVERIFY(p->xAxis->tickLabelColor().lightness() > 150);
    }
    QVERIFY(lightBg.lightness() > 200);
    QCOMPARE(panel.gradientLines()->graph(0)->pen().color(), PlotPalette::dark().seriesColor(0));
    panel.setDarkMode(false);
    QCOMPARE(panel.gradientLines()->graph(0)->pen().color(), PlotPalette::light().seriesColor(0));
  }

  void hoverShowsTheNearestPoint() {
    GradientLinesPlot plot;
    plot.setSeries({{QStringLiteral("x"), {0, 1, 2}, {1.0, 0.5, 0.25}}});
    layOut(&plot);
    const QPointF near(plot.xAxis->coordToPixel(1) + 3, plot.yAxis->coordToPixel(0.5) - 2);
    const QString text = plot.hoverText(near);
    QVERIFY2(text.contains(QStringLiteral("0.5")) && text.contains(QStringLiteral("x")),
             qPrintable(text));
    QVERIFY(plot.hoverText(QPointF(plot.xAxis->coordToPixel(0.5), plot.yAxis->coordToPixel(0.1)))
                .isEmpty());
  }

  // A real mouse move over a shown plot pops up the same text.
  void mouseMoveShowsTheTooltip() {
    GradientLinesPlot plot;
    plot.setSeries({{QStringLiteral("x"), {0, 1, 2}, {1.0, 0.5, 0.25}}});
    plot.resize(800, 500);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot(QCustomPlot::rpImmediateRefresh);
    const QPoint point(int(plot.xAxis->coordToPixel(1)), int(plot.yAxis->coordToPixel(0.5)));
    QTest::mouseMove(&plot, point);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), plot.hoverText(point));
  }

  void interactionsAreOn() {
    PlotsPanel panel;
    QCOMPARE(panel.tabs()->count(), 5);
    for (PlotWidget* p : panel.plots()) {
      QVERIFY(p->interactions().testFlag(QCP::iRangeDrag));
      QVERIFY(p->interactions().testFlag(QCP::iRangeZoom));
      QVERIFY(!p->plotTitle().isEmpty());
    }
    QVERIFY(panel.gradientLines()->interactions().testFlag(QCP::iSelectPlottables));
  }

  void gradientCsvRows() {
    GradientLinesPlot plot;
    plot.setSeries(
        {{QStringLiteral("a"), {0, 1, 2}, {1, 2, 3}}, {QStringLiteral("b,c"), {0}, {0.1}}});
    const QString csv = plot.toCsv();
    QCOMPARE(csvRows(csv), 4);
    QVERIFY(csv.startsWith(QStringLiteral("series,step,value\n")));
    QVERIFY(csv.contains(QStringLiteral("\"b,c\",0,0.1\n")));
  }
};

GRADLAB_TEST_MAIN(TestPlots)
#include "test_plots.moc"
