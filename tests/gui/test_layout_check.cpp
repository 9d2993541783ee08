// The layout checker (app/kit/layout_check.hpp) on windows built to have, or not have, a problem:
// Dear ImGui runs headless (no window, no GL) and this program links the AddText hook the app
// links (normlab::text_hook), so the texts are recorded exactly as in `normlab --check-layout`.
#include "layout_check.hpp"
#include "plot_view.hpp"
#include "theme_fonts.hpp"
#include "ui_util.hpp"

#include "headless_imgui.hpp"

#include <gtest/gtest.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace normlab::ui {
namespace {

class LayoutCheck : public ::testing::Test {
protected:
    void SetUp() override {
        ImGuiIO& io = create_headless_imgui();
        load_fonts(fonts, 20);
        build_font_atlas(io);
    }
    void TearDown() override { ImGui::DestroyContext(); }

    // Three frames of a window 400 × 300 at (0, 0) holding `body`, the last one recorded.
    std::vector<TextBox> record(const std::function<void()>& body) {
        std::vector<TextBox> texts;
        for (int frame = 0; frame < 3; ++frame) {
            ImGui::NewFrame();
            if (frame == 2) start_text_record();
            ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
            ImGui::SetNextWindowSize(ImVec2(400.0f, 300.0f));
            ImGui::Begin("page", nullptr, ImGuiWindowFlags_NoTitleBar);
            body();
            ImGui::End();
            if (frame == 2) texts = stop_text_record();
            ImGui::Render();
        }
        return texts;
    }

    static LayoutReport report_of(const std::vector<TextBox>& texts) {
        LayoutReport report;
        add_problems(report, {"test", 0, "400x300", 1.0f, "light"}, texts);
        return report;
    }

    Fonts fonts;
};

TEST_F(LayoutCheck, TwoTextsDrawnOverEachOtherAreAnOverlap) {
    const LayoutReport report = report_of(record([] {
        ImGui::SetCursorPos(ImVec2(20.0f, 20.0f));
        ImGui::TextUnformatted("first text");
        ImGui::SetCursorPos(ImVec2(40.0f, 26.0f));
        ImGui::TextUnformatted("second text");
    }));
    ASSERT_EQ(report.overlaps.size(), 1u);
    EXPECT_EQ(report.overlaps[0].texts[0].text, "first text");
    EXPECT_EQ(report.overlaps[0].texts[1].text, "second text");
    EXPECT_TRUE(report.clipped.empty());
    const nlohmann::json json = nlohmann::json::parse(report_json(report));
    ASSERT_EQ(json["overlaps"].size(), 1u);
    EXPECT_EQ(json["overlaps"][0]["texts"], nlohmann::json({"first text", "second text"}));
    EXPECT_EQ(json["overlaps"][0]["size"], "400x300");
    EXPECT_EQ(json["overlaps"][0]["lab"], "test");
    EXPECT_TRUE(json["clipped"].empty());
}

TEST_F(LayoutCheck, TextsOneLineApartAreNot) {
    const LayoutReport report = report_of(record([] {
        ImGui::TextUnformatted("first text");
        ImGui::TextUnformatted("second text");
        ImGui::SameLine();
        ImGui::TextUnformatted("beside it");
    }));
    EXPECT_TRUE(report.overlaps.empty());
    EXPECT_TRUE(report.clipped.empty());
    EXPECT_EQ(report_text(report), "layout ok: 1 page, no overlap, nothing clipped, no number split, no text over data\n");
}

TEST_F(LayoutCheck, SliderLabelAndValueCount) {
    // A slider's value and its label are texts too (drawn by Dear ImGui itself).
    const std::vector<TextBox> texts = record([] {
        static float v = 0.5f;
        ImGui::SetNextItemWidth(150.0f);
        ImGui::SliderFloat("delta", &v, 0.0f, 1.0f, "%.2f");
    });
    std::vector<std::string> words;
    for (const TextBox& t : texts)
        if (!t.grab && !t.backdrop) words.push_back(t.text);
    EXPECT_EQ(words, (std::vector<std::string>{"0.50", "delta"}));
}

TEST_F(LayoutCheck, ASliderGrabUnderItsValueGetsABackdrop) {
    // At 0.5 the grab sits in the middle of the frame, under the centred value: the hook draws
    // a backdrop between them, so the checker finds nothing.
    const std::vector<TextBox> texts = record([] {
        static float v = 0.5f;
        ImGui::SetNextItemWidth(150.0f);
        ImGui::SliderFloat("delta", &v, 0.0f, 1.0f, "%.2f");
    });
    const auto count = [&](bool TextBox::*kind) {
        return std::count_if(texts.begin(), texts.end(), [&](const TextBox& t) { return t.*kind; });
    };
    EXPECT_EQ(count(&TextBox::grab), 1);
    EXPECT_EQ(count(&TextBox::backdrop), 1);
    EXPECT_TRUE(overlapping_texts(texts).empty());
}

TEST_F(LayoutCheck, AGrabOverATextWithoutBackdropIsAnOverlap) {
    // A grab-coloured rect, then something else drawn (the grab is no longer the last thing),
    // then a text over it: no backdrop, so the checker reports the grab and the text.
    const std::vector<TextBox> texts = record([] {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(p, ImVec2(p.x + 20.0f, p.y + 20.0f), ImGui::GetColorU32(ImGuiCol_SliderGrab));
        dl->AddRectFilled(ImVec2(p.x + 100.0f, p.y), ImVec2(p.x + 110.0f, p.y + 10.0f), IM_COL32(1, 2, 3, 255));
        dl->AddText(p, ImGui::GetColorU32(ImGuiCol_Text), "hidden");
        ImGui::Dummy(ImVec2(120.0f, 20.0f));
    });
    const auto pairs = overlapping_texts(texts);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(texts[pairs[0].first].text, "[slider grab]");
    EXPECT_EQ(texts[pairs[0].second].text, "hidden");
}

TEST_F(LayoutCheck, TextPastAChildWithoutScrollBarIsClipped) {
    const LayoutReport report = report_of(record([] {
        ImGui::BeginChild("narrow", ImVec2(120.0f, 100.0f), true, ImGuiWindowFlags_NoScrollbar);
        ImGui::TextUnformatted("a sentence far wider than this little box");
        ImGui::EndChild();
    }));
    EXPECT_TRUE(report.overlaps.empty());
    ASSERT_GE(report.clipped.size(), 1u);
    EXPECT_EQ(report.clipped[0].texts[0].text, "a sentence far wider than this little box");
}

TEST_F(LayoutCheck, TextBelowAScrollingChildIsNot) {
    // Lines past the bottom of a child with a vertical scroll bar can be scrolled to.
    const LayoutReport report = report_of(record([] {
        ImGui::BeginChild("tall", ImVec2(200.0f, 100.0f), true);
        for (int i = 0; i < 12; ++i) ImGui::Text("line %d", i);
        ImGui::EndChild();
    }));
    EXPECT_TRUE(report.overlaps.empty());
    EXPECT_TRUE(report.clipped.empty()) << report_text(report);
}

// A table that must be read whole (record_whole_block: the Invariance lab's Table 1) wider than
// its panel: a finding even where the panel's sideways scroll bar could reach its last columns;
// the same table where it fits is none.
TEST_F(LayoutCheck, ATableThatScrollsSidewaysIsClipped) {
    for (const float table_w : {500.0f, 150.0f}) {
        const LayoutReport report = report_of(record([table_w] {
            ImGui::BeginChild("panel", ImVec2(200.0f, 150.0f), true, ImGuiWindowFlags_HorizontalScrollbar);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            ImGui::GetWindowDrawList()->AddText(p, ImGui::GetColorU32(ImGuiCol_Text), "1.9e-16");
            ImGui::Dummy(ImVec2(table_w, 60.0f));
            record_whole_block("table_1", ImVec4(p.x, p.y, p.x + table_w, p.y + 60.0f));
            ImGui::EndChild();
        }));
        EXPECT_TRUE(report.overlaps.empty()) << report_text(report);
        if (table_w > 200.0f) {
            ASSERT_EQ(report.clipped.size(), 1u) << report_text(report);
            EXPECT_NE(report.clipped[0].texts[0].text.find("[table table_1: 500 px wide in "), std::string::npos)
                << report.clipped[0].texts[0].text;
        } else {
            EXPECT_TRUE(report.clipped.empty()) << report_text(report);
        }
    }
}

TEST_F(LayoutCheck, ATableColumnTooNarrowClipsItsCells) {
    const LayoutReport report = report_of(record([] {
        if (ImGui::BeginTable("t", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("a cell whose text is wide");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("b");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("c");
            ImGui::EndTable();
        }
    }));
    ASSERT_EQ(report.clipped.size(), 1u) << report_text(report);
    EXPECT_EQ(report.clipped[0].texts[0].text, "a cell whose text is wide");
}

TEST_F(LayoutCheck, ContentPastAnEdgeWithoutScrollBarIsReportedEvenUndrawn) {
    // Items wholly right of the window are culled (never drawn); the window is reported.
    const LayoutReport report = report_of(record([] {
        ImGui::Dummy(ImVec2(900.0f, 20.0f));
        ImGui::TextUnformatted("visible");
    }));
    ASSERT_EQ(report.clipped.size(), 1u) << report_text(report);
    EXPECT_TRUE(report.clipped[0].texts[0].whole_window);
    EXPECT_NE(report.clipped[0].texts[0].text.find("[content of page"), std::string::npos);
}

TEST_F(LayoutCheck, APlotTitleWiderThanItsFigureIsClipped) {
    Plot plot;
    // A number never breaks (base/line_break.hpp): a title of one long number cannot wrap.
    plot.title = "3.1415926535897932384626433832795028841971693993751058209749445923078164";
    plot.x.label = "x";
    plot.y.label = "y";
    Series s;
    s.label = "data";
    s.x = {0.0, 1.0, 2.0};
    s.y = {1.0, 3.0, 2.0};
    plot.series.push_back(s);
    PlotView view;
    const LayoutReport report = report_of(record([&] { draw_plot(view, plot, fonts, ImVec2(300.0f, 220.0f)); }));
    bool title_cut = false;
    for (const LayoutProblem& p : report.clipped) title_cut = title_cut || p.texts[0].text == plot.title;
    EXPECT_TRUE(title_cut) << report_text(report);
    // The same figure with a short title: nothing is cut, nothing overlaps.
    plot.title = "Short";
    const LayoutReport fine = report_of(record([&] { draw_plot(view, plot, fonts, ImVec2(300.0f, 220.0f)); }));
    EXPECT_TRUE(fine.clipped.empty()) << report_text(fine);
    EXPECT_TRUE(fine.overlaps.empty()) << report_text(fine);
}

// Dear ImGui's own word wrap breaks after '.': a number wrapped there is a "split number". The
// app breaks every wrapped text itself (screen_text.hpp, wrap_lines): at every width where Dear
// ImGui's breaks split the number, the app's keep it whole, and the recorded frame is clean.
TEST_F(LayoutCheck, ANumberWrappedAcrossLinesIsASplitNumber) {
    const std::string text = "max |y - y(d=1)| = 9.486e-07";
    const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];   // the windows' font
    const auto imgui_ends = [&](float w) {   // where Dear ImGui 1.86's RenderText ends its lines
        std::vector<std::size_t> ends;
        for (const char* s = text.c_str(); s < text.c_str() + text.size();) {
            const char* eol = font.CalcWordWrapPositionA(1.0f, s, text.c_str() + text.size(), w);
            if (eol == s) ++eol;
            ends.push_back(static_cast<std::size_t>(eol - text.c_str()));
            for (s = eol; *s == ' ';) ++s;
        }
        return ends;
    };
    int widths = 0;   // widths at which Dear ImGui splits the number
    for (float w = 400.0f; w > 40.0f; w -= 1.0f) {
        if (number_split_by(text, imgui_ends(w)) != "9.|486e-07") continue;
        ++widths;
        EXPECT_EQ(split_number(font, font.FontSize, text, w), "") << w;
        const LayoutReport report = report_of(record([&] {
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
            ImGui::TextUnformatted(text.c_str());
            ImGui::PopTextWrapPos();
        }));
        EXPECT_TRUE(report.clean()) << w << ": " << report_text(report);
        const LayoutReport flowed = report_of(record([&] { flow_text(text, ImVec4(0, 0, 0, 1), w); }));
        EXPECT_TRUE(flowed.clean()) << report_text(flowed);
    }
    EXPECT_GT(widths, 0);
    EXPECT_EQ(number_split_by(text, {21}), "9.|486e-07");   // the rule itself
    EXPECT_EQ(number_split_by(text, {22}), "9.4|86e-07");
    EXPECT_EQ(number_split_by(text, {19}), "");              // before the number: no split
    // A break at a space between numbers is no split.
    EXPECT_EQ(split_number(font, font.FontSize, "1.5 2.5 3.5 4.5", 30.0f), "");
}

// A text drawn across a figure's curve is "over data"; its bars' value labels are not (they label
// what they sit on), nor is the figure with the text moved off it.
TEST_F(LayoutCheck, ATextOverACurveIsOverData) {
    Plot plot;
    plot.name = "demo";
    Series line;
    line.label = "rising";
    line.x = {0.0, 1.0, 2.0};
    line.y = {0.0, 1.0, 2.0};
    plot.series.push_back(line);
    Series bars;
    bars.kind = SeriesKind::Bars;
    bars.x = {0.5, 1.5};
    bars.y = {-1.0, 1.0};
    bars.bar_labels = {"−1", "1"};
    plot.series.push_back(bars);
    plot.legend = false;
    PlotView view;
    const auto page = [&](float text_y) {
        return report_of(record([&] {
            const ImVec2 at = ImGui::GetCursorScreenPos();
            draw_plot(view, plot, fonts, ImVec2(380.0f, 280.0f));
            ImGui::SetCursorScreenPos(ImVec2(at.x + 90.0f, at.y + text_y));
            ImGui::TextUnformatted("note");
        }));
    };
    const LayoutReport over = page(132.0f);   // the line passes under it
    ASSERT_EQ(over.over_data.size(), 1u) << report_text(over);
    EXPECT_EQ(over.over_data[0].texts[0].text, "note");
    EXPECT_FALSE(over.clean());
    EXPECT_NE(report_json(over).find("\"over_data\": [\n"), std::string::npos);
    const LayoutReport below = page(284.0f);   // under the figure
    EXPECT_TRUE(below.over_data.empty()) << report_text(below);
}

// "dropped": a figure's bar value drawn in a large figure and left out of a small one (too wide
// for the room) is named; tick labels, which a small figure thins, are not; nor are the texts of
// a figure the small page does not draw.
TEST_F(LayoutCheck, AValueShownLargeButNotSmallIsDropped) {
    Plot plot;
    plot.name = "bars";
    Series bars;
    bars.kind = SeriesKind::Bars;
    bars.x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};   // ten: too many for the small figure even in the smallest label font
    bars.y = {-1.25, 1.5, -2.0, 2.5, 1.0, -0.5, 0.75, -1.5, 2.25, -0.25};
    bars.bar_labels = {"−1.250", "1.500", "−2.000", "2.500", "1.000", "−0.500", "0.750", "−1.500", "2.250", "−0.250"};
    plot.series.push_back(bars);
    plot.legend = false;
    PlotView view;
    const auto figure = [&](float width) {
        return record([&] { draw_plot(view, plot, fonts, ImVec2(width, 280.0f)); });
    };
    const std::vector<TextBox> large = figure(760.0f), small = figure(120.0f);
    const std::vector<TextBox> dropped = dropped_texts(large, small);
    ASSERT_FALSE(dropped.empty());
    for (const TextBox& t : dropped) {
        EXPECT_EQ(t.figure, "bars");
        EXPECT_NE(std::find(bars.bar_labels.begin(), bars.bar_labels.end(), t.text), bars.bar_labels.end()) << t.text;
    }
    EXPECT_TRUE(dropped_texts(large, large).empty());
    EXPECT_TRUE(dropped_texts(large, {}).empty()) << "a figure not drawn drops nothing";
    LayoutReport report;
    report.dropped.push_back({{"test", 0, "400x300", 1.0f, "light"}, {dropped[0]}});
    EXPECT_FALSE(report.clean());
    EXPECT_NE(report_json(report).find("\"dropped\": [\n"), std::string::npos);
    EXPECT_NE(report_json(report).find("\"figure\":\"bars\""), std::string::npos);
}

}  // namespace
}  // namespace normlab::ui
