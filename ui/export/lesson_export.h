#pragma once
// "Export lesson": the whole graph and every plot of a run, with their data, into a folder.
// The window's File > Export Lesson and `gradlab export` (offscreen, no display) both call
// exportLesson, so a teacher's scripted figures match what the window shows.
#include <QSet>
#include <QSize>
#include <QString>
#include <QStringList>

#include "engine/lab/session.h"

namespace gl::ui {

struct LessonExportOptions {
  // Any of png, svg, pdf, csv, dot. Plots take png/svg/pdf/csv, the graph png/svg/pdf/dot.
  QSet<QString> formats{"png", "svg", "pdf", "csv", "dot"};
  QSize plotSize{1200, 750};
  int dpi = 144;
  int64_t step = -1;  // loop step for the gradient overlay and plot cursors; -1 = last
};

struct LessonExportReport {
  QStringList written;  // absolute paths
  QStringList errors;
  bool ok() const { return errors.isEmpty(); }
};

// Accepts "png,svg" style lists; returns false and names the bad entry in *error.
bool parseExportFormats(const QString& list, QSet<QString>* formats, QString* error);

// Files: graph.{png,svg,pdf,dot} (<variant>_graph.* with several variants); per variant with
// results: <variant>_gradients.*, <variant>_jacobian.* (when a rank-2 gradient exists),
// <variant>_timeline.*; timings.* over all variants; report.txt (the command line's text report).
LessonExportReport exportLesson(const lang::TracedProgram& program, const lab::ProgramRun& run,
                                const QString& directory, const LessonExportOptions& options);

}  // namespace gl::ui
