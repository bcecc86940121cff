#pragma once
// Application identity shared by the window, settings and exports.
#include <QString>

namespace gl::ui {
QString applicationName();  // "GradLab"
QString organizationName();
QString applicationVersion();
// Registers the compiled-in resources (lessons, translations) of this static library; call
// once before using them (the app and tests do).
void initResources();
// Built-in lessons, as resource paths (":/lessons/ode_while_loop.gls", ...), the ODE first.
QStringList builtinLessons();
}  // namespace gl::ui
