#include "ui/graph/gradient_scale.h"

#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace gl::ui {

void GradientScale::include(double norm) {
  if (!(norm > 0) || !std::isfinite(norm)) return;
  if (empty()) {
    min_ = max_ = norm;
    return;
  }
  min_ = std::min(min_, norm);
  max_ = std::max(max_, norm);
}

void GradientScale::include(const std::map<Value, double>& norms) {
  for (const auto& [v, norm] : norms) include(norm);
}

void GradientScale::reset() { min_ = max_ = 0; }

double GradientScale::position(double norm) const {
  if (empty() || !(norm > 0)) return 0;
  const double lo = std::log10(min_), hi = std::log10(max_);
  if (hi - lo < 1e-12) return 1;
  return std::clamp((std::log10(norm) - lo) / (hi - lo), 0.0, 1.0);
}

// Dark blue -> teal -> yellow -> orange -> red: small gradients recede, big ones shout.
QColor GradientScale::colorAt(double t) {
  static const QColor stops[] = {QColor(49, 54, 149), QColor(33, 145, 140), QColor(220, 190, 40),
                                 QColor(244, 109, 67), QColor(200, 20, 40)};
  constexpr int n = 5;
  t = std::clamp(t, 0.0, 1.0) * (n - 1);
  const int i = std::min(static_cast<int>(t), n - 2);
  const double f = t - i;
  const QColor& a = stops[i];
  const QColor& b = stops[i + 1];
  return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                          float(a.greenF() + (b.greenF() - a.greenF()) * f),
                          float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor GradientScale::color(double norm) const {
  if (!(norm > 0)) return noGradientColor();
  return colorAt(position(norm));
}

double GradientScale::penWidth(double norm) const {
  if (!(norm > 0)) return kMinWidth;
  return kMinWidth + (kMaxWidth - kMinWidth) * position(norm);
}

QString GradientScale::formatNorm(double v) { return QString::number(v, 'g', 3); }

void GradientScale::paintBar(QPainter* p, const QRectF& bar, Qt::Orientation o) const {
  const bool horizontal = o == Qt::Horizontal;
  QLinearGradient grad(horizontal ? bar.topLeft() : bar.bottomLeft(),
                       horizontal ? bar.topRight() : bar.topLeft());
  for (int i = 0; i <= 8; ++i) grad.setColorAt(i / 8.0, colorAt(i / 8.0));
  p->save();
  p->setPen(QPen(Qt::black, 0.5));
  p->setBrush(grad);
  p->drawRect(bar);
  const QString lo = empty() ? QStringLiteral("–") : formatNorm(min_);
  const QString hi = empty() ? QStringLiteral("–") : formatNorm(max_);
  const QFontMetricsF fm(p->font());
  if (horizontal) {
    p->drawText(QPointF(bar.left(), bar.bottom() + fm.ascent() + 2), lo);
    p->drawText(QPointF(bar.right() - fm.horizontalAdvance(hi), bar.bottom() + fm.ascent() + 2),
                hi);
  } else {
    p->drawText(QPointF(bar.right() + 4, bar.bottom()), lo);
    p->drawText(QPointF(bar.right() + 4, bar.top() + fm.ascent()), hi);
  }
  p->restore();
}

}  // namespace gl::ui
