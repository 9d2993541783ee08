// NormLab core: writing lectures — a Lecture as the JSON file docs/LECTURES.md describes, saved
// atomically, and the edits a lecturer makes in the app (add a slide, move one, delete one)
// with their undo history. Reading is scene.hpp's (lecture_from_json, load_lecture).
//
// [SECTION] Files — Lecture → JSON (slide paths relative to the file's folder), atomic save
// [SECTION] Edits — add / move / delete, each a step of LectureHistory (undo, redo)
#pragma once

#include "normlab/base/file_io.hpp"   // IfExists
#include "normlab/scene/scene.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab {

// [SECTION] Files ---------------------------------------------------------------------------

// The lecture as a file in folder `base_dir` holds it: format and version first, then "title"
// (when set) and "slides"; each slide's "scene" relative to base_dir (absolute where no relative
// path leads there, or base_dir is empty), and only the keys that differ from their defaults
// (docs/LECTURES.md, The keys). lecture_from_json(lecture_to_json(l, d), d) gives l's slides back.
nlohmann::ordered_json lecture_to_json(const Lecture& lecture, const std::string& base_dir);

// The file's text: lecture_to_json indented by 2, with a final newline.
std::string lecture_to_text(const Lecture& lecture, const std::string& base_dir);

// Writes lecture_to_text atomically (file_io.hpp), the slides' scenes relative to the file's
// folder. A lecture without slides is refused (no reader would open it). Throws
// std::runtime_error naming the path (FileExistsError when `if_exists` is Refuse and it exists).
void save_lecture(const Lecture& lecture, const std::string& path, IfExists if_exists);

// [SECTION] Edits ---------------------------------------------------------------------------

enum class LectureEditKind { Add, Move, Delete };

// One edit of a lecture's slides, named for Edit ▸ Undo ("slide 3 added").
struct LectureStep {
    LectureEditKind kind = LectureEditKind::Add;
    std::size_t from = 0, to = 0;   // 0-based: Add puts a slide at `to`, Move takes `from` to `to`,
                                    // Delete takes `from` out
    Lecture state;         // the whole lecture on the step's other side (an undo step: before the
                           // edit; a redo step: after it); lectures are small
    std::string what;      // "slide 3 added", "slide 2 moved to 4", "slide 5 deleted"
    std::uint64_t mark = 0;   // the caller's: where its other history stood (the app: the session's
                              // SessionHistory::position(), so that Ctrl+Z undoes the later edit first)
};

// A lecture being edited, and its undo / redo history (at most `limit` steps; the oldest go).
// Every edit either changes the lecture and becomes one step, or changes nothing and says why.
class LectureHistory {
public:
    explicit LectureHistory(std::size_t limit = 200) : limit_(limit) {}

    // Starts again from `lecture`: no steps to undo or redo.
    void reset(Lecture lecture);
    const Lecture& lecture() const { return lecture_; }

    // Inserts `slide` at index `at` (clamped to the end). Returns "" or why not (the lecture is at
    // kMaxLectureSlides; the slide names more than kMaxSlideFigures figures or no scene).
    std::string add(LectureSlide slide, std::size_t at, std::uint64_t mark = 0);
    // Moves slide `from` to index `to` (0-based). "" or why not (an index past the end, or the same).
    std::string move(std::size_t from, std::size_t to, std::uint64_t mark = 0);
    // Deletes slide `i`. "" or why not: a lecture keeps at least one slide.
    std::string remove(std::size_t i, std::uint64_t mark = 0);

    // Back / forward one step; false (nothing changed) when there is none.
    bool undo();
    bool redo();
    std::size_t undo_count() const { return undo_.size(); }
    std::size_t redo_count() const { return redo_.size(); }
    const LectureStep* next_undo() const { return undo_.empty() ? nullptr : &undo_.back(); }
    const LectureStep* next_redo() const { return redo_.empty() ? nullptr : &redo_.back(); }

private:
    void record(LectureStep step);   // clears the redo steps

    std::size_t limit_;
    Lecture lecture_;
    std::vector<LectureStep> undo_, redo_;   // newest last; a redo step holds the state after it
};

}  // namespace normlab
