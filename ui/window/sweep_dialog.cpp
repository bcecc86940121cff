#include "ui/window/sweep_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <algorithm>
#include <cmath>

namespace gl::ui {

SweepDialog::SweepDialog(std::vector<lang::Param> params, QWidget* parent)
    : QDialog(parent),
      params_(std::move(params)),
      param_(new QComboBox(this)),
      valuesEdit_(new QLineEdit(this)),
      hint_(new QLabel(this)) {
  setWindowTitle(tr("Sweep a Param"));
  auto* form = new QFormLayout(this);
  for (const lang::Param& p : params_) param_->addItem(QString::fromStdString(p.name));
  connect(param_, qOverload<int>(&QComboBox::currentIndexChanged), this, &SweepDialog::showParam);
  showParam(0);
  form->addRow(tr("Param"), param_);
  form->addRow(tr("Values"), valuesEdit_);
  form->addRow(hint_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &SweepDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  // Wide enough for the window manager to show the whole title ("Sweep…Param" otherwise).
  setMinimumWidth(std::max(360, fontMetrics().horizontalAdvance(windowTitle()) + 200));
}

QString SweepDialog::param() const { return param_->currentText(); }

const lang::Param& SweepDialog::current() const {
  return params_.at(size_t(std::max(0, param_->currentIndex())));
}

void SweepDialog::showParam(int) {
  const lang::Param& p = current();
  valuesEdit_->setText(suggestedValues(p));
  hint_->setText(
      tr("%1 takes values in %2..%3").arg(QString::fromStdString(p.name)).arg(p.lo).arg(p.hi));
}

void SweepDialog::accept() {
  QString error;
  if (parseValues(valuesEdit_->text(), current(), &values_, &error))
    QDialog::accept();
  else
    hint_->setText(error);
}

QString SweepDialog::suggestedValues(const lang::Param& p) {
  QStringList out;
  const double lo = p.isInt ? std::max(1.0, p.lo) : p.lo;
  const double hi = std::min(p.hi, std::max(p.value, lo) * 8);
  const double start = std::max(lo, p.value / 8);
  for (int i = 0; i < 6; ++i) {
    double v = start * std::pow(hi / start, i / 5.0);
    if (!(v > 0)) v = lo + (hi - lo) * i / 5.0;
    if (p.isInt) v = std::round(v);
    const QString text = QString::number(v, 'g', 6);
    if (!out.contains(text)) out << text;
  }
  return out.join(QStringLiteral(", "));
}

bool SweepDialog::parseValues(const QString& text, const lang::Param& p, QVector<double>* values,
                              QString* error) {
  values->clear();
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool ok = false;
    const double v = part.trimmed().toDouble(&ok);
    if (!ok) {
      *error = tr("'%1' is not a number").arg(part.trimmed());
      return false;
    }
    if (v < p.lo || v > p.hi) {
      *error = tr("%1 is outside %2..%3").arg(v).arg(p.lo).arg(p.hi);
      return false;
    }
    values->push_back(v);
  }
  if (values->isEmpty()) *error = tr("give at least one value");
  return !values->isEmpty();
}

}  // namespace gl::ui
