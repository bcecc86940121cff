#pragma once
// Interface language: English source strings, Simplified Chinese from resources/translations.
#include <QString>
#include <QStringList>

namespace gl::ui {
// "" = the system locale, "en", or "zh_CN". Replaces the previously installed translator.
// Returns the language actually in use.
QString installLanguage(const QString& language);
// The language setting ("" when following the system).
QString languageSetting();
void setLanguageSetting(const QString& language);
QStringList availableLanguages();  // {"en", "zh_CN"}
}  // namespace gl::ui
