#pragma once
// The light and dark palettes (Fusion style, so they look the same on every desktop).
namespace gl::ui {
void applyTheme(bool dark);
bool isDarkTheme();
}  // namespace gl::ui
