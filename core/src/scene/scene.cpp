// NormLab core: scenes and lectures (see scene.hpp).
//
// [SECTION] Lab sections — the labs' states in Session (lab_registry.cpp names them)
// [SECTION] Scene ⇄ JSON — format and version first, then title, caption, lab, labs
// [SECTION] Data files   — the CSV and text files a scene names, relative to its folder
// [SECTION] Files        — text, parse errors (empty, truncated), atomic save, load
// [SECTION] Lectures
#include "normlab/scene/scene.hpp"

#include "scene/lab_registry.hpp"

#include "normlab/base/json_read.hpp"
#include "normlab/base/file_io.hpp"
#include "normlab/base/i18n.hpp"
#include "normlab/base/text_fit.hpp"
#include "normlab/labs/state_json.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace normlab {

using nlohmann::json;

// [SECTION] Lab sections --------------------------------------------------------------------

std::vector<std::string_view> scene_lab_sections() {
    std::vector<std::string_view> out;
    for (const LabEntry* s : section_labs()) out.push_back(s->id);
    return out;
}

json session_to_json(const Session& session) {
    json labs = json::object();
    for (const LabEntry* s : section_labs()) labs[std::string(s->id)] = s->write(session);
    return labs;
}

void session_from_json(const json& labs, const std::string& path, Session& session, std::vector<std::string>* ignored) {
    const SceneReader sections(labs, path);   // checks that `labs` is an object
    for (const auto& item : labs.items()) {
        const LabEntry* section = nullptr;
        for (const LabEntry* s : section_labs())
            if (s->id == item.key()) section = s;
        if (section == nullptr) {
            if (ignored != nullptr) ignored->push_back(cap_shown(sections.path_of(item.key()), kMaxIgnoredKeyBytes));
            continue;
        }
        SceneReader in(item.value(), sections.path_of(item.key()));
        section->read(in, session);
        if (ignored != nullptr)
            for (std::string& key : in.unread_keys()) ignored->push_back(cap_shown(key, kMaxIgnoredKeyBytes));
    }
}

namespace {

// A title or caption at PATH.key, refused past `max_bytes` (docs/RELIABILITY.md, Long texts).
void read_text(SceneReader& in, std::string_view key, std::string& out, std::size_t max_bytes) {
    if (!in.read(key, out) || out.size() <= max_bytes) return;
    const std::string size = describe_size(out.size());
    out.clear();
    in.fail(key, "is " + size + " long, more than the limit of " + describe_size(max_bytes));
}

// "language" and the "title_ko", "caption_zh", … keys (docs/LECTURES.md, Languages); a key for a
// language NormLab has no catalog for ("caption_fr") stays unread: named as unknown.
void read_language(SceneReader& in, std::string& language) {
    in.read_choice("language", language, kTextLanguages,
                   std::array<std::string, 3>{std::string(kTextLanguages[0]), std::string(kTextLanguages[1]),
                                              std::string(kTextLanguages[2])});
}
void read_translations(SceneReader& in, Translations& t, bool caption = true) {
    for (const std::string_view code : kTextLanguages) {
        std::string text;
        if (read_text(in, "title_" + std::string(code), text, kMaxTitleBytes), !text.empty()) t.title[std::string(code)] = text;
        text.clear();
        if (caption && (read_text(in, "caption_" + std::string(code), text, kMaxCaptionBytes), !text.empty()))
            t.caption[std::string(code)] = text;
    }
}

}  // namespace

// [SECTION] Scene ⇄ JSON --------------------------------------------------------------------

const std::string& text_in(const std::string& own, const std::map<std::string, std::string>& translations,
                           std::string_view code) {
    const auto it = translations.find(std::string(code));
    return it != translations.end() ? it->second : own;
}

json scene_to_json(const Scene& scene) {
    json j = json::object();
    j["format"] = kSceneFormat;
    j["version"] = kSceneVersion;
    j["title"] = scene.title;
    j["caption"] = scene.caption;
    if (!scene.language.empty()) j["language"] = scene.language;
    write_translations(j, scene.translations);
    j["lab"] = scene.lab;
    j["labs"] = session_to_json(scene.session);
    return j;
}

namespace {

void check_format_and_version(const json& j, std::string_view format, int newest, std::string_view what) {
    const std::string expected = "expected " + quote_for_message(format);
    if (!j.is_object())
        throw InputError("not a NormLab " + std::string(what) + " (" + expected + " in a JSON object, got " +
                         describe_json(j) + ")");
    const auto f = j.find("format");
    if (f == j.end())
        throw InputError("not a NormLab " + std::string(what) + ": \"format\" is missing (" + expected + ")");
    if (!f->is_string() || f->get_ref<const std::string&>() != format)
        throw InputError("not a NormLab " + std::string(what) + ": format is " + describe_json(*f) + " (" + expected +
                         ")");
    const auto v = j.find("version");
    const std::string hint = " (this NormLab reads versions 1 to " + std::to_string(newest) + ")";
    if (v == j.end()) throw InputError("version is missing" + hint);
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() != std::floor(v->get<double>()))
        throw InputError("version is not a whole number (got " + describe_json(*v) + ")" + hint);
    const double version = v->get<double>();
    if (version > newest)
        throw InputError("version " + v->dump() + " is newer than this NormLab (" + std::to_string(newest) +
                         "): update NormLab to open it");
    if (version < 1) throw InputError("version " + v->dump() + " is not a valid version" + hint);
}

bool is_lab_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
    return true;
}

}  // namespace

Scene scene_from_json(const json& j, std::vector<std::string>* ignored) {
    check_format_and_version(j, kSceneFormat, kSceneVersion, "scene");
    SceneReader in(j, "");
    in.get("format");
    in.get("version");
    Scene scene;
    read_text(in, "title", scene.title, kMaxTitleBytes);
    read_text(in, "caption", scene.caption, kMaxCaptionBytes);
    read_language(in, scene.language);
    read_translations(in, scene.translations);
    if (in.read("lab", scene.lab) && !is_lab_id(scene.lab))
        throw InputError("lab " + quote_for_message(scene.lab) +
                         " is not a lab id (lower-case letters, digits, '_' and '-', e.g. \"explorer\")");
    if (const json* labs = in.get("labs")) session_from_json(*labs, "labs", scene.session, ignored);
    if (ignored != nullptr)
        for (std::string& key : in.unread_keys()) ignored->push_back(cap_shown(key, kMaxIgnoredKeyBytes));
    return scene;
}

// [SECTION] Data files ----------------------------------------------------------------------

namespace fs = std::filesystem;

namespace {

constexpr const char* kCsvKey = "labs.training.csv_path";
constexpr const char* kTextKey = "labs.depth.text_path";

// Whether `file` is `folder` or below it; both absolute and normal.
bool inside(const fs::path& file, const fs::path& folder) {
    const fs::path rel = file.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}

// The path with every link resolved (as far as it exists), absolute and normal.
fs::path resolved(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
    return ec ? fs::absolute(path).lexically_normal() : p;
}

}  // namespace

std::vector<SceneDataFile> scene_data_files(const Session& session) {
    std::vector<SceneDataFile> out;
    if (!session.training.data.path.empty()) out.push_back({kCsvKey, session.training.data.path});
    if (!session.depth.text_path.empty()) out.push_back({kTextKey, session.depth.text_path});
    return out;
}

void set_scene_data_file(Session& session, const std::string& key, const std::string& path) {
    if (key == kCsvKey) session.training.data.path = path;
    if (key == kTextKey) session.depth.text_path = path;
}

std::vector<SceneDataFile> data_files_outside(const Session& session, const std::vector<std::string>& folders) {
    std::vector<SceneDataFile> out;
    for (const SceneDataFile& f : scene_data_files(session)) {
        const fs::path file = resolved(f.path);
        bool ok = false;
        for (const std::string& folder : folders) ok = ok || (!folder.empty() && inside(file, resolved(folder)));
        if (!ok) out.push_back(f);
    }
    return out;
}

// [SECTION] Files ---------------------------------------------------------------------------

namespace {

// Where JSON's syntax breaks in `text` (its size when it does not): a SAX pass that builds
// nothing and keeps no stack of its own, so any depth is safe.
std::size_t syntax_error_offset(std::string_view text) {
    struct Sax : json::json_sax_t {
        std::size_t at = std::string_view::npos;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return true; }
        bool key(string_t&) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
            at = position;
            return false;
        }
    } sax;
    json::sax_parse(text.begin(), text.end(), &sax);
    return sax.at == std::string_view::npos ? text.size() : sax.at;
}

}  // namespace

std::string scene_to_text(const Scene& scene) { return scene_to_json(scene).dump(2) + "\n"; }

Scene parse_scene(std::string_view text, std::vector<std::string>* ignored) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) throw InputError("file is empty");
    json j;
    try {
        j = parse_json(text, "file");
    } catch (const InputError& e) {
        // parse_json: "file is not valid JSON: parse error at line 9, column 1: …". When the parser
        // failed at the very end of the text (inside a string, an object left open, …), the file
        // was cut short: a copy that stopped, a disk that filled up.
        const std::string message = e.what();
        const std::string prefix = "file is not valid JSON: ";
        if (message.rfind(prefix, 0) != 0) throw;   // a limit or a value: not a question of syntax
        const bool at_end = message.find("unexpected end of input") != std::string::npos ||
                            syntax_error_offset(text) >= text.size();
        if (at_end) throw InputError("file is truncated: " + message.substr(prefix.size()));
        throw;
    }
    return scene_from_json(j, ignored);
}

Scene parse_scene_keeping_labs(std::string_view text, std::vector<std::string>& dropped) {
    try {
        return parse_scene(text);
    } catch (const InputError& whole) {
        // Again: the scene without its labs, then each lab's section on its own.
        json j;
        try {
            j = parse_json(text, "file");
        } catch (const InputError&) {
            throw whole;
        }
        const auto labs = j.is_object() ? j.find("labs") : j.end();
        if (labs == j.end() || !labs->is_object()) throw whole;
        const json sections = *labs;
        *labs = json::object();
        Scene scene;
        try {
            scene = scene_from_json(j);
        } catch (const InputError&) {
            throw whole;
        }
        for (const auto& item : sections.items()) {
            Session trial = scene.session;
            try {
                session_from_json(json{{item.key(), item.value()}}, "labs", trial, nullptr);
                scene.session = std::move(trial);
            } catch (const InputError& e) {
                dropped.emplace_back(e.what());
            }
        }
        if (dropped.empty()) throw whole;   // no one section is to blame: refuse the whole
        return scene;
    }
}

void save_scene(const Scene& scene, const std::string& path, IfExists if_exists) {
    Scene relative = scene;
    const fs::path folder = fs::absolute(path).parent_path().lexically_normal();
    for (const SceneDataFile& f : scene_data_files(scene.session)) {
        const fs::path file = fs::absolute(f.path).lexically_normal();
        // Inside the scene's folder: relative to it; elsewhere: absolute (not relative to the cwd).
        set_scene_data_file(relative.session, f.key, inside(file, folder) ? file.lexically_relative(folder).string() : file.string());
    }
    write_file_atomically(path, scene_to_text(relative), if_exists);
}

namespace {

std::string read_input_file(const std::string& path) {
    try {
        return read_file(path, kMaxSceneBytes);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());   // `cannot read "x.json": cannot open: No such file or directory`
    }
}

}  // namespace

Scene load_scene(const std::string& path, std::vector<std::string>* ignored) {
    const std::string text = read_input_file(path);
    Scene scene;
    try {
        scene = parse_scene(text, ignored);
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
    const fs::path folder = fs::absolute(path).parent_path();
    for (const SceneDataFile& f : scene_data_files(scene.session))
        if (fs::path(f.path).is_relative()) set_scene_data_file(scene.session, f.key, (folder / f.path).lexically_normal().string());
    return scene;
}

// [SECTION] Lectures ------------------------------------------------------------------------

namespace {

// A list of distinct non-empty names at PATH.key (absent: left as it is).
void read_names(SceneReader& in, std::string_view key, std::vector<std::string>& out) {
    const json* v = in.get(key);
    if (v == nullptr) return;
    if (!v->is_array()) in.fail(key, "is not a list of names (got " + describe_json(*v) + ")");
    out.clear();
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& name = (*v)[i];
        const std::string at = std::string(key) + "[" + std::to_string(i) + "]";
        if (!name.is_string()) in.fail(at, "is not a name (got " + describe_json(name) + ")");
        const std::string s = name.get<std::string>();
        if (s.empty()) in.fail(at, "is empty");
        if (std::find(out.begin(), out.end(), s) != out.end()) in.fail(at, "repeats \"" + s + "\"");
        out.push_back(s);
    }
}

LectureSlide slide_from_json(const json& j, const std::string& path, const std::string& base_dir,
                             std::vector<std::string>& ignored) {
    SceneReader slide(j, path);
    LectureSlide out;
    if (!slide.read("scene", out.scene)) slide.fail("scene", "is missing (the scene file of this slide)");
    if (out.scene.empty()) slide.fail("scene", "is empty (the scene file of this slide)");
    read_text(slide, "title", out.title, kMaxTitleBytes);
    read_text(slide, "caption", out.caption, kMaxCaptionBytes);
    read_translations(slide, out.translations);
    read_names(slide, "figures", out.figures);
    if (out.figures.size() > kMaxSlideFigures)
        slide.fail("figures", "names " + std::to_string(out.figures.size()) + " figures; a slide shows one or two");
    read_names(slide, "controls", out.controls);
    slide.read_choice("run", out.run, std::array<std::string_view, 2>{"auto", "paused"},
                      std::array<SlideRun, 2>{SlideRun::Auto, SlideRun::Paused});
    for (std::string& key : slide.unread_keys()) ignored.push_back(std::move(key));
    const std::filesystem::path p(out.scene);
    out.scene = (p.is_absolute() || base_dir.empty() ? p : std::filesystem::path(base_dir) / p).lexically_normal().string();
    return out;
}

}  // namespace

const std::string& shown_title(const Lecture& lecture) {
    return text_in(lecture.title, lecture.translations.title, language_code(current_language()));
}
const std::string& shown_title(const LectureSlide& slide) {
    return text_in(slide.title, slide.translations.title, language_code(current_language()));
}
const std::string& shown_caption(const LectureSlide& slide) {
    return text_in(slide.caption, slide.translations.caption, language_code(current_language()));
}

Lecture lecture_from_json(const json& j, const std::string& base_dir) {
    check_format_and_version(j, kLectureFormat, kLectureVersion, "lecture");
    SceneReader in(j, "");
    in.get("format");
    in.get("version");
    Lecture lecture;
    read_text(in, "title", lecture.title, kMaxTitleBytes);
    read_language(in, lecture.language);
    read_translations(in, lecture.translations, false);
    const json* slides = in.get("slides");
    if (slides == nullptr) throw InputError("slides is missing (a list of {\"scene\": FILE, \"caption\": TEXT})");
    if (!slides->is_array()) throw InputError("slides is not a list (got " + describe_json(*slides) + ")");
    if (slides->empty()) throw InputError("slides is empty: a lecture needs at least one scene");
    if (slides->size() > kMaxLectureSlides)
        throw InputError("slides has " + std::to_string(slides->size()) + " slides, more than the limit of " +
                         std::to_string(kMaxLectureSlides));
    for (std::size_t i = 0; i < slides->size(); ++i)
        lecture.slides.push_back(
            slide_from_json((*slides)[i], "slides[" + std::to_string(i) + "]", base_dir, lecture.ignored));
    std::vector<std::string> top = in.unread_keys();
    lecture.ignored.insert(lecture.ignored.begin(), top.begin(), top.end());
    return lecture;
}

Lecture load_lecture(const std::string& path) {
    const std::string text = read_input_file(path);
    try {
        if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError("file is empty");
        return lecture_from_json(parse_json(text, "file"), std::filesystem::path(path).parent_path().string());
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace normlab
