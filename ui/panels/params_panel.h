#pragma once
// The knobs a script declares with `param name = value in lo..hi`, as a slider and a spin box
// each. The window calls setParams() after every successful trace and re-runs when
// paramsChanged() fires; values the user set survive re-parses as long as the param does.
#include <QMap>
#include <QString>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <memory>
#include <vector>

#include "engine/lang/program.h"

class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace gl::ui {

class ParamsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ParamsPanel(QWidget* parent = nullptr);
  ~ParamsPanel() override;

  // Shows these params. A param the user changed keeps the user's value (clamped to its new
  // range); others show the script's value. Does not emit paramsChanged().
  void setParams(const QVector<gl::lang::Param>& params);
  // Current value of every shown param, by name (ints as whole numbers).
  QMap<QString, double> values() const;
  // Names of the params whose value the user changed.
  QStringList userChangedNames() const { return userValues_.keys(); }

  void setDebounceInterval(int ms) { debounce_.setInterval(ms); }

  // For tests and the window: the editing widgets of one param (null if no such param; the
  // spin box is a QSpinBox for ints and a QDoubleSpinBox for floats).
  QSlider* sliderFor(const QString& name) const;
  QWidget* spinBoxFor(const QString& name) const;

 public slots:
  // Forgets the user's values and shows the script's again.
  void resetToScriptValues();

 signals:
  // The user changed a value and then left the controls alone for the debounce interval.
  void paramsChanged();

 private:
  struct Row;

  void rebuild(const QVector<gl::lang::Param>& params);
  void showValue(Row& row, double value);
  void onUserEdit(Row& row, double value);
  void updateRowLabel(Row& row);
  Row* rowFor(const QString& name) const;

  QFormLayout* form_;
  QLabel* emptyNote_;
  QPushButton* resetButton_;
  std::vector<std::unique_ptr<Row>> rows_;
  QMap<QString, double> userValues_;
  QTimer debounce_;
};

}  // namespace gl::ui
