#include "ui/document/script_document.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTextDocument>
#include <QUuid>

#include "ui/document/script_file.h"

namespace gl::ui {

namespace {

// A copy's companion file, holding the path of the document it belongs to ("" if untitled).
QString sidecarPath(const QString& copyPath) {
  return copyPath.chopped(4) + QStringLiteral(".path");  // "<key>.gls" -> "<key>.path"
}

QString absolutePath(const QString& path) {
  if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) return path;  // resources as they are
  return QFileInfo(path).absoluteFilePath();
}

QString newUntitledKey() {
  return QStringLiteral("untitled-") + QUuid::createUuid().toString(QUuid::Id128).left(12);
}

// The copy when it holds work the document's file does not: the file is gone, or older than
// the copy and different from it.
std::optional<ScriptDocument::Recovery> unsavedWork(const QString& copyPath,
                                                    const QString& documentPath) {
  const QFileInfo copy(copyPath);
  if (!copy.exists()) return std::nullopt;
  const LoadResult saved = loadScript(copyPath);
  if (!saved.ok()) return std::nullopt;
  if (!documentPath.isEmpty() && QFileInfo::exists(documentPath)) {
    if (copy.lastModified() < QFileInfo(documentPath).lastModified()) return std::nullopt;
    const LoadResult file = loadScript(documentPath);
    if (file.ok() && file.text == saved.text) return std::nullopt;
  }
  return ScriptDocument::Recovery{documentPath, copyPath, saved.text, copy.lastModified()};
}

// Which document a copy in the folder belongs to; nullopt when that is unknown (a copy
// written without its companion file, which only opening its document finds).
std::optional<QString> documentOf(const QFileInfo& copy) {
  const QString sidecar = sidecarPath(copy.filePath());
  if (QFileInfo::exists(sidecar)) {
    const LoadResult path = loadScript(sidecar);
    if (path.ok()) return path.text;
    return std::nullopt;
  }
  if (copy.completeBaseName().startsWith(QStringLiteral("untitled"))) return QString();
  return std::nullopt;
}

}  // namespace

QString defaultAutosaveFolder() {
  const QString folder = QSettings().value(QStringLiteral("autosave/folder")).toString();
  if (!folder.isEmpty()) return folder;
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
         QStringLiteral("/autosave");
}

ScriptDocument::ScriptDocument(QTextDocument* text, const QString& autosaveFolder, QObject* parent)
    : QObject(parent), text_(text), folder_(autosaveFolder), untitledKey_(newUntitledKey()) {
  timer_.setSingleShot(true);
  timer_.setInterval(kDefaultAutosaveDelayMs);
  connect(&timer_, &QTimer::timeout, this, &ScriptDocument::autosave);
  connect(text_, &QTextDocument::contentsChanged, this, &ScriptDocument::onContentsChanged);
  connect(text_, &QTextDocument::modificationChanged, this, &ScriptDocument::onModificationChanged);
}

QString ScriptDocument::fileName() const {
  return isUntitled() ? tr("untitled.gls") : QFileInfo(path_).fileName();
}

bool ScriptDocument::isReadOnly() const { return path_.startsWith(QLatin1Char(':')); }

bool ScriptDocument::isDirty() const { return text_->isModified(); }

QString ScriptDocument::text() const { return text_->toPlainText(); }

bool ScriptDocument::open(const QString& path) {
  const LoadResult loaded = loadScript(path);
  if (!loaded.ok()) {
    error_ = loaded.error;
    return false;
  }
  error_.clear();
  setPath(path);
  lastAutosaved_.clear();
  replaceText(loaded.text, false);
  return true;
}

void ScriptDocument::reset(const QString& text) {
  error_.clear();
  setPath(QString());
  untitledKey_ = newUntitledKey();
  lastAutosaved_.clear();
  replaceText(text, false);
}

bool ScriptDocument::save() {
  if (needsSaveAs()) {
    error_ = isReadOnly()
                 ? tr("%1 is a built-in lesson; save it under a name of your own").arg(fileName())
                 : tr("%1 has no file yet; save it under a name").arg(fileName());
    return false;
  }
  return saveAs(path_);
}

bool ScriptDocument::saveAs(const QString& path) {
  const QString error = saveScript(path, text());
  if (!error.isEmpty()) {
    error_ = error;  // the document keeps its path, its changes and its autosave copy
    return false;
  }
  error_.clear();
  discardAutosave();
  setPath(path);
  discardAutosave();  // a stale copy of the file just written
  setModifiedQuietly(false);
  return true;
}

void ScriptDocument::setAutosaveFolder(const QString& folder) {
  folder_ = folder;
  lastAutosaved_.clear();
}

QString ScriptDocument::copyPathFor(const QString& documentPath, const QString& untitledKey) const {
  const QString key =
      documentPath.isEmpty()
          ? untitledKey
          : QString::fromLatin1(QCryptographicHash::hash(absolutePath(documentPath).toUtf8(),
                                                         QCryptographicHash::Sha1)
                                    .toHex()
                                    .left(16));
  return folder_ + QLatin1Char('/') + key + QStringLiteral(".gls");
}

QString ScriptDocument::autosavePath() const {
  return folder_.isEmpty() ? QString() : copyPathFor(path_, untitledKey_);
}

bool ScriptDocument::autosave() {
  timer_.stop();
  if (folder_.isEmpty() || !isDirty()) return true;
  const QString text = this->text();
  const QString copy = autosavePath();
  if (text == lastAutosaved_ && QFileInfo::exists(copy)) return true;
  QString error;
  if (!QDir().mkpath(folder_)) error = tr("cannot create the folder %1").arg(folder_);
  // The companion file first: a copy is never on disk without knowing its document.
  if (error.isEmpty()) error = saveScript(sidecarPath(copy), absolutePath(path_));
  if (error.isEmpty()) error = saveScript(copy, text);
  if (!error.isEmpty()) {
    emit autosaveFailed(error);
    return false;
  }
  lastAutosaved_ = text;
  return true;
}

void ScriptDocument::discardAutosave() {
  lastAutosaved_.clear();
  if (folder_.isEmpty()) return;
  const QString copy = autosavePath();
  QFile::remove(copy);
  QFile::remove(sidecarPath(copy));
}

std::optional<ScriptDocument::Recovery> ScriptDocument::recoveryFor(const QString& path) const {
  if (folder_.isEmpty() || path.isEmpty()) return std::nullopt;
  return unsavedWork(copyPathFor(path, QString()), path);
}

std::optional<ScriptDocument::Recovery> ScriptDocument::newestRecovery(
    const QString& except) const {
  if (folder_.isEmpty()) return std::nullopt;
  const QString skip = absolutePath(except);
  const QString own = autosavePath();
  const QFileInfoList copies =
      QDir(folder_).entryInfoList({QStringLiteral("*.gls")}, QDir::Files, QDir::Time);
  for (const QFileInfo& copy : copies) {  // newest first
    if (copy.filePath() == own) continue;
    const std::optional<QString> document = documentOf(copy);
    if (!document || (!skip.isEmpty() && absolutePath(*document) == skip)) continue;
    if (auto work = unsavedWork(copy.filePath(), *document)) return work;
  }
  return std::nullopt;
}

void ScriptDocument::recover(const Recovery& recovery) {
  error_.clear();
  setPath(recovery.documentPath);
  // Keep writing into the recovered copy, so it is replaced rather than left behind.
  if (recovery.documentPath.isEmpty())
    untitledKey_ = QFileInfo(recovery.copyPath).completeBaseName();
  lastAutosaved_ = autosavePath() == recovery.copyPath ? recovery.text : QString();
  replaceText(recovery.text, true);
}

void ScriptDocument::discardRecovery(const Recovery& recovery) {
  if (recovery.copyPath == autosavePath()) lastAutosaved_.clear();
  QFile::remove(recovery.copyPath);
  QFile::remove(sidecarPath(recovery.copyPath));
}

void ScriptDocument::replaceText(const QString& text, bool modified) {
  timer_.stop();
  const bool was = isDirty();
  replacing_ = true;
  text_->setPlainText(text);  // passes through "modified" on its way
  text_->setModified(modified);
  replacing_ = false;
  if (isDirty() != was) emit dirtyChanged(isDirty());
}

void ScriptDocument::setModifiedQuietly(bool modified) {
  const bool was = isDirty();
  replacing_ = true;
  text_->setModified(modified);
  replacing_ = false;
  if (isDirty() != was) emit dirtyChanged(isDirty());
}

void ScriptDocument::setPath(const QString& path) {
  if (path == path_) return;
  path_ = path;
  emit pathChanged(path_);
}

void ScriptDocument::onContentsChanged() {
  // Throttled, not debounced: steady typing still gets a copy every few seconds.
  if (!replacing_ && isDirty() && !folder_.isEmpty() && !timer_.isActive()) timer_.start();
}

void ScriptDocument::onModificationChanged(bool modified) {
  if (replacing_) return;  // replaceText() and setModifiedQuietly() tell the end state
  emit dirtyChanged(modified);
  if (modified) {
    onContentsChanged();
  } else {
    // Undone back to the file: the copy holds nothing the file lacks.
    timer_.stop();
    discardAutosave();
  }
}

}  // namespace gl::ui
