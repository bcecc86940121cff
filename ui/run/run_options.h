#pragma once
// How to run, as chosen on the toolbar: the variant to run and show, the executor and its
// thread count. It holds the choice; the window reads it when it starts a run.
#include <QWidget>
#include <vector>

#include "engine/exec/executor_kind.h"
#include "engine/lang/program.h"

class QComboBox;
class QSpinBox;

namespace gl::ui {

class RunOptions : public QWidget {
  Q_OBJECT
 public:
  explicit RunOptions(QWidget* parent = nullptr);

  // The variants the script declares ("" for a script without variant blocks), silently;
  // the chosen one stays chosen while the script still declares it.
  void setVariants(const std::vector<lang::Variant>& variants);
  QString variant() const;       // the chosen variant's name
  QString variantLabel() const;  // as shown ("(main)" for "")
  int variantCount() const;

  ExecutorKind executor() const;
  QString executorLabel() const;
  int executorIndex() const;  // for the settings
  void setExecutorIndex(int index);
  int threads() const;  // 0: auto, the executor follows the machine's load

  // While a run goes on the executor settings wait for the next one; the variant stays a
  // choice of what to show.
  void setRunning(bool running);

  QComboBox* variantBox() const { return variants_; }
  QComboBox* executorBox() const { return executor_; }
  QSpinBox* threadsBox() const { return threads_; }

 signals:
  void variantChanged();  // by the user, not by setVariants()

 private:
  QComboBox* variants_;
  QComboBox* executor_;
  QSpinBox* threads_;
};

}  // namespace gl::ui
