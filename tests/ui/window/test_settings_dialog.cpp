// The settings dialog shows the values it is given, and hands back what the user chose when
// OK is clicked (Cancel leaves the caller's values alone).
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QtTest>

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

QTEST_MAIN(TestSettingsDialog)
#include "test_settings_dialog.moc"
