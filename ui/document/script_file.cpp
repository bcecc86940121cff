#include "ui/document/script_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStringDecoder>

namespace gl::ui {

namespace {
constexpr qint64 kMaxScriptBytes = qint64(4) << 20;
}  // namespace

LoadResult loadScript(const QString& path) {
  QFile f(path);
  if (!f.exists()) return {{}, QObject::tr("%1 does not exist").arg(path)};
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

QString autosavePath(const QString& documentPath) {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                      QStringLiteral("/autosave");
  QDir().mkpath(dir);
  const QString key =
      documentPath.isEmpty()
          ? QStringLiteral("untitled")
          : QString::fromLatin1(
                QCryptographicHash::hash(QFileInfo(documentPath).absoluteFilePath().toUtf8(),
                                         QCryptographicHash::Sha1)
                    .toHex()
                    .left(16));
  return dir + QLatin1Char('/') + key + QStringLiteral(".gls");
}

QString writeAutosave(const QString& documentPath, const QString& text) {
  return saveScript(autosavePath(documentPath), text);
}

QString recoverableText(const QString& documentPath) {
  const QString copy = autosavePath(documentPath);
  if (!QFileInfo::exists(copy)) return {};
  const LoadResult saved = loadScript(copy);
  if (!saved.ok()) return {};
  if (!documentPath.isEmpty() && QFileInfo::exists(documentPath)) {
    if (QFileInfo(copy).lastModified() < QFileInfo(documentPath).lastModified()) return {};
    const LoadResult file = loadScript(documentPath);
    if (file.ok() && file.text == saved.text) return {};
  }
  return saved.text;
}

void removeAutosave(const QString& documentPath) { QFile::remove(autosavePath(documentPath)); }

}  // namespace gl::ui
