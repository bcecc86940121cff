// MainWindow: the param sweep behind the scaling plot (choose a param and its values; every
// variant is timed at each value on the chosen executor).
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QStatusBar>
#include <cmath>

#include "ui/panels/run_log.h"
#include "ui/plots/plot_data.h"
#include "ui/plots/plots_panel.h"
#include "ui/plots/scaling_plot.h"
#include "ui/run/run_progress.h"
#include "ui/window/main_window.h"

namespace gl::ui {

namespace {

// Up to six values spread over the param's range, geometric when the range allows it.
QString suggestedValues(const lang::Param& p) {
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

}  // namespace

// Parses "1, 2, 4" into numbers inside [lo, hi]; false (and why) otherwise.
static bool parseValues(const QString& text, const lang::Param& p, QVector<double>* values,
                        QString* error) {
  values->clear();
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool ok = false;
    const double v = part.trimmed().toDouble(&ok);
    if (!ok) {
      *error = QObject::tr("'%1' is not a number").arg(part.trimmed());
      return false;
    }
    if (v < p.lo || v > p.hi) {
      *error = QObject::tr("%1 is outside %2..%3").arg(v).arg(p.lo).arg(p.hi);
      return false;
    }
    values->push_back(v);
  }
  if (values->isEmpty()) *error = QObject::tr("give at least one value");
  return !values->isEmpty();
}

void MainWindow::sweepDialog() {
  auto program = controller_->program();
  if (!program || program->params.empty()) {
    log_->appendError(tr("This script declares no param to sweep."));
    return;
  }
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Sweep a Param"));
  auto* form = new QFormLayout(&dialog);
  auto* param = new QComboBox(&dialog);
  for (const lang::Param& p : program->params) param->addItem(QString::fromStdString(p.name));
  auto* values = new QLineEdit(&dialog);
  auto* hint = new QLabel(&dialog);
  auto update = [&] {
    const lang::Param& p = program->params.at(size_t(std::max(0, param->currentIndex())));
    values->setText(suggestedValues(p));
    hint->setText(
        tr("%1 takes values in %2..%3").arg(QString::fromStdString(p.name)).arg(p.lo).arg(p.hi));
  };
  connect(param, qOverload<int>(&QComboBox::currentIndexChanged), &dialog, update);
  update();
  form->addRow(tr("Param"), param);
  form->addRow(tr("Values"), values);
  form->addRow(hint);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  QVector<double> chosen;
  connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
    QString error;
    const lang::Param& p = program->params.at(size_t(param->currentIndex()));
    if (parseValues(values->text(), p, &chosen, &error))
      dialog.accept();
    else
      hint->setText(error);
  });
  if (dialog.exec() != QDialog::Accepted) return;
  startSweep(param->currentText(), chosen);
}

bool MainWindow::startSweep(const QString& param, const QVector<double>& values) {
  sweep_ = std::make_unique<ScalingData>();
  sweep_->param = param;
  plots_->showScaling(*sweep_);
  plots_->showPlot(plots_->scaling());
  log_->appendInfo(tr("Sweeping %1 over %2 values…").arg(param).arg(values.size()));
  return controller_->sweep(param, values, executor_->currentData().toBool(), threads_->value());
}

void MainWindow::onSweepFinished(const QString& param, const QString& error) {
  runAct_->setEnabled(true);
  runAllAct_->setEnabled(true);
  sweepAct_->setEnabled(true);
  cancelAct_->setEnabled(false);
  progress_->finish();
  if (!error.isEmpty())
    log_->appendError(error);
  else
    log_->appendInfo(tr("Sweep of %1 finished").arg(param));
  status_->setText(error.isEmpty() ? tr("Sweep finished") : error);
}

}  // namespace gl::ui
