#pragma once
// Application identity shared by the window, settings and exports.
#include <QString>

namespace gl::ui {
QString applicationName();  // "GradLab"
QString organizationName();
QString applicationVersion();
}  // namespace gl::ui
