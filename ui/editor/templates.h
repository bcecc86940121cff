#pragma once
// Code templates for the editor's Insert menu. A template is GradLab script with placeholders
// written `${name}`: inserting it replaces each placeholder by its name and selects the first
// one, so the user can type over it. Every template, filled, is a script that parses.
#include <QString>
#include <QStringList>
#include <QVector>

namespace gl::ui {

struct ScriptTemplate {
  QString id;     // stable key for actions and settings, e.g. "while_loop"
  QString title;  // menu text, translated
  QString text;   // the template, four-space indented, ends with a newline
  // The names the template defines at the level it is inserted at; taken ones get a suffix.
  QStringList binds;
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

// `name` if the script does not use it as a word yet, else the first free `name_2`, `name_3`...
// (a conservative test: a name in a comment counts as taken).
QString freshName(const QString& name, const QString& scriptText);

// The template's text for insertion into `scriptText`: every name it binds that the script
// already uses is renamed to a fresh one, so inserting never redefines the user's names.
QString templateTextFor(const ScriptTemplate& t, const QString& scriptText);

// Replaces every `${name}` by `name`; fills `placeholders` (if given) in text order.
QString expandPlaceholders(const QString& templateText,
                           QVector<Placeholder>* placeholders = nullptr);

}  // namespace gl::ui
