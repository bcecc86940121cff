#include "ui/graph/graph_style.h"

#include "engine/control/kind.h"

#include <QFontMetricsF>

#include <algorithm>

namespace gl::ui::style {

namespace {
double gFontScale = 1;
}  // namespace

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

// Forward kinds in light tints; the backward phase in violet so the two graphs separate at once.
QColor nodeFill(const VisNode& n) {
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

QColor nodeBorder(const VisNode& n) {
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

QColor frameFill(const VisFrame& f, int depth) {
  QColor c = f.backward ? QColor(246, 240, 252) : QColor(255, 248, 235);
  if (f.region >= 0) c = QColor(252, 252, 252);
  return c.darker(100 + 4 * depth);
}

QColor frameBorder(const VisFrame& f) {
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
