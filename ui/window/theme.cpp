#include "ui/window/theme.h"

#include "ui/style/tinted_icon.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace gl::ui {

namespace {
bool gDark = false;

QPalette darkPalette() {
  QPalette p;
  const QColor window(45, 47, 52), base(32, 34, 38), text(220, 222, 226), mid(90, 94, 102);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, QColor(60, 63, 70));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, mid);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 110, 110));
  p.setColor(QPalette::Link, QColor(110, 170, 255));
  p.setColor(QPalette::Highlight, QColor(60, 120, 200));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Mid, mid);
  p.setColor(QPalette::Disabled, QPalette::Text, mid);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, mid);
  p.setColor(QPalette::Disabled, QPalette::WindowText, mid);
  return p;
}
}  // namespace

void applyTheme(bool dark) {
  gDark = dark;
  QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
}

bool isDarkTheme() { return gDark; }

QIcon themedIcon(QStyle::StandardPixmap which) {
  return paletteIcon(QApplication::style(), which, QApplication::palette());
}

}  // namespace gl::ui
