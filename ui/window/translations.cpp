#include "ui/window/translations.h"

#include <QCoreApplication>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace gl::ui {

namespace {
QTranslator* gTranslator = nullptr;
QTranslator* gQtTranslator = nullptr;

// Messages lupdate cannot extract where they are used: ui/editor/templates.cpp passes
// QT_TRANSLATE_NOOP(...) straight into a function named translate(), whose non-literal first
// argument makes lupdate skip the call. Listed here so they reach the .ts file.
[[maybe_unused]] const char* const kLupdateHints[] = {
    QT_TRANSLATE_NOOP("ScriptTemplates", "Lesson title"),
};
}  // namespace

QStringList availableLanguages() { return {QStringLiteral("en"), QStringLiteral("zh_CN")}; }

QString installLanguage(const QString& language) {
  QString lang = language;
  if (lang.isEmpty())
    lang = QLocale::system().name().startsWith(QStringLiteral("zh")) ? QStringLiteral("zh_CN")
                                                                     : QStringLiteral("en");
  for (QTranslator** t : {&gTranslator, &gQtTranslator})
    if (*t) {
      QCoreApplication::removeTranslator(*t);
      delete *t;
      *t = nullptr;
    }
  if (lang == QStringLiteral("en")) return lang;
  gTranslator = new QTranslator;
  if (gTranslator->load(QStringLiteral(":/i18n/gradlab_") + lang + QStringLiteral(".qm"))) {
    QCoreApplication::installTranslator(gTranslator);
  } else {
    delete gTranslator;
    gTranslator = nullptr;
    return QStringLiteral("en");
  }
  // Qt's own strings (standard dialogs) when Debian's qt6-translations-l10n has them.
  gQtTranslator = new QTranslator;
  if (gQtTranslator->load(QLocale(lang), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QStringLiteral("/usr/share/qt6/translations")))
    QCoreApplication::installTranslator(gQtTranslator);
  return lang;
}

QString languageSetting() { return QSettings().value(QStringLiteral("language")).toString(); }

void setLanguageSetting(const QString& language) {
  QSettings().setValue(QStringLiteral("language"), language);
}

}  // namespace gl::ui
