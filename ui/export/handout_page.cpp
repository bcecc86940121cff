#include "ui/export/handout_page.h"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QTextLayout>
#include <algorithm>

namespace gl::ui {

namespace {
// Fonts are sized in pixels; at the PDF's 72 dpi a pixel is a point, and pixel-sized metrics
// need no device.
QFont sized(QFont f, double points, bool bold = false) {
  f.setPixelSize(int(points));
  f.setBold(bold);
  return f;
}
}  // namespace

QFont HandoutPage::bodyFont() { return sized(QFont(), 10); }

QFont HandoutPage::monoFont() {
  return sized(QFontDatabase::systemFont(QFontDatabase::FixedFont), 8);
}

HandoutPage::HandoutPage(const QString& path, const QString& title) : pdf_(path) {
  pdf_.setTitle(title);
  pdf_.setCreator(QStringLiteral("GradLab"));
  pdf_.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                 QMarginsF(50, 50, 50, 50), QPageLayout::Point));
  // 72 dpi: one device unit is one point, so point-sized fonts of the graph's items and the
  // plots come out at their size with no painter scaling (coordinates stay real numbers).
  pdf_.setResolution(72);
  if (!painter_.begin(&pdf_)) return;
  painter_.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  painter_.setMode(QCPPainter::pmVectorized);
  painter_.setMode(QCPPainter::pmNoCaching);
  pages_ = 1;
}

void HandoutPage::newPage() {
  pdf_.newPage();
  ++pages_;
  y_ = titleBottom_ = 0;
}

void HandoutPage::ensure(double height) {
  if (y_ > 0 && y_ + height > kHeight) newPage();
}

double HandoutPage::lineHeight(const QFont& font) const { return QFontMetricsF(font).height(); }

void HandoutPage::section(const QString& heading) {
  if (y_ > titleBottom_) newPage();
  const QFont f = sized(QFont(), 16, true);
  painter_.setFont(f);
  painter_.setPen(Qt::black);
  const double h = 24;
  painter_.drawText(QRectF(0, y_, kWidth, h), Qt::AlignLeft | Qt::AlignVCenter, heading);
  y_ += h;
  painter_.setPen(QPen(Qt::gray, 0.5));
  painter_.drawLine(QPointF(0, y_), QPointF(kWidth, y_));
  y_ += 10;
}

void HandoutPage::title(const QString& text) {
  const QFont f = sized(QFont(), 20, true);
  painter_.setFont(f);
  painter_.setPen(Qt::black);
  const QRectF r = painter_.boundingRect(QRectF(0, y_, kWidth, kHeight), Qt::TextWordWrap, text);
  painter_.drawText(QRectF(0, y_, kWidth, r.height()), Qt::TextWordWrap, text);
  y_ += r.height() + 12;
  titleBottom_ = y_;
}

void HandoutPage::subheading(const QString& text) {
  ensure(40);
  y_ += 4;
  paragraph(text, sized(QFont(), 11, true));
  y_ += 2;
}

void HandoutPage::paragraph(const QString& text, const QFont& font) {
  // Lay the text out once at the page width, then place its lines page by page.
  QTextLayout layout(text, font);
  QTextOption option;
  option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  layout.setTextOption(option);
  layout.beginLayout();
  QList<QTextLine> lines;
  for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
    line.setLineWidth(kWidth);
    lines << line;
  }
  layout.endLayout();
  painter_.setPen(Qt::black);
  for (const QTextLine& line : lines) {
    const double h = line.height();
    ensure(h);
    line.draw(&painter_, QPointF(0, y_ - line.y()));
    y_ += h;
  }
  y_ += 4;
}

void HandoutPage::code(const QString& source) {
  const QFont f = monoFont();
  painter_.setFont(f);
  const QFontMetricsF fm(f);
  const double charW = fm.horizontalAdvance(QLatin1Char('m'));
  const double lh = lineHeight(f);
  const double gutter = charW * 5;
  const int perLine = std::max(20, int((kWidth - gutter) / std::max(1.0, charW)));
  const QStringList lines = source.split(QLatin1Char('\n'));
  for (int i = 0; i < lines.size(); ++i) {
    QString rest = lines[i];
    rest.replace(QLatin1Char('\t'), QStringLiteral("    "));
    bool first = true;
    do {
      ensure(lh);
      if (first) {
        painter_.setPen(Qt::gray);
        painter_.drawText(QRectF(0, y_, gutter - charW, lh), Qt::AlignRight | Qt::AlignVCenter,
                          QString::number(i + 1));
      }
      painter_.setPen(Qt::black);
      painter_.drawText(QRectF(gutter, y_, kWidth - gutter, lh), Qt::AlignLeft | Qt::AlignVCenter,
                        rest.left(perLine));
      rest = rest.mid(perLine);
      first = false;
      y_ += lh;
    } while (!rest.isEmpty());
  }
  y_ += 6;
}

void HandoutPage::box(double height, const std::function<void(QCPPainter&, const QRectF&)>& draw) {
  height = std::min(height, kHeight);
  ensure(height);
  painter_.save();
  draw(painter_, QRectF(0, y_, kWidth, height));
  painter_.restore();
  y_ += height + 8;
}

void HandoutPage::table(const QStringList& header, const QList<QStringList>& rows,
                        const QList<double>& weights) {
  double total = 0;
  for (double w : weights) total += w;
  QList<double> widths;
  for (double w : weights) widths << kWidth * w / std::max(1e-9, total);
  const QFont body = sized(QFont(), 9), bold = sized(QFont(), 9, true);
  auto row = [&](const QStringList& cells, const QFont& font, bool shaded) {
    painter_.setFont(font);
    double h = lineHeight(font) + 4;
    double x = 0;
    for (int c = 0; c < cells.size() && c < widths.size(); ++c) {
      const QRectF r =
          painter_.boundingRect(QRectF(0, 0, widths[c] - 6, 1000), Qt::TextWordWrap, cells[c]);
      h = std::max(h, r.height() + 4);
    }
    ensure(h);
    if (shaded) painter_.fillRect(QRectF(0, y_, kWidth, h), QColor(235, 235, 235));
    painter_.setPen(Qt::black);
    for (int c = 0; c < cells.size() && c < widths.size(); ++c) {
      painter_.drawText(QRectF(x + 3, y_ + 2, widths[c] - 6, h - 4), Qt::TextWordWrap, cells[c]);
      x += widths[c];
    }
    painter_.setPen(QPen(Qt::lightGray, 0.5));
    painter_.drawLine(QPointF(0, y_ + h), QPointF(kWidth, y_ + h));
    y_ += h;
  };
  row(header, bold, true);
  for (const QStringList& r : rows) row(r, body, false);
  y_ += 8;
}

void HandoutPage::finish() {
  if (painter_.isActive()) painter_.end();
}

}  // namespace gl::ui
