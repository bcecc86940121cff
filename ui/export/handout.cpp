#include "ui/export/handout.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <algorithm>
#include <map>
#include <memory>

#include "ui/export/handout_page.h"
#include "ui/graph/graph_export.h"
#include "ui/graph/graph_scene.h"
#include "ui/i18n/diagnostic_text.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/plot_data.h"
#include "ui/plots/timeline_plot.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/present/result_views.h"

namespace gl::ui {

namespace {

QString tx(const char* text) { return QCoreApplication::translate("gl::ui::Handout", text); }

// lupdate reads the literals here; tx() translates them where they are used.
[[maybe_unused]] const char* const kStrings[] = {
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Script"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Graph"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Plots"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Variant agreement"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Why gradients are None"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Gradient norm per step"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Jacobian"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Timeline"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Time per variant"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "output"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "variant"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "reference"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "result"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "max abs diff"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "agree"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "DIFFER"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "different shapes"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "None in one variant only"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "(main)"),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "The lesson was not run: no plots."),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Fewer than two variants ran: nothing to compare."),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "Every gradient exists: none is None."),
    QT_TRANSLATE_NOOP("gl::ui::Handout", "This variant failed: %1"),
};

QString variantName(const std::string& name) {
  return name.empty() ? tx("(main)") : QString::fromStdString(name);
}

// A QCustomPlot drawn into the PDF as vectors, laid out at the box's size in points.
void drawPlot(QCPPainter& p, const QRectF& r, PlotWidget& plot) {
  const int w = int(r.width()), h = int(r.height());
  plot.resize(w, h);
  plot.replot();
  p.translate(r.topLeft());
  p.setClipRect(QRectF(0, 0, w, h));
  plot.toPainter(&p, w, h);
}

void plotBox(HandoutPage& page, const QString& heading, PlotWidget& plot) {
  page.keepTogether(330);  // the heading stays with its plot
  page.subheading(heading);
  page.box(300, [&](QCPPainter& p, const QRectF& r) { drawPlot(p, r, plot); });
}

void scriptSection(HandoutPage& page, const QString& script) {
  page.section(tx("Script"));
  page.code(script);
}

void graphSection(HandoutPage& page, const lang::TracedProgram& program,
                  const lab::ProgramRun& run) {
  page.section(tx("Graph"));
  auto shared = std::shared_ptr<const lang::TracedProgram>(std::shared_ptr<void>(), &program);
  for (const lang::Variant& variant : program.variants) {
    GraphScene scene;
    showProgramGraph(scene, shared, variant.name);
    for (const lab::VariantRun& v : run.variants)
      if (v.ok() && v.name == variant.name)
        showRunOnGraph(scene, *program.graph, v.run, int64_t(1) << 40);
    if (program.variants.size() > 1) page.subheading(variantName(variant.name));
    const QRectF bounds =
        scene.graphBounds().isEmpty() ? scene.itemsBoundingRect() : scene.graphBounds();
    if (bounds.isEmpty()) continue;
    // As tall as the aspect asks, at most a page: a long chain shrinks to fit.
    const double height = std::min(page.width() * bounds.height() / bounds.width(), 640.0);
    // Through the graph's own SVG export: drawn at its natural size there, so the labels the
    // view hides below a readable size on screen are all in the SVG, and stay vectors here.
    QTemporaryDir tmp;
    const QString svg = tmp.filePath(QStringLiteral("graph.svg"));
    QSvgRenderer renderer;
    if (!tmp.isValid() || !exportSvg(scene, svg) || !renderer.load(svg)) continue;
    page.box(std::max(height, 60.0), [&](QCPPainter& p, const QRectF& r) {
      renderer.setAspectRatioMode(Qt::KeepAspectRatio);
      renderer.render(&p, r);
    });
  }
}

void plotsSection(HandoutPage& page, const lang::TracedProgram& program,
                  const lab::ProgramRun& run) {
  page.section(tx("Plots"));
  const Graph& g = *program.graph;
  for (const lab::VariantRun& v : run.variants) {
    if (!v.ok()) continue;
    const QString name = variantName(v.name);
    for (const auto& [node, rec] : v.run.loops) {
      if (rec.adjoints.empty() || g.node(node).phase != Phase::Forward) continue;
      GradientLinesPlot plot;
      plot.setSeries(gradientNormSeries(rec, &g));
      plotBox(page, tx("Gradient norm per step") + QStringLiteral(" — ") + name, plot);
      break;
    }
    for (const lab::OutputResult& o : v.outputs) {
      if (!o.isGradient || o.entries.empty() || o.entries[0].none()) continue;
      const Datum& d = o.entries[0].value;
      if (d.isList() || d.t.shape().size() != 2 || d.t.shape()[0] < 2 || d.t.shape()[1] < 2)
        continue;
      HeatMapPlot plot;
      plot.setData(heatMapFromTensor(d.t));
      plotBox(
          page,
          tx("Jacobian") + QStringLiteral(" — %1 (%2)").arg(QString::fromStdString(o.name), name),
          plot);
      break;
    }
    if (!v.run.timeline.empty()) {
      TimelinePlot plot;
      plot.setTimeline(timelineData(v.run, &g));
      plotBox(page, tx("Timeline") + QStringLiteral(" — ") + name, plot);
    }
  }
  const QVector<TimingData> timings = timingData(run);
  if (timings.isEmpty()) {
    page.paragraph(tx("The lesson was not run: no plots."));
    return;
  }
  TimingBarsPlot plot;
  plot.setTimings(timings);
  plotBox(page, tx("Time per variant"), plot);
}

void agreementSection(HandoutPage& page, const lab::ProgramRun& run) {
  page.section(tx("Variant agreement"));
  if (run.agreement.empty()) {
    page.paragraph(tx("Fewer than two variants ran: nothing to compare."));
  } else {
    QList<QStringList> rows;
    for (const lab::Agreement& a : run.agreement) {
      QString result = !a.shapesMatch ? tx("different shapes")
                       : !a.noneMatch ? tx("None in one variant only")
                       : a.agree()    ? tx("agree")
                                      : tx("DIFFER");
      rows << QStringList{
          QString::fromStdString(a.output), QString::fromStdString(a.other),
          QString::fromStdString(a.reference), result,
          a.shapesMatch && a.noneMatch ? QString::number(a.maxAbsDiff, 'g', 3) : QString()};
    }
    page.table({tx("output"), tx("variant"), tx("reference"), tx("result"), tx("max abs diff")},
               rows, {3, 2, 2, 2, 1.5});
  }
  for (const lab::VariantRun& v : run.variants)
    if (!v.ok() && !v.cancelled)
      page.paragraph(variantName(v.name) + QStringLiteral(": ") +
                     tx("This variant failed: %1").arg(variantErrorText(v)));
}

void whyNoneSection(HandoutPage& page, const lang::TracedProgram& program) {
  page.section(tx("Why gradients are None"));
  bool any = false;
  for (const lang::Variant& variant : program.variants)
    for (const lang::Output& o : variant.outputs) {
      // A per-step list repeats one explanation for many entries: say it once, naming them.
      std::map<std::string, QStringList> byText;
      std::vector<std::string> order;
      for (size_t i = 0; i < o.entries.size(); ++i) {
        const lang::OutputEntry& e = o.entries[i];
        if (e.value.valid() || e.whyNone.empty()) continue;
        if (!byText.count(e.whyNone)) order.push_back(e.whyNone);
        QString name = QString::fromStdString(o.name);
        if (o.entries.size() > 1) name += QStringLiteral("[%1]").arg(i);
        byText[e.whyNone] << name;
      }
      for (const std::string& text : order) {
        any = true;
        QStringList names = byText[text];
        const qsizetype more = names.size() - 4;
        if (more > 1) names = names.mid(0, 3) << QStringLiteral("… (+%1)").arg(more + 1);
        page.subheading(names.join(QStringLiteral(", ")) + QStringLiteral(" = None  (") +
                        variantName(variant.name) + QLatin1Char(')'));
        GradDiagnostic why;
        why.text = text;
        page.paragraph(whyNoneText(why));
      }
    }
  if (!any) page.paragraph(tx("Every gradient exists: none is None."));
}

}  // namespace

HandoutResult exportHandout(const lang::TracedProgram& program, const lab::ProgramRun& run,
                            const QString& title, const QString& script, const QString& path) {
  HandoutResult result;
  HandoutPage page(path, title);
  if (!page.ok()) {
    result.error = QCoreApplication::translate("gl::ui::Handout", "cannot write %1").arg(path);
    return result;
  }
  page.title(title);
  scriptSection(page, script);
  graphSection(page, program, run);
  plotsSection(page, program, run);
  agreementSection(page, run);
  whyNoneSection(page, program);
  page.finish();
  result.ok = true;
  result.pages = page.pages();
  result.sections = 5;
  return result;
}

}  // namespace gl::ui
