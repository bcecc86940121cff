#pragma once
// The knobs a script declares with `param name = value in lo..hi [class n]`, as a slider and a
// spin box each, and the one-click switch between the classroom and the seed-size values. The
// window calls setParams() after every successful trace and re-runs when paramsChanged()
// fires; values the user set survive re-parses as long as the param does, and are forgotten
// when another lesson opens (startOver) or the preset changes.
#include <QMap>
#include <QString>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <memory>
#include <vector>

#include "engine/lang/program.h"

class QButtonGroup;
class QDoubleSpinBox;
class QFormLayout;
class QAbstractButton;
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
  // The values the user set here (the trace's overrides); the rest come from the preset.
  QMap<QString, double> userValues() const { return userValues_; }
  // Names of the params whose value the user changed.
  QStringList userChangedNames() const { return userValues_.keys(); }
  // Takes these values as the user's (the command line's --set), without emitting.
  void setUserValues(const QMap<QString, double>& values);

  // Which declared values the params start from; the switch shows it.
  lang::ParamPreset preset() const { return preset_; }
  // A new lesson: forget the user's values and the shown knobs, start from `preset`. Does
  // not emit.
  void startOver(lang::ParamPreset preset);
  // A value typed or dragged but still waiting for the debounce: emits paramsChanged() now
  // (a run must use the values the dock shows). False if nothing was pending.
  bool commitPendingEdit();
  // For tests: the switch's buttons.
  QAbstractButton* presetButton(lang::ParamPreset preset) const;

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
  // The user switched presets (user values are already forgotten): re-trace with it.
  void presetChanged(gl::lang::ParamPreset preset);

 private:
  struct Row;

  void rebuild(const QVector<gl::lang::Param>& params);
  void showValue(Row& row, double value);
  void onUserEdit(Row& row, double value);
  void updateRowLabel(Row& row);
  void updatePresetSwitch();
  void choosePreset(lang::ParamPreset preset);
  double scriptValue(const Row& row) const;
  Row* rowFor(const QString& name) const;

  QFormLayout* form_;
  QLabel* emptyNote_;
  QPushButton* resetButton_;
  QWidget* presetSwitch_;
  QButtonGroup* presetGroup_;
  lang::ParamPreset preset_ = lang::ParamPreset::Classroom;
  std::vector<std::unique_ptr<Row>> rows_;
  QMap<QString, double> userValues_;
  QTimer debounce_;
};

}  // namespace gl::ui
