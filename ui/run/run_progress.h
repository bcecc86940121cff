#pragma once
// One progress bar per variant of a run (steps done / total of the loop being run), shown
// in the status bar while the run lasts.
#include <QMap>
#include <QWidget>

class QHBoxLayout;
class QProgressBar;

namespace gl::ui {

class RunProgress : public QWidget {
  Q_OBJECT
 public:
  explicit RunProgress(QWidget* parent = nullptr);

  void start();  // clears the bars and shows the widget
  void beginVariant(
      const QString& name);  // adds (or resets) the variant's bar, busy until progress
  void setProgress(const QString& variant, qint64 done, qint64 total);
  void finish();  // marks every bar done and hides the widget

  QProgressBar* bar(const QString& variant) const { return bars_.value(variant); }
  int barCount() const { return int(bars_.size()); }

 private:
  QHBoxLayout* layout_;
  QMap<QString, QProgressBar*> bars_;
};

}  // namespace gl::ui
