// The GPU lab (see gpu_lab.hpp).
//
// [SECTION] The runner and the sweep — made on first use; the sweep advanced a few ms per frame
// [SECTION] Figures                  — rebuilt when the results or the legend change
// [SECTION] Renderer panel           — which GL, and how it is timed
// [SECTION] Sweep panel              — rows, widths, repetitions, run / stop, progress
// [SECTION] Table and the claim      — one shape: GPU and CPU side by side; the paper's 7%–64%
// [SECTION] The lab window
// [SECTION] Other labs' overlay      — draw_gpu_norm_caption (the times: gpu_device.hpp)
#include "gpu_lab.hpp"

#include "gpu_caption.hpp"

#include "ui_util.hpp"

#include <normlab/scene/session.hpp>

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace normlab::ui {

namespace {

// A frame's share of the sweep: about half a 60 fps frame of work, and on a real GPU at most
// this much memory traffic issued (its timer results are read in later frames).
constexpr SweepBudget kFrameBudget{8.0, 2e9, false};

// The lab's one key, Run sweep (kRunSweep, defined once start_sweep is): its key, the button's
// label and Help ▸ Keyboard shortcuts read it.
extern const Action<GpuContext> kRunSweep;

// "Run sweep (R)"
std::string run_sweep_label() { return tr("Run sweep ({0})", key_label(kRunSweep.key)); }

// [SECTION] The runner and the sweep --------------------------------------------------------

SweepPlan plan_of(const GpuLabState& s) {
    SweepPlan plan;
    plan.rows = selected_rows(s);
    plan.cols = selected_cols(s);
    plan.reps = std::clamp(s.reps, kGpuLabMinReps, kGpuLabMaxReps);
    plan.cpu = s.cpu;
    plan.p = s.p;
    plan.eps = static_cast<float>(s.eps);
    return plan;
}

bool running(const GpuUi& ui) { return ui.sweep && !ui.sweep->done(); }

void start_sweep(GpuRunner& runner, const GpuLabState& s, GpuUi& ui) {
    SweepPlan plan = plan_of(s);
    plan.cpu = plan.cpu || !runner.available();   // the GPU kernels off: the CPU side alone
    if (plan.rows.empty() || plan.cols.empty()) return;
    ui.sweep = std::make_unique<GpuSweep>(runner, plan);
    ui.stopped_results.reset();
    ui.started = true;
    ++ui.generation;
}

void stop_sweep(GpuUi& ui) {
    if (!ui.sweep) return;
    // Keep what was measured (timer results still in flight are dropped with the sweep).
    ui.stopped_results = ui.sweep->results();
    ui.sweep.reset();
    ++ui.generation;
}

const BenchResults* results_of(const GpuUi& ui) {
    if (ui.sweep) return &ui.sweep->results();
    if (ui.stopped_results) return &*ui.stopped_results;
    return nullptr;
}

// The points the figures and the table are laid out by: the GPU's, or the CPU's where the GPU
// kernels were off.
const std::vector<BenchPoint>& shown_points(const BenchResults& r) { return r.gpu.empty() ? r.cpu : r.gpu; }

// The row counts that have results, ascending.
std::vector<int> measured_rows(const BenchResults& r) {
    std::vector<int> rows;
    for (const BenchPoint& p : shown_points(r))
        if (std::find(rows.begin(), rows.end(), p.rows) == rows.end()) rows.push_back(p.rows);
    std::sort(rows.begin(), rows.end());
    return rows;
}

// The rows the figures show: the session's choice when measured, else 1024 when measured, else the largest.
int shown_rows(const GpuLabState& s, const BenchResults& r) {
    const std::vector<int> rows = measured_rows(r);
    if (rows.empty()) return s.shown_rows;
    for (int want : {s.shown_rows, 1024})
        if (std::find(rows.begin(), rows.end(), want) != rows.end()) return want;
    return rows.back();
}

// The runner, with the session's sweep sized for its renderer the first time: seconds on llvmpipe
// or the CPU alone, 256 to 8192 rows and widths on a real GPU. Where the GPU kernels are off
// (WebGL2, no OpenGL 4.3) it is the runner that says why, and sweeps time the CPU kernels alone
// (gpu_sweep.hpp); null only when the GL context was lost (`why` says so; the lab's sweep
// stops, what it measured stays).
GpuRunner* lab_runner(GpuContext& ctx, std::string* why = nullptr) {
    GpuRunner* runner = gpu_runner(ctx.gpu, why);
    GpuUi& ui = ctx.ui;
    if (runner == nullptr && ctx.gpu.watch.lost()) stop_sweep(ui);
    if (runner == nullptr && !ctx.gpu.watch.lost() && ctx.gpu.runner) runner = ctx.gpu.runner.get();
    if (runner != nullptr && !ui.sized_for_renderer) {
        GpuLabState& s = ctx.session.gpu;
        const GpuLabState defaults =
            gpu_lab_default_state(!runner->available() || runner->timing() == TimingMethod::GlFinishCpuClock);
        std::copy(std::begin(defaults.rows_on), std::end(defaults.rows_on), s.rows_on);
        std::copy(std::begin(defaults.cols_on), std::end(defaults.cols_on), s.cols_on);
        s.reps = defaults.reps;
        ui.sized_for_renderer = true;
    }
    return runner;
}

const Action<GpuContext> kRunSweep{tr_later("Run sweep"), {'R'}, tr_later("run the sweep: time every kernel at every checked shape"), nullptr,
                       [](GpuContext& ctx) { start_sweep(*lab_runner(ctx), ctx.session.gpu, ctx.ui); },
                       [](GpuContext& ctx) { return lab_runner(ctx) != nullptr && !running(ctx.ui); }};

// [SECTION] Figures -------------------------------------------------------------------------

template <class Build>
const Plot& cached(GpuCachedPlot& cache, const GpuUi& ui, const PlotView& view, const BenchResults& r, int rows,
                   bool with_cpu, Build build) {
    std::string key = std::to_string(ui.generation) + "/" + std::to_string(r.gpu.size()) + "/" + std::to_string(r.cpu.size()) + "/" + std::to_string(rows) +
                      "/" + std::to_string(with_cpu);
    for (const std::string& h : view.hidden) key += "/" + h;
    return cache.get(key, build);
}

const Plot& bandwidth_plot(GpuUi& ui, const BenchResults& r, int rows, bool backward, bool with_cpu) {
    return cached(backward ? ui.backward_plot : ui.forward_plot, ui, backward ? ui.backward_view : ui.forward_view, r,
                  rows, with_cpu, [&] { return gpu_bandwidth_plot(r, backward, rows, with_cpu); });
}
const Plot& saved_plot(GpuUi& ui, const BenchResults& r, int rows) {
    return cached(ui.saved_plot, ui, ui.saved_view, r, rows, false, [&] { return gpu_time_saved_plot(r, rows); });
}

// [SECTION] Renderer panel ------------------------------------------------------------------

void draw_renderer_section(GpuContext& ctx, const GpuRunner* runner) {
    heading(ctx.fonts.heading, tr("Renderer"));
    push_wrap_at_edge();
    ImGui::Text("%s", ctx.info.renderer.c_str());
    ImGui::TextDisabled(tr("OpenGL %s"), ctx.info.gl_version.c_str());
    if (runner != nullptr && !runner->available()) {
        ImGui::TextColored(kErrorText, tr("✗ GPU kernels off: %s"), runner->error().c_str());
    } else if (runner != nullptr) {
        const bool software = runner->timing() == TimingMethod::GlFinishCpuClock;
        ImGui::TextColored(software ? kErrorText : kGoodText, "%s %s", software ? "⚠" : "✓",
                           std::string(describe(runner->timing())).c_str());
        tooltip(software
                    ? tr("Mesa's software renderer runs the compute shaders on this CPU's cores (compiled by LLVM). Its "
                      "GL_TIME_ELAPSED queries have been seen to read ~0 for compute work (not on every Mesa version: "
                      "docs/BENCHMARKS.md), so each run is bracketed by glFinish and timed with "
                      "std::chrono::steady_clock: the times include the dispatch overhead. "
                      "Here the \"GPU\" and the CPU share the same cores and memory, so the two are timed in turn, never at once.")
                    : tr("Each timed run sits between glBeginQuery / glEndQuery(GL_TIME_ELAPSED); the results are read "
                      "a frame or more later, so measuring never stalls a frame."));
    }
    ImGui::PopTextWrapPos();
}

// [SECTION] Sweep panel ---------------------------------------------------------------------

// A row of size checkboxes ("256", "512", …); false while the sweep runs (they are read at the start).
void size_checkboxes(const char* id, bool (&on)[kGpuLabSizeCount], bool enabled) {
    ImGui::PushID(id);
    ImGui::BeginDisabled(!enabled);
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (int i = 0; i < kGpuLabSizeCount; ++i) {
        const std::string label = std::to_string(kGpuLabSizes[i]);
        if (i > 0)
            same_line_if_fits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                                  ImGui::CalcTextSize(label.c_str()).x,
                              right);
        ImGui::Checkbox(label.c_str(), &on[i]);
    }
    ImGui::EndDisabled();
    ImGui::PopID();
}

void draw_sweep_section(GpuContext& ctx, GpuRunner* runner) {
    GpuLabState& s = ctx.session.gpu;
    GpuUi& ui = ctx.ui;
    heading(ctx.fonts.heading, tr("Sweep: rows × width"));
    const bool idle = !running(ui);
    ImGui::TextUnformatted(tr("rows R (cases)"));
    size_checkboxes("rows", s.rows_on, idle);
    tooltip(tr("How many rows (cases in a batch) each kernel normalizes. Every checked row count is timed with every "
            "checked width."));
    ImGui::TextUnformatted(tr("width C (features per row)"));
    size_checkboxes("cols", s.cols_on, idle);
    tooltip(tr("How many floats each row holds; the norm runs over each row. Widths that are multiples of 4 are "
            "read as vec4s."));
    ImGui::BeginDisabled(!idle);
    ImGui::SetNextItemWidth(8.0f * ImGui::GetFontSize());
    ImGui::SliderInt(tr("timed runs"), &s.reps, kGpuLabMinReps, kGpuLabMaxReps, "%d", ImGuiSliderFlags_AlwaysClamp);
    tooltip(tr("Timed runs of each kernel at each shape, after a warm-up run. The kernels take turns, one run each per "
            "round, so that a burst of other work on the machine slows them all alike; each one's median is shown."));
    const bool gpu_on = runner == nullptr || runner->available();
    bool cpu_shown = s.cpu || !gpu_on;   // the GPU kernels off: the CPU's are all there is
    ImGui::BeginDisabled(!gpu_on);
    ImGui::Checkbox(tr("CPU kernels too"), gpu_on ? &s.cpu : &cpu_shown);
    ImGui::EndDisabled();
    tooltip(tr("Also time core's float32 CPU kernels (normlab::fast, all threads: copy, LayerNorm, RMSNorm; there is "
            "no fast CPU pRMSNorm) at the same shapes: in the table, the time-saved figure and, when asked, the "
            "GB/s figures."));
    ImGui::EndDisabled();
    ImGui::TextDisabled(tr("pRMSNorm p = %.2f%%, k = ⌈C·p⌉; ε = %s"), 100.0 * s.p, format_number(s.eps, 2).c_str());
    tooltip(tr("pRMSNorm estimates the RMS from the first k = ⌈C·p⌉ entries of each row (the paper's p = 6.25%); "
            "ε sits inside the square root in all three norms."));

    const std::size_t shapes = selected_rows(s).size() * selected_cols(s).size();
    if (runner == nullptr) return;
    if (idle) {
        ImGui::BeginDisabled(shapes == 0);
        if (ImGui::Button((run_sweep_label() + "###run_sweep").c_str())) start_sweep(*runner, s, ui);
        ImGui::EndDisabled();
        tooltip(tr("Time every kernel at every checked rows × width, spread over the coming frames (it pauses while "
                "another tab is on screen)."));
        ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        if (shapes == 0) {
            ImGui::TextColored(kErrorText, "%s", tr("check a row count and a width"));
        } else {
            ImGui::TextDisabled(tr("%zu shapes"), shapes);
        }
    } else {
        if (ImGui::Button(tr("Stop"))) stop_sweep(ui);
        tooltip(tr("Stop; what was measured so far stays on screen."));
        ImGui::SameLine();
        ImGui::ProgressBar(static_cast<float>(ui.sweep->progress()), ImVec2(-1.0f, 0.0f));
        push_wrap_at_edge();  // "GPU RMSNorm forward at 1024 × 4096 (warm-up)" is wider than the panel
        ImGui::TextDisabled("%s", ui.sweep->status().c_str());
        ImGui::PopTextWrapPos();
    }
}

void draw_figures_section(GpuContext& ctx, const BenchResults* r) {
    GpuLabState& s = ctx.session.gpu;
    heading(ctx.fonts.heading, tr("Figures at"));
    if (r == nullptr || shown_points(*r).empty()) {
        ImGui::TextDisabled("%s", tr("no results yet"));
        return;
    }
    const int rows = shown_rows(s, *r);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::BeginCombo("##rows", tr("{0} rows", rows).c_str())) {
        for (int v : measured_rows(*r))
            if (ImGui::Selectable(tr("{0} rows", v).c_str(), v == rows)) s.shown_rows = v;
        ImGui::EndCombo();
    }
    tooltip(tr("The row count the three figures and the table show."));
    if (r->gpu.empty()) return;   // the CPU's curves are the figures
    ImGui::Checkbox(tr("CPU curves in the GB/s figures"), &s.cpu_curves);
    tooltip(tr("Draw the CPU kernels' GB/s (dashed) beside the GPU's, on a log scale: the two differ tenfold or more. "
            "The table shows both either way."));
}

// [SECTION] Table and the claim -------------------------------------------------------------

// The width the table and the claim show: the user's choice when measured, else the widest measured.
int table_cols(const GpuUi& ui, const BenchResults& r, int rows) {
    const std::vector<int> widths = widths_at(shown_points(r), rows);
    if (widths.empty()) return 0;
    return std::find(widths.begin(), widths.end(), ui.table_cols) != widths.end() ? ui.table_cols : widths.back();
}

// "LayerNorm fwd": the table's first column.
std::string short_name(BenchKernel k) {
    std::string name(display_name(k));
    for (auto [from, to] : {std::pair{" forward", " fwd"}, {" backward", " bwd"}})
        if (const std::size_t at = name.find(from); at != std::string::npos) name.replace(at, std::strlen(from), to);
    return name;
}

std::string cell(double v, int digits) { return std::isfinite(v) ? format_number(v, digits) : "—"; }

void draw_table(GpuUi& ui, const BenchResults& r, int rows, const Fonts& fonts) {
    const std::vector<int> widths = widths_at(shown_points(r), rows);
    if (widths.empty()) return;
    const int cols = table_cols(ui, r, rows);
    ImGui::AlignTextToFramePadding();
    ImGui::Text(tr("Medians at %d rows ×"), rows);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(6.0f * ImGui::GetFontSize());
    if (ImGui::BeginCombo("##cols", std::to_string(cols).c_str())) {
        for (int w : widths)
            if (ImGui::Selectable(std::to_string(w).c_str(), w == cols)) ui.table_cols = w;
        ImGui::EndCombo();
    }
    tooltip(tr("The width C the table shows."));

    // As wide as its widest cells at least: a kernel's name and six numbers or headers; in the
    // small font where the panel is narrower than that, and where it still is, the panel
    // scrolls sideways.
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    const float cell_pad = 2.0f * ImGui::GetStyle().CellPadding.x + 1.0f;
    const auto natural_width = [&] {
        return ImGui::CalcTextSize("pRMSNorm bwd").x + 6.0f * ImGui::CalcTextSize("0.00000").x + 7.0f * cell_pad;
    };
    const bool small = natural_width() > ImGui::GetContentRegionAvail().x;
    if (small) ImGui::PushFont(fonts.small);
    const float natural = natural_width();
    if (!ImGui::BeginTable("times", 7, kFlags, ImVec2(std::max(natural, ImGui::GetContentRegionAvail().x), 0.0f))) {
        if (small) ImGui::PopFont();
        return;
    }
    for (const char* h : {tr("kernel"), "GPU ms", "GB/s", tr("% copy"), "CPU ms", "GB/s", tr("% copy")})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    const auto copy_gbps = [&](const std::vector<BenchPoint>& pts) {
        const BenchPoint* c = find_point(pts, BenchKernel::Copy, rows, cols);
        return c != nullptr ? gbps(bench_bytes(BenchKernel::Copy, rows, cols), c->ms) : NAN;
    };
    const double gpu_copy = copy_gbps(r.gpu), cpu_copy = copy_gbps(r.cpu);
    for (BenchKernel k : kBenchKernels) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const Color c = bench_kernel_color(k);
        swatch({c.r, c.g, c.b});
        ImGui::TextUnformatted(short_name(k).c_str());
        for (const auto& [points, copy] : {std::pair{&r.gpu, gpu_copy}, {&r.cpu, cpu_copy}}) {
            const BenchPoint* p = find_point(*points, k, rows, cols);
            const double ms = p != nullptr ? p->ms : NAN;
            const double g = p != nullptr ? gbps(bench_bytes(k, rows, cols), p->ms) : NAN;
            const bool off = points == &r.gpu && r.gpu.empty();   // the GPU kernels did not run (the note says why)
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(off ? tr("off") : cell(ms, 3).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(off ? tr("off") : cell(g, 3).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k == BenchKernel::Copy || off ? "" : cell(100.0 * g / copy, 2).c_str());
        }
    }
    ImGui::EndTable();
    if (small) ImGui::PopFont();
    tooltip(tr("Median time of each kernel at this shape, its GB/s (copy and forward 2·R·C·4 bytes, backward 3·R·C·4) "
            "and that in percent of the same device's plain copy: the ceiling a memory-bound kernel can reach. "
            "— : not measured (there is no fast CPU pRMSNorm); off: the GPU kernels did not run (the note below says why)."));
}

// The paper's claim against what was measured at the table's shape.
void draw_claim(GpuContext& ctx, const BenchResults* r) {
    heading(ctx.fonts.heading, tr("The paper's claim: 7%–64%"));
    if (r == nullptr || shown_points(*r).empty()) {
        ImGui::TextDisabled("%s", tr("no results yet"));
        return;
    }
    const int rows = shown_rows(ctx.session.gpu, *r);
    const int cols = table_cols(ctx.ui, *r, rows);
    // "−12%", "−135% (noise)" where the two norms' timed runs overlap, "—" where not measured.
    bool any_noise = false;
    const auto saved = [&](const std::vector<BenchPoint>& pts, bool backward) {
        const BenchPoint* l = find_point(pts, bench_kernel(Norm::LayerNorm, backward), rows, cols);
        const BenchPoint* m = find_point(pts, bench_kernel(Norm::RMSNorm, backward), rows, cols);
        const double v = l != nullptr && m != nullptr ? time_saved_percent(l->ms, m->ms) : NAN;
        if (!std::isfinite(v)) return std::string("—");
        const bool noise = within_noise(*l, *m);
        any_noise |= noise;
        return format_number(v, 2) + "%" + (noise ? tr(" (noise)") : "");
    };
    std::string text;
    if (r->gpu.empty()) {
        text = tr("Paper (§5): RMSNorm saves 7%–64% of LayerNorm's time. Here, {0} × {1}: GPU kernels off; CPU {2} "
                  "forward, {3} backward.",
                  rows, cols, saved(r->cpu, false), saved(r->cpu, true));
    } else if (r->cpu.empty()) {
        text = tr("Paper (§5): RMSNorm saves 7%–64% of LayerNorm's time. Here, {0} × {1}: GPU {2} forward, {3} backward.",
                  rows, cols, saved(r->gpu, false), saved(r->gpu, true));
    } else {
        text = tr("Paper (§5): RMSNorm saves 7%–64% of LayerNorm's time. Here, {0} × {1}: GPU {2} forward, {3} "
                  "backward; CPU {4}, {5}.",
                  rows, cols, saved(r->gpu, false), saved(r->gpu, true), saved(r->cpu, false),
                  saved(r->cpu, true));
    }
    flow_text(text, ImGui::GetStyle().Colors[ImGuiCol_Text]);
    if (any_noise)
        flow_text(tr("Noise: the middle half of LayerNorm's timed runs overlaps RMSNorm's, so this machine did not tell "
                     "the two apart (a loaded machine, or a gap below the run-to-run spread). Raise the timed runs or "
                     "run the sweep again on an idle machine."),
                  kWarnText);
    ImGui::Spacing();
    flow_text(tr("Both norms move the same bytes. The paper's norms were chains of framework ops, a pass over memory "
              "each, and RMSNorm needs fewer; fused into one kernel, both run at memory speed and the gap shrinks to "
              "what computing μ costs."),
              ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    tooltip(tr("Zhang & Sennrich (2019) timed RMSNorm against LayerNorm as written in TensorFlow, PyTorch and Theano, "
            "where each step (mean, subtract, square, mean, divide, scale) is its own pass over the activations. "
            "A fused kernel reads x once and writes y once for either norm, so both are bound by the same memory "
            "traffic: compare each one's GB/s with the copy's. Timings on a shared machine vary from run to run; "
            "Run sweep again, or raise the timed runs, before reading much into a few percent."));
}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_off(GpuContext& ctx, const std::string& why) {
    heading(ctx.fonts.heading, tr("The GPU kernels are off"));
    ImGui::PushTextWrapPos(std::min(ImGui::GetContentRegionAvail().x, 60.0f * ImGui::GetFontSize()));
    ImGui::TextColored(kErrorText, "✗ %s", why.c_str());
    ImGui::Spacing();
    ImGui::TextUnformatted(
        tr("This lab runs LayerNorm, RMSNorm and pRMSNorm as OpenGL 4.3 compute shaders and times them against a "
        "plain copy. Without them it has nothing to measure; every other lab works as usual (they compute on the "
        "CPU, with core's double-precision reference)."));
    ImGui::Spacing();
    ImGui::TextUnformatted(
        tr("The CPU side of the comparison needs no GPU:  normlab-cli bench --cpu --json  times core's float32 "
        "LayerNorm and RMSNorm against a streaming copy. On a machine with OpenGL 4.3, "
        "xvfb-run -a normlab --bench-gpu --json  prints this lab's sweep."));
    ImGui::PopTextWrapPos();
}

void draw_results(GpuContext& ctx, const BenchResults* r) {
    GpuUi& ui = ctx.ui;
    const float em = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    if (r == nullptr || shown_points(*r).empty()) {
        const std::string hint = running(ui) ? tr("Measuring: the figures fill in as each kernel's median is known.")
                                             : tr("Press {0} to time the kernels.", run_sweep_label());
        ImGui::TextDisabled("%s", hint.c_str());
        return;
    }
    const int rows = shown_rows(ctx.session.gpu, *r);
    const float w = std::floor((ImGui::GetContentRegionAvail().x - style.ItemSpacing.x) / 2.0f);
    const float top_h = std::max(std::floor(0.5f * ImGui::GetContentRegionAvail().y), 16.0f * em);
    const bool cpu = ctx.session.gpu.cpu_curves;
    draw_plot(ui.forward_view, bandwidth_plot(ui, *r, rows, false, cpu), ctx.fonts, ImVec2(w, top_h));
    ImGui::SameLine();
    draw_plot(ui.backward_view, bandwidth_plot(ui, *r, rows, true, cpu), ctx.fonts, ImVec2(w, top_h));
    const float bottom_h = std::max(ImGui::GetContentRegionAvail().y, 14.0f * em);
    begin_panel("table", ImVec2(w, bottom_h));
    draw_table(ui, *r, rows, ctx.fonts);
    push_wrap_at_edge();   // the table may scroll sideways; a note wraps at what is seen of it
    for (const std::string& note : r->notes) ImGui::TextColored(kErrorText, "⚠ %s", note.c_str());
    ImGui::PopTextWrapPos();
    draw_claim(ctx, r);
    ImGui::EndChild();
    ImGui::SameLine();
    draw_plot(ui.saved_view, saved_plot(ui, *r, rows), ctx.fonts, ImVec2(0.0f, bottom_h));
}

Actions<GpuContext> gpu_lab_actions() { return {&kRunSweep}; }

void draw_gpu_lab(GpuContext& ctx) {
    GpuLabState& s = ctx.session.gpu;
    GpuUi& ui = ctx.ui;
    std::string why;
    GpuRunner* runner = lab_runner(ctx, &why);
    if (runner != nullptr && !ui.started) start_sweep(*runner, s, ui);   // the first visit measures at once
    // A scripted run (screenshots, --check-layout) sees the sweep whole from its first frame, so
    // that what it draws does not depend on the machine's speed; a user's fills in frame by frame.
    if (running(ui) && ctx.info.scripted) {
        while (running(ui)) ui.sweep->advance(kFrameBudget);
    } else if (running(ui)) {
        ui.sweep->advance(kFrameBudget);
        ctx.app.animate = true;
    }
    const BenchResults* r = results_of(ui);

    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: the figures, the table and the claim alone
        begin_controls_panel(0.25f, 20.0f, 25.0f);
        draw_renderer_section(ctx, runner);
        if (runner != nullptr) {
            draw_sweep_section(ctx, runner);
            draw_figures_section(ctx, r);
        }
        end_controls_panel();
    }

    begin_panel("results");
    if (!show_controls(ctx.app) && runner != nullptr) {   // what the panel would have said: where, how, how far
        std::string line = runner->renderer() + " · " +
                           (runner->available() ? std::string(describe(runner->timing())) : tr("GPU kernels off: {0}", runner->error()));
        if (running(ui)) line += " · " + tr("measuring: {0}", ui.sweep->status());
        flow_text(line, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    }
    if (runner == nullptr) {
        draw_off(ctx, why);
    } else {
        draw_results(ctx, r);
    }
    ImGui::EndChild();
}

std::vector<Plot> gpu_lab_plots(GpuContext& ctx) {
    GpuRunner* runner = lab_runner(ctx);
    if (runner == nullptr) return {};
    GpuUi& ui = ctx.ui;
    if (!ui.started) {   // nothing measured yet: measure now (File ▸ Export all figures, --export-plot)
        start_sweep(*runner, ctx.session.gpu, ui);
        if (ui.sweep) ui.sweep->run_to_end();
    }
    const BenchResults* r = results_of(ui);
    if (r == nullptr) return {};
    const int rows = shown_rows(ctx.session.gpu, *r);
    const bool cpu = ctx.session.gpu.cpu_curves;
    return {bandwidth_plot(ui, *r, rows, false, cpu), bandwidth_plot(ui, *r, rows, true, cpu), saved_plot(ui, *r, rows)};
}

}  // namespace

const BenchResults* gpu_lab_results(const GpuUi& ui, bool* is_running) {
    if (is_running != nullptr) *is_running = running(ui);
    return results_of(ui);
}

const NormKernelTimes* draw_gpu_norm_caption(LabContext& ctx, int rows, int cols) {
    std::string why;
    const NormKernelTimes* t = gpu_norm_times(ctx.gpu, ctx.app.animate, rows, cols, &why);
    const bool off = t == nullptr && ctx.gpu.runner && !ctx.gpu.runner->available();
    if (t != nullptr) {   // wrapped at spaces: one group, so that the tooltip below is the whole line's
        ImGui::BeginGroup();
        flow_text(tr("{0} (one norm layer)", norm_times_caption(*t)), ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        ImGui::EndGroup();
    } else {
        ImGui::TextDisabled("%s", off ? tr("GPU kernel times: off") : tr("GPU: {0}", why).c_str());
    }
    const std::string help =
        off ? tr("The GPU lab's kernels cannot run here: {0}", why)
            : tr("The GPU lab's fused float32 kernels (shaders/norm_*.comp) at this lab's activation shape, {0} cases × "
                 "{1} units: forward plus backward of one norm layer, the median of 9 runs; the step-time figure "
                 "draws them, times the model's norm layers, as dotted lines. The curves are this lab's "
                 "double-precision CPU layers; the GPU lab (tab GPU) sweeps larger shapes.",
                 rows, cols);

    tooltip(help.c_str());
    return t;
}

const LabWindow<GpuContext> kGpuWindow{&kGpuInfo, draw_gpu_lab, gpu_lab_plots, gpu_lab_actions};

}  // namespace normlab::ui
