#include "ui/run/run_progress.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <climits>

namespace gl::ui {

RunProgress::RunProgress(QWidget* parent) : QWidget(parent) {
  layout_ = new QHBoxLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setSpacing(4);
  setVisible(false);
}

void RunProgress::start() {
  for (QProgressBar* b : bars_) b->deleteLater();
  bars_.clear();
  setVisible(true);
}

void RunProgress::beginVariant(const QString& name) {
  QProgressBar* b = bars_.value(name);
  if (!b) {
    b = new QProgressBar(this);
    b->setMaximumWidth(180);
    b->setTextVisible(true);
    layout_->addWidget(b);
    bars_.insert(name, b);
  }
  b->setRange(0, 0);  // busy until the first loop reports
  b->setFormat(name.isEmpty() ? tr("run") : name);
  b->setToolTip(tr("Variant '%1'").arg(name));
}

void RunProgress::setProgress(const QString& variant, qint64 done, qint64 total) {
  QProgressBar* b = bars_.value(variant);
  if (!b) {
    beginVariant(variant);
    b = bars_.value(variant);
  }
  const int scale = total > INT_MAX ? int(total / INT_MAX) + 1 : 1;
  b->setRange(0, int(total / scale));
  b->setValue(int(done / scale));
  b->setFormat((variant.isEmpty() ? tr("run") : variant) +
               QStringLiteral(" %1/%2").arg(done).arg(total));
}

void RunProgress::finish() {
  for (QProgressBar* b : bars_) {
    b->setRange(0, 1);
    b->setValue(1);
  }
  setVisible(false);
}

}  // namespace gl::ui
