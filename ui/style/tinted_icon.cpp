#include "ui/style/tinted_icon.h"

#include <QPainter>
#include <QPixmap>

namespace gl::ui {

bool isDarkPalette(const QPalette& palette) {
  return palette.color(QPalette::Window).lightness() < 128;
}

QIcon paletteIcon(const QStyle* style, QStyle::StandardPixmap which, const QPalette& palette) {
  const QIcon base = style->standardIcon(which);
  if (!isDarkPalette(palette)) return base;
  QIcon icon;
  for (int size : {16, 22, 24, 32, 48}) {
    QPixmap pm = base.pixmap(size, size);
    if (pm.isNull()) continue;
    QPainter p(&pm);
    p.setCompositionMode(QPainter::CompositionMode_SourceIn);  // keep the shape, new colour
    p.fillRect(pm.rect(), palette.color(QPalette::ButtonText));
    p.end();
    icon.addPixmap(pm);
  }
  return icon;
}

}  // namespace gl::ui
