#pragma once
// "Export Handout": one A4 PDF per lesson for a class: the title, the script with line numbers,
// each variant's graph (vector), each plot, the variant agreement table and why every None
// gradient is None, each section starting on a new page. The window's File > Export Handout and
// `gradlab export --format handout` both call exportHandout.
#include <QString>

#include "engine/lab/session.h"

namespace gl::ui {

struct HandoutResult {
  bool ok = false;
  QString error;  // why not, when !ok
  int pages = 0;
  int sections = 0;  // each starts a page
};

HandoutResult exportHandout(const lang::TracedProgram& program, const lab::ProgramRun& run,
                            const QString& title, const QString& script, const QString& path);

}  // namespace gl::ui
