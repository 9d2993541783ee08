// NormLab core: scenes and lectures (see scene.hpp).
//
// [SECTION] Lab sections — one line per lab state in Session (the hooks for new labs are here)
// [SECTION] Scene ⇄ JSON — format and version first, then title, caption, lab, labs
// [SECTION] Files        — text, parse errors (empty, truncated), atomic save, load
// [SECTION] Lectures
#include "normlab/scene/scene.hpp"

#include "normlab/norm/eval.hpp"
#include "normlab/base/file_io.hpp"
#include "normlab/scene/scene_json.hpp"

#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace normlab {

using nlohmann::json;

// [SECTION] Lab sections --------------------------------------------------------------------

namespace {

struct LabSection {
    std::string_view id;                       // the key under "labs" (the app's lab id)
    json (*write)(const Session& session);
    void (*read)(SceneReader& in, Session& session);
};

// A section for the state Session::*Member, through the state_to_json / state_from_json
// overloads declared next to that state's struct.
template <auto Member>
LabSection lab_section(std::string_view id) {
    return {id, [](const Session& s) { return state_to_json(s.*Member); },
            [](SceneReader& in, Session& s) { state_from_json(in, s.*Member); }};
}

// Every lab state in Session, in the app's tab order. A new lab adds one line here once its
// state is a member of Session and has its state_to_json / state_from_json pair.
const LabSection kLabSections[] = {
    lab_section<&Session::explorer>("explorer"),
    lab_section<&Session::invariance>("invariance"),
    lab_section<&Session::worked>("worked"),
    lab_section<&Session::gradients>("gradients"),
    lab_section<&Session::geometry>("geometry"),
    lab_section<&Session::training>("training"),
    lab_section<&Session::depth>("depth"),
};

}  // namespace

std::vector<std::string_view> scene_lab_sections() {
    std::vector<std::string_view> out;
    for (const LabSection& s : kLabSections) out.push_back(s.id);
    return out;
}

json session_to_json(const Session& session) {
    json labs = json::object();
    for (const LabSection& s : kLabSections) labs[std::string(s.id)] = s.write(session);
    return labs;
}

void session_from_json(const json& labs, const std::string& path, Session& session, std::vector<std::string>* ignored) {
    const SceneReader sections(labs, path);   // checks that `labs` is an object
    for (const auto& item : labs.items()) {
        const LabSection* section = nullptr;
        for (const LabSection& s : kLabSections)
            if (s.id == item.key()) section = &s;
        if (section == nullptr) {
            if (ignored != nullptr) ignored->push_back(sections.path_of(item.key()));
            continue;
        }
        SceneReader in(item.value(), sections.path_of(item.key()));
        section->read(in, session);
        if (ignored != nullptr)
            for (std::string& key : in.unread_keys()) ignored->push_back(std::move(key));
    }
}

// [SECTION] Scene ⇄ JSON --------------------------------------------------------------------

json scene_to_json(const Scene& scene) {
    json j = json::object();
    j["format"] = kSceneFormat;
    j["version"] = kSceneVersion;
    j["title"] = scene.title;
    j["caption"] = scene.caption;
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
    in.read("title", scene.title);
    in.read("caption", scene.caption);
    if (in.read("lab", scene.lab) && !is_lab_id(scene.lab))
        throw InputError("lab " + quote_for_message(scene.lab) +
                         " is not a lab id (lower-case letters, digits, '_' and '-', e.g. \"explorer\")");
    if (const json* labs = in.get("labs")) session_from_json(*labs, "labs", scene.session, ignored);
    if (ignored != nullptr)
        for (std::string& key : in.unread_keys()) ignored->push_back(std::move(key));
    return scene;
}

// [SECTION] Files ---------------------------------------------------------------------------

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
        bool at_end = message.find("unexpected end of input") != std::string::npos;
        try {
            const json again = json::parse(text.begin(), text.end());   // only its error's position matters
            static_cast<void>(again);
        } catch (const json::parse_error& pe) {
            at_end = at_end || pe.byte >= text.size();
        } catch (const json::exception&) {
        }
        if (message.rfind(prefix, 0) == 0 && at_end) throw InputError("file is truncated: " + message.substr(prefix.size()));
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
    write_file_atomically(path, scene_to_text(scene), if_exists);
}

namespace {

std::string read_input_file(const std::string& path) {
    try {
        return read_file(path);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());   // `cannot read "x.json": cannot open: No such file or directory`
    }
}

}  // namespace

Scene load_scene(const std::string& path, std::vector<std::string>* ignored) {
    const std::string text = read_input_file(path);
    try {
        return parse_scene(text, ignored);
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

// [SECTION] Lectures ------------------------------------------------------------------------

Lecture lecture_from_json(const json& j, const std::string& base_dir) {
    check_format_and_version(j, kLectureFormat, kLectureVersion, "lecture");
    SceneReader in(j, "");
    Lecture lecture;
    in.read("title", lecture.title);
    const json* slides = in.get("slides");
    if (slides == nullptr) throw InputError("slides is missing (a list of {\"scene\": FILE, \"caption\": TEXT})");
    if (!slides->is_array()) throw InputError("slides is not a list (got " + describe_json(*slides) + ")");
    if (slides->empty()) throw InputError("slides is empty: a lecture needs at least one scene");
    for (std::size_t i = 0; i < slides->size(); ++i) {
        SceneReader slide((*slides)[i], "slides[" + std::to_string(i) + "]");
        LectureSlide out;
        if (!slide.read("scene", out.scene)) slide.fail("scene", "is missing (the scene file of this slide)");
        if (out.scene.empty()) slide.fail("scene", "is empty (the scene file of this slide)");
        slide.read("caption", out.caption);
        const std::filesystem::path p(out.scene);
        out.scene = (p.is_absolute() || base_dir.empty() ? p : std::filesystem::path(base_dir) / p).lexically_normal().string();
        lecture.slides.push_back(std::move(out));
    }
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
