// Unit tests of the plot widget's and painter's pure helpers (app/kit/plot_view.hpp,
// app/render/plot_painter.hpp, app/render/plot_export.hpp).
#include "plot_export.hpp"
#include "plot_view.hpp"

#include <normlab/labs/invariance_lab.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace normlab::ui {
namespace {

// View ▸ Language switches live: a cached figure built in one language is rebuilt in the next,
// for the same key, and only then.
TEST(PlotView, CachedFigureIsRebuiltAfterTheLanguageChanges) {
    normlab::set_language(normlab::Language::En, normlab::Catalog{});
    normlab::ui::CachedFigure<int> cache;
    int builds = 0;
    const auto build = [&] {
        ++builds;
        normlab::Plot p;
        p.title = normlab::tr("Open");
        return p;
    };
    EXPECT_EQ(cache.get(1, build).title, "Open");
    EXPECT_EQ(cache.get(1, build).title, "Open");
    EXPECT_EQ(builds, 1);
    normlab::set_language(normlab::Language::Ko, normlab::parse_po("msgid \"Open\"\nmsgstr \"열기\"\n", "ko.po"));
    EXPECT_EQ(cache.get(1, build).title, "열기");
    EXPECT_EQ(cache.get(1, build).title, "열기");
    EXPECT_EQ(builds, 2);
    normlab::set_language(normlab::Language::En, normlab::Catalog{});
    EXPECT_EQ(cache.get(1, build).title, "Open");
    EXPECT_EQ(builds, 3);
}

TEST(PlotView, RotateMinus90TurnsRightwardTextUpward) {
    // SVG's rotate(−90) about the pivot: +x (right) becomes −y (up on screen).
    const ImVec2 p = rotate_about(ImVec2(13.0f, 20.0f), ImVec2(10.0f, 20.0f), -90.0);
    EXPECT_NEAR(p.x, 10.0f, 1e-5f);
    EXPECT_NEAR(p.y, 17.0f, 1e-5f);
    const ImVec2 below = rotate_about(ImVec2(10.0f, 22.0f), ImVec2(10.0f, 20.0f), -90.0);   // under the baseline
    EXPECT_NEAR(below.x, 12.0f, 1e-5f);                                                      // ends up right of it
    EXPECT_NEAR(below.y, 20.0f, 1e-5f);
}

TEST(PlotView, RotateZeroAndFullTurnKeepThePoint) {
    for (double deg : {0.0, 360.0}) {
        const ImVec2 p = rotate_about(ImVec2(3.0f, -4.0f), ImVec2(1.0f, 1.0f), deg);
        EXPECT_NEAR(p.x, 3.0f, 1e-5f);
        EXPECT_NEAR(p.y, -4.0f, 1e-5f);
    }
}

TEST(PlotView, TextTopLeftFromBaselineAnchor) {
    const Point2 at{100.0, 50.0};
    EXPECT_FLOAT_EQ(text_top_left(at, TextAnchor::Start, 40.0, 9.0).x, 100.0f);
    EXPECT_FLOAT_EQ(text_top_left(at, TextAnchor::Middle, 40.0, 9.0).x, 80.0f);
    EXPECT_FLOAT_EQ(text_top_left(at, TextAnchor::End, 40.0, 9.0).x, 60.0f);
    EXPECT_FLOAT_EQ(text_top_left(at, TextAnchor::End, 40.0, 9.0).y, 41.0f);
}

TEST(PlotView, PlotAsShownHidesByLabelAndFixesTheZoomedRanges) {
    Plot plot;
    plot.series = {palette_series(0, "LayerNorm", {1, 2}, {3, 4}), palette_series(1, "RMSNorm", {1, 2}, {5, 6})};
    PlotView view;
    view.hidden = {"RMSNorm"};
    view.range.x = AxisRange{Scale::Linear, 0.5, 1.5};
    const Plot shown = plot_as_shown(plot, view);
    EXPECT_TRUE(shown.series[0].visible);
    EXPECT_FALSE(shown.series[1].visible);
    ASSERT_TRUE(shown.x.min && shown.x.max);
    EXPECT_EQ(*shown.x.min, 0.5);
    EXPECT_EQ(*shown.x.max, 1.5);
    EXPECT_FALSE(shown.y.min || shown.y.max);
    // The exported ranges are exactly the zoomed ones.
    const AxisRange r = auto_range(shown, AxisId::X);
    EXPECT_EQ(r.lo, 0.5);
    EXPECT_EQ(r.hi, 1.5);
}

TEST(PlotView, PlotOnScreenFadesWhatExportsLeaveOut) {
    Plot plot;
    plot.series = {palette_series(0, "LayerNorm", {1, 2}, {3, 4}), palette_series(1, "RMSNorm", {1, 2}, {5, 6})};
    PlotView view;
    view.hidden = {"RMSNorm"};
    view.range.y = AxisRange{Scale::Linear, 0.0, 10.0};
    const Plot screen = plot_on_screen(plot, view), shown = plot_as_shown(plot, view);
    // On screen the hidden series stays visible but faded: one layout lists it, marked.
    EXPECT_TRUE(screen.series[1].visible);
    EXPECT_TRUE(screen.series[1].faded);
    EXPECT_FALSE(screen.series[0].faded);
    ASSERT_TRUE(screen.y.min && screen.y.max);
    EXPECT_EQ(*screen.y.max, 10.0);
    const PlotLayout L = layout_plot(screen, {0, 0, 720, 450});
    ASSERT_EQ(L.legend.size(), 2u);
    EXPECT_FALSE(L.legend[0].faded);
    EXPECT_TRUE(L.legend[1].faded);
    // Exports leave it out altogether, as before.
    EXPECT_FALSE(shown.series[1].visible);
    EXPECT_FALSE(shown.series[1].faded);
    EXPECT_EQ(layout_plot(shown, {0, 0, 720, 450}).legend.size(), 1u);
    EXPECT_EQ(to_svg(shown).find("RMSNorm"), std::string::npos);
    EXPECT_EQ(to_csv(screen), to_csv(shown));
}

TEST(PlotExport, FigurePathIsFileSafe) {
    EXPECT_EQ(figure_path("", "invariance_vs_delta", "png"), "invariance_vs_delta.png");
    EXPECT_EQ(figure_path("figs", "loss", "svg"), "figs/loss.svg");
    EXPECT_EQ(figure_path("", "a/b c", "csv"), "a_b_c.csv");
    EXPECT_EQ(figure_path("", "../x", "png"), "_._x.png");   // no way out of the folder
    EXPECT_EQ(figure_path("", "", "png"), "plot.png");
    EXPECT_EQ(figure_path("", "δ", "png"), "__.png");   // two UTF-8 bytes
}

TEST(PlotExport, UniqueFigureNames) {
    std::vector<Plot> plots(4);
    plots[0].name = "loss";
    plots[1].name = "loss";
    plots[3].name = "acc";
    EXPECT_EQ(unique_figure_names(plots), (std::vector<std::string>{"loss", "loss_2", "figure_3", "acc"}));
}

// Export all writes the tables too, in the four formats normlab-cli export --all writes them in,
// beside a file of the same name already there (kept, the new one numbered). Tables need no GL.
TEST(PlotExport, ExportAllWritesTablesInFourFormats) {
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "normlab_export_tables";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "invariance_table_paper.md") << "mine\n";
    FigureExport job({}, dir.string(), 2, {invariance_paper_table()});
    EXPECT_EQ(job.total(), 1u);
    while (!job.done()) job.step();
    EXPECT_EQ(job.written(), 1u);
    EXPECT_NE(job.status().find("Saved 0 figures (PNG 2× + SVG + CSV) and 1 table (SVG + CSV + Markdown + LaTeX)"),
              std::string::npos) << job.status();
    for (const char* ext : {"svg", "csv", "tex"}) EXPECT_TRUE(std::filesystem::exists(dir / ("invariance_table_paper." + std::string(ext))));
    EXPECT_TRUE(std::filesystem::exists(dir / "invariance_table_paper-2.md"));
    std::ifstream kept(dir / "invariance_table_paper.md");
    std::string first;
    std::getline(kept, first);
    EXPECT_EQ(first, "mine");
    EXPECT_EQ(FigureExport({}, dir.string(), 2).status(), "⚠ This lab has no figures to save");
}

}  // namespace
}  // namespace normlab::ui
