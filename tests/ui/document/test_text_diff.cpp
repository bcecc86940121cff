// The recovery preview's line diff: what each side has, in text order, long unchanged runs
// shortened, counts that match the lines.
#include "test_main.h"

#include "ui/document/text_diff.h"

using gl::ui::diffLines;
using gl::ui::TextDiff;

class TestTextDiff : public QObject {
  Q_OBJECT

 private slots:
  void sameTextHasNoChanges() {
    const TextDiff d = diffLines("a\nb\n", "a\nb\n");
    QVERIFY(d.same());
    QCOMPARE(d.text, QString("  … 2 unchanged lines\n"));
  }

  void changedLineIsRemovedThenAdded() {
    const TextDiff d = diffLines("x = 1\ny = 2\nz = 3\n", "x = 1\ny = 5\nz = 3\n");
    QCOMPARE(d.added, 1);
    QCOMPARE(d.removed, 1);
    QCOMPARE(d.text, QString("  x = 1\n- y = 2\n+ y = 5\n  z = 3\n"));
  }

  void insertionsAndDeletionsKeepTheCommonLines() {
    const TextDiff d = diffLines("a\nb\nc\n", "a\nc\nd\n");
    QCOMPARE(d.text, QString("  a\n- b\n  c\n+ d\n"));
    QCOMPARE(d.added, 1);
    QCOMPARE(d.removed, 1);
    const TextDiff fromNothing = diffLines("", "p = 1\nq = 2\n");
    QCOMPARE(fromNothing.text, QString("+ p = 1\n+ q = 2\n"));
    QCOMPARE(fromNothing.added, 2);
  }

  void longUnchangedRunsShowTheirEnds() {
    QString before, after;
    for (int i = 0; i < 20; ++i) before += QString("line %1\n").arg(i);
    after = before;
    after.replace("line 10\n", "line ten\n");
    const TextDiff d = diffLines(before, after, 2);
    QCOMPARE(d.text, QString("  … 8 unchanged lines\n  line 8\n  line 9\n- line 10\n+ line ten\n"
                             "  line 11\n  line 12\n  … 7 unchanged lines\n"));
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestTextDiff)
#include "test_text_diff.moc"
