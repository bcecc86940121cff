#pragma once
// The lesson browser: the built-in lessons (every *.gls of a directory or Qt resource prefix,
// titled by the first comment line of the file) and the recently opened files (kept in
// QSettings, listed by file name). Activating an entry (double-click, Enter) emits
// lessonActivated(path).
#include <QString>
#include <QStringList>
#include <QTreeWidget>

#include <memory>

class QSettings;

namespace gl::ui {

class LessonBrowser : public QTreeWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxRecentFiles = 10;
  static constexpr int kPathRole = Qt::UserRole;

  explicit LessonBrowser(QWidget* parent = nullptr);

  // A directory, or a resource prefix such as ":/lessons". Lists its *.gls files by file name.
  void setLessonDirectory(const QString& directory);
  QString lessonDirectory() const { return lessonDirectory_; }

  // Recent files: most recent first, at most kMaxRecentFiles, stored under "recentFiles".
  void addRecentFile(const QString& path);
  void removeRecentFile(const QString& path);
  void clearRecentFiles();
  QStringList recentFiles() const;
  // Keeps the recent files in this INI file instead of the application's settings (tests).
  void setSettingsFile(const QString& iniPath);

  // The first comment line's text ("# Euler ODE" -> "Euler ODE"), or the file's base name.
  static QString lessonTitle(const QString& path);

  QTreeWidgetItem* builtInItem() const { return builtIn_; }
  QTreeWidgetItem* recentItem() const { return recent_; }

 public slots:
  // Re-reads the lesson directory and the recent files.
  void refresh();

 signals:
  void lessonActivated(const QString& path);

 protected:
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  std::unique_ptr<QSettings> openSettings() const;
  void storeRecentFiles(const QStringList& files);
  void fillBuiltIn();
  void fillRecent();
  QTreeWidgetItem* addFileItem(QTreeWidgetItem* parent, const QString& path);

  QTreeWidgetItem* builtIn_;
  QTreeWidgetItem* recent_;
  QString lessonDirectory_;
  QString settingsFile_;
};

}  // namespace gl::ui
