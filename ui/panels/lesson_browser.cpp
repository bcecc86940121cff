#include "ui/panels/lesson_browser.h"

#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QTextStream>
#include <algorithm>

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

namespace {
// Tall enough for both group headers and a few entries of each: a dock squeezed to four rows
// hid "Recent files" below the built-in lessons.
void fitRows(QTreeWidget& tree) {
  int rows = tree.topLevelItemCount();
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    rows += std::min(4, tree.topLevelItem(i)->childCount());
  const int rowHeight = std::max(tree.fontMetrics().height() + 4, 18);
  tree.setMinimumHeight(rows * rowHeight + 2 * tree.frameWidth() + 4);
}

bool hasHan(const QString& s) {
  for (QChar c : s)
    if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
  return false;
}
}  // namespace

QString LessonBrowser::lessonTitle(const QString& path) {
  // The translation says which title line to show: lessons give an English title and, on the
  // next comment line, a Chinese one.
  const bool chinese =
      tr("en", "the language of lesson titles: en, or zh for the Chinese title line") ==
      QLatin1String("zh");
  QFile file(path);
  QString first;
  if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    QTextStream in(&file);
    // Only the first paragraph of the comment block at the top counts.
    for (int lines = 0; lines < 50 && !in.atEnd(); ++lines) {
      const QString line = in.readLine().trimmed();
      if (line.isEmpty()) continue;
      if (!line.startsWith(u'#')) break;
      QString title = line;
      while (title.startsWith(u'#')) title.remove(0, 1);
      title = title.trimmed();
      if (title.isEmpty()) {
        if (first.isEmpty()) continue;
        break;
      }
      if (first.isEmpty()) first = title;
      if (hasHan(title) == chinese) return title;
      if (!chinese) break;  // the English title is the first line
    }
  }
  return first.isEmpty() ? QFileInfo(path).completeBaseName() : first;
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
  fitRows(*this);
}

void LessonBrowser::fillRecent() {
  qDeleteAll(recent_->takeChildren());
  for (const QString& path : recentFiles()) addFileItem(recent_, path);
  recent_->setExpanded(true);
  fitRows(*this);
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
