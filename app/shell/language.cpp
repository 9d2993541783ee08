// The UI's language at start and on View ▸ Language (language.hpp).
#include "language.hpp"

#include "fetched_files.hpp"

#include "session_io.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/base/text.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace normlab::ui {

std::string default_language_file() {
    const std::string recent = default_recent_file();   // the same folder as the recent files
    return recent.empty() ? "" : (std::filesystem::path(recent).parent_path() / "language").string();
}

std::optional<Language> remembered_language(const std::string& file) {
    if (file.empty()) return std::nullopt;
    std::ifstream in(file);
    std::string code;
    if (!std::getline(in, code)) return std::nullopt;
    return parse_language(trim_spaces(code));
}

std::string remember_language(Language lang, const std::string& file) {
    try {
        std::filesystem::create_directories(std::filesystem::path(file).parent_path());
        write_file_atomically(file, std::string(language_code(lang)) + "\n", IfExists::Replace);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::optional<Language> lecture_language(const std::string& lecture_file) {
    if (lecture_file.empty()) return std::nullopt;
    try {
        const std::string code = load_lecture(lecture_file).language;
        return code.empty() ? std::nullopt : parse_language(code);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

Language start_language(const std::string& option, const std::string& remembered_file, std::optional<Language> lecture) {
    if (const std::optional<Language> given = parse_language(option); given && !option.empty()) return *given;
    if (const std::optional<Language> chosen = remembered_language(remembered_file)) return *chosen;
    if (lecture) return *lecture;
    return language_from_locale(std::getenv("LC_ALL"), std::getenv("LC_MESSAGES"), std::getenv("LANG"));
}

std::string use_language(Language lang, const std::string& i18n_dir) {
    if (lang == Language::Ko || lang == Language::Zh) fetch_if_missing(i18n_dir + "/" + catalog_file(lang));   // the page's catalogs
    const std::vector<std::string> problems = set_language(lang, i18n_dir);
    if (problems.empty()) return "";
    return problems.size() == 1 ? problems[0] : tr("{0} (and {1} more problems in the catalog)", problems[0], problems.size() - 1);
}

bool apply_language_request(AppUi& ui, const std::string& i18n_dir, const std::string& remembered_file) {
    if (ui.select_language < 0) return false;
    const auto lang = static_cast<Language>(std::exchange(ui.select_language, -1));
    if (lang == current_language()) return false;
    const std::string problem = use_language(lang, i18n_dir);
    const std::string unsaved = remembered_file.empty() ? "" : remember_language(lang, remembered_file);
    ui.status = !problem.empty() ? "⚠ " + problem : !unsaved.empty() ? "⚠ " + tr("The language choice is not remembered: {0}", unsaved) : "";
    return true;
}

}  // namespace normlab::ui
