// Presenter slides: what presenter view (F5) draws instead of the labs. A slide is its title, a
// caption of a sentence or two (at least kSlideCaptionMinPx), one or two of its lab's figures as
// large as the window allows, and only the controls its lecture file names (lab.hpp's
// SlideParts; docs/ARCHITECTURE.md, Presenter slides). Without a lecture, or on a lab the slide
// did not open, the lab's default figures and no controls.
//
// [SECTION] Names  — a lecture's figure and control names checked against its labs'
// [SECTION] Layout — where one or two figures go
// [SECTION] Slide  — the slide on screen, and the boxes it drew
#pragma once

#include "shell_state.hpp"

#include <normlab/scene/scene.hpp>

#include <imgui.h>

#include <string>
#include <vector>

namespace normlab::ui {

// [SECTION] Names ---------------------------------------------------------------------------

// "" or what is wrong with the first name of a slide that its scene's lab does not have, e.g.
//   `slides[2].figures[0] = "tabel" is not a figure of the invariance lab (figures: invariance_table, …)`
// Opens each slide's scene (for its lab); a scene that cannot be opened is left to the caller.
std::string check_slide_names(const Lecture& lecture);
std::string check_slide_names(const Lecture& lecture, const std::vector<SlideHead>& heads);

// Each slide's lab, title and caption, from its scene file (read, not computed).
std::vector<SlideHead> slide_heads(const Lecture& lecture);

// [SECTION] Layout --------------------------------------------------------------------------


// What a figure needs of its cell: the aspect it reads best at (width ÷ height) and its least
// size in px (SlidePart::min_*_em).
struct FigureNeed {
    float aspect = 1.6f;
    ImVec2 min;
};

// The cells of `needs.size()` figures (1 or 2) in `area`, `gap` apart: side by side or one
// above the other, whichever gives the smaller figure, fitted at its aspect in its cell, the
// larger area; but where only one of the two keeps each cell at least its figure's least size,
// that one. The two cells are halves, except where one half is below its figure's least size
// and the other can give: then the line between them moves as far as that takes.
std::vector<SlideRect> figure_cells(SlideRect area, const std::vector<FigureNeed>& needs, float gap);

// Whether each cell holds its figure's least size.
bool cells_fit(const std::vector<SlideRect>& cells, const std::vector<FigureNeed>& needs);

// Why a slide would clip, in English (stderr, which scripts read) and in the UI's language.
struct FitProblem {
    std::string english, shown;   // both "" when the slide fits
};

// Whether slide `slide` (0-based) of the open lecture would cut a figure in a window of `size`
// px: laid out from its header's words and its figures' least sizes, not their data, e.g.
// "slide 3 would clip at 1024×768: explorer_outputs needs 640 × 380 px, has 600 × 265".
FitProblem slide_fit_problem(const AppContext& ctx, int slide, ImVec2 size);

// Once per window size (and lecture): slide_fit_problem of every slide into LectureUi::
// fit_problems (in the UI's language), each new one said on stderr (in English).
void check_slides_fit(AppContext& ctx, ImVec2 size);

// [SECTION] Slide ---------------------------------------------------------------------------


// The slide in one window at pos/size: header (title, caption, "3 / 8"), the named controls,
// the figures. Fills `boxes` with what it drew.
void draw_slide(AppContext& ctx, ImVec2 pos, ImVec2 size, std::vector<SlideBox>& boxes);

}  // namespace normlab::ui
