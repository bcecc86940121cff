#include "ui/about.h"

#include <QDir>
#include <QStringList>

static void initGradlabResources() { Q_INIT_RESOURCE(lessons); }

namespace gl::ui {
QString applicationName() { return QStringLiteral("GradLab"); }
QString organizationName() { return QStringLiteral("GradLab"); }
QString applicationVersion() { return QStringLiteral("0.1"); }

void initResources() { initGradlabResources(); }

QStringList builtinLessons() {
  QStringList out{QStringLiteral(":/lessons/ode_while_loop.gls")};
  for (const QString& f : QDir(QStringLiteral(":/lessons"))
                              .entryList({QStringLiteral("*.gls")}, QDir::Files, QDir::Name))
    if (!out.contains(QStringLiteral(":/lessons/") + f)) out << QStringLiteral(":/lessons/") + f;
  return out;
}
}  // namespace gl::ui
