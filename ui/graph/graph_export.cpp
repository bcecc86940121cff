#include "ui/graph/graph_export.h"

#include <QFile>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGuiApplication>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QScreen>
#include <QSvgGenerator>

#include <cmath>

#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_style.h"

namespace gl::ui {

namespace {

constexpr double kSceneDpi = 72.0;

bool reportFailure(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}

// Exports show the graph, not the user's current selection.
class SelectionHidden {
 public:
  explicit SelectionHidden(GraphScene& s) : scene_(s), selected_(s.selectedItems()) {
    scene_.clearSelection();
  }
  ~SelectionHidden() {
    for (QGraphicsItem* item : selected_) item->setSelected(true);
  }

 private:
  GraphScene& scene_;
  QList<QGraphicsItem*> selected_;
};

// Figures are black on white whatever the window's palette.
void renderWhole(GraphScene& scene, QPainter& p, const QRectF& target) {
  SelectionHidden hidden(scene);
  const style::LightForExport light;
  const QBrush background = scene.backgroundBrush();
  scene.setBackgroundBrush(style::sceneBackground());
  p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene.render(&p, target, scene.graphBounds(), Qt::KeepAspectRatio);
  scene.setBackgroundBrush(background);
}

}  // namespace

QImage renderGraphImage(GraphScene& scene, QSize size) {
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  renderWhole(scene, p, QRectF(QPointF(0, 0), QSizeF(size)));
  return image;
}

bool exportPng(GraphScene& scene, const QString& path, QSize size, QString* error) {
  if (size.width() <= 0 || size.height() <= 0 || size.width() > 30000 || size.height() > 30000)
    return reportFailure(error, QStringLiteral("PNG size %1x%2 is out of range (1..30000)")
                                    .arg(size.width())
                                    .arg(size.height()));
  QImage image = renderGraphImage(scene, size);
  image.setDotsPerMeterX(3780);  // 96 dpi unless exportPngAtDpi says otherwise
  image.setDotsPerMeterY(3780);
  if (!image.save(path, "PNG"))
    return reportFailure(error, QStringLiteral("cannot write %1").arg(path));
  return true;
}

QSize pngSizeForDpi(const GraphScene& scene, double dpi) {
  const QSizeF s = scene.graphBounds().size() * (dpi / kSceneDpi);
  return QSize(std::max(1, int(std::ceil(s.width()))), std::max(1, int(std::ceil(s.height()))));
}

bool exportPngAtDpi(GraphScene& scene, const QString& path, double dpi, QString* error) {
  if (!(dpi >= 10 && dpi <= 2400))
    return reportFailure(error, QStringLiteral("DPI must be in 10..2400"));
  const QSize size = pngSizeForDpi(scene, dpi);
  if (size.width() > 30000 || size.height() > 30000)
    return reportFailure(error,
                         QStringLiteral("the graph at %1 dpi would be %2x%3 pixels; choose a "
                                        "lower DPI or a fixed size")
                             .arg(dpi)
                             .arg(size.width())
                             .arg(size.height()));
  QImage image = renderGraphImage(scene, size);
  image.setDotsPerMeterX(int(std::lround(dpi / 0.0254)));
  image.setDotsPerMeterY(int(std::lround(dpi / 0.0254)));
  if (!image.save(path, "PNG"))
    return reportFailure(error, QStringLiteral("cannot write %1").arg(path));
  return true;
}

bool exportSvg(GraphScene& scene, const QString& path, QString* error) {
  const QRectF bounds = scene.graphBounds();
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(bounds.size().toSize());
  svg.setViewBox(QRectF(QPointF(0, 0), bounds.size()));
  svg.setResolution(int(kSceneDpi));
  svg.setTitle(QStringLiteral("GradLab graph"));
  QPainter p;
  if (!p.begin(&svg)) return reportFailure(error, QStringLiteral("cannot write %1").arg(path));
  renderWhole(scene, p, QRectF(QPointF(0, 0), bounds.size()));
  p.end();
  return true;
}

// The items size their boxes with QFontMetricsF of point-size fonts, i.e. at the screen's
// logical DPI. The PDF device gets that same resolution and is painted 1:1 in scene units, so
// every label is set at the size its box was measured for. (At 300 dpi with a 4.2x scale the
// fonts were converted at 300 dpi and scaled again: labels overflowed, clipped and garbled.)
bool exportPdf(GraphScene& scene, const QString& path, QString* error) {
  const QRectF bounds = scene.graphBounds();
  const QScreen* screen = QGuiApplication::primaryScreen();
  const int dpi = screen ? int(std::lround(screen->logicalDotsPerInchY())) : 96;
  QPdfWriter pdf(path);
  pdf.setTitle(QStringLiteral("GradLab graph"));
  pdf.setCreator(QStringLiteral("GradLab"));
  pdf.setResolution(dpi);
  // One page the size of the graph, so nothing is cut or shrunk.
  pdf.setPageSize(QPageSize(bounds.size() * (72.0 / dpi), QPageSize::Point));
  pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
  QPainter p;
  if (!p.begin(&pdf)) return reportFailure(error, QStringLiteral("cannot write %1").arg(path));
  renderWhole(scene, p, QRectF(QPointF(0, 0), bounds.size()));
  p.end();
  return true;
}

bool exportDot(const GraphScene& scene, const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
    return reportFailure(error,
                         QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
  file.write(scene.toDot().toUtf8());
  return true;
}

bool exportGraph(GraphScene& scene, const QString& path, double dpi, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return exportPngAtDpi(scene, path, dpi, error);
  if (suffix == QLatin1String("svg")) return exportSvg(scene, path, error);
  if (suffix == QLatin1String("pdf")) return exportPdf(scene, path, error);
  if (suffix == QLatin1String("dot") || suffix == QLatin1String("gv"))
    return exportDot(scene, path, error);
  return reportFailure(
      error, QStringLiteral("unknown graph format '.%1' (png, svg, pdf, dot)").arg(suffix));
}

}  // namespace gl::ui
