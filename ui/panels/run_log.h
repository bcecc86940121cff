#pragma once
// The run log: what a run said, newest at the bottom. Info lines (grey), tf.print output (as
// printed) and errors (red) whose script location is a link: clicking it emits
// locationActivated so the window can put the editor's cursor there.
#include <QPlainTextEdit>

#include <optional>

namespace gl::ui {

// A script location as errors print it: "file:line:col" (file may be empty, "line:col").
struct LogLocation {
  QString file;
  int line = 0;
  int col = 0;
};

class RunLog : public QPlainTextEdit {
  Q_OBJECT

 public:
  static constexpr int kDefaultMaxLines = 20000;

  explicit RunLog(QWidget* parent = nullptr);

  void appendInfo(const QString& text);
  // tf.print output: shown verbatim, in the text colour.
  void appendPrint(const QString& text);
  // An error; a non-empty location ("file:line:col" or "line:col") is shown before the text
  // as a clickable link. Without one, a text starting "file:line:col: " (as engine errors do)
  // has that prefix turned into the link.
  void appendError(const QString& text, const QString& location = {});
  void appendError(const QString& text, const QString& file, int line, int col);
  // A warning (amber) with its location as a link, e.g. where the first NaN appeared.
  void appendWarning(const QString& text, const QString& file, int line, int col);

  // "file:line:col" -> its parts; nullopt if the text is not a location.
  static std::optional<LogLocation> parseLocation(const QString& text);
  static QString formatLocation(const QString& file, int line, int col);

  // Emits the activation signals for the link under a viewport point; false if none is there.
  bool activateLinkAt(const QPoint& viewportPos);

 signals:
  void locationActivated(int line, int col);
  // The same, with the file the location names (for scripts that are not the open one).
  void fileLocationActivated(const QString& file, int line, int col);

 protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  enum class Kind { Info, Print, Warning, Error };
  void appendLine(Kind kind, const QString& text, const QString& location);
};

}  // namespace gl::ui
