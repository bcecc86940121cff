#include "ui/about.h"

namespace gl::ui {
QString applicationName() { return QStringLiteral("GradLab"); }
QString organizationName() { return QStringLiteral("GradLab"); }
QString applicationVersion() { return QStringLiteral("0.1"); }
}  // namespace gl::ui
