#include "ui/panels/lesson_browser.h"

#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QTextStream>

namespace gl::ui {

namespace {
const char* const kRecentFilesKey = "recentFiles";
}  // namespace

LessonBrowser::LessonBrowser(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(1);
  setHeaderHidden(true);
  setRootIsDecorated(true);
  setUniformRowHeights(true);
  builtIn_ = new QTreeWidgetItem(this, {tr("Built-in lessons")});
  recent_ = new QTreeWidgetItem(this, {tr("Recent files")});
  for (QTreeWidgetItem* group : {builtIn_, recent_}) {
    QFont f = font();
    f.setBold(true);
    group->setFont(0, f);
    group->setFlags(Qt::ItemIsEnabled);
    group->setExpanded(true);
  }
  connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    const QString path = item->data(0, kPathRole).toString();
    if (!path.isEmpty()) emit lessonActivated(path);
  });
  fillRecent();
}

void LessonBrowser::setLessonDirectory(const QString& directory) {
  lessonDirectory_ = directory;
  fillBuiltIn();
}

void LessonBrowser::refresh() {
  fillBuiltIn();
  fillRecent();
}

QString LessonBrowser::lessonTitle(const QString& path) {
  QFile file(path);
  if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    QTextStream in(&file);
    // Only the comment block at the top counts: a comment further down is not a title.
    for (int lines = 0; lines < 50 && !in.atEnd(); ++lines) {
      const QString line = in.readLine().trimmed();
      if (line.isEmpty()) continue;
      if (!line.startsWith(u'#')) break;
      QString title = line;
      while (title.startsWith(u'#')) title.remove(0, 1);
      title = title.trimmed();
      if (!title.isEmpty()) return title;
    }
  }
  return QFileInfo(path).completeBaseName();
}

QTreeWidgetItem* LessonBrowser::addFileItem(QTreeWidgetItem* parent, const QString& path) {
  const QFileInfo info(path);
  const bool exists = info.exists();
  // Built-in lessons read as their titles; recent files are the user's own, known by their
  // names (a title is often a first comment that says little), with the title in the tooltip.
  const bool byTitle = parent == builtIn_ && exists;
  auto* item = new QTreeWidgetItem(parent, {byTitle ? lessonTitle(path) : info.fileName()});
  item->setData(0, kPathRole, path);
  const QString native = QDir::toNativeSeparators(path);
  if (!exists)
    item->setToolTip(0, tr("%1 (file not found)").arg(native));
  else
    item->setToolTip(0, byTitle ? native : lessonTitle(path) + QLatin1Char('\n') + native);
  if (!exists) item->setDisabled(true);
  return item;
}

void LessonBrowser::fillBuiltIn() {
  qDeleteAll(builtIn_->takeChildren());
  if (lessonDirectory_.isEmpty()) return;
  const QDir dir(lessonDirectory_);
  const QStringList names = dir.entryList({"*.gls"}, QDir::Files | QDir::Readable, QDir::Name);
  for (const QString& name : names) addFileItem(builtIn_, dir.filePath(name));
  if (names.isEmpty()) {
    auto* none = new QTreeWidgetItem(builtIn_, {tr("(no lessons found)")});
    none->setFlags(Qt::NoItemFlags);
  }
  builtIn_->setExpanded(true);
}

void LessonBrowser::fillRecent() {
  qDeleteAll(recent_->takeChildren());
  for (const QString& path : recentFiles()) addFileItem(recent_, path);
  recent_->setExpanded(true);
}

std::unique_ptr<QSettings> LessonBrowser::openSettings() const {
  if (!settingsFile_.isEmpty())
    return std::make_unique<QSettings>(settingsFile_, QSettings::IniFormat);
  return std::make_unique<QSettings>();
}

void LessonBrowser::setSettingsFile(const QString& iniPath) {
  settingsFile_ = iniPath;
  fillRecent();
}

QStringList LessonBrowser::recentFiles() const {
  return openSettings()->value(kRecentFilesKey).toStringList();
}

void LessonBrowser::storeRecentFiles(const QStringList& files) {
  openSettings()->setValue(kRecentFilesKey, files.mid(0, kMaxRecentFiles));
  fillRecent();
}

void LessonBrowser::addRecentFile(const QString& path) {
  // The same file reached by another spelling of its path is still the same file.
  const QString canonical = QFileInfo(path).canonicalFilePath();
  const QString key = canonical.isEmpty() ? path : canonical;
  QStringList files = recentFiles();
  files.removeAll(key);
  files.prepend(key);
  storeRecentFiles(files);
}

void LessonBrowser::removeRecentFile(const QString& path) {
  QStringList files = recentFiles();
  files.removeAll(path);
  storeRecentFiles(files);
}

void LessonBrowser::clearRecentFiles() { storeRecentFiles({}); }

void LessonBrowser::contextMenuEvent(QContextMenuEvent* event) {
  QTreeWidgetItem* item = itemAt(viewport()->mapFromGlobal(event->globalPos()));
  QMenu menu(this);
  if (item && item->parent() == recent_) {
    const QString path = item->data(0, kPathRole).toString();
    menu.addAction(tr("Remove from recent files"), this, [this, path] { removeRecentFile(path); });
  }
  if (item == recent_ || (item && item->parent() == recent_)) {
    QAction* clear =
        menu.addAction(tr("Clear recent files"), this, &LessonBrowser::clearRecentFiles);
    clear->setEnabled(recent_->childCount() > 0);
  }
  if (!menu.isEmpty()) menu.exec(event->globalPos());
}

}  // namespace gl::ui
