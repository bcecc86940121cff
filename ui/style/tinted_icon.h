#pragma once
// Standard icons that follow the palette. Fusion draws its media icons dark grey whatever the
// palette, so on a dark palette they vanish; there they are redrawn in the button text colour.
#include <QIcon>
#include <QPalette>
#include <QStyle>

namespace gl::ui {

bool isDarkPalette(const QPalette& palette);
// `which` from `style`, recoloured in `palette`'s ButtonText when the palette is dark.
QIcon paletteIcon(const QStyle* style, QStyle::StandardPixmap which, const QPalette& palette);

}  // namespace gl::ui
