#include "support/isolated_settings.h"

#include <QCoreApplication>
#include <QSettings>
#include <QTemporaryDir>

// Not QStandardPaths::setTestModeEnabled(): on Linux it moves the folders to ~/.qttest, which
// outlives the run, so one test's autosave copies would be found by the next run.

namespace gl::test {

namespace {

QTemporaryDir& home() {
  static QTemporaryDir dir;  // removed when the test exits
  return dir;
}

}  // namespace

QString isolatedHome() { return home().isValid() ? home().path() : QString(); }

}  // namespace gl::test

namespace {

void isolateSettings() {
  // Without a temporary folder, point everything at a folder that cannot exist: the tests
  // that need settings then fail, and the user's files stay untouched.
  const QString home = gl::test::isolatedHome().isEmpty()
                           ? QStringLiteral("/nonexistent/gradlab-test")
                           : gl::test::isolatedHome();
  if (gl::test::isolatedHome().isEmpty())
    qCritical("cannot create a temporary folder for the test's settings");
  qputenv("XDG_CONFIG_HOME", (home + QStringLiteral("/config")).toUtf8());
  qputenv("XDG_DATA_HOME", (home + QStringLiteral("/data")).toUtf8());
  qputenv("XDG_CACHE_HOME", (home + QStringLiteral("/cache")).toUtf8());
  qputenv("XDG_STATE_HOME", (home + QStringLiteral("/state")).toUtf8());
  for (QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat})
    QSettings::setPath(format, QSettings::UserScope, home + QStringLiteral("/config"));
}

}  // namespace

Q_COREAPP_STARTUP_FUNCTION(isolateSettings)
