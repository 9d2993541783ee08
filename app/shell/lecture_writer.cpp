// The lecture writer (see lecture_writer.hpp).
//
// [SECTION] Edits
// [SECTION] Undo
// [SECTION] UI
// [SECTION] Script
#include "lecture_writer.hpp"

#include "lecture.hpp"
#include "plot_export.hpp"
#include "session_detail.hpp"
#include "session_io.hpp"
#include "slide.hpp"
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/base/text_fit.hpp>
#include <normlab/scene/scene.hpp>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <filesystem>
#include <sstream>
#include <utility>

namespace normlab::ui {

namespace fs = std::filesystem;

using namespace session_detail;

// [SECTION] Edits ---------------------------------------------------------------------------

namespace {

int lab_on_screen(const AppContext& ctx) {
    return std::clamp(ctx.app.select_lab >= 0 ? ctx.app.select_lab : ctx.app.lab, 0, kLabCount - 1);
}

// The size presenter view lays slides out in: the whole window (it has no menu bar). Zero before
// the first frame.
ImVec2 presenter_size() { return ImGui::GetMainViewport()->Size; }

// Whether the open lecture's own file may be written: there is one, and it is not NormLab's.
bool editable(const AppContext& ctx) {
    const LectureUi& lec = *ctx.lecture;
    return lec.lecture && !lec.lecture_file.empty() && !shipped_file(*ctx.io, lec.lecture_file);
}

// The session history's position, with this frame's edit recorded first (LectureStep::mark).
std::uint64_t mark(AppContext& ctx) {
    ctx.io->history.flush_pending(ctx.session);
    return ctx.io->history.position();
}

// The edited lecture on screen and in its file; "" or why the file could not be written.
std::string save_and_show(AppContext& ctx) {
    LectureUi& lec = *ctx.lecture;
    const Lecture& edited = lec.writer.edits.lecture();
    try {
        save_lecture(edited, lec.lecture_file, IfExists::Replace);   // the user's own file (placed by them)
    } catch (const std::exception& e) {
        ctx.app.status = tr("⚠ Lecture not saved: {0}", e.what());
        return e.what();
    }
    lec.lecture = edited;
    lec.heads = slide_heads(edited);
    lec.fit_problems.clear();   // laid out again at the next slide drawn
    lec.slide = std::clamp(lec.slide, 0, static_cast<int>(edited.slides.size()) - 1);
    return "";
}

// The view on screen as the slide's scene: the lab and the session, the draft's title and caption.
Scene view_scene(const AppContext& ctx, const SlideDraft& draft) {
    Scene scene = current_scene(ctx);
    scene.lab = kLabs[lab_on_screen(ctx)].id;
    scene.title = draft.title;
    scene.caption = draft.caption;
    return scene;
}

// Saves the view as a new scene beside `lecture_file` ("talk-explorer.json", "-2", … never over a
// file); its slide, or why not in `error`.
LectureSlide save_view(AppContext& ctx, const SlideDraft& draft, const std::string& lecture_file, std::string& error) {
    const Scene scene = view_scene(ctx, draft);
    const fs::path lecture(lecture_file);
    LectureSlide slide;
    slide.scene = unused_file_name((lecture.parent_path() / (lecture.stem().string() + "-" + scene.lab + ".json")).string());
    slide.title = draft.title;
    slide.caption = draft.caption;
    slide.figures = draft.figures;
    slide.controls = draft.controls;
    try {
        save_scene(scene, slide.scene, IfExists::Refuse);
    } catch (const std::exception& e) {
        error = e.what();
        ctx.app.status = tr("⚠ Slide not added: {0}", error);
    }
    return slide;
}

std::string do_add(AppContext& ctx, const SlideDraft& draft) {
    LectureUi& lec = *ctx.lecture;
    std::string error;
    const LectureSlide slide = save_view(ctx, draft, lec.lecture_file, error);
    if (!error.empty()) return error;
    const std::size_t at = static_cast<std::size_t>(lec.slide) + 1;
    if (error = lec.writer.edits.add(slide, at, mark(ctx)); !error.empty()) {
        ctx.app.status = tr("⚠ Slide not added: {0}", error);
        return error;
    }
    if (error = save_and_show(ctx); !error.empty()) return error;
    lec.slide = static_cast<int>(std::min(at, lec.lecture->slides.size() - 1));
    lec.slide_lab = lab_on_screen(ctx);
    lec.slide_error.clear();
    ctx.app.status = tr("Slide {0} / {1} added: {2}", lec.slide + 1, lec.lecture->slides.size(), file_name(slide.scene));
    if (const ImVec2 size = presenter_size(); size.x > 0.0f && size.y > 0.0f) {
        check_slides_fit(ctx, size);   // said now, while the figures can still be changed
        if (const std::string& clip = lec.fit_problems[static_cast<std::size_t>(lec.slide)]; !clip.empty())
            ctx.app.status += " · ⚠ " + clip;
    }
    return "";
}

// The edit waits for the lecture's place: the SaveLecture dialog asks.
std::string ask_place(AppContext& ctx, PendingLectureEdit edit) {
    ctx.lecture->writer.pending = std::move(edit);
    ctx.io->open_request = SessionIo::Dialog::SaveLecture;
    return "";
}

}  // namespace

std::string add_view_as_slide(AppContext& ctx, const SlideDraft& draft) {
    const Lab& lab = kLabs[lab_on_screen(ctx)];
    const auto known = [](const std::vector<SlidePart>& parts, const std::string& id) {
        return std::any_of(parts.begin(), parts.end(), [&](const SlidePart& p) { return id == p.id; });
    };
    for (const std::string& f : draft.figures)
        if (lab.slide == nullptr || !known(lab.slide->figures, f)) return "\"" + f + "\" is not a figure of the " + lab.id + " lab";
    for (const std::string& c : draft.controls)
        if (lab.slide == nullptr || !known(lab.slide->controls, c)) return "\"" + c + "\" is not a control of the " + lab.id + " lab";
    if (!editable(ctx)) return ask_place(ctx, {LectureEditKind::Add, draft, 0, 0});
    return do_add(ctx, draft);
}

std::string move_slide(AppContext& ctx, int from, int to) {
    LectureUi& lec = *ctx.lecture;
    if (!lec.lecture) return "no lecture is open";
    if (!editable(ctx)) return ask_place(ctx, {LectureEditKind::Move, {}, from, to});
    if (from < 0 || to < 0) return "there is no slide " + std::to_string(std::min(from, to) + 1);
    if (const std::string error = lec.writer.edits.move(static_cast<std::size_t>(from), static_cast<std::size_t>(to), mark(ctx));
        !error.empty())
        return error;
    if (lec.slide == from) lec.slide = to;   // the slide on screen keeps its number with it
    else if (from < lec.slide && to >= lec.slide) --lec.slide;
    else if (from > lec.slide && to <= lec.slide) ++lec.slide;
    if (const std::string error = save_and_show(ctx); !error.empty()) return error;
    ctx.app.status = tr("Slide {0} moved to {1}", from + 1, to + 1);
    return "";
}

std::string delete_slide(AppContext& ctx, int i) {
    LectureUi& lec = *ctx.lecture;
    if (!lec.lecture) return "no lecture is open";
    if (!editable(ctx)) return ask_place(ctx, {LectureEditKind::Delete, {}, i, i});
    if (i < 0) return "there is no slide " + std::to_string(i + 1);
    if (const std::string error = lec.writer.edits.remove(static_cast<std::size_t>(i), mark(ctx)); !error.empty()) return error;
    if (i < lec.slide) --lec.slide;
    if (const std::string error = save_and_show(ctx); !error.empty()) return error;
    ctx.app.status = tr("Slide {0} deleted (its scene file stays; Ctrl+Z brings the slide back)", i + 1);
    return "";
}

namespace {

// A new lecture at `path` whose one slide is the view on screen.
std::string new_lecture(AppContext& ctx, const std::string& path, IfExists if_exists, const SlideDraft& draft) {
    LectureUi& lec = *ctx.lecture;
    if (if_exists == IfExists::Refuse && path_exists(path)) return tr("{0} exists: choose another name", file_name(path));
    std::string error;
    Lecture lecture;
    lecture.slides.push_back(save_view(ctx, draft, path, error));
    if (!error.empty()) return error;
    try {
        save_lecture(lecture, path, if_exists);
    } catch (const std::exception& e) {
        std::error_code ec;
        fs::remove(lecture.slides[0].scene, ec);   // the scene was made for this lecture only
        return e.what();
    }
    lec.lecture_file = path;
    lec.writer.edits.reset(lecture);
    lec.slide = 0;
    if (const std::string shown = save_and_show(ctx); !shown.empty()) return shown;
    lec.slide_lab = lab_on_screen(ctx);
    lec.slide_error.clear();
    ctx.app.status = tr("Lecture {0} made, its first slide {1}", file_name(path), file_name(lecture.slides[0].scene));
    return "";
}

}  // namespace

std::string place_lecture(AppContext& ctx, const std::string& chosen, IfExists if_exists) {
    LectureUi& lec = *ctx.lecture;
    if (!lec.writer.pending) return "";
    const PendingLectureEdit edit = *lec.writer.pending;
    const std::string path = absolute_path(chosen);
    if (shipped_file(*ctx.io, path)) return tr("NormLab's own lectures are kept as they are: choose another folder.");
    if (const std::string error = make_parent_dir(path); !error.empty()) return error;
    std::string error;
    if (!lec.lecture) {
        if (edit.kind != LectureEditKind::Add) return "no lecture is open";
        error = new_lecture(ctx, path, if_exists, edit.draft);
    } else {
        try {
            save_lecture(*lec.lecture, path, if_exists);   // the copy, as it is
        } catch (const std::exception& e) {
            return e.what();
        }
        lec.lecture_file = path;
        lec.writer.edits.reset(*lec.lecture);
        if (edit.kind == LectureEditKind::Add) error = do_add(ctx, edit.draft);
        if (edit.kind == LectureEditKind::Move) error = move_slide(ctx, edit.from, edit.to);
        if (edit.kind == LectureEditKind::Delete) error = delete_slide(ctx, edit.from);
    }
    if (!error.empty()) return error;
    lec.writer.pending.reset();
    if (ctx.io->open_request == SessionIo::Dialog::SaveLecture) ctx.io->open_request = SessionIo::Dialog::None;
    return "";
}

// [SECTION] Undo ----------------------------------------------------------------------------

bool lecture_step_due(const AppContext& ctx, bool redo) {
    if (ctx.lecture == nullptr || ctx.io == nullptr || !ctx.lecture->lecture || !editable(ctx)) return false;
    const LectureHistory& edits = ctx.lecture->writer.edits;
    const LectureStep* step = redo ? edits.next_redo() : edits.next_undo();
    return step != nullptr && step->mark == ctx.io->history.position();
}

std::size_t lecture_steps(const AppContext& ctx, bool redo) {
    if (ctx.lecture == nullptr || ctx.io == nullptr || !editable(ctx)) return 0;
    const LectureHistory& edits = ctx.lecture->writer.edits;
    return redo ? edits.redo_count() : edits.undo_count();
}

std::string lecture_step_text(const AppContext& ctx, bool redo) {
    const LectureHistory& edits = ctx.lecture->writer.edits;
    const LectureStep* step = redo ? edits.next_redo() : edits.next_undo();
    if (step == nullptr) return "";
    std::string what;
    switch (step->kind) {
        case LectureEditKind::Add: what = tr("slide {0} added", step->to + 1); break;
        case LectureEditKind::Move: what = tr("slide {0} moved to {1}", step->from + 1, step->to + 1); break;
        case LectureEditKind::Delete: what = tr("slide {0} deleted", step->from + 1); break;
    }
    return what + " (" + tr("Lecture") + ")";
}

void step_lecture(AppContext& ctx, bool redo) {
    LectureUi& lec = *ctx.lecture;
    const std::string what = lecture_step_text(ctx, redo);
    const std::string on_screen = lec.lecture->slides[static_cast<std::size_t>(lec.slide)].scene;
    if (!(redo ? lec.writer.edits.redo() : lec.writer.edits.undo())) return;
    if (!save_and_show(ctx).empty()) return;
    const std::vector<LectureSlide>& slides = lec.lecture->slides;   // the slide on screen keeps its place in the list
    const auto kept = std::find_if(slides.begin(), slides.end(), [&](const LectureSlide& s) { return s.scene == on_screen; });
    if (kept != slides.end()) lec.slide = static_cast<int>(kept - slides.begin());
    const std::size_t more = redo ? ctx.io->history.redo_count() + lec.writer.edits.redo_count()
                                  : ctx.io->history.undo_count() + lec.writer.edits.undo_count();
    ctx.app.status = redo ? tr("Redone: {0} ({1} more to redo)", what, more) : tr("Undone: {0} ({1} more to undo)", what, more);
}

// [SECTION] UI ------------------------------------------------------------------------------

void draw_lecture_writer_menu(AppContext& ctx) {
    if (ctx.lecture == nullptr || ctx.io == nullptr) return;
    LectureWriter& w = ctx.lecture->writer;
    if (!ImGui::BeginMenu(tr("Lecture"))) return;
    if (ImGui::MenuItem(tr("Add this view as a slide…"))) w.open_add = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("The lab on screen as it is now, saved as a scene beside the lecture, becomes the next slide"));
    ImGui::MenuItem(tr("Slide list"), nullptr, &w.panel, ctx.lecture->lecture.has_value());
    ImGui::EndMenu();
}

namespace {

// The lab's names as checkboxes; at most `most` of them chosen.
void name_boxes(const std::vector<SlidePart>& parts, std::vector<std::string>& chosen, std::size_t most) {
    for (const SlidePart& part : parts) {
        const auto at = std::find(chosen.begin(), chosen.end(), part.id);
        bool on = at != chosen.end();
        ImGui::BeginDisabled(!on && chosen.size() >= most);
        if (ImGui::Checkbox(part.id, &on)) {
            if (on) chosen.emplace_back(part.id);
            else chosen.erase(at);
        }
        ImGui::EndDisabled();
    }
}

void start_draft(AppContext& ctx) {
    LectureWriter& w = ctx.lecture->writer;
    const int lab = lab_on_screen(ctx);
    w.draft = {ctx.io->title, ctx.io->caption, {}, {}};
    w.draft_lab = lab;
    if (const SlideNames* names = kLabs[lab].slide; names != nullptr)
        for (int k = 0; k < names->defaults && k < static_cast<int>(names->figures.size()); ++k)
            w.draft.figures.emplace_back(names->figures[static_cast<std::size_t>(k)].id);
}

// What the add dialog says of where the slide goes.
std::string add_target(const AppContext& ctx) {
    const LectureUi& lec = *ctx.lecture;
    if (!lec.lecture) return tr("No lecture is open: Add asks where to save a new one, with this view as its first slide.");
    const std::string place = tr("It becomes slide {0} of {1}, its scene saved beside the lecture.", lec.slide + 2,
                                 file_name(lec.lecture_file));
    return editable(ctx) ? place : place + " " + tr("This lecture is one of NormLab's own: Add asks where to place your copy.");
}

void draw_add_dialog(AppContext& ctx) {
    LectureWriter& w = ctx.lecture->writer;
    const char* name = tr("Add this view as a slide###add_slide");
    if (w.open_add) {
        w.open_add = false;
        start_draft(ctx);
        ImGui::OpenPopup(name);
    }
    if (!begin_centered_modal(name, 40.0f)) return;
    const float em = ImGui::GetFontSize();
    const Lab& lab = kLabs[std::clamp(w.draft_lab, 0, kLabCount - 1)];
    push_wrap_at_edge();
    ImGui::TextUnformatted(tr("The {0} lab as it is now.", tr(lab.tab)).c_str());
    ImGui::TextDisabled("%s", add_target(ctx).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::InputTextWithHint(tr("title###slide_title"), tr(lab.info->title), &w.draft.title);
    ImGui::InputTextMultiline(tr("caption###slide_caption"), &w.draft.caption, ImVec2(-8.0f * em, 3.2f * ImGui::GetTextLineHeight()));
    const SlideNames* names = lab.slide;
    if (names != nullptr) {
        ImGui::TextUnformatted(tr("Figures (one or two):"));
        name_boxes(names->figures, w.draft.figures, kMaxSlideFigures);
        if (!names->controls.empty()) {
            ImGui::TextUnformatted(tr("Controls the audience sees used:"));
            name_boxes(names->controls, w.draft.controls, names->controls.size());
        }
    } else {
        ImGui::TextDisabled("%s", tr("This lab has no figures to choose: its slide shows the lab as it is."));
    }
    ImGui::Spacing();
    bool close = false;
    ImGui::BeginDisabled(names != nullptr && w.draft.figures.empty());
    if (ImGui::Button(tr("Add"), ImVec2(7.0f * em, 0.0f))) {
        add_view_as_slide(ctx, w.draft);
        close = true;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel"), ImVec2(7.0f * em, 0.0f)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) close = true;
    if (close) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// A slide's line in the panel: "3.  Title" (the slide's title, its scene's, else its file's name).
std::string slide_label(const LectureUi& lec, std::size_t i) {
    const LectureSlide& slide = lec.lecture->slides[i];
    std::string title = slide.title;
    if (title.empty() && i < lec.heads.size()) title = lec.heads[i].title;
    if (title.empty()) title = file_name(slide.scene);
    return std::to_string(i + 1) + ".  " + title;
}

#ifdef __EMSCRIPTEN__
// The page: the lecture and the scenes beside it into the export folder, from where each becomes
// a download (web_page.cpp); the status line says what.
std::string download_lecture(const AppContext& ctx) {
    const LectureUi& lec = *ctx.lecture;
    if (!editable(ctx)) return tr("Nothing to download: the lecture is NormLab's own, unchanged");
    const fs::path folder = fs::path(lec.lecture_file).parent_path();
    int scenes = 0;
    try {
        for (const LectureSlide& s : lec.lecture->slides) {
            if (fs::path(s.scene).parent_path() != folder) continue;   // a shipped scene: the page has it
            write_file_atomically(export_folder() + "/" + file_name(s.scene), read_file(s.scene, kMaxSceneBytes), IfExists::Replace);
            ++scenes;
        }
        write_file_atomically(export_folder() + "/" + file_name(lec.lecture_file), lecture_to_text(*lec.lecture, folder.string()),
                              IfExists::Replace);
    } catch (const std::exception& e) {
        return "⚠ " + std::string(e.what());
    }
    return tr("Downloading {0} and {1} scenes", file_name(lec.lecture_file), scenes);
}
#endif

// The Slides panel: Add, then Move up / Move down / Delete for the slide on screen, then every
// slide's line (a click goes to it), cut with "…" to the panel's width, whole on hover.
void draw_slides_panel(AppContext& ctx) {
    LectureUi& lec = *ctx.lecture;
    LectureWriter& w = lec.writer;
    if (!w.panel || !lec.lecture || ctx.app.presenter) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float em = ImGui::GetFontSize();
    const ImVec2 size(std::min(24.0f * em, 0.5f * vp->WorkSize.x), std::min(22.0f * em, vp->WorkSize.y - 2.0f * em));
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - size.x - em, vp->WorkPos.y + em), ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
    if (!ImGui::Begin(tr("Slides###slides_panel"), &w.panel, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    push_wrap_at_edge();
    ImGui::TextDisabled("%s", file_name(lec.lecture_file).c_str());
    if (!editable(ctx)) ImGui::TextDisabled("%s", tr("NormLab's own lecture: your first change asks where to place a copy."));
    ImGui::PopTextWrapPos();
    if (ImGui::Button(tr("Add this view…"))) w.open_add = true;
#ifdef __EMSCRIPTEN__
    ImGui::SameLine();
    if (ImGui::Button(tr("Download"))) ctx.app.status = download_lecture(ctx);
#endif
    const int n = static_cast<int>(lec.lecture->slides.size()), at = lec.slide;
    int to = -1;
    bool gone = false;
    ImGui::BeginDisabled(at == 0);
    if (ImGui::Button(tr("Move up"))) to = at - 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(at + 1 >= n);
    if (ImGui::Button(tr("Move down"))) to = at + 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(n <= 1);
    if (ImGui::Button(tr("Delete"))) gone = true;
    ImGui::EndDisabled();
    int go = -1;
    const float footer = 2.0f * ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginChild("slide list", ImVec2(0.0f, -footer), true);
    const float width = ImGui::GetContentRegionAvail().x;
    for (int i = 0; i < n; ++i) {
        const std::string label = slide_label(lec, static_cast<std::size_t>(i));
        const std::string shown = fit_to_width(label, width, [](std::string_view t) {
            return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x;
        });
        ImGui::PushID(i);
        if (ImGui::Selectable(shown.c_str(), i == at)) go = i;
        if (shown != label && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());
        ImGui::PopID();
    }
    ImGui::EndChild();
    push_wrap_at_edge();
    ImGui::TextDisabled("%s", tr("Each change is saved at once; Ctrl+Z undoes it."));
    ImGui::PopTextWrapPos();
    ImGui::End();
    if (to >= 0) move_slide(ctx, at, to);
    if (gone) delete_slide(ctx, at);
    if (go >= 0) go_to_slide(ctx, go);
}

}  // namespace

void draw_lecture_writer(AppContext& ctx) {
    if (ctx.lecture == nullptr || ctx.io == nullptr) return;
    LectureWriter& w = ctx.lecture->writer;
    // The place dialog closed without placing the lecture: the edit that waited is dropped.
    if (w.pending && ctx.io->dialog == SessionIo::Dialog::None && ctx.io->open_request == SessionIo::Dialog::None) {
        w.pending.reset();
        ctx.app.status = tr("Lecture not changed: no place was chosen for it");
    }
    // Every slide laid out at this window's size from what its figures need (no scene computed),
    // in the editing view too: a slide that would clip is named as the lecture opens or a slide
    // is added, not only once presenter view shows it (slide.hpp, check_slides_fit).
    LectureUi& lec = *ctx.lecture;
    const std::size_t checked = lec.fit_problems.size();
    if (const ImVec2 size = presenter_size(); lec.lecture && size.x > 0.0f && size.y > 0.0f) {
        const ImVec2 before = lec.fit_size;
        check_slides_fit(ctx, size);
        const bool fresh = checked != lec.fit_problems.size() || before.x != size.x || before.y != size.y;
        const auto clip = std::find_if(lec.fit_problems.begin(), lec.fit_problems.end(), [](const std::string& p) { return !p.empty(); });
        if (fresh && clip != lec.fit_problems.end()) ctx.app.status = "⚠ " + *clip;   // stderr has each (slide.hpp)
    }
    draw_add_dialog(ctx);
    draw_slides_panel(ctx);
}

// [SECTION] Script --------------------------------------------------------------------------

namespace {

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(' ');
    return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// One step of the script; "" or why not.
std::string run_step(AppContext& ctx, const std::string& step) {
    std::istringstream in(step);
    std::string verb;
    in >> verb;
    int a = 0, b = 0;
    if (verb == "add") {
        std::string rest;
        std::getline(in, rest);
        std::vector<std::string> parts;
        for (std::size_t at = 0;;) {
            const std::size_t bar = rest.find('|', at);
            parts.push_back(trimmed(rest.substr(at, bar == std::string::npos ? std::string::npos : bar - at)));
            if (bar == std::string::npos) break;
            at = bar + 1;
        }
        start_draft(ctx);
        SlideDraft draft = ctx.lecture->writer.draft;
        if (!parts[0].empty() && parts[0] != "-") {
            draft.figures.clear();
            std::istringstream figs(parts[0]);
            for (std::string f; std::getline(figs, f, ',');) draft.figures.push_back(trimmed(f));
        }
        if (parts.size() > 1) draft.title = parts[1];
        if (parts.size() > 2) draft.caption = parts[2];
        return add_view_as_slide(ctx, draft);
    }
    if (verb == "place") {
        std::string path;
        std::getline(in, path);
        return place_lecture(ctx, trimmed(path), IfExists::Refuse);
    }
    if (verb == "move" && (in >> a >> b)) return move_slide(ctx, a - 1, b - 1);
    if (verb == "delete" && (in >> a)) return delete_slide(ctx, a - 1);
    if (verb == "panel" || verb == "ask") {   // what a screenshot or a layout check should show
        (verb == "panel" ? ctx.lecture->writer.panel : ctx.lecture->writer.open_add) = true;
        return "";
    }
    if (verb == "undo" || verb == "redo") {
        if (verb == "undo") undo(ctx);
        else redo(ctx);
        return "";
    }
    return "not a step (add, place, move, delete, undo, redo, panel, ask)";
}

}  // namespace

std::string run_lecture_script(AppContext& ctx, const std::string& steps) {
    if (ctx.lecture == nullptr || ctx.io == nullptr) return "this window has no lecture mode";
    std::istringstream in(steps);
    int n = 0;
    for (std::string step; std::getline(in, step, ';');) {
        step = trimmed(step);
        ++n;
        if (step.empty()) continue;
        if (const std::string error = run_step(ctx, step); !error.empty())
            return "step " + std::to_string(n) + " (\"" + step + "\"): " + error;
    }
    return "";
}

}  // namespace normlab::ui
