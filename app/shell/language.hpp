// The user interface's language: at start (--lang, the remembered choice, the locale) and when
// View ▸ Language changes it between frames (docs/i18n/TRANSLATING.md, Choosing the language).
#pragma once

#include "app_state.hpp"

#include <normlab/base/i18n.hpp>

#include <optional>
#include <string>

namespace normlab::ui {

// $XDG_CONFIG_HOME/normlab/language (else ~/.config/…): the last View ▸ Language choice, "ko\n".
std::string default_language_file();

// The language a file remembers; nullopt for none, an unreadable file or an unknown code.
std::optional<Language> remembered_language(const std::string& file);

// Writes the choice atomically; "" or why it could not be written.
std::string remember_language(Language lang, const std::string& file);

// The language to start in: `option` (--lang: "en", "ko", "zh"; "" for none), else the file's
// remembered choice ("" for none), else the lecture's (nullopt for none), else the locale's
// (LC_ALL, LC_MESSAGES, LANG).
Language start_language(const std::string& option, const std::string& remembered_file, std::optional<Language> lecture);

// The language the lecture file names ("language", docs/LECTURES.md, Languages); nullopt for
// none, no file ("") or one that cannot be read (opening it says why).
std::optional<Language> lecture_language(const std::string& lecture_file);

// Makes `lang` active with its catalog from i18n_dir; returns the status line's text: "" when the
// catalog loaded clean, else its first problem and how many more.
std::string use_language(Language lang, const std::string& i18n_dir);

// View ▸ Language's request (AppUi::select_language), between frames: the language becomes
// active, is remembered in `remembered_file` (unless ""), and the status line says a problem.
// True when the language changed (the fonts then need its glyphs).
bool apply_language_request(AppUi& ui, const std::string& i18n_dir, const std::string& remembered_file);

}  // namespace normlab::ui
