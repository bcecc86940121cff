#pragma once
// Renders the engine's structured diagnostics (engine/tensor/diagnostic.h) in the window's
// language: each code has one translatable sentence (context "gl::ui::Diagnostic") filled with
// its arguments. A code without a sentence here shows the engine's English text, so a code the
// engine adds later is never shown empty.
#include <string>

#include <QString>

#include "engine/autodiff/tape.h"
#include "engine/lab/report.h"
#include "engine/tensor/diagnostic.h"
#include "engine/tensor/error.h"

namespace gl::ui {

// The sentence for `d`, or `english` when the code has none.
QString diagnosticText(const Diagnostic& d, const std::string& english);
// A why-None explanation.
QString whyNoneText(const GradDiagnostic& why);
// An error as "file:line:col: op: sentence", the engine's layout, translated. `located` is the
// error's what() (a VariantRun's error).
QString errorText(const std::string& located);
QString errorText(const EngineError& e);
QString variantErrorText(const lab::VariantRun& v);
// A run report entry without its indent.
QString reportEntryText(const lab::ReportEntry& e);
// The executor's label in the window, translated (executorName is its untranslated id).
QString executorLabel(ExecutorKind executor);
// The same for an executor named by its id (a report entry's argument); other text as it is.
QString executorDisplayName(const std::string& executor);

}  // namespace gl::ui
