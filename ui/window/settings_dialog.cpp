#include "ui/window/settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <cmath>

namespace gl::ui {

namespace {

constexpr double kMiB = double(1 << 20);
// Whole numbers up to here are exact in a double (the spin boxes hold int64 limits).
constexpr double kMaxCount = 1e15;

}  // namespace

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent), language_(new QComboBox(this)), palette_(new QComboBox(this)) {
  setWindowTitle(tr("Settings"));
  auto* form = new QFormLayout(this);
  language_->setObjectName(QStringLiteral("language"));
  language_->addItem(tr("System default"), QString());
  language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
  language_->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
  form->addRow(tr("Language"), language_);
  palette_->setObjectName(QStringLiteral("palette"));
  palette_->addItems({tr("Light"), tr("Dark")});
  form->addRow(tr("Palette"), palette_);
  form->addRow(new QLabel(tr("A new language applies fully after a restart."), this));

  auto* limits = new QGroupBox(tr("Limits"), this);
  limits->setObjectName(QStringLiteral("limits"));
  auto* limitForm = new QFormLayout(limits);
  memoryMiB_ = countBox(QStringLiteral("memoryBudget"), kMaxCount / kMiB);
  memoryMiB_->setMinimum(1);
  memoryMiB_->setSuffix(tr(" MiB"));
  memoryMiB_->setToolTip(tr("Bytes of tensors a trace or run may hold (--memory-budget)"));
  limitForm->addRow(tr("Memory budget"), memoryMiB_);
  maxUnroll_ = countBox(QStringLiteral("maxUnroll"), kMaxCount);
  maxUnroll_->setToolTip(tr("Python loop iterations unrolled while tracing (--max-unroll)"));
  limitForm->addRow(tr("Unrolled iterations"), maxUnroll_);
  maxNodes_ = countBox(QStringLiteral("maxNodes"), kMaxCount);
  maxNodes_->setToolTip(tr("Nodes the traced graph may have (--max-nodes)"));
  limitForm->addRow(tr("Graph nodes"), maxNodes_);
  maxItems_ = countBox(QStringLiteral("maxItems"), kMaxCount);
  maxItems_->setToolTip(tr("Items of a Python list or characters of a string (--max-items)"));
  limitForm->addRow(tr("List and string items"), maxItems_);
  maxOps_ = countBox(QStringLiteral("maxOps"), kMaxCount);
  maxOps_->setToolTip(tr("Ops a run may execute, every loop iteration counted (--max-ops)"));
  limitForm->addRow(tr("Ops per run"), maxOps_);
  form->addRow(limits);
  setLimits(RunLimits{});

  auto* buttons = new QDialogButtonBox(
      QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
          [this] { setLimits(RunLimits{}); });
}

QDoubleSpinBox* SettingsDialog::countBox(const QString& name, double max) {
  auto* box = new QDoubleSpinBox(this);
  box->setObjectName(name);
  box->setDecimals(0);
  box->setRange(1, max);
  box->setGroupSeparatorShown(true);
  box->setAccelerated(true);
  return box;
}

void SettingsDialog::setLanguage(const QString& language) {
  language_->setCurrentIndex(std::max(0, language_->findData(language)));
}

QString SettingsDialog::language() const { return language_->currentData().toString(); }

void SettingsDialog::setDarkPalette(bool dark) { palette_->setCurrentIndex(dark ? 1 : 0); }

bool SettingsDialog::darkPalette() const { return palette_->currentIndex() == 1; }

void SettingsDialog::setLimits(const RunLimits& limits) {
  memoryMiB_->setValue(std::ceil(double(limits.memoryBudget) / kMiB));
  maxUnroll_->setValue(double(limits.maxUnroll));
  maxNodes_->setValue(double(limits.maxNodes));
  maxItems_->setValue(double(limits.maxItems));
  maxOps_->setValue(double(limits.maxOps));
}

RunLimits SettingsDialog::limits() const {
  RunLimits l;
  l.memoryBudget = qint64(std::llround(memoryMiB_->value() * kMiB));
  l.maxUnroll = qint64(std::llround(maxUnroll_->value()));
  l.maxNodes = qint64(std::llround(maxNodes_->value()));
  l.maxItems = qint64(std::llround(maxItems_->value()));
  l.maxOps = qint64(std::llround(maxOps_->value()));
  return l;
}

}  // namespace gl::ui
