// NormLab core: scenes — the whole Session (every lab's inputs, settings and seeds), the lab on
// screen, a title and a caption, as a versioned JSON file — and lectures, ordered lists of scenes.
//
// [SECTION] Scene          — the struct and its file format
// [SECTION] JSON           — Scene ⇄ JSON, with errors that say what is wrong and where
// [SECTION] Files          — atomic save, load (empty, truncated, future-version files refused)
// [SECTION] Lectures       — assets/lectures/*.json: scenes in order, each with a caption
//
// A scene file:
//   {"format": "normlab-scene", "version": 1, "title": "…", "caption": "…", "lab": "explorer",
//    "labs": {"explorer": {"x": [2, 4, 6, 8], …}, "invariance": {…}, …}}
// A title or caption in more languages: "title_ko", "caption_zh", … beside it, and the file's own
// language in "language" (docs/LECTURES.md, Languages).
// Every key but "format" and "version" may be left out: a missing lab section, or a missing key
// in one, keeps that lab's default. Each lab's section is written and read by the
// state_to_json / state_from_json pair next to its state (state_json.hpp); scene.cpp lists the
// sections, one row per lab (core/src/scene/lab_registry.cpp).
#pragma once

#include "normlab/base/input_error.hpp"      // InputError, thrown by the readers below
#include "normlab/base/file_io.hpp"   // IfExists
#include "normlab/scene/session.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Scene ---------------------------------------------------------------------------

// Titles and captions in the languages a file gives besides its own ("title_ko", "caption_zh"),
// by language code: "en", "ko", "zh" (docs/LECTURES.md, Languages).
struct Translations {
    std::map<std::string, std::string> title, caption;
};
inline constexpr std::array<std::string_view, 3> kTextLanguages{"en", "ko", "zh"};

// The text to show in the language `code` ("en", "ko", "zh"; another shows `own`): the file's
// translation into it, else `own` (the file's "title" or "caption", in the file's language).
const std::string& text_in(const std::string& own, const std::map<std::string, std::string>& translations,
                           std::string_view code);

// Writes `t` into a scene's or a lecture's (or a slide's) object: "title_ko", "caption_zh", …
template <class Json>
void write_translations(Json& j, const Translations& t) {
    for (const auto& [code, text] : t.title) j["title_" + code] = text;
    for (const auto& [code, text] : t.caption) j["caption_" + code] = text;
}

inline constexpr std::string_view kSceneFormat = "normlab-scene";
inline constexpr int kSceneVersion = 1;   // raise when an older NormLab could misread a newer file

struct Scene {
    std::string title;            // one line, shown above the lab in presenter view
    std::string caption;          // a sentence or two under the title
    std::string lab = "explorer"; // the lab on screen: an app lab id ("explorer", "invariance", …)
    Session session;
    std::string language;         // the language of title and caption: "en", "ko", "zh"; "" not said
    Translations translations;
};

// The lab ids that have a section in "labs", in table order: explorer, invariance, worked, …
std::vector<std::string_view> scene_lab_sections();

// [SECTION] JSON ----------------------------------------------------------------------------

// Every lab's state, by section id: the "labs" object of a scene.
nlohmann::json session_to_json(const Session& session);

// Reads the sections present in `labs` (a JSON object at `path`, e.g. "labs") into `session`;
// absent sections keep what `session` had. Throws InputError naming the value. Keys and
// sections this NormLab does not know are appended to `ignored` (as paths), when given.
void session_from_json(const nlohmann::json& labs, const std::string& path, Session& session,
                       std::vector<std::string>* ignored = nullptr);

nlohmann::json scene_to_json(const Scene& scene);

// The scene in `j`. Throws InputError with a one-line message:
//   `not a NormLab scene: "format" is missing (expected "normlab-scene")`
//   `version 7 is newer than this NormLab (1): update NormLab to open it`
//   `labs.explorer.x[2] is not a number (got string "a")`
// Unknown keys are not errors: they are listed in `ignored` (when given) and skipped.
Scene scene_from_json(const nlohmann::json& j, std::vector<std::string>* ignored = nullptr);

// The file's text: scene_to_json indented by 2, with a final newline.
std::string scene_to_text(const Scene& scene);

// A scene from a file's text. Besides scene_from_json's errors:
//   `file is empty`, `file is truncated: parse error at line 9, column 1: …`,
//   `file is not valid JSON: parse error at line 2, column 5: …`.
Scene parse_scene(std::string_view text, std::vector<std::string>* ignored = nullptr);

// parse_scene for the autosave: when some labs' sections are refused (a value out of a range an
// older NormLab allowed, say), those labs keep their defaults and `dropped` gets each one's
// message, instead of the whole session being lost. A file that is not a scene (not JSON, wrong
// format or version, a bad title or lab) still throws parse_scene's error.
Scene parse_scene_keeping_labs(std::string_view text, std::vector<std::string>& dropped);

// [SECTION] Data files ----------------------------------------------------------------------

// A file a scene makes a lab read: labs.training.csv_path, labs.depth.text_path. In a scene
// file a relative path is relative to the scene's folder (as a lecture's slides are to the
// lecture's). A scene may name any path; what is read without asking is the app's decision
// (data_files_outside), docs/ARCHITECTURE.md, File safety.
struct SceneDataFile {
    std::string key;    // "labs.training.csv_path"
    std::string path;   // as the session holds it; never empty here
};

// The session's data files that are set (an empty path means the lab's own data).
std::vector<SceneDataFile> scene_data_files(const Session& session);

// Sets the file of `key` (a scene_data_files key); "" gives the lab its own data back.
void set_scene_data_file(Session& session, const std::string& key, const std::string& path);

// The data files that lie in none of `folders` (nor below them), links followed: those a scene
// from elsewhere could make NormLab read (/etc/shadow, ~/.ssh/…).
std::vector<SceneDataFile> data_files_outside(const Session& session, const std::vector<std::string>& folders);

// [SECTION] Files ---------------------------------------------------------------------------

// Writes scene_to_text atomically (file_io.hpp: temp file, fsync, rename): readers see the old
// file or the new one. Data files inside the scene's folder are written relative to it. Throws std::runtime_error naming the path (FileExistsError when
// `if_exists` is Refuse and the file exists).
void save_scene(const Scene& scene, const std::string& path, IfExists if_exists);

// Reads and parses the file. Every failure (missing, unreadable, malformed, truncated, newer)
// throws InputError "PATH: WHAT", e.g. `s.json: labs.explorer.x[2] is not a number (got …)`.
// Files bigger than kMaxSceneBytes are refused. Relative data files become paths from the
// scene's folder.
Scene load_scene(const std::string& path, std::vector<std::string>* ignored = nullptr);

// [SECTION] Lectures ------------------------------------------------------------------------
//
//   {"format": "normlab-lecture", "version": 1, "title": "…",
//    "slides": [{"scene": "../scenes/seed_example.json", "title": "…", "caption": "…",
//                "figures": ["explorer_outputs"], "controls": ["delta"], "run": "auto"}, …]}
// (every key: docs/LECTURES.md). A slide's scene path is relative to the lecture file's folder
// (or absolute); its title and caption, when given, replace the scene's own. In presenter view a slide shows its title, its
// caption, one or two figures of its lab ("figures"; none listed: the lab's default ones) and
// only the controls it names ("controls"); the app checks those names against the lab's
// (docs/ARCHITECTURE.md, Presenter slides). "run": "auto" (the default) starts the lab's run
// (Training, Depth) as the slide opens, "paused" leaves it at step 0 for the Play control.

inline constexpr std::string_view kLectureFormat = "normlab-lecture";
inline constexpr int kLectureVersion = 1;

enum class SlideRun { Auto, Paused };

inline constexpr std::size_t kMaxSlideFigures = 2;

// Limits of what a scene or lecture may hold, refused with their size (docs/RELIABILITY.md, Long
// texts): a title is one line, a caption a paragraph; a key NormLab does not know is named
// (skipped) with its first 200 bytes.
inline constexpr std::size_t kMaxTitleBytes = 4096, kMaxCaptionBytes = 16384, kMaxIgnoredKeyBytes = 200;
inline constexpr std::size_t kMaxLectureSlides = 1000;

struct LectureSlide {
    std::string scene;                   // the path as resolved: the lecture's folder + the file's path
    std::string title;                   // empty: the scene's own title
    std::string caption;                 // empty: the scene's own caption
    Translations translations;           // "title_ko", "caption_zh", …
    std::vector<std::string> figures;    // at most kMaxSlideFigures; empty: the lab's default
    std::vector<std::string> controls;   // the only controls drawn in presenter view
    SlideRun run = SlideRun::Auto;
};

struct Lecture {
    std::string title;
    std::string language;               // its texts' language, "en", "ko", "zh" ("" not said): the
                                        // UI's where the user chose none, and the Han glyphs' forms
    Translations translations;          // the title's: "title_ko", …
    std::vector<LectureSlide> slides;   // at least one
    std::vector<std::string> ignored;   // keys no reader asked for, as paths: {"slides[1].captoin"}
};

// The lecture's title, a slide's title and caption in the UI's language (current_language(),
// text_in): where the file has no translation into it, as the file has them.
const std::string& shown_title(const Lecture& lecture);
const std::string& shown_title(const LectureSlide& slide);
const std::string& shown_caption(const LectureSlide& slide);

// Throws InputError naming the value (`slides[2].scene is not a string (got number 3)`).
Lecture lecture_from_json(const nlohmann::json& j, const std::string& base_dir);

// Reads, parses and resolves the slide paths against the file's folder; the scenes themselves
// are not opened. Throws InputError "PATH: WHAT".
Lecture load_lecture(const std::string& path);

}  // namespace normlab
