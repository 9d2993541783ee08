// The font atlas's glyphs beyond Latin, Greek and maths: which font file has a character, one
// face built from DejaVu merged with Noto Sans CJK, the check for glyphs ImGui dropped, the box
// drawn for a character no font has, and the watch that notes characters drawn without a glyph
// (docs/i18n/TRANSLATING.md, Fonts).
#pragma once

#include "theme_fonts.hpp"

#include <normlab/base/i18n.hpp>

#include <deque>
#include <string>
#include <vector>

namespace normlab::ui {

// Noto Sans CJK (Debian's fonts-noto-cjk), or the same files in $NORMLAB_CJK_FONTS (tests: a
// folder without them).
std::string cjk_font_path(bool bold);

// The face of Noto Sans CJK's .ttc whose Han forms a reader of `lang` expects: Korean for ko,
// simplified Chinese otherwise.
int han_face(Language lang);

// Whether face `index` of the font file has a glyph for cp (false when the file cannot be read).
bool font_has_glyph(const std::string& path, int index, char32_t cp);

// One face of the atlas at `size` px (font files shared, not copied: call disown_font_files(atlas)
// right after atlas.Build(), before anything else can clear the atlas): DejaVu (Bold when `bold`) with the `base` ranges and each
// character of `extra` it has, then Noto Sans CJK merged in for the rest it has (one sample per
// pixel across: CJK glyphs are square). Characters neither has are appended to `no_font`, those
// only Noto has when its file is missing to `no_cjk`. `keep` holds the range arrays the atlas
// points into (it must outlive the atlas's fonts). `sampling`: DejaVu's oversampling and pixel
// snapping (an exported figure's own; default: the app's).
ImFont* add_face(ImFontAtlas& atlas, bool bold, float size, const ImWchar* base, const std::vector<ImWchar>& extra,
                 Language han, std::deque<ImVector<ImWchar>>& keep, std::vector<ImWchar>& no_font,
                 std::vector<ImWchar>& no_cjk, const ImFontConfig* sampling = nullptr);

void disown_font_files(ImFontAtlas& atlas);

// The characters of `wanted` that `font` has no glyph for after Build(): Dear ImGui 1.86 drops
// glyphs that do not fit below 32768 px of atlas height, while Build() still succeeds.
std::vector<ImWchar> dropped_glyphs(const ImFont& font, const std::vector<ImWchar>& wanted);

// A character `font` has no glyph for is drawn as □ (U+25A1, when the font has it), as wide as
// the box, instead of Dear ImGui's '?'.
void box_fallback(ImFont& font);

// The glyph watch: every text Dear ImGui draws passes here (text_record_hook.cpp); a character
// the drawing font lacks is added to `fonts`' wanted set of that font's tier and `fonts.stale`
// set, so that the next frame's atlas has it: at most kMaxNewGlyphs new ones per build (a file
// with 300,000 distinct characters brings no more) and kMaxWantedGlyphs per tier; beyond, a box.
// Fonts not of `fonts` (an export's atlas) are ignored. Null stops watching.
inline constexpr int kMaxNewGlyphs = 2000;
inline constexpr std::size_t kMaxWantedGlyphs = 12000;
void watch_glyphs(Fonts* fonts);
void note_drawn_text(const ImFont* font, const char* begin, const char* end);

}  // namespace normlab::ui
