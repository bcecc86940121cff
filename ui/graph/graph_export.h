#pragma once
// The whole graph (not just what the viewport shows) to PNG, SVG, PDF and DOT. The window and
// the command line call the same functions. Each returns false and fills `error` on failure.
#include <QImage>
#include <QSize>
#include <QString>

namespace gl::ui {

class GraphScene;

// The whole graph scaled into exactly `size` pixels (aspect kept, centred on white).
QImage renderGraphImage(GraphScene& scene, QSize size);
bool exportPng(GraphScene& scene, const QString& path, QSize size, QString* error = nullptr);
// Natural size at `dpi` (the scene is laid out at 72 units per inch, like Graphviz).
QSize pngSizeForDpi(const GraphScene& scene, double dpi);
bool exportPngAtDpi(GraphScene& scene, const QString& path, double dpi, QString* error = nullptr);
bool exportSvg(GraphScene& scene, const QString& path, QString* error = nullptr);
bool exportPdf(GraphScene& scene, const QString& path, QString* error = nullptr);
bool exportDot(const GraphScene& scene, const QString& path, QString* error = nullptr);

// By file suffix: .png (at `dpi`), .svg, .pdf, .dot/.gv.
bool exportGraph(GraphScene& scene, const QString& path, double dpi = 150,
                 QString* error = nullptr);

}  // namespace gl::ui
