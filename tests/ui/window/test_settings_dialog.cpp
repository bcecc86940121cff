// The settings dialog shows the values it is given, and hands back what the user chose when
// OK is clicked (Cancel leaves the caller's values alone).
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSettings>
#include "test_main.h"

#include "ui/window/settings_dialog.h"

using namespace gl::ui;

namespace {

QPushButton* button(SettingsDialog& d, QDialogButtonBox::StandardButton which) {
  auto* box = d.findChild<QDialogButtonBox*>();
  return box ? box->button(which) : nullptr;
}

}  // namespace

class TestSettingsDialog : public QObject {
  Q_OBJECT

 private slots:
  void showsTheValuesItIsGiven_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QString>("kept");
    QTest::newRow("system") << ""
                            << "System default"
                            << "";
    QTest::newRow("english") << "en"
                             << "English"
                             << "en";
    QTest::newRow("chinese") << "zh_CN" << QString::fromUtf8("简体中文") << "zh_CN";
    QTest::newRow("unknown") << "xx_YY"
                             << "System default"
                             << "";
  }
  void showsTheValuesItIsGiven() {
    QFETCH(QString, language);
    QFETCH(QString, shown);
    QFETCH(QString, kept);
    SettingsDialog d;
    d.setLanguage(language);
    QCOMPARE(d.languageBox()->currentText(), shown);
    QCOMPARE(d.language(), kept);
  }

  void paletteRoundTrips() {
    SettingsDialog d;
    QCOMPARE(d.paletteBox()->count(), 2);
    d.setDarkPalette(true);
    QVERIFY(d.darkPalette());
    QCOMPARE(d.paletteBox()->currentText(), QString("Dark"));
    d.setDarkPalette(false);
    QVERIFY(!d.darkPalette());
    QCOMPARE(d.paletteBox()->currentText(), QString("Light"));
  }

  void okHandsBackTheChoice() {
    SettingsDialog d;
    d.setLanguage("en");
    d.setDarkPalette(false);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    // As the user does: pick from the combo boxes, then OK.
    d.languageBox()->setCurrentIndex(d.languageBox()->findData("zh_CN"));
    d.paletteBox()->setCurrentIndex(1);
    QPushButton* ok = button(d, QDialogButtonBox::Ok);
    QVERIFY(ok);
    QTest::mouseClick(ok, Qt::LeftButton);
    QCOMPARE(d.result(), int(QDialog::Accepted));
    QVERIFY(!d.isVisible());
    QCOMPARE(d.language(), QString("zh_CN"));
    QVERIFY(d.darkPalette());
  }

  // Settings > Limits shows the limits it is given (the budget in MiB) and hands back what
  // the boxes hold; Restore Defaults puts back the engine's defaults.
  void limitsRoundTrip() {
    SettingsDialog d;
    QCOMPARE(d.limits(), RunLimits{});
    QCOMPARE(d.memoryBudgetBox()->value(), 8192.0);  // 8 GiB
    RunLimits mine;
    mine.memoryBudget = qint64(1536) << 20;
    mine.maxUnroll = 50;
    mine.maxNodes = 4000;
    mine.maxItems = 12;
    mine.maxOps = 3000000000;  // past int: the boxes hold int64 limits
    d.setLimits(mine);
    QCOMPARE(d.memoryBudgetBox()->value(), 1536.0);
    QCOMPARE(d.limits(), mine);
    d.maxNodesBox()->setValue(0);  // below the minimum: clamped to 1, never 0
    QCOMPARE(d.limits().maxNodes, qint64(1));
    QPushButton* defaults = button(d, QDialogButtonBox::RestoreDefaults);
    QVERIFY(defaults);
    defaults->click();
    QCOMPARE(d.limits(), RunLimits{});
  }

  // Limits read from QSettings: missing or unusable values are the defaults.
  void limitsPersistInSettings() {
    QSettings s(QSettings::IniFormat, QSettings::UserScope, "GradLabTest", "limits");
    s.clear();
    QCOMPARE(RunLimits::load(s), RunLimits{});
    RunLimits mine;
    mine.maxItems = 77;
    mine.maxOps = 5;
    mine.save(s);
    QCOMPARE(RunLimits::load(s), mine);
    s.setValue("limits/max-items", "lots");
    s.setValue("limits/max-ops", -3);
    QCOMPARE(RunLimits::load(s).maxItems, RunLimits{}.maxItems);
    QCOMPARE(RunLimits::load(s).maxOps, RunLimits{}.maxOps);
  }

  void cancelRejects() {
    SettingsDialog d;
    d.show();
    QPushButton* cancel = button(d, QDialogButtonBox::Cancel);
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(d.result(), int(QDialog::Rejected));
    QVERIFY(!d.isVisible());
  }
};

GRADLAB_TEST_MAIN(TestSettingsDialog)
#include "test_settings_dialog.moc"
