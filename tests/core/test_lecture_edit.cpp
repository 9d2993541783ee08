// Writing lectures and editing their slides (core/src/scene/lecture_edit.cpp): the file written
// reads back to the same slides, a slide added from a lab's state re-opens to the same view, and
// add / move / delete undo and redo in order.
//
// [SECTION] Helpers
// [SECTION] Files  — round trip, the path rule, what is written, refusals
// [SECTION] Slides — a slide from a lab's state re-opens to the same view
// [SECTION] Edits  — add, move, delete, undo, redo, their names and refusals
#include "normlab/base/file_io.hpp"
#include "normlab/scene/lecture_edit.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/scene_history.hpp"
#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace normlab {
namespace {

namespace fs = std::filesystem;

// [SECTION] Helpers -------------------------------------------------------------------------

LectureSlide slide_of(std::string scene, std::string title = "", std::vector<std::string> figures = {}) {
    LectureSlide s;
    s.scene = std::move(scene);
    s.title = std::move(title);
    s.figures = std::move(figures);
    return s;
}

void expect_same_slides(const Lecture& a, const Lecture& b) {
    ASSERT_EQ(a.slides.size(), b.slides.size());
    for (std::size_t i = 0; i < a.slides.size(); ++i) {
        const LectureSlide &x = a.slides[i], &y = b.slides[i];
        EXPECT_EQ(fs::absolute(x.scene).lexically_normal(), fs::absolute(y.scene).lexically_normal()) << i;
        EXPECT_EQ(x.title, y.title) << i;
        EXPECT_EQ(x.caption, y.caption) << i;
        EXPECT_EQ(x.figures, y.figures) << i;
        EXPECT_EQ(x.controls, y.controls) << i;
        EXPECT_EQ(x.run, y.run) << i;
        EXPECT_EQ(x.translations.title, y.translations.title) << i;
        EXPECT_EQ(x.translations.caption, y.translations.caption) << i;
    }
}

std::vector<std::string> titles(const Lecture& l) {
    std::vector<std::string> out;
    for (const LectureSlide& s : l.slides) out.push_back(s.title);
    return out;
}

// [SECTION] Files ---------------------------------------------------------------------------

TEST(LectureFile, WrittenLectureReadsBackToTheSameSlides) {
    TempDir dir;
    fs::create_directories(dir.path / "talk" / "scenes");
    Lecture l;
    l.title = "What RMSNorm leaves out · 평균 · 均值";
    LectureSlide a = slide_of(dir.file("talk/scenes/mean.json"), "LayerNorm subtracts the mean",
                              {"explorer_outputs", "explorer_summed_inputs"});
    a.caption = "Its outputs sum to zero;\nRMSNorm's keep the mean.";
    a.translations.caption = {{"ko", "출력의 합은 0입니다."}, {"zh", "输出之和为零。"}};
    a.translations.title = {{"ko", "LayerNorm은 평균을 뺍니다"}};
    l.language = "en";
    l.translations.title = {{"zh", "RMSNorm 省去了什么"}};
    LectureSlide b = slide_of(dir.file("shared/invariance.json"), "", {"invariance_table"});
    b.controls = {"delta", "eps"};
    LectureSlide c = slide_of(dir.file("talk/depth.json"));
    c.run = SlideRun::Paused;
    l.slides = {a, b, c};
    const std::string path = dir.file("talk/norms.json");
    save_lecture(l, path, IfExists::Refuse);

    const Lecture back = load_lecture(path);
    EXPECT_EQ(back.title, l.title);
    EXPECT_EQ(back.language, l.language);
    EXPECT_EQ(back.translations.title, l.translations.title);
    expect_same_slides(l, back);
    EXPECT_TRUE(back.ignored.empty());
    // The path rule: relative to the lecture's folder, ".." where the scene lies beside it.
    const nlohmann::json j = nlohmann::json::parse(read_file(path));
    EXPECT_EQ(j["slides"][0]["scene"], "scenes/mean.json");
    EXPECT_EQ(j["slides"][1]["scene"], "../shared/invariance.json");
    EXPECT_EQ(j["slides"][2]["scene"], "depth.json");
    // Only keys that differ from their defaults.
    EXPECT_FALSE(j["slides"][0].contains("run"));
    EXPECT_FALSE(j["slides"][1].contains("title"));
    EXPECT_FALSE(j["slides"][2].contains("figures"));
    EXPECT_EQ(j["slides"][2]["run"], "paused");
    // Format and version lead the file.
    EXPECT_EQ(read_file(path).rfind("{\n  \"format\": \"normlab-lecture\",\n  \"version\": 1,", 0), 0u);
}

TEST(LectureFile, ShippedLectureWrittenElsewhereStillFindsItsScenes) {
    // A copy of the shipped lecture placed in another folder names the shipped scenes from there.
    TempDir dir;
    const Lecture shipped = load_lecture(std::string(NORMLAB_ASSETS_DIR) + "/lectures/rmsnorm_paper.json");
    const std::string copy = dir.file("my_talk.json");
    save_lecture(shipped, copy, IfExists::Refuse);
    const Lecture back = load_lecture(copy);
    expect_same_slides(shipped, back);
    for (const LectureSlide& s : back.slides) EXPECT_NO_THROW(load_scene(s.scene)) << s.scene;
}

TEST(LectureFile, SaveRefusesATakenNameAnEmptyLectureAndLeavesTheFile) {
    TempDir dir;
    const std::string path = dir.file("l.json");
    write_file_atomically(path, "mine\n", IfExists::Refuse);
    Lecture l;
    l.slides = {slide_of(dir.file("s.json"))};
    EXPECT_THROW(save_lecture(l, path, IfExists::Refuse), FileExistsError);
    EXPECT_EQ(read_file(path), "mine\n");
    Lecture empty;
    EXPECT_THROW(save_lecture(empty, dir.file("e.json"), IfExists::Refuse), std::runtime_error);
    EXPECT_FALSE(path_exists(dir.file("e.json")));
    save_lecture(l, path, IfExists::Replace);
    EXPECT_EQ(load_lecture(path).slides.size(), 1u);
}

// [SECTION] Slides --------------------------------------------------------------------------

TEST(LectureSlideFromLab, ReopensToTheSameView) {
    // What Lecture ▸ Add this view as a slide does: the lab's state saved as a scene beside the
    // lecture, a slide naming it added; read back, the slide opens that lab in that state.
    TempDir dir;
    Scene view;
    view.lab = "invariance";
    view.title = "Re-scaling W";
    view.caption = "δ scales W; LayerNorm and RMSNorm do not move.";
    view.session.explorer.x << 1.5, -2.0, 3.25, 9.0;
    view.session.invariance.delta = 37.5;
    const std::string scene_path = dir.file("talk-invariance.json");
    save_scene(view, scene_path, IfExists::Refuse);

    LectureHistory edits;
    Lecture start;
    start.slides = {slide_of(dir.file("first.json"), "First")};
    edits.reset(start);
    LectureSlide added = slide_of(scene_path, view.title, {"invariance_vs_delta"});
    added.caption = view.caption;
    added.controls = {"delta"};
    ASSERT_EQ(edits.add(added, 1), "");
    const std::string path = dir.file("talk.json");
    save_lecture(edits.lecture(), path, IfExists::Refuse);

    const Lecture back = load_lecture(path);
    ASSERT_EQ(back.slides.size(), 2u);
    expect_same_slides(edits.lecture(), back);
    const Scene reopened = load_scene(back.slides[1].scene);
    EXPECT_EQ(reopened.lab, "invariance");
    EXPECT_EQ(reopened.title, view.title);
    EXPECT_EQ(reopened.caption, view.caption);
    EXPECT_EQ(session_to_json(reopened.session), session_to_json(view.session));
    EXPECT_EQ(back.slides[1].figures, std::vector<std::string>{"invariance_vs_delta"});
    EXPECT_EQ(back.slides[1].controls, std::vector<std::string>{"delta"});
}

// [SECTION] Edits ---------------------------------------------------------------------------

TEST(LectureEdits, AddMoveDeleteUndoRedoInOrder) {
    LectureHistory h;
    Lecture l;
    l.slides = {slide_of("a.json", "A"), slide_of("b.json", "B")};
    h.reset(l);
    EXPECT_EQ(h.next_undo(), nullptr);
    EXPECT_FALSE(h.undo());

    ASSERT_EQ(h.add(slide_of("c.json", "C"), 1, 7), "");
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"A", "C", "B"}));
    EXPECT_EQ(h.next_undo()->what, "slide 2 added");
    EXPECT_EQ(h.next_undo()->mark, 7u);
    ASSERT_EQ(h.add(slide_of("d.json", "D"), 99), "");   // past the end: appended
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"A", "C", "B", "D"}));
    EXPECT_EQ(h.next_undo()->what, "slide 4 added");
    ASSERT_EQ(h.move(3, 0), "");
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"D", "A", "C", "B"}));
    EXPECT_EQ(h.next_undo()->what, "slide 4 moved to 1");
    ASSERT_EQ(h.remove(2), "");
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"D", "A", "B"}));
    EXPECT_EQ(h.next_undo()->what, "slide 3 deleted");

    EXPECT_EQ(h.undo_count(), 4u);
    ASSERT_TRUE(h.undo());
    EXPECT_EQ(h.undo_count(), 3u);
    EXPECT_EQ(h.redo_count(), 1u);
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"D", "A", "C", "B"}));
    EXPECT_EQ(h.next_redo()->what, "slide 3 deleted");
    ASSERT_TRUE(h.undo());
    ASSERT_TRUE(h.undo());
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"A", "C", "B"}));
    ASSERT_TRUE(h.redo());
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"A", "C", "B", "D"}));
    ASSERT_TRUE(h.undo());
    ASSERT_TRUE(h.undo());
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"A", "B"}));
    EXPECT_FALSE(h.undo());
    // A new edit drops what could be redone.
    ASSERT_EQ(h.move(0, 1), "");
    EXPECT_EQ(h.next_redo(), nullptr);
    EXPECT_FALSE(h.redo());
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"B", "A"}));
}

TEST(LectureEdits, RefusedEditsChangeNothingAndSayWhy) {
    LectureHistory h;
    Lecture l;
    l.slides = {slide_of("a.json", "A")};
    h.reset(l);
    EXPECT_EQ(h.remove(0), "a lecture keeps at least one slide");
    EXPECT_EQ(h.remove(3), "there is no slide 4");
    EXPECT_EQ(h.move(0, 1), "there is no slide 2");
    ASSERT_EQ(h.add(slide_of("b.json", "B"), 1), "");
    EXPECT_EQ(h.move(1, 1), "slide 2 is there already");
    EXPECT_EQ(h.add(slide_of(""), 0), "a slide needs a scene file");
    EXPECT_EQ(h.add(slide_of("c.json", "", {"x", "y", "z"}), 0), "a slide shows one or two figures");
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"A", "B"}));
    ASSERT_TRUE(h.undo());
    EXPECT_FALSE(h.undo());   // the refusals were no steps
}

TEST(LectureEdits, KeepsAtMostItsLimitOfSteps) {
    LectureHistory h(3);
    Lecture l;
    l.slides = {slide_of("a.json", "0")};
    h.reset(l);
    for (int i = 1; i <= 5; ++i) ASSERT_EQ(h.add(slide_of("s.json", std::to_string(i)), 99), "");
    int undone = 0;
    while (h.undo()) ++undone;
    EXPECT_EQ(undone, 3);
    EXPECT_EQ(titles(h.lecture()), (std::vector<std::string>{"0", "1", "2"}));
}

TEST(LectureEdits, SessionPositionCountsStepsPastTheLimit) {
    // The app marks a lecture edit with the session history's position: Ctrl+Z undoes a lecture
    // edit when no session step came after it, so the position must not stall at the limit.
    SessionHistory h(2);
    Session s;
    h.reset(s);
    EXPECT_EQ(h.position(), 0u);
    for (int i = 1; i <= 4; ++i) {
        s.explorer.x[0] = i;
        h.flush_pending(s);
        EXPECT_EQ(h.position(), static_cast<std::uint64_t>(i));
    }
    ASSERT_TRUE(h.undo(s));
    EXPECT_EQ(h.position(), 3u);
    ASSERT_TRUE(h.redo(s));
    EXPECT_EQ(h.position(), 4u);
}

}  // namespace
}  // namespace normlab
