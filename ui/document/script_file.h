#pragma once
// Reading and writing scripts without ever losing the user's work: loading refuses what is
// not a script (with the reason), saving goes through QSaveFile (all or nothing). The open
// document, its autosave copy and recovery are ScriptDocument's (script_document.h).
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

// Recent files are the lesson browser's (ui/panels/lesson_browser.h).

}  // namespace gl::ui
