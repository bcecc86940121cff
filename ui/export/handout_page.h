#pragma once
// A cursor over the pages of an A4 PDF: text that wraps and breaks across pages, boxes that
// start a new page when they do not fit, and a section start that always opens a page. The
// handout (handout.cpp) writes its sections through it. Units are points (1/72 inch).
#include <functional>
#include <memory>

#include <QFont>
#include <QPdfWriter>
#include <QString>

#include <qcustomplot.h>

namespace gl::ui {

class HandoutPage {
 public:
  HandoutPage(const QString& path, const QString& title);
  bool ok() const { return painter_.isActive(); }
  int pages() const { return pages_; }
  double width() const { return kWidth; }
  // Room left on the page below the cursor.
  double room() const { return kHeight - y_; }

  // A new page with a section heading on it.
  void section(const QString& heading);
  void title(const QString& text);
  void subheading(const QString& text);
  // Wrapped paragraph (any language), breaking across pages.
  void paragraph(const QString& text, const QFont& font);
  void paragraph(const QString& text) { paragraph(text, bodyFont()); }
  // Source code: line numbers in a gutter, long lines wrapped under their text.
  void code(const QString& source);
  // A box of `height` points drawn by `draw(painter, rect)`; starts a new page when it does not
  // fit below the cursor. (A QCPPainter, so plots draw straight into the PDF as vectors.)
  void box(double height, const std::function<void(QCPPainter&, const QRectF&)>& draw);
  // A table with a header row; columns share the width by `weights`.
  void table(const QStringList& header, const QList<QStringList>& rows,
             const QList<double>& weights);
  void space(double points) { y_ += points; }
  // Starts a new page unless `height` points fit below the cursor.
  void keepTogether(double height) { ensure(height); }
  void finish();

  static QFont bodyFont();
  static QFont monoFont();

 private:
  static constexpr double kWidth = 595.0 - 2 * 50;  // A4 minus 50 pt margins
  static constexpr double kHeight = 842.0 - 2 * 50;
  void newPage();
  void ensure(double height);
  double lineHeight(const QFont& font) const;

  QPdfWriter pdf_;
  QCPPainter painter_;
  double y_ = 0;
  double titleBottom_ = 0;  // the first section shares page 1 with the title
  int pages_ = 0;
};

}  // namespace gl::ui
