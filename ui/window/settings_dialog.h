#pragma once
// The settings dialog: the interface language, the palette and the limits traces and runs
// work under. It only edits the values; the window reads them back after exec() and applies
// them.
#include <QDialog>

#include "ui/run/run_limits.h"

class QComboBox;
class QDoubleSpinBox;

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
  // The Limits section (the CLI's --memory-budget, --max-unroll, --max-nodes, --max-items,
  // --max-ops); "Restore Defaults" puts back RunLimits{}.
  void setLimits(const RunLimits& limits);
  RunLimits limits() const;

  QComboBox* languageBox() const { return language_; }
  QComboBox* paletteBox() const { return palette_; }
  QDoubleSpinBox* memoryBudgetBox() const { return memoryMiB_; }  // MiB
  QDoubleSpinBox* maxUnrollBox() const { return maxUnroll_; }
  QDoubleSpinBox* maxNodesBox() const { return maxNodes_; }
  QDoubleSpinBox* maxItemsBox() const { return maxItems_; }
  QDoubleSpinBox* maxOpsBox() const { return maxOps_; }

 private:
  QDoubleSpinBox* countBox(const QString& name, double max);

  QComboBox* language_;
  QComboBox* palette_;
  QDoubleSpinBox *memoryMiB_, *maxUnroll_, *maxNodes_, *maxItems_, *maxOps_;
};

}  // namespace gl::ui
