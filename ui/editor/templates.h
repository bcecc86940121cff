#pragma once
// Code templates for the editor's Insert menu. A template is GradLab script with placeholders
// written `${name}`: inserting it replaces each placeholder by its name and selects the first
// one, so the user can type over it. Every template, filled, is a script that parses.
#include <QString>
#include <QVector>

namespace gl::ui {

struct ScriptTemplate {
  QString id;     // stable key for actions and settings, e.g. "while_loop"
  QString title;  // menu text, translated
  QString text;   // the template, four-space indented, ends with a newline
};

// Where a placeholder ended up in the expanded text.
struct Placeholder {
  int start = 0;   // index into the expanded text
  int length = 0;  // length of the name
  QString name;
};

// The Insert menu's templates, in menu order (the "New lesson" script is separate).
QVector<ScriptTemplate> scriptTemplates();

// A complete small lesson: a comment block (its first line is the lesson title), a param and
// two variants computing the same thing.
ScriptTemplate newLessonTemplate();

// Replaces every `${name}` by `name`; fills `placeholders` (if given) in text order.
QString expandPlaceholders(const QString& templateText,
                           QVector<Placeholder>* placeholders = nullptr);

}  // namespace gl::ui
