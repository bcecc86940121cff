#pragma once
// The light and dark palettes (Fusion style, so they look the same on every desktop).
#include <QIcon>
#include <QStyle>

namespace gl::ui {
void applyTheme(bool dark);
bool isDarkTheme();
// A standard icon as the palette needs it: Fusion draws its media icons dark grey, which
// vanishes on the dark palette, so there they are recoloured in the text colour.
QIcon themedIcon(QStyle::StandardPixmap which);
}  // namespace gl::ui
