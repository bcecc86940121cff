#pragma once
// The settings dialog: the interface language and the palette. It only edits the values; the
// window reads them back after exec() and applies them.
#include <QDialog>

class QComboBox;

namespace gl::ui {

class SettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SettingsDialog(QWidget* parent = nullptr);

  // "" follows the system; else "en" or "zh_CN". Anything else shows as the system default.
  void setLanguage(const QString& language);
  QString language() const;
  void setDarkPalette(bool dark);
  bool darkPalette() const;

  QComboBox* languageBox() const { return language_; }
  QComboBox* paletteBox() const { return palette_; }

 private:
  QComboBox* language_;
  QComboBox* palette_;
};

}  // namespace gl::ui
