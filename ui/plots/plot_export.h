#pragma once
// Exports any QCustomPlot as PNG (chosen pixel size and DPI), SVG, PDF, and its data as CSV.
// No file dialogs here: the window and the command line both call these with a path.
#include <QSize>
#include <QString>
#include <optional>

class QCustomPlot;

namespace gl::ui {

enum class ExportFormat { Png, Svg, Pdf, Csv };

struct ExportOptions {
  QSize size{1200, 750};  // PNG pixels
  int dpi = 144;          // text and lines scale with dpi / 96; the pixel size stays
  // SVG and PDF are laid out at size * 96 / dpi, so they look like the PNG, only sharper.
  QSize vectorSize() const;
  // The red line marking the current step follows the step controls on screen; in a figure
  // it is noise unless asked for.
  bool stepCursor = false;
};

QString formatName(ExportFormat f);                               // "PNG"
QString formatSuffix(ExportFormat f);                             // "png"
QString formatFilter(ExportFormat f);                             // "PNG image (*.png)"
std::optional<ExportFormat> formatFromPath(const QString& path);  // by suffix

// Each returns false and fills `error` (when given) if the file cannot be written.
bool exportPng(QCustomPlot* plot, const QString& path, QSize pixels, int dpi,
               QString* error = nullptr);
bool exportSvg(QCustomPlot* plot, const QString& path, QSize size, QString* error = nullptr);
bool exportPdf(QCustomPlot* plot, const QString& path, QSize size, QString* error = nullptr);
// GradLab plots give their own table (PlotWidget::toCsv); any other QCustomPlot gives its
// graphs' points as series,x,y.
QString plotCsv(const QCustomPlot* plot);
bool exportCsv(const QCustomPlot* plot, const QString& path, QString* error = nullptr);

bool exportPlot(QCustomPlot* plot, ExportFormat format, const QString& path,
                const ExportOptions& options = {}, QString* error = nullptr);

}  // namespace gl::ui
