#include "ui/export/lesson_export.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <memory>

#include "ui/graph/graph_export.h"
#include "ui/graph/graph_scene.h"
#include "ui/plots/gradient_lines_plot.h"
#include "ui/plots/heat_map_plot.h"
#include "ui/plots/plot_data.h"
#include "ui/plots/plot_export.h"
#include "ui/plots/timeline_plot.h"
#include "ui/plots/timing_bars_plot.h"
#include "ui/present/result_views.h"

namespace gl::ui {

namespace {

const QStringList kAllFormats{"png", "svg", "pdf", "csv", "dot"};

QString safeName(const std::string& variant) {
  QString s = QString::fromStdString(variant.empty() ? "main" : variant);
  s.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
  return s;
}

class Writer {
 public:
  Writer(const QString& dir, const LessonExportOptions& opt, LessonExportReport& report)
      : dir_(dir), opt_(opt), report_(report) {}

  void plot(PlotWidget& p, const QString& stem) {
    p.resize(opt_.plotSize);
    p.replot();
    ExportOptions eo;
    eo.size = opt_.plotSize;
    eo.dpi = opt_.dpi;
    eo.stepCursor = opt_.step >= 0;  // --step asks for the cursor; the last step needs none
    for (auto [suffix, format] : {std::pair{"png", ExportFormat::Png},
                                  {"svg", ExportFormat::Svg},
                                  {"pdf", ExportFormat::Pdf},
                                  {"csv", ExportFormat::Csv}}) {
      if (!opt_.formats.contains(suffix)) continue;
      const QString path = dir_.filePath(stem + QLatin1Char('.') + suffix);
      QString error;
      if (exportPlot(&p, format, path, eo, &error))
        report_.written << path;
      else
        report_.errors << QObject::tr("%1: %2").arg(path, error);
    }
  }

  void graph(GraphScene& scene, const QString& stem) {
    using Fn = bool (*)(GraphScene&, const QString&, QString*);
    const std::pair<const char*, Fn> writers[] = {
        {"svg", [](GraphScene& s, const QString& p, QString* e) { return exportSvg(s, p, e); }},
        {"pdf", [](GraphScene& s, const QString& p, QString* e) { return exportPdf(s, p, e); }},
        {"dot", [](GraphScene& s, const QString& p, QString* e) { return exportDot(s, p, e); }}};
    if (opt_.formats.contains(QStringLiteral("png"))) {
      const QString path = dir_.filePath(stem + QStringLiteral(".png"));
      QString error;
      // Very wide graphs (unrolled loops) would exceed any image size at full DPI: keep the
      // aspect and cap the longest side.
      QSize size = pngSizeForDpi(scene, opt_.dpi);
      constexpr int kMaxSide = 12000;
      if (size.width() > kMaxSide || size.height() > kMaxSide)
        size.scale(kMaxSide, kMaxSide, Qt::KeepAspectRatio);
      if (exportPng(scene, path, size.expandedTo(QSize(1, 1)), &error))
        report_.written << path;
      else
        report_.errors << QObject::tr("%1: %2").arg(path, error);
    }
    for (const auto& [suffix, fn] : writers) {
      if (!opt_.formats.contains(suffix)) continue;
      const QString path = dir_.filePath(stem + QLatin1Char('.') + suffix);
      QString error;
      if (fn(scene, path, &error))
        report_.written << path;
      else
        report_.errors << QObject::tr("%1: %2").arg(path, error);
    }
  }

  void text(const QString& name, const QString& content) {
    QFile f(dir_.filePath(name));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(content.toUtf8()) >= 0)
      report_.written << f.fileName();
    else
      report_.errors << QObject::tr("cannot write %1").arg(f.fileName());
  }

 private:
  QDir dir_;
  const LessonExportOptions& opt_;
  LessonExportReport& report_;
};

}  // namespace

bool parseExportFormats(const QString& list, QSet<QString>* formats, QString* error) {
  formats->clear();
  for (QString f : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    f = f.trimmed().toLower();
    if (!kAllFormats.contains(f)) {
      if (error)
        *error = QObject::tr("unknown format '%1' (formats: %2)")
                     .arg(f, kAllFormats.join(QStringLiteral(", ")));
      return false;
    }
    formats->insert(f);
  }
  if (formats->isEmpty()) {
    if (error) *error = QObject::tr("no formats given");
    return false;
  }
  return true;
}

LessonExportReport exportLesson(const lang::TracedProgram& program, const lab::ProgramRun& run,
                                const QString& directory, const LessonExportOptions& options) {
  LessonExportReport report;
  if (!QDir().mkpath(directory)) {
    report.errors << QObject::tr("cannot create the folder %1").arg(directory);
    return report;
  }
  Writer out(directory, options, report);
  const Graph& g = *program.graph;

  // The graph of each variant (or the whole script), with that variant's gradient overlay.
  auto programPtr = std::shared_ptr<const lang::TracedProgram>(std::shared_ptr<void>(), &program);
  const int64_t overlayStep = options.step < 0 ? (int64_t(1) << 40) : options.step;
  for (const lang::Variant& variant : program.variants) {
    GraphScene scene;
    showProgramGraph(scene, programPtr, variant.name);
    for (const lab::VariantRun& v : run.variants)
      if (v.ok() && v.name == variant.name) showRunOnGraph(scene, g, v.run, overlayStep);
    out.graph(scene, program.variants.size() > 1 ? safeName(variant.name) + "_graph" : "graph");
  }

  for (const lab::VariantRun& v : run.variants) {
    if (!v.ok()) continue;
    const QString stem = safeName(v.name);
    for (const auto& [node, rec] : v.run.loops) {
      if (rec.adjoints.empty() || g.node(node).phase != Phase::Forward) continue;
      GradientLinesPlot p;
      p.setSeries(gradientNormSeries(rec, &g));
      if (options.step >= 0) p.setStepCursor(double(options.step));
      out.plot(p, stem + QStringLiteral("_gradients"));
      break;
    }
    for (const lab::OutputResult& o : v.outputs) {
      if (!o.isGradient || o.entries.empty() || o.entries[0].none()) continue;
      const Datum& d = o.entries[0].value;
      if (d.isList() || d.t.shape().size() != 2 || d.t.shape()[0] < 2 || d.t.shape()[1] < 2)
        continue;
      HeatMapPlot p;
      p.setData(heatMapFromTensor(d.t, QString::fromStdString(o.name)));
      out.plot(p, stem + QStringLiteral("_jacobian"));
      break;
    }
    if (!v.run.timeline.empty()) {
      TimelinePlot p;
      p.setTimeline(timelineData(v.run, &g));
      out.plot(p, stem + QStringLiteral("_timeline"));
    }
  }
  if (const QVector<TimingData> timings = timingData(run); !timings.isEmpty()) {
    TimingBarsPlot p;
    p.setTimings(timings);
    out.plot(p, QStringLiteral("timings"));
  }
  // Each variant names the executor it ran on: the request's is not read.
  out.text(QStringLiteral("report.txt"),
           QString::fromStdString(lab::reportText(program, run, lab::RunRequest{})));
  return report;
}

}  // namespace gl::ui
