// The sweep dialog: suggested values inside each param's range, values parsed with a reason
// when they are not numbers or out of range, and OK closing the dialog only on good values.
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include "test_main.h"

#include "ui/window/sweep_dialog.h"

using namespace gl;
using namespace gl::ui;

namespace {

lang::Param param(const char* name, bool isInt, double value, double lo, double hi) {
  lang::Param p;
  p.name = name;
  p.isInt = isInt;
  p.value = value;
  p.lo = lo;
  p.hi = hi;
  return p;
}

}  // namespace

class TestSweepDialog : public QObject {
  Q_OBJECT

 private slots:
  void suggestsValuesInsideTheRange_data() {
    QTest::addColumn<bool>("isInt");
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<QString>("expected");
    // value/8 .. value*8, geometric, rounded for ints.
    QTest::newRow("int steps") << true << 100.0 << 1.0 << 100000.0 << "13, 29, 66, 152, 348, 800";
    // A narrow int range: duplicates after rounding are dropped.
    QTest::newRow("narrow int") << true << 2.0 << 1.0 << 3.0 << "1, 2, 3";
    QTest::newRow("float lr") << false << 0.5 << 0.001 << 1.0
                              << "0.0625, 0.108819, 0.189465, 0.329877, 0.574349, 1";
  }
  void suggestsValuesInsideTheRange() {
    QFETCH(bool, isInt);
    QFETCH(double, value);
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(QString, expected);
    const lang::Param p = param("p", isInt, value, lo, hi);
    const QString text = SweepDialog::suggestedValues(p);
    QCOMPARE(text, expected);
    QVector<double> values;
    QString error;
    QVERIFY2(SweepDialog::parseValues(text, p, &values, &error), qPrintable(error));
    for (double v : values) QVERIFY(v >= lo && v <= hi);
  }

  void parsesValuesOrSaysWhyNot_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("error");
    QTest::addColumn<QVector<double>>("values");
    QTest::newRow("list") << "1, 2,4 ,8" << true << "" << QVector<double>{1, 2, 4, 8};
    QTest::newRow("empty parts skipped") << "3,,5," << true << "" << QVector<double>{3, 5};
    QTest::newRow("not a number") << "1, two" << false << "'two' is not a number"
                                  << QVector<double>{};
    QTest::newRow("below") << "0" << false << "0 is outside 1..64" << QVector<double>{};
    QTest::newRow("above") << "65" << false << "65 is outside 1..64" << QVector<double>{};
    QTest::newRow("nothing") << "" << false << "give at least one value" << QVector<double>{};
  }
  void parsesValuesOrSaysWhyNot() {
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(QString, error);
    QFETCH(QVector<double>, values);
    QVector<double> got;
    QString why;
    QCOMPARE(SweepDialog::parseValues(text, param("batch", true, 4, 1, 64), &got, &why), ok);
    QCOMPARE(why, error);
    if (ok) QCOMPARE(got, values);
  }

  // Window managers elide a title that does not fit ("Sweep…Param"): the dialog is wide
  // enough for its title plus the title bar's buttons.
  void wideEnoughForItsTitle() {
    SweepDialog d({param("steps", true, 100, 1, 1000)});
    QCOMPARE(d.windowTitle(), QString("Sweep a Param"));
    QVERIFY(d.minimumWidth() >= d.fontMetrics().horizontalAdvance(d.windowTitle()) + 200);
    d.show();
    QVERIFY(d.width() >= d.minimumWidth());
  }

  void showsTheChosenParam() {
    SweepDialog d({param("steps", true, 100, 1, 100000), param("lr", false, 0.5, 0.001, 1.0)});
    QCOMPARE(d.paramBox()->count(), 2);
    QCOMPARE(d.param(), QString("steps"));
    QCOMPARE(d.valuesEdit()->text(), QString("13, 29, 66, 152, 348, 800"));
    QCOMPARE(d.hint()->text(), QString("steps takes values in 1..100000"));
    d.paramBox()->setCurrentIndex(1);
    QCOMPARE(d.param(), QString("lr"));
    QCOMPARE(d.valuesEdit()->text(),
             SweepDialog::suggestedValues(param("lr", false, 0.5, 0.001, 1.0)));
    QCOMPARE(d.hint()->text(), QString("lr takes values in 0.001..1"));
  }

  void okNeedsGoodValues() {
    SweepDialog d({param("steps", true, 100, 1, 1000)});
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    QPushButton* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(ok);
    d.valuesEdit()->clear();
    QTest::keyClicks(d.valuesEdit(), "2, 4, 5000");
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(d.isVisible());  // still open, saying why
    QCOMPARE(d.hint()->text(), QString("5000 is outside 1..1000"));
    d.valuesEdit()->clear();
    QTest::keyClicks(d.valuesEdit(), "2, 4, 8");
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(!d.isVisible());
    QCOMPARE(d.result(), int(QDialog::Accepted));
    QCOMPARE(d.param(), QString("steps"));
    QCOMPARE(d.values(), (QVector<double>{2, 4, 8}));
  }
};

GRADLAB_TEST_MAIN(TestSweepDialog)
#include "test_sweep_dialog.moc"
