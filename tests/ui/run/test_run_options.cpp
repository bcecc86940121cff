// The run options on the toolbar: the variants a script declares (the chosen one kept across
// traces, refills silent), the executor and thread count read back as chosen, and the
// executor settings held while a run goes on.
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include "test_main.h"

#include "ui/run/run_options.h"

using namespace gl;
using namespace gl::ui;

namespace {

std::vector<lang::Variant> variants(std::initializer_list<const char*> names) {
  std::vector<lang::Variant> out;
  for (const char* n : names) {
    lang::Variant v;
    v.name = n;
    out.push_back(v);
  }
  return out;
}

QStringList labels(const RunOptions& o) {
  QStringList out;
  for (int i = 0; i < o.variantBox()->count(); ++i) out << o.variantBox()->itemText(i);
  return out;
}

}  // namespace

class TestRunOptions : public QObject {
  Q_OBJECT

 private slots:
  void mainBlockIsLabelled() {
    RunOptions o;
    o.setVariants(variants({""}));
    QCOMPARE(labels(o), QStringList{"(main)"});
    QCOMPARE(o.variant(), QString());
    QCOMPARE(o.variantLabel(), QString("(main)"));
    QCOMPARE(o.variantCount(), 1);
  }

  void chosenVariantSurvivesARetrace() {
    RunOptions o;
    QSignalSpy changed(&o, &RunOptions::variantChanged);
    o.setVariants(variants({"serial", "vectorized", "parallel"}));
    QCOMPARE(labels(o), (QStringList{"serial", "vectorized", "parallel"}));
    QCOMPARE(o.variant(), QString("serial"));  // the first by default
    QCOMPARE(changed.count(), 0);              // refills are not the user's choice
    o.variantBox()->setCurrentIndex(1);        // the user picks one
    QCOMPARE(changed.count(), 1);
    QCOMPARE(o.variant(), QString("vectorized"));
    o.setVariants(variants({"vectorized", "serial"}));  // the script is edited
    QCOMPARE(o.variant(), QString("vectorized"));
    o.setVariants(variants({"a", "b"}));  // the chosen one is gone: the first
    QCOMPARE(o.variant(), QString("a"));
    QCOMPARE(changed.count(), 1);
  }

  void executorAndThreadsReadBack() {
    RunOptions o;
    QCOMPARE(o.executorBox()->count(), 3);
    QVERIFY(o.executor() == gl::ExecutorKind::Serial);
    QCOMPARE(o.executorLabel(), QString("serial"));
    o.setExecutorIndex(1);
    QVERIFY(o.executor() == gl::ExecutorKind::Parallel);
    QCOMPARE(o.executorLabel(), QString("parallel"));
    QCOMPARE(o.executorIndex(), 1);
    o.setExecutorIndex(2);
    QVERIFY(o.executor() == gl::ExecutorKind::Fused);
    QCOMPARE(o.executorLabel(), QString("fused"));
    QCOMPARE(o.threads(), 0);  // auto: the executor follows the machine's load
    QCOMPARE(o.threadsBox()->text(), QString("auto"));
    o.threadsBox()->setValue(3);
    QCOMPARE(o.threads(), 3);
    QCOMPARE(o.threadsBox()->minimum(), 0);
  }

  void runningHoldsTheExecutorSettings() {
    RunOptions o;
    o.setRunning(true);
    QVERIFY(!o.executorBox()->isEnabled());
    QVERIFY(!o.threadsBox()->isEnabled());
    QVERIFY(o.variantBox()->isEnabled());  // still chooses what is shown
    o.setRunning(false);
    QVERIFY(o.executorBox()->isEnabled());
    QVERIFY(o.threadsBox()->isEnabled());
  }
};

GRADLAB_TEST_MAIN(TestRunOptions)
#include "test_run_options.moc"
