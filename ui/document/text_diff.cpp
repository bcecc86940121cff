#include "ui/document/text_diff.h"

#include <QStringList>
#include <QVector>
#include <algorithm>

namespace gl::ui {

namespace {

enum class Side { Both, Before, After };

struct Line {
  Side side;
  QString text;
};

// The edit script from the LCS table, in text order.
QVector<Line> editScript(const QStringList& a, const QStringList& b) {
  const int n = int(a.size()), m = int(b.size());
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  QVector<QVector<int>> lcs(n + 1, QVector<int>(m + 1, 0));
  for (int i = n - 1; i >= 0; --i)
    for (int j = m - 1; j >= 0; --j)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  QVector<Line> out;
  int i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out.push_back({Side::Both, a[i]});
      ++i;
      ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push_back({Side::Before, a[i++]});  // on a tie the old line first, as diff -u does
    } else {
      out.push_back({Side::After, b[j++]});
    }
  }
  return out;
}

QStringList linesOf(const QString& text) {
  QStringList lines = text.split(QLatin1Char('\n'));
  if (!lines.isEmpty() && lines.back().isEmpty()) lines.removeLast();  // the final newline
  return lines;
}

}  // namespace

TextDiff diffLines(const QString& before, const QString& after, int context) {
  const QVector<Line> script = editScript(linesOf(before), linesOf(after));
  TextDiff diff;
  for (int k = 0; k < script.size();) {
    if (script[k].side != Side::Both) {
      const bool added = script[k].side == Side::After;
      diff.text += (added ? QStringLiteral("+ ") : QStringLiteral("- ")) + script[k].text + '\n';
      ++(added ? diff.added : diff.removed);
      ++k;
      continue;
    }
    int end = k;
    while (end < script.size() && script[end].side == Side::Both) ++end;
    const int run = end - k;
    const bool first = k == 0, last = end == script.size();
    const int keepHead = first ? 0 : context, keepTail = last ? 0 : context;
    if (run > keepHead + keepTail) {
      for (int t = k; t < k + keepHead; ++t)
        diff.text += QStringLiteral("  ") + script[t].text + '\n';
      diff.text += QStringLiteral("  … %1 unchanged lines\n").arg(run - keepHead - keepTail);
      for (int t = end - keepTail; t < end; ++t)
        diff.text += QStringLiteral("  ") + script[t].text + '\n';
    } else {
      for (int t = k; t < end; ++t) diff.text += QStringLiteral("  ") + script[t].text + '\n';
    }
    k = end;
  }
  return diff;
}

}  // namespace gl::ui
