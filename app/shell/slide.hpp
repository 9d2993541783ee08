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

// [SECTION] Layout --------------------------------------------------------------------------


// The cells of `aspects.size()` figures (1 or 2) in `area`, `gap` apart: side by side or one
// above the other, whichever gives the smaller figure, fitted at its aspect (width ÷ height)
// in its cell, the larger area; but where only one of the two keeps each cell at least
// `min_cell` (a plot's least size, kMinFigure*Em), that one.
std::vector<SlideRect> figure_cells(SlideRect area, const std::vector<float>& aspects, float gap, ImVec2 min_cell);

// [SECTION] Slide ---------------------------------------------------------------------------


// The slide in one window at pos/size: header (title, caption, "3 / 8"), the named controls,
// the figures. Fills `boxes` with what it drew.
void draw_slide(AppContext& ctx, ImVec2 pos, ImVec2 size, std::vector<SlideBox>& boxes);

}  // namespace normlab::ui
