#include "ui/document/script_file.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringDecoder>

namespace gl::ui {

namespace {
constexpr qint64 kMaxScriptBytes = qint64(4) << 20;
}  // namespace

LoadResult loadScript(const QString& path) {
  QFile f(path);
  if (!f.exists()) return {{}, QObject::tr("%1 does not exist").arg(path)};
  // Opening a FIFO would block the GUI thread until a writer came; a folder has no text.
  if (!QFileInfo(path).isFile()) return {{}, QObject::tr("%1 is not a regular file").arg(path)};
  if (f.size() > kMaxScriptBytes)
    return {{},
            QObject::tr("%1 is larger than 4 MiB; GradLab scripts are small text files").arg(path)};
  if (!f.open(QIODevice::ReadOnly))
    return {{}, QObject::tr("cannot open %1: %2").arg(path, f.errorString())};
  const QByteArray bytes = f.readAll();
  if (bytes.contains('\0'))
    return {{}, QObject::tr("%1 is not a text file (it contains NUL bytes)").arg(path)};
  QStringDecoder utf8(QStringDecoder::Utf8);
  QString text = utf8(bytes);
  if (utf8.hasError()) return {{}, QObject::tr("%1 is not valid UTF-8 text").arg(path)};
  return {text, {}};
}

QString saveScript(const QString& path, const QString& text) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly))
    return QObject::tr("cannot write %1: %2").arg(path, f.errorString());
  const QByteArray bytes = text.toUtf8();
  if (f.write(bytes) != bytes.size()) {
    const QString reason = f.errorString();  // the old file stays as it was
    f.cancelWriting();
    return QObject::tr("saving %1 failed: %2").arg(path, reason);
  }
  if (!f.commit()) return QObject::tr("saving %1 failed: %2").arg(path, f.errorString());
  return {};
}

}  // namespace gl::ui
