#pragma once
// The param sweep's dialog (behind the scaling plot): one of the script's params and the
// values to time every variant at. OK closes it only when the values are numbers inside the
// param's range; otherwise the hint says what is wrong.
#include <QDialog>
#include <QVector>
#include <vector>

#include "engine/lang/program.h"

class QComboBox;
class QLabel;
class QLineEdit;

namespace gl::ui {

class SweepDialog : public QDialog {
  Q_OBJECT
 public:
  // `params` must not be empty.
  explicit SweepDialog(std::vector<lang::Param> params, QWidget* parent = nullptr);

  // The chosen param and, once accepted, its values.
  QString param() const;
  QVector<double> values() const { return values_; }

  QComboBox* paramBox() const { return param_; }
  QLineEdit* valuesEdit() const { return valuesEdit_; }
  QLabel* hint() const { return hint_; }

  // Up to six values spread over the param's range, geometric when the range allows it.
  static QString suggestedValues(const lang::Param& p);
  // Parses "1, 2, 4" into numbers inside [lo, hi]; false (and why) otherwise.
  static bool parseValues(const QString& text, const lang::Param& p, QVector<double>* values,
                          QString* error);

  void accept() override;

 private:
  void showParam(int index);
  const lang::Param& current() const;

  std::vector<lang::Param> params_;
  QComboBox* param_;
  QLineEdit* valuesEdit_;
  QLabel* hint_;
  QVector<double> values_;
};

}  // namespace gl::ui
