#include "scripts.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QStringList>

#include "engine/tensor/error.h"
#include "ui/about.h"

namespace gl::app {

namespace {

constexpr qint64 kMaxScriptBytes = qint64(4) << 20;

const QStringList& builtins() {
  static const QStringList lessons = [] {
    ui::initResources();
    return ui::builtinLessons();
  }();
  return lessons;
}

// The resource path of built-in lesson `name` ("ode_while_loop" or "ode_while_loop.gls").
QString builtin(const QString& name) {
  for (const QString& path : builtins()) {
    const QFileInfo info(path);
    if (name == info.fileName() || name == info.completeBaseName()) return path;
  }
  return {};
}

}  // namespace

std::string locateScript(const std::string& spec) {
  const QString s = QString::fromStdString(spec);
  if (s.startsWith(QLatin1Char(':'))) {
    builtins();  // the resources must be registered before a ':' path can be opened
    return spec;
  }
  if (QFileInfo::exists(s) || s.contains(QLatin1Char('/'))) return spec;
  const QString path = builtin(s);
  return path.isEmpty() ? spec : path.toStdString();
}

bool scriptExists(const std::string& spec) {
  return QFileInfo(QString::fromStdString(locateScript(spec))).isFile();
}

std::string readScript(const std::string& spec) {
  const QString path = QString::fromStdString(locateScript(spec));
  // Checked before opening: a FIFO would block the open, a device (/dev/zero) never ends and a
  // directory reads as an empty script.
  const QFileInfo info(path);
  if (info.exists() && !info.isFile())
    throw EngineError("'" + spec + "' is not a regular file" +
                      (info.isDir() ? " (a directory)" : ""));
  if (info.size() > kMaxScriptBytes) throw EngineError("'" + spec + "' is larger than 4 MiB");
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) throw EngineError("cannot open '" + spec + "'");
  const QByteArray text = f.read(kMaxScriptBytes + 1);
  if (text.size() > kMaxScriptBytes) throw EngineError("'" + spec + "' is larger than 4 MiB");
  return text.toStdString();
}

}  // namespace gl::app
