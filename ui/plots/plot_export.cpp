#include "ui/plots/plot_export.h"

#include <qcustomplot.h>
#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QSvgGenerator>
#include <cmath>

#include "ui/about.h"
#include "ui/plots/plot_widget.h"

namespace gl::ui {

namespace {

bool fail(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}

QString plotTitleOf(const QCustomPlot* plot) {
  if (auto* p = qobject_cast<const PlotWidget*>(plot)) return p->plotTitle();
  return applicationName();
}

}  // namespace

QSize ExportOptions::vectorSize() const {
  const double toLogical = dpi > 0 ? 96.0 / dpi : 1.0;
  return QSize(std::max(1, int(std::lround(size.width() * toLogical))),
               std::max(1, int(std::lround(size.height() * toLogical))));
}

QString formatName(ExportFormat f) {
  switch (f) {
    case ExportFormat::Png:
      return QStringLiteral("PNG");
    case ExportFormat::Svg:
      return QStringLiteral("SVG");
    case ExportFormat::Pdf:
      return QStringLiteral("PDF");
    case ExportFormat::Csv:
      return QStringLiteral("CSV");
  }
  return {};
}

QString formatSuffix(ExportFormat f) { return formatName(f).toLower(); }

QString formatFilter(ExportFormat f) {
  switch (f) {
    case ExportFormat::Png:
      return QStringLiteral("PNG image (*.png)");
    case ExportFormat::Svg:
      return QStringLiteral("SVG drawing (*.svg)");
    case ExportFormat::Pdf:
      return QStringLiteral("PDF document (*.pdf)");
    case ExportFormat::Csv:
      return QStringLiteral("CSV table (*.csv)");
  }
  return {};
}

std::optional<ExportFormat> formatFromPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  for (ExportFormat f :
       {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf, ExportFormat::Csv})
    if (suffix == formatSuffix(f)) return f;
  return std::nullopt;
}

bool exportPng(QCustomPlot* plot, const QString& path, QSize pixels, int dpi, QString* error) {
  if (pixels.isEmpty() || dpi <= 0) return fail(error, QStringLiteral("bad PNG size or DPI"));
  // Lay the plot out at the logical size a 96-DPI screen would show, then scale the painter to
  // the requested pixels: more DPI means bigger text and thicker lines, not a smaller plot.
  const double scale = dpi / 96.0;
  const int logicalW = std::max(1, int(std::lround(pixels.width() / scale)));
  const int logicalH = std::max(1, int(std::lround(pixels.height() / scale)));
  QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmNonCosmetic, scale > 1.0);  // cosmetic pens would stay 1px
    painter.scale(double(pixels.width()) / logicalW, double(pixels.height()) / logicalH);
    plot->toPainter(&painter, logicalW, logicalH);
  }
  const int dotsPerMeter = int(std::lround(dpi / 0.0254));
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  QImageWriter writer(path, "png");
  if (!writer.write(image)) return fail(error, writer.errorString());
  return true;
}

bool exportSvg(QCustomPlot* plot, const QString& path, QSize size, QString* error) {
  if (size.isEmpty()) return fail(error, QStringLiteral("bad SVG size"));
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setTitle(plotTitleOf(plot));
  svg.setDescription(QStringLiteral("%1 %2").arg(applicationName(), applicationVersion()));
  QCPPainter painter;
  if (!painter.begin(&svg)) return fail(error, QStringLiteral("cannot write %1").arg(path));
  painter.setMode(QCPPainter::pmVectorized);  // no pixmap caching: real vector elements
  plot->toPainter(&painter, size.width(), size.height());
  painter.end();
  if (!QFileInfo::exists(path)) return fail(error, QStringLiteral("cannot write %1").arg(path));
  return true;
}

bool exportPdf(QCustomPlot* plot, const QString& path, QSize size, QString* error) {
  if (size.isEmpty()) return fail(error, QStringLiteral("bad PDF size"));
  if (!plot->savePdf(path, size.width(), size.height(), QCP::epAllowCosmetic, applicationName(),
                     plotTitleOf(plot)))
    return fail(error, QStringLiteral("cannot write %1").arg(path));
  return true;
}

QString plotCsv(const QCustomPlot* plot) {
  if (auto* p = qobject_cast<const PlotWidget*>(plot)) return p->toCsv();
  QString csv = QStringLiteral("series,x,y\n");
  for (int g = 0; g < plot->graphCount(); ++g) {
    const QCPGraph* graph = plot->graph(g);
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
      csv += QStringLiteral("%1,%2,%3\n")
                 .arg(graph->name(), QString::number(it->key, 'g', QLocale::FloatingPointShortest),
                      QString::number(it->value, 'g', QLocale::FloatingPointShortest));
  }
  return csv;
}

bool exportCsv(const QCustomPlot* plot, const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
    return fail(error, file.errorString());
  const QByteArray bytes = plotCsv(plot).toUtf8();
  if (file.write(bytes) != bytes.size()) return fail(error, file.errorString());
  return true;
}

namespace {

// Hides a GradLab plot's step cursor while it is written, and shows it again after.
class CursorHider {
 public:
  CursorHider(QCustomPlot* plot, bool keep) {
    const auto* widget = qobject_cast<PlotWidget*>(plot);
    if (keep || !widget || !widget->stepCursorVisible()) return;
    for (int i = 0; i < plot->itemCount(); ++i)
      if (plot->item(i) == widget->stepCursorLine()) line_ = plot->item(i);
    if (line_) line_->setVisible(false);
  }
  ~CursorHider() {
    if (line_) line_->setVisible(true);
  }
  CursorHider(const CursorHider&) = delete;
  CursorHider& operator=(const CursorHider&) = delete;

 private:
  QCPAbstractItem* line_ = nullptr;
};

}  // namespace

bool exportPlot(QCustomPlot* plot, ExportFormat format, const QString& path,
                const ExportOptions& options, QString* error) {
  if (!plot) return fail(error, QStringLiteral("no plot"));
  const CursorHider hider(plot, options.stepCursor);
  switch (format) {
    case ExportFormat::Png:
      return exportPng(plot, path, options.size, options.dpi, error);
    case ExportFormat::Svg:
      return exportSvg(plot, path, options.vectorSize(), error);
    case ExportFormat::Pdf:
      return exportPdf(plot, path, options.vectorSize(), error);
    case ExportFormat::Csv:
      return exportCsv(plot, path, error);
  }
  return fail(error, QStringLiteral("unknown format"));
}

}  // namespace gl::ui
