// The layout checker (`normlab --check-layout`, docs/ARCHITECTURE.md): every text the app draws
// is recorded with its box while a frame is recorded, then each pair of overlapping texts and
// each text cut off by its container or the window is reported.
//
// Texts are recorded by the app's -Wl,--wrap of ImDrawList::AddText (text_record_hook.cpp) and by
// the plot view (plot_record.hpp); a text over a slider's grab gets a backdrop from the same
// hook. How and why: docs/ARCHITECTURE.md, Conventions ("Layout").
//
// [SECTION] Recording
// [SECTION] Slider grabs
// [SECTION] Checking
// [SECTION] Report
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace normlab::ui {

// [SECTION] Recording -----------------------------------------------------------------------

struct TextBox {
    std::string text;
    ImVec4 box;            // the whole text (x0, y0, x1, y1), screen px, trailing blanks left out
    ImVec4 visible;        // the part of it inside the clip rect it was drawn under (may be empty)
    bool cut = false;      // part of it is outside that clip rect where no scroll bar reaches it
    std::string window;    // the ImGui window it was drawn in
    bool whole_window = false;   // not a text: a window whose content runs off (stop_text_record)
    bool grab = false;           // not a text: a slider's grab ("[slider grab]")
    bool backdrop = false;       // not a text: a backdrop drawn under a slider's value over its grab
    std::string split;           // a number that wrapping broke across lines, "9.|486e−07" ("": none)
    bool labels_data = false;    // a label of the data under it (a bar's value, a heat cell's, a reference line's)
    std::string figure;          // a figure's label or value (not a tick label or title line): the figure's name
};

// Between start and stop (of one frame: stop after the last ImGui::End, before ImGui::Render)
// texts are recorded; stop also returns, as pseudo-texts ("[content of WINDOW …]", cut), each
// window whose content runs past an edge that no scroll bar reaches.
void start_text_record();
bool text_recording();
std::vector<TextBox> stop_text_record();

// A figure's data as drawn (plot_view.cpp): a bar's or a heat cell's rect, a marker's box, or a
// stretch of a curve (segment: a to b), clipped to the figure's data area `clip`.
struct DataMark {
    ImVec2 a, b;
    bool segment = false;
    std::string figure;   // the figure's name
};
void record_data_rect(ImVec4 rect, const ImVec4& clip, const std::string& figure);
void record_data_segment(ImVec2 a, ImVec2 b, const ImVec4& clip, const std::string& figure);

// The data marks of the latest recorded frame (stop_text_record ends them too).
const std::vector<DataMark>& recorded_data();

// Records a text drawn at `box` under `clip` (screen px) in the current ImGui window; its blank
// ends are trimmed by the caller. `cut` is worked out here: the part outside `clip`, at an edge
// of a window that has a scroll bar across it, can be scrolled to; anything else is cut. With
// `frame` (a figure's rect), any part outside the frame is cut too.
// `labels_data`: the text labels the data under it (TextBox::labels_data).
// `figure`: the figure whose label or value it is (TextBox::figure).
void record_text(std::string_view text, ImVec4 box, ImVec4 clip, const ImVec4* frame = nullptr, bool labels_data = false,
                 std::string_view figure = {});

// A block that must be read whole (a table) drawn at `box` (screen px) in the current window:
// while a frame is recorded, one wider than the window shows (its panel scrolls it sideways: a
// column hidden until scrolled to) is recorded as a cut pseudo-text "[table NAME: W px wide in R
// px, scrolls sideways]", reported as clipped.
void record_whole_block(std::string_view name, ImVec4 box);

// What ImDrawList::AddText is about to draw: records it (font null: the draw list's; end null:
// up to the '\0'; fine_clip: AddText's optional extra clip rect).
void record_draw_list_text(const ImDrawList& dl, const ImFont* font, float size, ImVec2 pos, ImU32 col,
                           const char* begin, const char* end, float wrap_width, const ImVec4* fine_clip);

// [SECTION] Slider grabs --------------------------------------------------------------------

// What ImDrawList::AddRectFilled is about to draw (a, b: its corners; col its colour): a rect
// in the style's slider-grab colours is remembered as the grab (and recorded while a frame is).
void note_rect_filled(const ImDrawList& dl, ImVec2 a, ImVec2 b, ImU32 col);

// Before a text is drawn at `box` (screen px) in `dl`: where it meets the grab just drawn there,
// draws the backdrop under it (and records it). Forgets the grab either way.
void backdrop_over_grab(ImDrawList& dl, ImVec4 box);

// What ImDrawList::AddText is about to draw (as record_draw_list_text takes it): its box goes to
// backdrop_over_grab when a grab was just drawn in `dl`.
void before_draw_list_text(ImDrawList& dl, const ImFont* font, float size, ImVec2 pos, const char* begin,
                           const char* end, float wrap_width);

// [SECTION] Checking ------------------------------------------------------------------------

// Whether lines of `text` ending at the byte offsets `line_ends` split a number, by a rule of its
// own (a break without a space between digits, or between a digit and its point or exponent):
// the first such number with a '|' at the break ("9.|486e−07"), else "".
std::string number_split_by(std::string_view text, const std::vector<std::size_t>& line_ends);

// number_split_by for the app's word wrap (screen_text.hpp, wrap_lines: every text Dear ImGui wraps)
// of `text` drawn in `font` at `size` px within `wrap_width` px.
std::string split_number(const ImFont& font, float size, std::string_view text, float wrap_width);

// Pairs of texts whose visible parts overlap by more than a pixel each way (the same text drawn
// twice within 3 px, a shadow or halo, is one text), and each text that a slider grab overlaps
// where no backdrop lies under the whole text, as indices into `texts`.
std::vector<std::pair<std::size_t, std::size_t>> overlapping_texts(const std::vector<TextBox>& texts);

// [SECTION] Report --------------------------------------------------------------------------

// Which page a frame showed: a lab, or a slide of a lecture (slide ≥ 1), at what size and theme.
struct LayoutPage {
    std::string lab;
    int slide = 0;           // 1-based; 0: no lecture
    std::string size;        // "1024x768"
    float scale = 1.0f;      // the UI scale (--scale-ui)
    std::string theme;
};

struct LayoutProblem {
    LayoutPage page;
    std::vector<TextBox> texts;   // two for an overlap, one for a clip
};

struct LayoutReport {
    std::vector<LayoutProblem> overlaps, clipped;
    std::vector<LayoutProblem> split_numbers;   // a text with a number wrapped across lines
    std::vector<LayoutProblem> over_data;       // a text over a figure's data it does not label
    std::vector<LayoutProblem> dropped;         // a figure's label or value shown at the reference size, not here
    // Whether the report has no problem of any kind.
    bool clean() const {
        return overlaps.empty() && clipped.empty() && split_numbers.empty() && over_data.empty() && dropped.empty();
    }
    int pages = 0;           // pages checked
};

// Each text (not a label of data) whose visible box meets a data mark by more than a pixel each
// way, as indices into `texts` (one per text).
std::vector<std::size_t> texts_over_data(const std::vector<TextBox>& texts, const std::vector<DataMark>& data);

// The figure labels and values (TextBox::figure) of `reference` (the same page at a larger size)
// that `texts` lacks, in the figures both drew: each (figure, text) once (two curves' end labels
// of the same text that a smaller figure merges into one are still shown).
std::vector<TextBox> dropped_texts(const std::vector<TextBox>& reference, const std::vector<TextBox>& texts);

// Adds one page's overlaps, cut texts, split numbers and texts over data (`data`: its frame's
// marks) to the report.
void add_problems(LayoutReport& report, const LayoutPage& page, const std::vector<TextBox>& texts,
                  const std::vector<DataMark>& data = recorded_data());

// {"overlaps": [...], "clipped": [...], "split_numbers": [...], "over_data": [...], "dropped": [...]}: each entry names the lab (and slide), size, scale,
// theme, and its texts with their boxes ([x0, y0, x1, y1]) and what is visible of them.
std::string report_json(const LayoutReport& report);

// One line per problem, then a count; "layout ok: …" when there is none.
std::string report_text(const LayoutReport& report);

}  // namespace normlab::ui
