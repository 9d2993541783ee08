// Fonts (DejaVu Sans with Greek and the math symbols the labs print, Noto Sans CJK merged in for
// the characters the app draws beyond them: font_atlas.hpp) and the colour theme.
#pragma once

#include <imgui.h>

#include <normlab/base/i18n.hpp>
#include <normlab/base/palette.hpp>

#include <array>
#include <deque>
#include <memory>
#include <set>
#include <string>

namespace normlab::ui {

// A palette colour (core's base/palette.hpp) as Dear ImGui's packed colour.
inline ImU32 to_u32(Color c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

inline constexpr int kDefaultFontPx = 20;   // legible on a projector at 1600×1000
inline constexpr int kSlideCaptionMinPx = 24;
inline constexpr float kLargeFontScale = 1.5f;   // a slide's caption, read from the back of a room

// Debian's fonts-dejavu-core (also used by the offscreen plot export, plot_export.cpp).
inline constexpr const char* kDejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
inline constexpr const char* kDejaVuBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

struct Fonts {
    ImFont* regular = nullptr;     // DejaVu Sans, px
    ImFont* bold = nullptr;        // DejaVu Sans Bold, px: captions
    ImFont* heading = nullptr;     // DejaVu Sans Bold, 1.15 px: section headings
    ImFont* small = nullptr;       // DejaVu Sans, 0.8 px: axis ticks, cell values
    ImFont* slide_caption = nullptr;   // DejaVu Sans, max(px, kSlideCaptionMinPx): presenter captions
    ImFont* slide_title = nullptr;     // DejaVu Sans Bold, 1.25 × the caption's: presenter titles
    int px = 0;                    // the size they were built at
    // regular, bold, heading and small again at kLargeFontScale × px: a slide's text figure
    // (a verdict, a table) where its window has room (app/shell/slide.cpp). Null in `large` itself.
    std::shared_ptr<Fonts> large;
    ImVector<ImWchar> glyphs;      // glyph ranges; the atlas keeps a pointer to them
    std::string warning;           // one line: a font missing, the atlas at its limit

    // The characters beyond `glyphs` (docs/i18n/TRANSLATING.md, Fonts), per tier: Ui (regular,
    // bold, heading, small: the active catalog's characters and those drawn in them) and Big
    // (`large`, the slide fonts: only those drawn in them), so CJK is built only at sizes in use.
    enum Tier { Ui, Big };
    std::array<std::set<ImWchar>, 2> wanted;
    std::set<ImWchar> no_font;       // drawn as □: no font has them (or the atlas had no room)
    std::string notice;              // for the status line, once: characters drawn as □
    bool stale = false;              // new characters wanted: load_fonts again between frames
    Language han = Language::En;     // whose forms of Han characters (font_atlas.hpp, han_face)
    int max_texture_px = 0;          // the renderer's GL_MAX_TEXTURE_SIZE (0: asked at load_fonts)
    int atlas_w = 0, atlas_h = 0;    // the last build's texture
    std::deque<ImVector<ImWchar>> ranges;   // each face's ranges; the atlas keeps pointers to them
};

// Clears and rebuilds the font atlas at px pixels, with the active catalog's characters and the
// wanted ones; then checks that no glyph was dropped and the texture fits the renderer (else
// leaves the user's characters out, largest sizes first, and says so in `warning`). Call before
// the first frame or between frames; a renderer already running must then re-create its font
// texture.
void load_fonts(Fonts& fonts, int px);

// Light (high contrast, for projectors) or dark colours, with spacing scaled to px.
void apply_theme(bool dark, int px);

// The same, or with `projector` (and not dark) the projector theme: black on white, darker
// borders and separators, and every border and grab thicker, for a lecture hall's back row.
// (Choose it with a larger text size: View ▸ Theme ▸ Projector sets at least kProjectorFontPx.)
inline constexpr int kProjectorFontPx = 30;   // 150 %
void apply_theme(bool dark, bool projector, int px);

}  // namespace normlab::ui
