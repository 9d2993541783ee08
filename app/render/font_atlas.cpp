// The app's font atlas: DejaVu merged with Noto Sans CJK for the characters the app draws, built
// within the renderer's texture limit, checked for dropped glyphs (font_atlas.hpp).
//
// [SECTION] Font files  — loaded once, their characters looked up in their cmaps
// [SECTION] Faces       — one DejaVu face with Noto Sans CJK merged in; the box fallback
// [SECTION] load_fonts  — every face at its size, then the checks
// [SECTION] Glyph watch — characters drawn without a glyph
#include "font_atlas.hpp"

#include "fetched_files.hpp"

#include "gl.hpp"

#include <normlab/base/text.hpp>

#include <imgui_internal.h>   // ImTextCharFromUtf8: the decoder ImGui draws with

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#include <imstb_truetype.h>   // the cmap lookup; Dear ImGui's own copy is private to it (static)

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace normlab::ui {

// [SECTION] Font files ------------------------------------------------------------------------

namespace {

// Every non-ASCII character the labs print beyond Latin-1, Latin Extended-A and Greek; □ is the
// box drawn for a character no font has.
constexpr const char* kMathSymbols =
    "∂‖√∑⊙≈≠−±×·…≤≥∞→⇄∈ℝ⌈⌉⌊⌋′✓✗⚠—–◐"
    "←∝▸"   // lecture mode: slide keys, captions; menu paths in tooltips
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁻ᵀ₀₁₂₃₄₅₆₇₈₉ᵢⱼ"
    "□";
constexpr ImWchar kBoxChar = 0x25A1;

// A font file's bytes, mapped once (only the pages read are loaded: Noto Sans CJK's .ttc is
// 20 MB) and kept for the program's life, and its faces' cmaps. Every face of the atlas reads the
// same bytes: Dear ImGui would copy a file per face it is given unless it owns them, so it is told
// it does while it adds and builds the faces, and that it does not right after (disown_font_files).
struct FontFile {
    unsigned char* bytes = nullptr;   // mmap'd, read-only
    int size = 0;
    std::map<int, stbtt_fontinfo> faces;
};

std::mutex g_files_mutex;
std::map<std::string, std::unique_ptr<FontFile>> g_files;

// The file, read once; null when it cannot be read.
FontFile* font_file(const std::string& path) {
    std::lock_guard<std::mutex> lock(g_files_mutex);
    auto& slot = g_files[path];
    if (!slot) {
        slot = std::make_unique<FontFile>();
        fetch_if_missing(path);   // the page downloads Noto Sans CJK's subset when a text needs it
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st {};
        if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size < (1 << 30)) {
            void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
            if (map != MAP_FAILED) {
                slot->bytes = static_cast<unsigned char*>(map);
                slot->size = static_cast<int>(st.st_size);
            }
        }
        if (fd >= 0) ::close(fd);
    }
    return slot->size > 0 ? slot.get() : nullptr;
}

const stbtt_fontinfo* font_face(const std::string& path, int index) {
    FontFile* file = font_file(path);
    if (file == nullptr) return nullptr;
    std::lock_guard<std::mutex> lock(g_files_mutex);
    if (const auto it = file->faces.find(index); it != file->faces.end()) return &it->second;
    const int offset = stbtt_GetFontOffsetForIndex(file->bytes, index);
    stbtt_fontinfo info{};
    if (offset < 0 || stbtt_InitFont(&info, file->bytes, offset) == 0) return nullptr;
    return &file->faces.emplace(index, info).first->second;
}

// A font's em in pixels when ImGui builds it at 1 px (its ascent − descent scaled to 1 px): DejaVu's
// is 0.86, Noto Sans CJK's 0.69 (its ascent and descent leave room for stacked marks).
float em_scale(const std::string& path, int index) {
    const stbtt_fontinfo* face = font_face(path, index);
    return face == nullptr ? 1.0f : stbtt_ScaleForPixelHeight(face, 1.0f) / stbtt_ScaleForMappingEmToPixels(face, 1.0f);
}

}  // namespace

std::string cjk_font_path(bool bold) {
    const char* dir = std::getenv("NORMLAB_CJK_FONTS");
    return std::string(dir != nullptr && *dir != '\0' ? dir : "/usr/share/fonts/opentype/noto") +
           (bold ? "/NotoSansCJK-Bold.ttc" : "/NotoSansCJK-Regular.ttc");
}

int han_face(Language lang) { return lang == Language::Ko ? 1 : 2; }   // the .ttc's faces: JP, KR, SC, TC, HK

bool font_has_glyph(const std::string& path, int index, char32_t cp) {
    const stbtt_fontinfo* face = font_face(path, index);
    return face != nullptr && stbtt_FindGlyphIndex(face, static_cast<int>(cp)) != 0;
}

// [SECTION] Faces -------------------------------------------------------------------------------

ImFont* add_face(ImFontAtlas& atlas, bool bold, float size, const ImWchar* base, const std::vector<ImWchar>& extra,
                 Language han, std::deque<ImVector<ImWchar>>& keep, std::vector<ImWchar>& no_font,
                 std::vector<ImWchar>& no_cjk, const ImFontConfig* sampling) {
    const std::string dejavu = bold ? kDejaVuBoldPath : kDejaVuSansPath, cjk = cjk_font_path(bold);
    const int face = han_face(han);
    ImFontGlyphRangesBuilder latin;
    latin.AddRanges(base);
    std::vector<ImWchar> from_cjk, beyond;
    for (const ImWchar c : extra) (font_has_glyph(dejavu, 0, c) ? latin.AddChar(c) : beyond.push_back(c));
    const bool have_cjk = !beyond.empty() && font_face(cjk, face) != nullptr;   // read only when needed
    for (const ImWchar c : beyond) {
        if (!have_cjk) {
            no_cjk.push_back(c);   // Noto Sans CJK has nearly every character DejaVu lacks
        } else {
            (font_has_glyph(cjk, face, c) ? from_cjk : no_font).push_back(c);
        }
    }
    ImVector<ImWchar>& ranges = keep.emplace_back();
    latin.BuildRanges(&ranges);
    FontFile* file = font_file(dejavu);
    ImFontConfig config;
    config.OversampleH = sampling ? sampling->OversampleH : 2;
    config.OversampleV = sampling ? sampling->OversampleV : 1;
    config.PixelSnapH = sampling ? sampling->PixelSnapH : true;
    ImFont* font = atlas.AddFontFromMemoryTTF(file->bytes, file->size, size, &config, ranges.Data);   // owned: not copied
    if (from_cjk.empty()) return font;
    ImFontGlyphRangesBuilder wide;
    for (const ImWchar c : from_cjk) wide.AddChar(c);
    ImVector<ImWchar>& cjk_ranges = keep.emplace_back();
    wide.BuildRanges(&cjk_ranges);
    FontFile* cjk_file = font_file(cjk);
    ImFontConfig merge;
    merge.SizePixels = size * em_scale(dejavu, 0) / em_scale(cjk, face);   // the same em as DejaVu's
    merge.MergeMode = true;
    merge.FontNo = face;
    merge.OversampleH = 1;
    merge.PixelSnapH = config.PixelSnapH;
    atlas.AddFontFromMemoryTTF(cjk_file->bytes, cjk_file->size, merge.SizePixels, &merge, cjk_ranges.Data);
    return font;
}

void disown_font_files(ImFontAtlas& atlas) {
    for (ImFontConfig& config : atlas.ConfigData) config.FontDataOwnedByAtlas = false;
}

std::vector<ImWchar> dropped_glyphs(const ImFont& font, const std::vector<ImWchar>& wanted) {
    std::vector<ImWchar> dropped;
    for (const ImWchar c : wanted)
        if (font.FindGlyphNoFallback(c) == nullptr) dropped.push_back(c);
    return dropped;
}

void box_fallback(ImFont& font) {
    const ImFontGlyph* box = font.FindGlyphNoFallback(kBoxChar);
    if (box == nullptr) return;
    font.FallbackChar = kBoxChar;
    font.FallbackGlyph = box;
    font.FallbackAdvanceX = box->AdvanceX;
    for (int i = 0; i < font.IndexLookup.Size; ++i)
        if (font.IndexLookup[i] == static_cast<ImWchar>(-1)) font.IndexAdvanceX[i] = box->AdvanceX;
}


// [SECTION] load_fonts --------------------------------------------------------------------------

namespace {

// One face to build: which font, its size, its tier's characters.
struct FaceSpec {
    ImFont** slot;
    bool bold;
    float size;
    Fonts::Tier tier;
};

std::vector<FaceSpec> face_specs(Fonts& fonts, int px) {
    const auto size = static_cast<float>(px);
    fonts.large = std::make_shared<Fonts>();
    Fonts& large = *fonts.large;
    large.px = static_cast<int>(std::round(kLargeFontScale * size));
    const auto big = static_cast<float>(large.px);
    const float caption = std::max(size, static_cast<float>(kSlideCaptionMinPx));
    // The first face is ImGui's default font.
    return {{&fonts.regular, false, size, Fonts::Ui},
            {&fonts.bold, true, size, Fonts::Ui},
            {&fonts.heading, true, std::round(1.15f * size), Fonts::Ui},
            {&fonts.small, false, std::round(0.8f * size), Fonts::Ui},
            {&large.regular, false, big, Fonts::Big},
            {&large.bold, true, big, Fonts::Big},
            {&large.heading, true, std::round(1.15f * big), Fonts::Big},
            {&large.small, false, std::round(0.8f * big), Fonts::Big},
            {&fonts.slide_caption, false, caption, Fonts::Big},
            {&fonts.slide_title, true, std::round(1.25f * caption), Fonts::Big}};
}

// The characters of the active catalog's texts beyond the base ranges.
void add_catalog_characters(Fonts& fonts) {
    const Catalog* catalog = active_catalog();
    if (catalog == nullptr) return;
    for (const auto& entry : catalog->texts) {
        const char* s = entry.second.c_str();
        const char* end = s + entry.second.size();
        while (s < end) {
            unsigned int c = 0;
            s += ImTextCharFromUtf8(&c, s, end);
            if (c >= 0x80 && c <= 0xFFFF) fonts.wanted[Fonts::Ui].insert(static_cast<ImWchar>(c));
        }
    }
}

// Builds every face with the tiers' characters (those in the base ranges skipped); false when
// the texture is over the renderer's limit or a glyph was dropped.
bool build_faces(Fonts& fonts, const std::vector<FaceSpec>& specs, std::array<std::vector<ImWchar>, 2>& extra,
                 bool widest, std::vector<ImWchar>& no_font, std::vector<ImWchar>& no_cjk) {
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    atlas.Clear();
    fonts.ranges.clear();
    for (const FaceSpec& f : specs)
        *f.slot = add_face(atlas, f.bold, f.size, fonts.glyphs.Data, extra[f.tier], fonts.han, fonts.ranges, no_font, no_cjk);
    atlas.TexDesiredWidth = widest ? fonts.max_texture_px : 0;   // 0: ImGui's rule, at most 4096 wide
    const bool built = atlas.Build();
    disown_font_files(atlas);   // the files stay ours (FontFile)
    if (!built) return false;
    fonts.atlas_w = atlas.TexWidth;
    fonts.atlas_h = atlas.TexHeight;
    if (atlas.TexWidth > fonts.max_texture_px || atlas.TexHeight > fonts.max_texture_px) return false;
    const std::set<ImWchar> unavailable(no_font.begin(), no_font.end()), no_cjk_file(no_cjk.begin(), no_cjk.end());
    for (const FaceSpec& f : specs)   // a character no font has (or Noto's missing file) was never asked for
        for (const ImWchar c : dropped_glyphs(**f.slot, extra[f.tier]))
            if (unavailable.count(c) == 0 && no_cjk_file.count(c) == 0) return false;
    return true;
}

std::string named_characters(const std::vector<ImWchar>& chars) {
    std::string s;
    for (std::size_t i = 0; i < chars.size() && i < 5; ++i) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(chars[i]));
        s += (i > 0 ? ", " : "") + encode_utf8(chars[i]) + " (" + code + ")";
    }
    return chars.size() > 5 ? s + " …" : s;
}

}  // namespace

void load_fonts(Fonts& fonts, int px) {
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    fonts.px = px;
    fonts.warning.clear();
    fonts.stale = false;
    if (fonts.max_texture_px <= 0) {
        GLint max_texture = 0;
        if (glfwGetCurrentContext() != nullptr) glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
        fonts.max_texture_px = max_texture > 0 ? static_cast<int>(max_texture) : 8192;
    }
    if (font_file(kDejaVuSansPath) == nullptr || font_file(kDejaVuBoldPath) == nullptr) {
        atlas.Clear();
        fonts.regular = fonts.bold = fonts.heading = fonts.small = fonts.slide_caption = fonts.slide_title =
            atlas.AddFontDefault();
        fonts.large.reset();
        fonts.warning = tr("DejaVu Sans not found (install fonts-dejavu-core): Greek and math symbols cannot be shown");
        atlas.Build();
        return;
    }
    fonts.glyphs.clear();
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(atlas.GetGlyphRangesDefault());   // Basic Latin + Latin-1
    const ImWchar latin_ext_a_and_greek[] = {0x0100, 0x017F, 0x0370, 0x03FF, 0};   // ā; α..ω
    builder.AddRanges(latin_ext_a_and_greek);
    builder.AddText(kMathSymbols);
    builder.BuildRanges(&fonts.glyphs);
    add_catalog_characters(fonts);

    // The tiers' characters beyond the base ranges; on a failed build, the Big tier's go first,
    // then the user's characters in the Ui tier (the catalog's stay), then all.
    std::array<std::vector<ImWchar>, 2> extra;
    const auto in_base = [&](ImWchar c) {
        for (int i = 0; fonts.glyphs[i] != 0; i += 2)
            if (c >= fonts.glyphs[i] && c <= fonts.glyphs[i + 1]) return true;
        return false;
    };
    for (int t = 0; t < 2; ++t)
        for (const ImWchar c : fonts.wanted[t])
            if (!in_base(c) && fonts.no_font.count(c) == 0) extra[t].push_back(c);
    const std::vector<FaceSpec> specs = face_specs(fonts, px);
    std::vector<ImWchar> no_font, no_cjk, left_out;
    for (int attempt = 0;; ++attempt) {   // then as wide as the renderer allows; then fewer characters
        no_font.clear(), no_cjk.clear();
        if (build_faces(fonts, specs, extra, attempt > 0, no_font, no_cjk) || attempt == 4) break;
        if (attempt == 0) continue;
        std::vector<ImWchar>& cut = attempt == 1 ? extra[Fonts::Big] : extra[Fonts::Ui];
        if (attempt == 2) {   // keep the catalog's characters
            Fonts catalog_only;
            add_catalog_characters(catalog_only);
            std::vector<ImWchar> keep;
            for (const ImWchar c : cut) (catalog_only.wanted[Fonts::Ui].count(c) != 0 ? keep : left_out).push_back(c);
            cut = keep;
        } else {
            left_out.insert(left_out.end(), cut.begin(), cut.end());
            cut.clear();
        }
    }
    for (ImFont* font : atlas.Fonts) box_fallback(*font);

    std::sort(no_font.begin(), no_font.end());
    no_font.erase(std::unique(no_font.begin(), no_font.end()), no_font.end());
    std::vector<ImWchar> fresh;
    for (const ImWchar c : no_font)
        if (fonts.no_font.insert(c).second) fresh.push_back(c);
    if (!fresh.empty()) fonts.notice = tr("No font has {0}: drawn as □", named_characters(fresh));
    if (!no_cjk.empty()) {
        // In English on screen: without the font a Korean or Chinese sentence would be boxes
        // itself (the terminal gets the translation, main.cpp).
#ifdef __EMSCRIPTEN__
        fonts.warning = tr_later("The Korean and Chinese font could not be downloaded: their text is drawn as □ (reload the page to try again)");
#else
        fonts.warning = tr_later("Noto Sans CJK not found (install fonts-noto-cjk): Korean, Chinese and Japanese text is drawn as □");
#endif
    }
    if (!left_out.empty())
        fonts.warning = tr("The font atlas is at the renderer's limit ({0} px): {1} characters drawn as □",
                           fonts.max_texture_px, static_cast<int>(left_out.size()));
}

// [SECTION] Glyph watch -------------------------------------------------------------------------

namespace {
Fonts* g_watched = nullptr;
int g_new_since_build = 0;
}  // namespace

void watch_glyphs(Fonts* fonts) {
    g_watched = fonts;
    g_new_since_build = 0;
}

void note_drawn_text(const ImFont* font, const char* begin, const char* end) {
    Fonts* fonts = g_watched;
    if (fonts == nullptr || font == nullptr || begin == nullptr) return;
    if (end == nullptr) end = begin + std::strlen(begin);
    if (std::all_of(begin, end, [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return;
    const Fonts* large = fonts->large.get();
    Fonts::Tier tier = Fonts::Ui;
    if (font == fonts->slide_caption || font == fonts->slide_title ||
        (large != nullptr && (font == large->regular || font == large->bold || font == large->heading || font == large->small)))
        tier = Fonts::Big;
    else if (font != fonts->regular && font != fonts->bold && font != fonts->heading && font != fonts->small)
        return;
    if (!fonts->stale) g_new_since_build = 0;
    for (const char* s = begin; s < end;) {
        unsigned int c = 0;
        s += ImTextCharFromUtf8(&c, s, end);
        if (c < 0x80 || c > 0xFFFF || font->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr) continue;
        const auto w = static_cast<ImWchar>(c);
        if (fonts->no_font.count(w) != 0 || fonts->wanted[tier].count(w) != 0) continue;
        if (g_new_since_build >= kMaxNewGlyphs || fonts->wanted[tier].size() >= kMaxWantedGlyphs) {
            fonts->no_font.insert(w);   // beyond the cap: a box, said once
            fonts->notice = tr("More new characters than the font atlas takes at once ({0}, at most {1} in all): the rest are drawn as □",
                               kMaxNewGlyphs, static_cast<int>(kMaxWantedGlyphs));
            continue;
        }
        fonts->wanted[tier].insert(w);
        fonts->stale = true;
        ++g_new_since_build;
    }
}

}  // namespace normlab::ui
