// The page: see web_page.hpp (docs/ARCHITECTURE.md, "The web build").
//
// [SECTION] Storage and arguments
// [SECTION] Frames
// [SECTION] Signals (none in a page)
// [SECTION] File menu
// [SECTION] Hooks called from JavaScript
#include "web_page.hpp"

#include "fetched_files.hpp"
#include "frame_pacer.hpp"
#include "gpu_lab.hpp"
#include "lab.hpp"
#include "labs.hpp"
#include "palette.hpp"
#include "plot_export.hpp"
#include "quit_signals.hpp"
#include "session_io.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/scene/scene.hpp>
#include <normlab/scene/session.hpp>

#include <emscripten.h>
#include <emscripten/html5.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace normlab::ui {

namespace {

constexpr const char* kExportDir = "/exports";

// What the JavaScript hooks reach: the one app of the page (set by run_page_frames).
struct PageState {
    GLFWwindow* window = nullptr;
    AppContext* ctx = nullptr;
    PageFrames app;   // the app's frames
    std::string reply;   // the last hook's answer, valid until the next call
    long frames = 0;
    std::vector<double> frame_ms;   // App::frame()'s time in the latest frames (benchmarks)
};
constexpr std::size_t kFrameTimesKept = 600;
PageState g_page;   // the page's one app: JavaScript's calls reach it only through here
PageState& page() { return g_page; }

}  // namespace

// [SECTION] Storage and arguments ---------------------------------------------------------

namespace {

// The page's fetched files (fetched_files.hpp): Noto Sans CJK's subset (scripts/cjk_subset.py) from
// fonts/, the catalogs from i18n/, beside index.html; downloaded while the caller waits (the atlas
// or the language is being made: a second or two, once).
bool fetch_page_file(const std::string& path) {
    const std::filesystem::path p(path);
    const std::string ext = p.extension().string();
    const std::string folder = ext == ".ttc" ? "fonts/" : ext == ".po" ? "i18n/" : "";
    if (folder.empty()) return false;
    const std::string url = folder + p.filename().string();
    return EM_ASM_INT({ return Module.fetchFile(UTF8ToString($0), UTF8ToString($1)); }, url.c_str(), path.c_str()) != 0;
}

}  // namespace

void prepare_page() {
    set_file_fetcher(fetch_page_file);
    // web_index.html mounts IDBFS at /persist and loads it before main runs.
    setenv("XDG_DATA_HOME", "/persist/data", 1);
    setenv("XDG_CONFIG_HOME", "/persist/config", 1);
    // Exports and screenshots land in /exports, and each becomes a download (deliver_exports).
    std::error_code ec;
    std::filesystem::create_directories(kExportDir, ec);
    std::filesystem::current_path(kExportDir, ec);
    set_export_folder(kExportDir);
}

// [SECTION] Frames ------------------------------------------------------------------------

namespace {

// The canvas follows the browser window's inner size (CSS pixels); true when it changed.
bool fit_canvas(GLFWwindow* window) {
    const int w = EM_ASM_INT({ return window.innerWidth; });
    const int h = EM_ASM_INT({ return window.innerHeight; });
    int cw = 0, ch = 0;
    glfwGetWindowSize(window, &cw, &ch);
    if (w < 200 || h < 200 || (w == cw && h == ch)) return false;
    glfwSetWindowSize(window, w, h);
    return true;
}

// Every finished file in /exports (a figure, a table, a screenshot) goes to the user as a
// download, then leaves the page's memory. Saves are atomic (temp file, then rename), so a name
// without ".tmp." is complete.
void deliver_exports() {
    std::error_code ec;
    std::vector<std::filesystem::path> done;
    for (const auto& entry : std::filesystem::directory_iterator(kExportDir, ec))
        if (entry.is_regular_file(ec) && entry.path().filename().string().find(".tmp.") == std::string::npos)
            done.push_back(entry.path());
    for (const std::filesystem::path& path : done) {
        EM_ASM({ Module.downloadFile(UTF8ToString($0)); }, path.c_str());
        std::filesystem::remove(path, ec);
    }
}

void frame_callback() {
    PageState& p = page();
    if (!fit_canvas(p.window) && !p.app.due()) return;   // idle: the canvas keeps its picture
    const double t0 = emscripten_get_now();
    const bool go_on = p.app.frame();
    const double ms = emscripten_get_now() - t0;
    if (p.frame_ms.size() >= kFrameTimesKept) p.frame_ms.erase(p.frame_ms.begin());
    p.frame_ms.push_back(ms);
    if (++p.frames == 1) EM_ASM({ Module.firstFrameMs = performance.now(); });   // since the navigation began
    deliver_exports();
    if (go_on) return;
    emscripten_cancel_main_loop();
    EM_ASM({ if (Module.onNormLabEnded) Module.onNormLabEnded(); });
}

}  // namespace

void run_page_frames(GLFWwindow* window, AppContext& ctx, PageFrames frames) {
    PageState& p = page();
    p.window = window;
    p.ctx = &ctx;
    p.app = std::move(frames);
    EM_ASM({ if (Module.onNormLabStarted) Module.onNormLabStarted(); });
    emscripten_set_main_loop(frame_callback, 0, 0);
}

// [SECTION] Signals (none in a page) ----------------------------------------------------------

void install_quit_signals() {}
int quit_signal() { return 0; }
void stop_quit_signals() {}
const char* signal_name(int) { return ""; }

// [SECTION] File menu ---------------------------------------------------------------------

namespace {

// The scene as it is now, as its file holds it.
std::string scene_text(const AppContext& ctx) { return scene_to_text(current_scene(ctx)); }

}  // namespace

void draw_page_file_items(AppContext& ctx) {
    if (ImGui::MenuItem(tr("Open scene from this computer…")))
        EM_ASM({ Module.pickSceneFile(); });
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("A scene file (.json) saved by NormLab, on the desktop or in a page"));
    if (ImGui::MenuItem(tr("Download scene"))) {
        const std::string text = scene_text(ctx);
        EM_ASM({ Module.downloadText("normlab-scene.json", UTF8ToString($0)); }, text.c_str());
        ctx.app.status = tr("Scene downloaded as normlab-scene.json");
    }
    if (ImGui::MenuItem(tr("Copy link"))) {
        const std::string text = scene_text(ctx);
        EM_ASM({ Module.copySceneLink(UTF8ToString($0)); }, text.c_str());
        ctx.app.status = tr("The link in the address bar holds this scene (copied to the clipboard)");
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Puts the whole scene into the page's address (#scene=…): whoever opens the link sees this state"));

    ImGui::Separator();
}

}  // namespace normlab::ui

// [SECTION] Hooks called from JavaScript ----------------------------------------------------

extern "C" {

// File ▸ Open scene from this computer…: web_index.html wrote the chosen file to `path`. Returns
// "" or why it was not opened (also on the status line, as on the desktop).
EMSCRIPTEN_KEEPALIVE const char* normlab_open_scene(const char* path) {
    normlab::ui::PageState& p = normlab::ui::page();
    p.reply = p.ctx == nullptr ? "the app has not started" : normlab::ui::open_scene_file(*p.ctx, path, "", false);
    normlab::ui::wake_frame_loop();   // the scene (or why not) is shown at once
    return p.reply.c_str();
}

// The page came back into view (web_index.html): draw it again, lest the browser dropped the
// canvas's picture while it was hidden.
EMSCRIPTEN_KEEPALIVE void normlab_wake() { normlab::ui::wake_frame_loop(); }

// The scene as its file would hold it (File ▸ Copy link puts this in the URL).
EMSCRIPTEN_KEEPALIVE const char* normlab_scene_text() {
    normlab::ui::PageState& p = normlab::ui::page();
    p.reply = p.ctx == nullptr ? "" : normlab::ui::scene_text(*p.ctx);
    return p.reply.c_str();
}

// The colours with a meaning (kit/palette.hpp) by name, as the page draws them: tests look for
// each lab's own in its screenshot. {"kLayerNormBar": [0, 114, 178], …}.
EMSCRIPTEN_KEEPALIVE const char* normlab_palette_json() {
    using namespace normlab::palette;
    const auto rgb = [](Rgb c) { return nlohmann::json{c.r, c.g, c.b}; };
    normlab::ui::PageState& p = normlab::ui::page();
    p.reply = nlohmann::json{{"kLayerNormBar", rgb(kLayerNormBar)},     {"kRmsNormBar", rgb(kRmsNormBar)},
                             {"kSummedInputBar", rgb(kSummedInputBar)}, {"kHeatNegative", rgb(kHeatNegative)},
                             {"kHeatPositive", rgb(kHeatPositive)},     {"kPassFill", rgb(kPassFill)},
                             {"kFailFill", rgb(kFailFill)},             {"kDisagreeOutline", rgb(kDisagreeOutline)}}
                  .dump();
    return p.reply.c_str();
}

// What is on screen: {"lab": "gradients", "presenter": false, "status": the status line,
// "training_step": the step the Training lab shows, "frames": frames drawn, "skipped": animation
// frames not drawn (nothing changed), "frame_ms": the
// milliseconds App::frame() took in each of the latest frames (at most kFrameTimesKept)}.
EMSCRIPTEN_KEEPALIVE const char* normlab_view_json() {
    normlab::ui::PageState& p = normlab::ui::page();
    if (p.ctx == nullptr) return "null";
    const auto& training = p.ctx->uis.training.shown;
    p.reply = nlohmann::json{{"lab", normlab::ui::kLabs[p.ctx->app.lab].id},
                             {"presenter", p.ctx->app.presenter},
                             {"status", p.ctx->app.status},
                             {"training_step", training ? training->step : 0},
                             {"frames", p.frames},
                             {"skipped", p.app.skipped ? p.app.skipped() : 0},
                             {"frame_ms", p.frame_ms}}
                  .dump();
    return p.reply.c_str();
}

// The GPU lab's sweep as the page measured it: null before any, else {"running": bool, "results":
// bench_json's object (core/…/labs/gpu_lab.hpp: the CPU's points under "cpu", the notes saying why
// the GPU did not run)}.
EMSCRIPTEN_KEEPALIVE const char* normlab_gpu_json() {
    normlab::ui::PageState& p = normlab::ui::page();
    bool running = false;
    const normlab::BenchResults* r = p.ctx == nullptr ? nullptr : normlab::ui::gpu_lab_results(p.ctx->uis.gpu, &running);
    if (r == nullptr) return "null";
    p.reply = nlohmann::json{{"running", running}, {"results", nlohmann::json::parse(normlab::bench_json(*r))}}.dump();
    return p.reply.c_str();
}

// The Explorer's state and its numbers as the page computes them: {"x", "W" (or null), "g", "b",
// "delta", "target" ("x" or "W"), "eps", "eps_mode", "layernorm": {"a", "y"}, "rmsnorm": {…}}.
EMSCRIPTEN_KEEPALIVE const char* normlab_explorer_json() {
    using namespace normlab;
    ui::PageState& p = ui::page();
    if (p.ctx == nullptr) return "null";
    const ExplorerState& s = p.ctx->session.explorer;
    const auto vec = [](const Eigen::MatrixXd& m) {
        nlohmann::json rows = nlohmann::json::array();
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            nlohmann::json row = nlohmann::json::array();
            for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
            rows.push_back(std::move(row));
        }
        return rows;
    };
    nlohmann::json out = state_to_json(s);
    try {
        const ExplorerResults r = compute_explorer(s);
        out["layernorm"] = {{"a", vec(r.layernorm.a)}, {"y", vec(r.layernorm.y)}};
        out["rmsnorm"] = {{"a", vec(r.rmsnorm.a)}, {"y", vec(r.rmsnorm.y)}};
    } catch (const std::exception& e) {
        out["error"] = e.what();
    }
    p.reply = out.dump();
    return p.reply.c_str();
}

}  // extern "C"
