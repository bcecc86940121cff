#pragma once
// The open script as a document: its file, whether it holds unsaved changes, saving (all or
// nothing, through QSaveFile) and an autosave copy that is offered back after a crash.
//
// The text itself lives in a QTextDocument (the editor's); this class tracks it. Autosave
// copies go to a folder the caller gives (the app's data folder, a temporary one in tests):
// one copy per document, written a few seconds after the first unsaved change and again
// after later ones, removed once the work is saved, discarded, or undone back to the file.
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>

class QTextDocument;

namespace gl::ui {

// The folder the window autosaves into: the "autosave/folder" setting, else "autosave" in the
// application's data folder.
QString defaultAutosaveFolder();

class ScriptDocument : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDefaultAutosaveDelayMs = 5000;

  // An autosaved copy holding work that was never saved.
  struct Recovery {
    QString documentPath;  // "" for an untitled document
    QString copyPath;      // the autosave file
    QString text;
    QDateTime written;  // when the copy was written
  };

  // Tracks `text` (not owned; it must outlive this). No autosave while `autosaveFolder` is "".
  explicit ScriptDocument(QTextDocument* text, const QString& autosaveFolder = {},
                          QObject* parent = nullptr);

  QString path() const { return path_; }  // "" while untitled; ":/lessons/..." for a lesson
  QString fileName() const;               // for titles and messages: "untitled.gls" if untitled
  bool isUntitled() const { return path_.isEmpty(); }
  // Built-in lessons are read-only resources: like untitled documents, they save elsewhere.
  bool isReadOnly() const;
  bool needsSaveAs() const { return isUntitled() || isReadOnly(); }
  bool isDirty() const;
  QString text() const;
  // Why the last open() or save failed.
  QString errorString() const { return error_; }

  // Reads a script; on failure (a reason in errorString()) the current text stays as it was.
  bool open(const QString& path);
  // A new untitled document holding `text`.
  void reset(const QString& text);
  // Writes the text to path(); false (and the reason) when that fails or needsSaveAs().
  bool save();
  // Writes the text to `path`, which becomes the document's path on success.
  bool saveAs(const QString& path);

  // ---- Autosave ----
  QString autosaveFolder() const { return folder_; }
  void setAutosaveFolder(const QString& folder);
  void setAutosaveDelay(int ms) { timer_.setInterval(ms); }
  int autosaveDelay() const { return timer_.interval(); }
  // This document's copy (in the autosave folder), or "" without a folder.
  QString autosavePath() const;
  // Writes the copy now when there are unsaved changes it does not hold yet. False when the
  // write failed (autosaveFailed() says why).
  bool autosave();
  // Removes this document's copy.
  void discardAutosave();

  // ---- Recovery ----
  // The copy of the document at `path` when it is newer than the file and differs from it.
  // (Untitled documents have no path: newestRecovery() finds their copies.)
  std::optional<Recovery> recoveryFor(const QString& path) const;
  // The most recently written copy in the folder that still holds unsaved work, skipping the
  // document at `except` (the one already open, say).
  std::optional<Recovery> newestRecovery(const QString& except = {}) const;
  // Takes over a copy: the text becomes the copy's (unsaved), the path the copy's document.
  void recover(const Recovery& recovery);
  // Removes a copy (and its companion file) the user chose not to recover.
  void discardRecovery(const Recovery& recovery);

 signals:
  void dirtyChanged(bool dirty);  // once per change, never for a passing state
  void pathChanged(const QString& path);
  void autosaveFailed(const QString& reason);

 private:
  QString copyPathFor(const QString& documentPath, const QString& untitledKey) const;
  // Replace the text / set the modified flag without autosave reacting, and with one
  // dirtyChanged() for the end state (setPlainText() passes through "modified").
  void replaceText(const QString& text, bool modified);
  void setModifiedQuietly(bool modified);
  void setPath(const QString& path);
  void onContentsChanged();
  void onModificationChanged(bool modified);

  QTextDocument* text_;
  QString folder_;
  QString path_;
  QString untitledKey_;  // names an untitled document's copy: one per document, not shared
  QString error_;
  QString lastAutosaved_;  // the text the copy holds
  bool replacing_ = false;
  QTimer timer_;
};

}  // namespace gl::ui
