#include "ui/window/settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>

namespace gl::ui {

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
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void SettingsDialog::setLanguage(const QString& language) {
  language_->setCurrentIndex(std::max(0, language_->findData(language)));
}

QString SettingsDialog::language() const { return language_->currentData().toString(); }

void SettingsDialog::setDarkPalette(bool dark) { palette_->setCurrentIndex(dark ? 1 : 0); }

bool SettingsDialog::darkPalette() const { return palette_->currentIndex() == 1; }

}  // namespace gl::ui
