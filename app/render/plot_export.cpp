// Figures to files (see plot_export.hpp).
//
// [SECTION] Names and text files
// [SECTION] Offscreen rendering — export fonts, a private ImGui context, FBO, read-back
// [SECTION] PNG files
// [SECTION] A lab's figures — the export folder, every figure of a lab at once
#include "plot_export.hpp"

#include "font_atlas.hpp"
#include "plot_painter.hpp"
#include "theme_fonts.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/base/i18n.hpp>

#include "gl.hpp"
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>

namespace normlab::ui {

// [SECTION] Names and text files ------------------------------------------------------------

std::string figure_path(const std::string& dir, const std::string& name, const std::string& ext) {
    std::string file;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || (c == '.' && !file.empty());
        file += ok ? c : '_';
    }
    if (file.empty()) file = "plot";
    file += "." + ext;
    return dir.empty() ? file : (std::filesystem::path(dir) / file).string();
}

std::vector<std::string> unique_figure_names(const std::vector<Plot>& plots) {
    std::vector<std::string> names;
    std::map<std::string, int> seen;
    for (const Plot& plot : plots) {
        const std::string base = plot.name.empty() ? "figure_" + std::to_string(names.size() + 1) : plot.name;
        const int n = ++seen[base];
        names.push_back(n == 1 ? base : base + "_" + std::to_string(n));
    }
    return names;
}

std::string save_text_file(const std::string& path, const std::string& text, IfExists if_exists) {
    try {
        write_file_atomically(path, text, if_exists);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

// [SECTION] Offscreen rendering -------------------------------------------------------------

namespace {

// Glyphs of numbers in tick labels (format_number, decade_label) beyond ASCII.
constexpr const char* kNumberGlyphs = "−×⁰¹²³⁴⁵⁶⁷⁸⁹⁻";

// DejaVu Sans at exactly the sizes of a K× style, holding only the glyphs this plot prints
// (ASCII, numbers, and its own texts; Noto Sans CJK merged in for those DejaVu lacks, as the app's
// atlas, font_atlas.hpp): a few hundred kB even at 4×.
struct ExportFonts {
    std::deque<ImVector<ImWchar>> ranges;   // the atlas keeps pointers: declared before it, destroyed after
    ImFontAtlas atlas;
    FigureFonts fonts;
};

bool build_export_fonts(ExportFonts& out, const Plot& plot, const PlotStyle& style) {
    ImFontGlyphRangesBuilder builder;
    builder.AddText(kNumberGlyphs);
    builder.AddChar(0x25A1);   // □: drawn for a character no font has (box_fallback)
    for (const std::string* t : {&plot.title, &plot.x.label, &plot.y.label}) builder.AddText(t->c_str());
    for (const Series& s : plot.series) {
        builder.AddText(s.label.c_str());
        for (const std::string& t : s.bar_labels) builder.AddText(t.c_str());
        builder.AddText(s.end_label.c_str());
    }
    for (const Annotation& a : plot.annotations) builder.AddText(a.text.c_str());
    if (plot.heat) {
        for (const std::string& t : plot.heat->labels) builder.AddText(t.c_str());
        for (const std::string* t : {&plot.heat->bar_top, &plot.heat->bar_middle, &plot.heat->bar_bottom}) builder.AddText(t->c_str());
    }
    for (const RefLine& r : plot.ref_lines) builder.AddText(r.label.c_str());
    std::vector<ImWchar> extra;   // every character beyond ASCII the figure prints
    for (unsigned c = 0x80; c <= IM_UNICODE_CODEPOINT_MAX; ++c)
        if (builder.GetBit(c)) extra.push_back(static_cast<ImWchar>(c));

    const bool dejavu = std::filesystem::exists(kDejaVuSansPath) && std::filesystem::exists(kDejaVuBoldPath);
    static const ImWchar ascii[] = {0x0020, 0x007E, 0};
    std::vector<ImWchar> no_font, no_cjk;   // drawn as □
    const auto add = [&](bool bold, double px) {
        ImFontConfig config;
        config.OversampleH = px < 24.0 ? 3 : 1;   // small text: sub-pixel positions; large: plenty of pixels
        config.OversampleV = 1;
        config.PixelSnapH = false;                // advances as measured, as the layout assumed
        config.SizePixels = static_cast<float>(px);
        return dejavu ? add_face(out.atlas, bold, config.SizePixels, ascii, extra, current_language(), out.ranges,
                                 no_font, no_cjk, &config)
                      : out.atlas.AddFontDefault(&config);
    };
    out.fonts.regular = {add(false, style.tick_font_px), add(false, style.label_font_px)};
    out.fonts.bold = add(true, style.title_font_px);
    const bool built = out.atlas.Build();
    disown_font_files(out.atlas);   // the font files stay font_atlas.cpp's
    if (built)
        for (ImFont* font : out.atlas.Fonts) box_fallback(*font);
    return built;
}

// GL objects of one export, deleted on every path out.
struct GlObjects {
    GLuint texture = 0, framebuffer = 0, renderbuffer = 0;
    GlObjects() = default;
    GlObjects(const GlObjects&) = delete;
    GlObjects& operator=(const GlObjects&) = delete;
    ~GlObjects() {
        if (framebuffer != 0) glDeleteFramebuffers(1, &framebuffer);
        if (renderbuffer != 0) glDeleteRenderbuffers(1, &renderbuffer);
        if (texture != 0) glDeleteTextures(1, &texture);
    }
};

// The atlas as an RGBA texture (ImGui's OpenGL3 backend samples RGBA); the texture binding
// and unpack state are restored.
GLuint upload_atlas(ImFontAtlas& atlas, GlObjects& gl) {
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    atlas.GetTexDataAsRGBA32(&pixels, &w, &h);
    GLint last_texture = 0, last_row_length = 0, last_alignment = 4;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
    glGetIntegerv(GL_UNPACK_ROW_LENGTH, &last_row_length);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &last_alignment);
    glGenTextures(1, &gl.texture);
    glBindTexture(GL_TEXTURE_2D, gl.texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last_texture));
    glPixelStorei(GL_UNPACK_ROW_LENGTH, last_row_length);
    glPixelStorei(GL_UNPACK_ALIGNMENT, last_alignment);
    return gl.texture;
}

// An ImGui context of its own for one figure (its own display size, fonts and white-pixel
// UVs), made current for its lifetime; the app's context is current again afterwards.
class FigureContext {
public:
    FigureContext(ImFontAtlas& atlas, int width, int height)
        : app_(ImGui::GetCurrentContext()), ctx_(ImGui::CreateContext(&atlas)) {
        ImGui::SetCurrentContext(ctx_);
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.LogFilename = nullptr;
        io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
        io.DeltaTime = 1.0f / 60.0f;
        io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;   // meshes over 64k vertices
    }
    FigureContext(const FigureContext&) = delete;
    FigureContext& operator=(const FigureContext&) = delete;
    ~FigureContext() {
        ImGui::DestroyContext(ctx_);
        ImGui::SetCurrentContext(app_);
    }
    void make_app_current() const { ImGui::SetCurrentContext(app_); }

private:
    ImGuiContext* app_;
    ImGuiContext* ctx_;
};

struct Pixels {
    std::vector<unsigned char> rgb;   // height rows × width × RGB, top row first
    int width = 0, height = 0;
};

// Renders the draw data into a new width × height framebuffer and reads it back; GL state
// that this touches (bindings, read buffer, viewport, clear colour, scissor, pack alignment)
// is restored.
std::string render_to_pixels(ImDrawData* data, int width, int height, GlObjects& gl, Pixels& out) {
    GLint last_fb = 0, last_read_fb = 0, last_rb = 0, last_read_buffer = 0, last_pack = 4;
    GLint last_viewport[4] = {0, 0, 0, 0};
    GLfloat last_clear[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &last_fb);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &last_read_fb);
    glGetIntegerv(GL_RENDERBUFFER_BINDING, &last_rb);
    glGetIntegerv(GL_READ_BUFFER, &last_read_buffer);
    glGetIntegerv(GL_PACK_ALIGNMENT, &last_pack);
    glGetIntegerv(GL_VIEWPORT, last_viewport);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, last_clear);
    const GLboolean last_scissor = glIsEnabled(GL_SCISSOR_TEST);

    glGenRenderbuffers(1, &gl.renderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, gl.renderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glGenFramebuffers(1, &gl.framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, gl.framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl.renderbuffer);
    std::string error;
    if (const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER); status != GL_FRAMEBUFFER_COMPLETE) {
        error = "cannot create a " + std::to_string(width) + " × " + std::to_string(height) +
                " px offscreen image (framebuffer status " + std::to_string(status) + ")";
    } else {
        glViewport(0, 0, width, height);
        glDisable(GL_SCISSOR_TEST);
        glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(data);

        const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height), row = 3 * w;
        std::vector<unsigned char> bottom_up(row * h);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        read_pixels_rgb(width, height, bottom_up.data());
        if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
            error = "rendering the figure failed (GL error " + std::to_string(err) + ")";
        } else {
            out.rgb.resize(row * h);
            for (std::size_t y = 0; y < h; ++y)
                std::memcpy(out.rgb.data() + y * row, bottom_up.data() + (h - 1 - y) * row, row);
            out.width = width;
            out.height = height;
        }
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(last_fb));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(last_read_fb));
    glBindRenderbuffer(GL_RENDERBUFFER, static_cast<GLuint>(last_rb));
    glReadBuffer(static_cast<GLenum>(last_read_buffer));
    glPixelStorei(GL_PACK_ALIGNMENT, last_pack);
    glViewport(last_viewport[0], last_viewport[1], last_viewport[2], last_viewport[3]);
    glClearColor(last_clear[0], last_clear[1], last_clear[2], last_clear[3]);
    if (last_scissor) glEnable(GL_SCISSOR_TEST);
    return error;
}

std::string render_plot(const Plot& plot, int base_w, int base_h, int scale, Pixels& out) {
    if (scale < 1 || scale > kMaxExportScale)
        return "the scale must be 1 to " + std::to_string(kMaxExportScale) + ", not " + std::to_string(scale);
    if (base_w < 50 || base_h < 50) return "the figure is too small to save (under 50 px)";
    const int width = base_w * scale, height = base_h * scale;
    GLint max_renderbuffer = 0, max_viewport[2] = {0, 0};
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_renderbuffer);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
    const int max_side = std::min({max_renderbuffer, max_viewport[0], max_viewport[1]});
    if (width > max_side || height > max_side)
        return std::to_string(width) + " × " + std::to_string(height) + " px is more than this GPU renders (" +
               std::to_string(max_side) + " px a side): choose a smaller scale";

    PlotStyle style = scaled(PlotStyle{}, scale);
    auto fonts = std::make_unique<ExportFonts>();
    if (!build_export_fonts(*fonts, plot, style)) return "cannot build the fonts for the figure";
    GlObjects gl;
    fonts->atlas.SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(upload_atlas(fonts->atlas, gl))));
    style.text_width = figure_text_width(fonts->fonts);

    // Paint into the background draw list of a private frame, then render with the app's backend.
    const FigureContext figure(fonts->atlas, width, height);
    ImGui::NewFrame();
    const PlotLayout layout = layout_plot(plot, Rect{0.0, 0.0, double(width), double(height)}, style);
    draw_figure(*ImGui::GetBackgroundDrawList(), plot, layout, style, scale, fonts->fonts, light_figure());
    ImGui::Render();
    ImDrawData* const data = ImGui::GetDrawData();   // valid while `figure` lives
    figure.make_app_current();
    ImGui_ImplOpenGL3_NewFrame();   // makes sure the backend's shaders exist (before the app's first frame)
    return render_to_pixels(data, width, height, gl, out);
}

}  // namespace

// [SECTION] PNG files -----------------------------------------------------------------------

std::string encode_plot_png(const Plot& plot, int base_w, int base_h, int scale, std::string& png) {
    Pixels px;
    if (std::string error = render_plot(plot, base_w, base_h, scale, px); !error.empty()) return error;
    png.clear();
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (stbi_write_png_to_func(append, &png, px.width, px.height, 3, px.rgb.data(), 3 * px.width) == 0)
        return "cannot encode the PNG";
    return {};
}

std::string save_plot_png(const Plot& plot, int base_w, int base_h, int scale, const std::string& path,
                          IfExists if_exists) {
    std::string png;
    if (std::string error = encode_plot_png(plot, base_w, base_h, scale, png); !error.empty()) return error;
    return save_text_file(path, png, if_exists);
}

// [SECTION] A lab's figures -----------------------------------------------------------------

namespace {
std::string g_export_folder;   // the session's export folder (set_export_folder)
}  // namespace

void set_export_folder(std::string dir) { g_export_folder = std::move(dir); }
const std::string& export_folder() { return g_export_folder; }

FigureExport::FigureExport(std::vector<Plot> plots, std::string dir, int scale, std::vector<Table> tables)
    : plots_(std::move(plots)), tables_(std::move(tables)), names_(unique_figure_names(plots_)),
      dir_(dir.empty() ? "." : std::move(dir)), scale_(scale) {
    if (total() == 0) error_ = tr("⚠ This lab has no figures to save");
}

void FigureExport::write_table(const Table& table) {
    using Writer = std::pair<const char*, std::string (*)(const Table&)>;   // spelled out: emscripten's libc++ deduces no function pointer
    for (const auto& [ext, write] : {Writer{"svg", table_to_svg}, Writer{"csv", table_to_csv},
                                     Writer{"md", table_to_markdown}, Writer{"tex", table_to_latex}})
        if (std::string error = save_text_file(unused_file_name(figure_path(dir_, table.name, ext)), write(table),
                                               IfExists::Refuse);
            !error.empty()) {
            error_ = tr("⚠ Not saved: {0}: {1}", table.name, error);
            return;
        }
    ++next_;
}

void FigureExport::step() {
    if (done()) return;
    if (next_ == 0) {
        std::error_code ec;
        std::filesystem::create_directories(dir_, ec);
        if (ec) {
            error_ = tr("⚠ Not saved: cannot create the folder \"{0}\": {1}", dir_, ec.message());
            return;
        }
    }
    if (next_ >= plots_.size()) return write_table(tables_[next_ - plots_.size()]);
    const Plot& plot = plots_[next_];
    const std::string& name = names_[next_];
    const std::string png = unused_file_name(figure_path(dir_, name, "png"));
    const std::string svg = unused_file_name(figure_path(dir_, name, "svg"));
    const std::string csv = unused_file_name(figure_path(dir_, name, "csv"));
    std::string error = save_plot_png(plot, kDefaultFigureWidth, kDefaultFigureHeight, scale_, png, IfExists::Refuse);
    if (error.empty()) error = save_text_file(svg, to_svg(plot, kDefaultFigureWidth, kDefaultFigureHeight), IfExists::Refuse);
    if (error.empty()) error = save_text_file(csv, to_csv(plot), IfExists::Refuse);
    if (!error.empty()) {
        error_ = tr("⚠ Not saved: {0}: {1}", name, error);
        return;
    }
    ++next_;
}

std::string FigureExport::status() const {
    if (!error_.empty()) return error_;
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(dir_, ec);
    const std::string where = ec ? dir_ : abs.string();
    const std::string figures = plots_.size() == 1 ? tr("1 figure (PNG {0}× + SVG + CSV)", scale_)
                                                   : tr("{0} figures (PNG {1}× + SVG + CSV)", plots_.size(), scale_);
    if (tables_.empty()) return tr("Saved {0} to {1}", figures, where);
    const std::string tables = tables_.size() == 1 ? std::string(tr("1 table (SVG + CSV + Markdown + LaTeX)"))
                                                   : tr("{0} tables (SVG + CSV + Markdown + LaTeX)", tables_.size());
    return tr("Saved {0} and {1} to {2}", figures, tables, where);
}

std::string export_figures(const std::vector<Plot>& plots, const std::string& folder, int scale) {
    FigureExport job(plots, folder, scale);
    while (!job.done()) job.step();
    return job.status();
}

}  // namespace normlab::ui
