#include "ui/inspect/tensor_text.h"

#include <QObject>
#include <QStringList>

namespace gl::ui {

QString shapeText(const Shape& s) {
  QStringList dims;
  for (int64_t d : s) dims << (d < 0 ? QStringLiteral("?") : QString::number(d));
  return QLatin1Char('[') + dims.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString recordSummary(const TensorRecord& r) {
  const QString type = QString::fromLatin1(dtypeName(r.dtype)) + shapeText(r.shape);
  return QObject::tr("%1  min %2  max %3  mean %4  L2 %5")
      .arg(type)
      .arg(r.min, 0, 'g', 5)
      .arg(r.max, 0, 'g', 5)
      .arg(r.mean, 0, 'g', 5)
      .arg(r.l2, 0, 'g', 5);
}

QString recordValues(const TensorRecord& r, int maxRows) {
  if (!r.full.defined()) {
    QStringList head;
    for (double v : r.head) head << QString::number(v, 'g', 6);
    return head.isEmpty() ? QString()
                          : QObject::tr("first: %1 …").arg(head.join(QStringLiteral(", ")));
  }
  const Tensor& t = r.full;
  const int64_t n = t.numel();
  const int64_t cols = t.shape().empty() ? 1 : std::max<int64_t>(1, t.shape().back());
  QStringList rows;
  for (int64_t start = 0; start < n && rows.size() < maxRows; start += cols) {
    QStringList row;
    for (int64_t i = start; i < std::min(n, start + cols); ++i)
      row << QString::number(t.at(i), 'g', 6);
    rows << row.join(QStringLiteral("  "));
  }
  return rows.join(QLatin1Char('\n'));
}

}  // namespace gl::ui
