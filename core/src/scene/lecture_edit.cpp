// NormLab core: writing lectures and editing their slides (see lecture_edit.hpp).
//
// [SECTION] Files
// [SECTION] Edits
#include "normlab/scene/lecture_edit.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace normlab {

namespace fs = std::filesystem;

// [SECTION] Files ---------------------------------------------------------------------------

namespace {

// `scene` as a lecture in `base_dir` names it: relative to that folder where a relative path
// leads there (the path rule, docs/LECTURES.md), else absolute.
std::string scene_path_from(const std::string& scene, const std::string& base_dir) {
    const fs::path file = fs::absolute(scene).lexically_normal();
    if (base_dir.empty()) return file.string();
    const fs::path rel = file.lexically_relative(fs::absolute(base_dir).lexically_normal());
    return rel.empty() ? file.string() : rel.string();
}

}  // namespace

nlohmann::ordered_json lecture_to_json(const Lecture& lecture, const std::string& base_dir) {
    nlohmann::ordered_json j;
    j["format"] = kLectureFormat;
    j["version"] = kLectureVersion;
    if (!lecture.title.empty()) j["title"] = lecture.title;
    if (!lecture.language.empty()) j["language"] = lecture.language;
    write_translations(j, lecture.translations);
    nlohmann::ordered_json slides = nlohmann::ordered_json::array();
    for (const LectureSlide& slide : lecture.slides) {
        nlohmann::ordered_json s;
        s["scene"] = scene_path_from(slide.scene, base_dir);
        if (!slide.title.empty()) s["title"] = slide.title;
        if (!slide.caption.empty()) s["caption"] = slide.caption;
        write_translations(s, slide.translations);
        if (!slide.figures.empty()) s["figures"] = slide.figures;
        if (!slide.controls.empty()) s["controls"] = slide.controls;
        if (slide.run == SlideRun::Paused) s["run"] = "paused";
        slides.push_back(std::move(s));
    }
    j["slides"] = std::move(slides);
    return j;
}

std::string lecture_to_text(const Lecture& lecture, const std::string& base_dir) {
    return lecture_to_json(lecture, base_dir).dump(2) + "\n";
}

void save_lecture(const Lecture& lecture, const std::string& path, IfExists if_exists) {
    if (lecture.slides.empty())
        throw std::runtime_error("cannot write \"" + path + "\": a lecture needs at least one slide");
    const std::string folder = fs::absolute(path).parent_path().lexically_normal().string();
    write_file_atomically(path, lecture_to_text(lecture, folder), if_exists);
}

// [SECTION] Edits ---------------------------------------------------------------------------

void LectureHistory::reset(Lecture lecture) {
    lecture_ = std::move(lecture);
    undo_.clear();
    redo_.clear();
}

void LectureHistory::record(LectureStep step) {
    undo_.push_back(std::move(step));
    if (undo_.size() > limit_) undo_.erase(undo_.begin());
    redo_.clear();
}

std::string LectureHistory::add(LectureSlide slide, std::size_t at, std::uint64_t mark) {
    if (slide.scene.empty()) return "a slide needs a scene file";
    if (slide.figures.size() > kMaxSlideFigures) return "a slide shows one or two figures";
    if (lecture_.slides.size() >= kMaxLectureSlides)
        return "the lecture has " + std::to_string(kMaxLectureSlides) + " slides, the most a lecture may have";
    Lecture before = lecture_;
    at = std::min(at, lecture_.slides.size());
    lecture_.slides.insert(lecture_.slides.begin() + static_cast<std::ptrdiff_t>(at), std::move(slide));
    record({LectureEditKind::Add, 0, at, std::move(before), "slide " + std::to_string(at + 1) + " added", mark});
    return "";
}

std::string LectureHistory::move(std::size_t from, std::size_t to, std::uint64_t mark) {
    const std::size_t n = lecture_.slides.size();
    if (from >= n || to >= n) return "there is no slide " + std::to_string(std::max(from, to) + 1);
    if (from == to) return "slide " + std::to_string(from + 1) + " is there already";
    Lecture before = lecture_;
    LectureSlide slide = std::move(lecture_.slides[from]);
    lecture_.slides.erase(lecture_.slides.begin() + static_cast<std::ptrdiff_t>(from));
    lecture_.slides.insert(lecture_.slides.begin() + static_cast<std::ptrdiff_t>(to), std::move(slide));
    record({LectureEditKind::Move, from, to, std::move(before),
            "slide " + std::to_string(from + 1) + " moved to " + std::to_string(to + 1), mark});
    return "";
}

std::string LectureHistory::remove(std::size_t i, std::uint64_t mark) {
    if (i >= lecture_.slides.size()) return "there is no slide " + std::to_string(i + 1);
    if (lecture_.slides.size() == 1) return "a lecture keeps at least one slide";
    Lecture before = lecture_;
    lecture_.slides.erase(lecture_.slides.begin() + static_cast<std::ptrdiff_t>(i));
    record({LectureEditKind::Delete, i, i, std::move(before), "slide " + std::to_string(i + 1) + " deleted", mark});
    return "";
}

bool LectureHistory::undo() {
    if (undo_.empty()) return false;
    LectureStep step = std::move(undo_.back());
    undo_.pop_back();
    std::swap(step.state, lecture_);   // the step now holds the state after the edit
    redo_.push_back(std::move(step));
    return true;
}

bool LectureHistory::redo() {
    if (redo_.empty()) return false;
    LectureStep step = std::move(redo_.back());
    redo_.pop_back();
    std::swap(step.state, lecture_);
    undo_.push_back(std::move(step));
    return true;
}

}  // namespace normlab
