#pragma once
// A line diff for showing what a recovery would change: unified-diff style lines, "  " for a
// line both texts have, "- " for one only the first has, "+ " for one only the second has.
// Plain longest-common-subsequence over lines; scripts are small, and a long run of common
// lines is shortened to its ends so the changes stand out.
#include <QString>

namespace gl::ui {

struct TextDiff {
  QString text;     // the diff lines, each ending in '\n'
  int added = 0;    // "+ " lines
  int removed = 0;  // "- " lines
  bool same() const { return added == 0 && removed == 0; }
};

// Lines of `before` and `after` compared; runs of more than 2 * context common lines keep
// `context` lines at each end and say how many were left out.
TextDiff diffLines(const QString& before, const QString& after, int context = 2);

}  // namespace gl::ui
