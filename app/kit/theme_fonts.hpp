// Fonts (DejaVu Sans with Greek and the math symbols the labs print) and the colour theme.
#pragma once

#include <imgui.h>

#include <string>

namespace normlab::ui {

inline constexpr int kDefaultFontPx = 20;   // legible on a projector at 1600×1000

// Debian's fonts-dejavu-core (also used by the offscreen plot export, plot_export.cpp).
inline constexpr const char* kDejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
inline constexpr const char* kDejaVuBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

struct Fonts {
    ImFont* regular = nullptr;     // DejaVu Sans, px
    ImFont* bold = nullptr;        // DejaVu Sans Bold, px: captions
    ImFont* heading = nullptr;     // DejaVu Sans Bold, 1.15 px: section headings
    ImFont* small = nullptr;       // DejaVu Sans, 0.8 px: axis ticks, cell values
    int px = 0;                    // the size they were built at
    ImVector<ImWchar> glyphs;      // glyph ranges; the atlas keeps a pointer to them
    std::string warning;           // one line, set when DejaVu is missing and ImGui's font is used
};

// Clears and rebuilds the font atlas at px pixels. Call before the first frame or between
// frames; a renderer already running must then re-create its font texture.
void load_fonts(Fonts& fonts, int px);

// Light (high contrast, for projectors) or dark colours, with spacing scaled to px.
void apply_theme(bool dark, int px);

// The same, or with `projector` (and not dark) the projector theme: black on white, darker
// borders and separators, and every border and grab thicker, for a lecture hall's back row.
// (Choose it with a larger text size: View ▸ Theme ▸ Projector sets at least kProjectorFontPx.)
inline constexpr int kProjectorFontPx = 30;   // 150 %
void apply_theme(bool dark, bool projector, int px);

}  // namespace normlab::ui
