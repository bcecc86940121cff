#include "ui/graph/graph_style.h"

#include "engine/control/kind.h"

#include <QFontMetricsF>

#include <algorithm>

namespace gl::ui::style {

namespace {
double gFontScale = 1;
bool gDark = false;

// A light tint's dark twin: the same hue, muted, dim; text on it is light.
QColor dimmed(const QColor& light, double lightness) {
  return QColor::fromHslF(std::max(0.0f, light.hslHueF()), light.hslSaturationF() * 0.55f,
                          float(lightness));
}
}  // namespace

void setDark(bool dark) { gDark = dark; }
bool dark() { return gDark; }
LightForExport::LightForExport() : was_(gDark) { gDark = false; }
LightForExport::~LightForExport() { gDark = was_; }

QColor sceneBackground() { return gDark ? QColor(30, 31, 34) : QColor(Qt::white); }
QColor titleColor() { return gDark ? QColor(232, 232, 235) : QColor(20, 20, 20); }
QColor subtitleColor() { return gDark ? QColor(170, 172, 178) : QColor(90, 90, 90); }
QColor plainEdgeColor() { return gDark ? QColor(150, 152, 158) : QColor(95, 95, 95); }
QColor panelFill() { return gDark ? QColor(45, 47, 52) : QColor(Qt::white); }
QColor panelText() { return gDark ? QColor(220, 222, 226) : QColor(Qt::black); }
QColor breakFill() { return gDark ? QColor(100, 30, 30) : QColor(255, 215, 215); }
QColor frameTitleColor(const VisFrame& f) {
  return gDark ? frameBorder(f).lighter(140) : frameBorder(f).darker(150);
}

void setFontScale(double scale) { gFontScale = scale > 0 ? scale : 1; }
double fontScale() { return gFontScale; }

QFont titleFont() {
  QFont f(QStringLiteral("Sans Serif"));
  f.setPointSizeF(9 * gFontScale);
  return f;
}

bool readableAt(const QFont& font, double lod) {
  const double px = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
  return px * lod >= kMinReadablePx;
}

QString wrapText(const QString& text, int columns) {
  QStringList out;
  for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
    QString line;
    for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      if (!line.isEmpty() && line.size() + 1 + word.size() > columns) {
        out << line;
        line.clear();
      }
      line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    out << line;
  }
  return out.join(QLatin1Char('\n'));
}

QFont subtitleFont() {
  QFont f(QStringLiteral("Sans Serif"));
  f.setPointSizeF(7 * gFontScale);
  return f;
}

QFont frameFont() {
  QFont f(QStringLiteral("Sans Serif"));
  f.setPointSizeF(8 * gFontScale);
  f.setBold(true);
  return f;
}

namespace {

// Forward kinds in light tints; the backward phase in violet so the two graphs separate at once.
QColor lightNodeFill(const VisNode& n) {
  if (n.backward) {
    if (n.category == NodeCategory::ControlFlow) return QColor(214, 196, 240);
    if (n.category == NodeCategory::Param) return QColor(236, 230, 246);
    return QColor(230, 218, 250);
  }
  switch (n.category) {
    case NodeCategory::Primitive:
      return QColor(222, 235, 250);
    case NodeCategory::ControlFlow:
      return QColor(255, 222, 173);
    case NodeCategory::Leaf:
      return QColor(214, 240, 214);
    case NodeCategory::Param:
      return QColor(240, 240, 240);
  }
  return Qt::white;
}

QColor lightNodeBorder(const VisNode& n) {
  if (n.backward) return QColor(110, 70, 170);
  switch (n.category) {
    case NodeCategory::Primitive:
      return QColor(70, 110, 160);
    case NodeCategory::ControlFlow:
      return QColor(190, 120, 20);
    case NodeCategory::Leaf:
      return QColor(60, 130, 60);
    case NodeCategory::Param:
      return QColor(130, 130, 130);
  }
  return Qt::black;
}

}  // namespace

QColor nodeFill(const VisNode& n) {
  const QColor light = lightNodeFill(n);
  return gDark ? dimmed(light, n.category == NodeCategory::ControlFlow ? 0.30 : 0.25) : light;
}

QColor nodeBorder(const VisNode& n) {
  return gDark ? lightNodeBorder(n).lighter(150) : lightNodeBorder(n);
}

QColor frameFill(const VisFrame& f, int depth) {
  const QColor c = f.tape >= 0     ? QColor(240, 250, 242)
                   : f.calls       ? QColor(238, 244, 255)
                   : f.region >= 0 ? QColor(252, 252, 252)
                   : f.backward    ? QColor(246, 240, 252)
                                   : QColor(255, 248, 235);
  return gDark ? dimmed(c, 0.15 + 0.025 * depth) : c.darker(100 + 4 * depth);
}

QColor frameBorder(const VisFrame& f) {
  if (f.tape >= 0) return QColor(40, 150, 70);  // the tape: green, as recorded
  if (f.calls) return QColor(60, 110, 200);     // a tf.function: the graph's blue
  if (f.region >= 0) return QColor(170, 170, 170);
  return f.backward ? QColor(130, 90, 190) : QColor(200, 140, 40);
}

QColor breakColor() { return QColor(215, 30, 30); }

QColor numericsColor() { return QColor(200, 0, 200); }
QColor selectionColor() { return QColor(30, 120, 255); }

QString badgeText(const VisNode& n) {
  if (n.iterations >= 0) return QStringLiteral("×%1").arg(n.iterations);
  if (const gl::ControlKind* k = gl::findControlKind(n.nodeKind); k && !k->badge.empty())
    return QString::fromUtf8(k->badge.data(), qsizetype(k->badge.size()));
  return QStringLiteral("folded");
}

QSizeF nodeSize(const VisNode& n) {
  const QFontMetricsF title(titleFont()), sub(subtitleFont());
  double w = title.horizontalAdvance(QString::fromStdString(n.title));
  double h = title.height();
  if (!n.subtitle.empty()) {
    w = std::max(w, sub.horizontalAdvance(QString::fromStdString(n.subtitle)));
    h += sub.height();
  }
  if (n.kind == VisNodeKind::Folded) {
    w += sub.horizontalAdvance(badgeText(n)) + 14;  // the badge sits on the right
    h = std::max(h, title.height() * 2);
  }
  return {std::max(w + 2 * kPadX, 36.0), h + 2 * kPadY};
}

}  // namespace gl::ui::style
