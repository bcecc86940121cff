#include "ui/run/run_options.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QThread>

#include "engine/lab/session.h"
#include "ui/i18n/diagnostic_text.h"

namespace gl::ui {

RunOptions::RunOptions(QWidget* parent)
    : QWidget(parent),
      variants_(new QComboBox(this)),
      executor_(new QComboBox(this)),
      threads_(new QSpinBox(this)) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(2);
  row->addWidget(new QLabel(tr(" Variant "), this));
  variants_->setObjectName(QStringLiteral("variant"));
  variants_->setMinimumContentsLength(14);
  variants_->setToolTip(tr("Variant to run and to show"));
  row->addWidget(variants_);
  row->addWidget(new QLabel(tr(" Executor "), this));
  executor_->setObjectName(QStringLiteral("executor"));
  for (ExecutorKind k : kExecutorKinds) executor_->addItem(ui::executorLabel(k), int(k));
  row->addWidget(executor_);
  row->addWidget(new QLabel(tr(" Threads "), this));
  const int cores = std::max(1, QThread::idealThreadCount());
  threads_->setObjectName(QStringLiteral("threads"));
  // 0, "auto": one thread per core that no other program is using, looked up as the run goes.
  threads_->setRange(0, cores * 4);
  threads_->setSpecialValueText(tr("auto"));
  threads_->setValue(0);
  threads_->setToolTip(
      tr("Threads of the parallel executor (auto: one per core that no other "
         "program is using)"));
  row->addWidget(threads_);
  connect(variants_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &RunOptions::variantChanged);
}

void RunOptions::setVariants(const std::vector<lang::Variant>& variants) {
  const QString keep = variants_->currentText();
  const QSignalBlocker quiet(variants_);
  variants_->clear();
  for (const lang::Variant& v : variants)
    variants_->addItem(v.name.empty() ? tr("(main)") : QString::fromStdString(v.name),
                       QString::fromStdString(v.name));
  const int index = variants_->findText(keep);
  variants_->setCurrentIndex(index >= 0 ? index : 0);
}

QString RunOptions::variant() const { return variants_->currentData().toString(); }

QString RunOptions::variantLabel() const { return variants_->currentText(); }

int RunOptions::variantCount() const { return variants_->count(); }

ExecutorKind RunOptions::executor() const { return ExecutorKind(executor_->currentData().toInt()); }

QString RunOptions::executorLabel() const { return executor_->currentText(); }

int RunOptions::executorIndex() const { return executor_->currentIndex(); }

void RunOptions::setExecutorIndex(int index) { executor_->setCurrentIndex(index); }

int RunOptions::threads() const { return threads_->value(); }

void RunOptions::setRunning(bool running) {
  executor_->setEnabled(!running);
  threads_->setEnabled(!running);
}

}  // namespace gl::ui
