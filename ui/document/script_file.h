#pragma once
// Reading and writing scripts without ever losing the user's work: saves go through
// QSaveFile (all or nothing), and an autosave copy is kept beside the settings so a crash or
// a power cut costs at most a few seconds of typing.
#include <QString>
#include <QStringList>

namespace gl::ui {

struct LoadResult {
  QString text;
  QString error;  // empty on success
  bool ok() const { return error.isEmpty(); }
};

LoadResult loadScript(const QString& path);
// Returns an empty string on success, else the reason.
QString saveScript(const QString& path, const QString& text);

// The autosave copy for a document (by its path; untitled documents share one slot).
QString autosavePath(const QString& documentPath);
QString writeAutosave(const QString& documentPath, const QString& text);
// The autosaved text when it is newer than the file and differs from it, else empty.
QString recoverableText(const QString& documentPath);
void removeAutosave(const QString& documentPath);

// Recent files are the lesson browser's (ui/panels/lesson_browser.h).

}  // namespace gl::ui
