// The Geometry lab (see geometry_lab.hpp).
//
// [SECTION] Keys and helpers  — R randomise, N switch n, V reset the view; vectors as text
// [SECTION] Scene             — the ViewScene of one frame: sets, axes, paths, points
// [SECTION] View              — the rendered image; mouse: orbit, zoom, drag a point; labels, legend
// [SECTION] Controls panel    — n, the batch, the selected point, shrink, g, ε, what to show
// [SECTION] The lab window
#include "geometry_lab.hpp"

#include <normlab/base/palette.hpp>
#include "export_menus.hpp"
#include "ui_util.hpp"

#include <normlab/labs/geometry_lab.hpp>

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace normlab::ui {

namespace {

using Index = Eigen::Index;
using Vec3 = Eigen::Vector3f;

// [SECTION] Keys and helpers ----------------------------------------------------------------

const ImVec4 kEpsColor(0.70f, 0.30f, 0.0f, 1.0f);   // ε at work: a finding, not an error
constexpr float kOrbitPerPx = 0.008f;      // radians of yaw / pitch per pixel dragged
constexpr float kZoomPerNotch = 1.12f;     // wheel
constexpr float kPickSlackPx = 5.0f;       // a click this close to a point's edge still picks it
constexpr auto kAxisPerFraming = static_cast<float>(kGeometryAxisReach);   // axes run over ± this × the framing radius

// The input colour is the summed-input grey of the Explorer: here the norms see a = x.
constexpr Color kInputColor = colors::kSummedInput;

// The darker outline of an image marker of colour c.
Rgba edge_of(Color c) { return mix(to_rgba(c), Rgba{0.0f, 0.0f, 0.0f, 1.0f}, 0.45f); }

// The world radius the view frames at zoom 1 (core's geometry_framing_radius; the view is wider
// than tall, so a point out to 1.2× the radius usually still shows).
float framing_radius(const GeometryLabState& s) { return static_cast<float>(geometry_framing_radius(s)); }

// What the view shows, for its figure (geometry_view_plot): the camera's orbit and the parts shown.
GeometryFigureView figure_view(const GeometryUi& ui) {
    GeometryFigureView v;
    v.yaw = ui.camera.yaw;
    v.pitch = ui.camera.pitch;
    v.sphere = ui.show_sphere;
    v.plane = ui.show_plane;
    v.circle = ui.show_circle;
    v.paths = ui.show_paths;
    v.labels = ui.show_labels;
    v.selected = ui.selected;
    return v;
}

void reset_view(GeometryUi& ui) { ui.camera = OrbitCamera{}; }

void switch_dimension(GeometryLabState& s, GeometryUi& ui) {
    geometry_set_dimension(s, geometry_dimension(s) == 3 ? 2 : 3);
    reset_view(ui);
}

// The lab's keys (no buttons): the handler, the tooltips and Help ▸ Keyboard shortcuts all read
// this table.
enum KeyIndex { kRandomise, kSwitchN, kResetView, kKeyCount };

const Action<GeometryContext> kKeys[kKeyCount] = {
    {nullptr, {'R'}, tr_later("randomise the batch of inputs"), nullptr,
     [](GeometryContext& ctx) { geometry_randomize(ctx.session.geometry); }},
    {nullptr, {'N'}, tr_later("switch n = 3 ⇄ n = 2"), nullptr,
     [](GeometryContext& ctx) { switch_dimension(ctx.session.geometry, ctx.ui); }},
    {nullptr, {'V'}, tr("reset the view (also: double-click it)"), nullptr,
     [](GeometryContext& ctx) { reset_view(ctx.ui); }},
};

// "R", the key of one of kKeys.
std::string key_of(KeyIndex k) { return key_label(kKeys[k].key); }

Actions<GeometryContext> geometry_lab_actions() { return all_actions(kKeys); }

// Row i of a B×n matrix as a point of the view (x₃ = 0 when n = 2).
Vec3 point3(const Mat& m, Index i) {
    const auto x = [&m, i](Index j) { return j < m.cols() ? static_cast<float>(m(i, j)) : 0.0f; };
    return {x(0), x(1), x(2)};
}

// "(1.342, −0.447, 0.447)"
std::string fmt_tuple(const Eigen::Ref<const Eigen::RowVectorXd>& v) {
    std::string out = "(";
    for (Index j = 0; j < v.size(); ++j) out += (j > 0 ? ", " : "") + fmt_value(v(j));
    return out + ")";
}

bool gain_is_one(const Vec& g) { return (g.array() == 1.0).all(); }

Rgba theme_color(ImGuiCol which) {
    const ImVec4 c = ImGui::GetStyle().Colors[which];
    return {c.x, c.y, c.z, c.w};
}

ImU32 rgba_u32(Rgba c) { return ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, c.a)); }

// A legend marker at c: a filled disc with an outline, or a hollow ring.
void legend_marker(ImDrawList* dl, ImVec2 c, float radius, float outline_px, ImU32 fill, ImU32 outline) {
    dl->AddCircleFilled(c, radius, fill);
    dl->AddCircle(c, radius - 0.5f * outline_px, outline, 0, outline_px);
}

// Sizes on screen, in pixels, scaled with the text size (20 px is 1).
struct Sizes {
    float scale;
    float input() const { return 8.5f * scale; }
    float selected_input() const { return 11.0f * scale; }
    float image() const { return 8.0f * scale; }
    float outline() const { return 1.5f * scale; }
    float foot() const { return 4.5f * scale; }
    float target_ring() const { return 14.0f * scale; }   // n = 2: LayerNorm's two points
};

// [SECTION] Scene ---------------------------------------------------------------------------

// `segments` points (segments×2) on the circle of this radius about the origin of the plane.
Mat plane_circle(int segments, double radius) {
    Mat points(segments, 2);
    for (int i = 0; i < segments; ++i) {
        const double t = 2.0 * M_PI * i / segments;
        points.row(i) << radius * std::cos(t), radius * std::sin(t);
    }
    return points;
}

// Appends the closed polyline through the rows of `points` (k×n, n = 2 or 3), each stretched by g.
void add_loop(ViewScene& scene, const Mat& points, const Vec3& gain, float width, Rgba color) {
    for (Index i = 0; i < points.rows(); ++i) {
        const Vec3 a = point3(points, i).cwiseProduct(gain);
        const Vec3 b = point3(points, (i + 1) % points.rows()).cwiseProduct(gain);
        scene.segments.push_back({a, b, width, color});
    }
}

ViewScene build_scene(const GeometryLabState& s, const GeometryUi& ui, const GeometryResults& r, const Sizes& px) {
    const Index n = geometry_dimension(s);
    const bool flat = n == 2;
    const auto radius = static_cast<float>(r.scene.radius);   // √n
    const Vec3 gain(static_cast<float>(s.g(0)), static_cast<float>(s.g(1)), flat ? 1.0f : static_cast<float>(s.g(2)));
    const Rgba bg = theme_color(ImGuiCol_WindowBg);
    const Rgba ink = theme_color(ImGuiCol_Text);
    const Rgba rms = to_rgba(colors::kRmsNorm), ln = to_rgba(colors::kLayerNorm);
    const Rgba input = to_rgba(kInputColor);
    const float axis = kAxisPerFraming * ui.framing;

    ViewScene scene;
    scene.background = bg;

    // Axes x₁, x₂ (, x₃) through the origin.
    for (Index k = 0; k < n; ++k) {
        const Vec3 e = Vec3::Unit(static_cast<int>(k)) * axis;
        scene.segments.push_back({-e, e, 1.5f * px.scale, mix(ink, bg, 0.45f)});
    }

    // RMSNorm's image set: the sphere ‖y ⊘ g‖ = √n (n = 2: a circle, filled and outlined).
    if (ui.show_sphere) {
        const Rgba sphere_tint = to_rgba(colors::kRmsNorm, 0.06f);
        if (flat) {
            scene.discs.push_back({Vec3(gain.x() * radius, 0, 0), Vec3(0, gain.y() * radius, 0), sphere_tint});
            add_loop(scene, plane_circle(128, r.scene.radius), gain, 2.0f * px.scale, mix(rms, bg, 0.35f));
        } else {
            scene.ellipsoids.push_back({gain * radius, sphere_tint});
        }
    }
    // The plane Σ = 0, where LayerNorm's centring puts x − μ (n = 2: the line x₁ + x₂ = 0).
    if (ui.show_plane) {
        if (flat) {
            const Vec3 d = Vec3(1, -1, 0).normalized() * axis;
            scene.segments.push_back({-d, d, 2.0f * px.scale, mix(ln, bg, 0.55f)});
        } else {
            const float extent = 1.3f * radius;
            scene.discs.push_back({Vec3(1, -1, 0).normalized() * extent, Vec3(1, 1, -2).normalized() * extent,
                                   to_rgba(colors::kLayerNorm, 0.07f)});
        }
    }
    // LayerNorm's image set: the circle where the sphere meets Σ = 0 (n = 2: the points ±(1, −1)).
    if (ui.show_circle) {
        const Mat set = layernorm_circle(n, 128);   // 128×3, or 2×2
        if (flat) {
            for (Index i = 0; i < set.rows(); ++i) {
                scene.markers.push_back({point3(set, i).cwiseProduct(gain), px.target_ring(), 3.0f * px.scale,
                                         Rgba{0, 0, 0, 0}, ln});
            }
        } else {
            add_loop(scene, set, gain, 3.0f * px.scale, ln);
        }
    }

    const Index B = r.scene.inputs.rows();
    // Paths: x → its RMSNorm image (radial), and x → x − μ → its LayerNorm image.
    if (ui.show_paths) {
        for (Index i = 0; i < B; ++i) {
            const bool selected = i == ui.selected;
            const float width = (selected ? 2.5f : 1.5f) * px.scale;
            const float fade = selected ? 0.1f : 0.55f;
            const Vec3 x = point3(r.scene.inputs, i), foot = point3(r.centred, i);
            scene.segments.push_back({x, point3(r.scene.rmsnorm, i), width, mix(rms, bg, fade)});
            scene.segments.push_back({x, foot, width, mix(ln, bg, fade + 0.15f)});
            scene.segments.push_back({foot, point3(r.scene.layernorm, i), width, mix(ln, bg, fade)});
            scene.markers.push_back({foot, px.foot(), px.outline(), bg, mix(ln, bg, fade)});
        }
    }
    // Points: the images, then the inputs over them (where they coincide, the input shows).
    const Rgba rms_edge = edge_of(colors::kRmsNorm), ln_edge = edge_of(colors::kLayerNorm);
    for (Index i = 0; i < B; ++i) {
        scene.markers.push_back({point3(r.scene.rmsnorm, i), px.image(), px.outline(), rms, rms_edge});
        scene.markers.push_back({point3(r.scene.layernorm, i), px.image(), px.outline(), ln, ln_edge});
    }
    for (Index i = 0; i < B; ++i) {
        const bool selected = i == ui.selected;
        scene.markers.push_back({point3(r.scene.inputs, i), selected ? px.selected_input() : px.input(),
                                 (selected ? 3.0f : 1.5f) * px.scale, input, ink});
    }
    return scene;
}

// [SECTION] View ----------------------------------------------------------------------------

ImVec2 at(ImVec2 origin, const Vec3& projected) { return {origin.x + projected.x(), origin.y + projected.y()}; }

// The input point under the mouse (nearest within its marker and a little slack), or −1.
int pick_point(const GeometryLabState& s, const ViewTransform& t, ImVec2 origin, ImVec2 mouse, const Sizes& px) {
    int best = -1;
    float best_d2 = FLT_MAX;
    const Mat shown = s.shrink * s.points;   // B×n
    for (Index i = 0; i < shown.rows(); ++i) {
        const Vec3 p = t.project(point3(shown, i));
        if (p.z() <= 0.0f) continue;
        const ImVec2 q = at(origin, p);
        const float d2 = (q.x - mouse.x) * (q.x - mouse.x) + (q.y - mouse.y) * (q.y - mouse.y);
        const float reach = px.selected_input() + kPickSlackPx;
        if (d2 < reach * reach && d2 < best_d2) {
            best = static_cast<int>(i);
            best_d2 = d2;
        }
    }
    return best;
}

// Mouse on the view: drag a point (in the camera's view plane), else orbit; wheel zooms;
// double-click on empty space resets the camera. Edits happen before the frame is computed.
void handle_view_mouse(GeometryLabState& s, GeometryUi& ui, const ViewTransform& t, ImVec2 origin, ImVec2 size,
                       const Sizes& px) {
    const bool flat = geometry_dimension(s) == 2;
    ImGui::SetCursorScreenPos(origin);
    ImGui::InvisibleButton("view", size);
    const ImGuiIO& io = ImGui::GetIO();
    const int hit = ImGui::IsItemHovered() ? pick_point(s, t, origin, io.MousePos, px) : -1;
    if (ImGui::IsItemActivated()) {
        ui.dragging = hit;
        if (hit >= 0) ui.selected = hit;
    }
    if (!ImGui::IsItemActive()) ui.dragging = -1;
    const bool moved = io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f;
    if (ImGui::IsItemActive() && moved) {
        if (ui.dragging >= 0 && ui.dragging < s.points.rows()) {
            const Vec3 p = point3(s.shrink * s.points.row(ui.dragging), 0);
            Vec3 q = p + t.screen_delta_to_world(io.MouseDelta.x, io.MouseDelta.y, t.project(p).z());
            if (flat) q.z() = 0.0f;
            geometry_move_point(s, ui.dragging, q.head(s.points.cols()).cast<double>());
        } else if (!flat) {
            ui.camera.yaw -= io.MouseDelta.x * kOrbitPerPx;
            ui.camera.pitch = std::clamp(ui.camera.pitch + io.MouseDelta.y * kOrbitPerPx, -kMaxPitch, kMaxPitch);
        }
    }
    if (ImGui::IsItemHovered()) {
        if (io.MouseWheel != 0.0f) {
            ui.camera.zoom = std::clamp(ui.camera.zoom * std::pow(kZoomPerNotch, io.MouseWheel), kMinZoom, kMaxZoom);
        }
        if (hit < 0 && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) reset_view(ui);
        if (hit >= 0 || ui.dragging >= 0) {
            ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        } else if (ImGui::IsItemActive() && !flat) {
            ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
        }
    }
}

// A point's numbers, for the tooltip and the panel.
std::string point_summary(const GeometryResults& r, Index i) {
    return "x = " + fmt_tuple(r.scene.inputs.row(i)) + "    RMS(x) = " + fmt_value(r.rms(i)) +
           "\nRMSNorm:   y = " + fmt_tuple(r.scene.rmsnorm.row(i)) +
           "\nLayerNorm: y = " + fmt_tuple(r.scene.layernorm.row(i)) +
           "    (via x − μ = " + fmt_tuple(r.centred.row(i)) + ")";
}

// Axis names, point numbers and, for n = 2, LayerNorm's two points, at their projections.
void draw_labels(const GeometryLabState& s, const GeometryUi& ui, const GeometryResults& r, const ViewTransform& t,
                 ImVec2 origin, ImVec2 end, const Fonts& fonts, const Sizes& px, const ImVec4& key_box) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    const Index n = geometry_dimension(s);
    // Each label's box; a point's number that would cover an earlier label or the colour key
    // (key_box), or not lie wholly inside the view, is left out (two points seen one behind the other: the tooltip names each).
    std::vector<ImVec4> placed = {key_box};
    const auto centred_text = [&](ImFont* font, const Vec3& world, const std::string& text, ImVec2 nudge, ImU32 col,
                                  bool optional = false) {
        const Vec3 p = t.project(world);
        if (p.z() <= 0.0f) return;
        const ImVec2 sz = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str());
        const ImVec2 q = at(origin, p);
        ImVec2 a(q.x - 0.5f * sz.x + nudge.x, q.y - 0.5f * sz.y + nudge.y);
        if (!optional) {   // an axis name stays inside the view, beside its axis' end where that is near the edge
            a.x = std::clamp(a.x, origin.x, std::max(origin.x, end.x - sz.x));
            a.y = std::clamp(a.y, origin.y, std::max(origin.y, end.y - sz.y));
        }
        const ImVec4 box(a.x, a.y, a.x + sz.x, a.y + sz.y);
        const auto meets = [&](const ImVec4& b) { return box.x < b.z && b.x < box.z && box.y < b.w && b.y < box.w; };
        const bool inside = box.x >= origin.x && box.y >= origin.y && box.z <= end.x && box.w <= end.y;
        if (optional && (!inside || std::any_of(placed.begin(), placed.end(), meets))) return;
        placed.push_back(box);
        dl->AddText(font, font->FontSize, a, col, text.c_str());
    };
    for (Index k = 0; k < n; ++k) {
        const float reach = (kAxisPerFraming + 0.1f) * ui.framing;
        centred_text(fonts.heading, Vec3::Unit(static_cast<int>(k)) * reach, "x" + subscript(k + 1),
                     ImVec2(0, 0), ink);
    }
    if (n == 2 && ui.show_circle) {
        const float dy = px.target_ring() + 0.6f * fonts.small->FontSize;
        const Vec3 gain(static_cast<float>(s.g(0)), static_cast<float>(s.g(1)), 0.0f);
        const char* name = gain_is_one(s.g) ? "" : "g ⊙ ";
        centred_text(fonts.small, Vec3(1, -1, 0).cwiseProduct(gain), std::string(name) + "(1, −1)", ImVec2(0, dy),
                     to_u32(colors::kLayerNorm));
        centred_text(fonts.small, Vec3(-1, 1, 0).cwiseProduct(gain), std::string(name) + "(−1, 1)", ImVec2(0, -dy),
                     to_u32(colors::kLayerNorm));
    }
    if (!ui.show_labels || r.scene.inputs.rows() == 0) return;
    for (Index k = -1; k < r.scene.inputs.rows(); ++k) {   // the selected point's number first
        const Index i = k < 0 ? ui.selected : k;
        const bool selected = i == ui.selected;
        if (selected && k >= 0) continue;
        const float off = (selected ? px.selected_input() : px.input()) + 0.45f * fonts.small->FontSize;
        centred_text(selected ? fonts.bold : fonts.small, point3(r.scene.inputs, i), std::to_string(i + 1),
                     ImVec2(off, -off), ink, !selected);
    }
}

// One row of the colour key: its marker (as in the view) and words.
struct KeyItem {
    float radius;
    ImU32 fill, outline;
    std::string text;
};

std::vector<KeyItem> key_items(const GeometryLabState& s, const Sizes& px) {
    const Index n = geometry_dimension(s);
    const bool flat = n == 2;
    const std::string root = n == 3 ? "√3" : "√2";
    const bool unit_gain = gain_is_one(s.g);
    const Rgba bg = theme_color(ImGuiCol_WindowBg);
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    return {
        {px.input(), to_u32(kInputColor), ink, s.shrink < 1.0 ? tr("input  s·x  (drag it)") : tr("input  x  (drag it)")},
        {px.image(), to_u32(colors::kRmsNorm), rgba_u32(edge_of(colors::kRmsNorm)),
         unit_gain ? (flat ? tr("RMSNorm image: on the circle ‖y‖ = {0}", root) : tr("RMSNorm image: on the sphere ‖y‖ = {0}", root))
                   : std::string(flat ? tr("RMSNorm image: on the ellipse g ⊙ circle")
                                      : tr("RMSNorm image: on the ellipsoid g ⊙ sphere"))},
        {px.image(), to_u32(colors::kLayerNorm), rgba_u32(edge_of(colors::kLayerNorm)),
         flat ? std::string(unit_gain ? tr("LayerNorm image: one of ±(1, −1)") : tr("LayerNorm image: one of g ⊙ ±(1, −1)"))
              : (unit_gain ? tr("LayerNorm image: on the circle in Σ = 0, ‖y‖ = {0}", root)
                           : std::string(tr("LayerNorm image: on the ellipse g ⊙ circle")))},
        {px.foot(), rgba_u32(bg), to_u32(colors::kLayerNorm),
         flat ? tr("x − μ: on the line x₁ + x₂ = 0") : tr("x − μ: LayerNorm's step onto the plane Σ = 0")},
    };
}

// The colour key's rows: each item's text broken into lines (wrap_lines) no wider than the box
// of at most `max_w` px leaves them (a long translation wraps rather than leaving the view).
std::vector<std::vector<std::string>> key_lines(const std::vector<KeyItem>& items, const Sizes& px, const ImFont& font,
                                                float max_w) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float text_max = std::max(4.0f * font.FontSize, max_w - 2.0f * style.WindowPadding.x - 2.0f * px.input() -
                                                               style.ItemInnerSpacing.x);
    std::vector<std::vector<std::string>> out;
    for (const KeyItem& item : items) {
        std::vector<std::string>& lines = out.emplace_back();
        for (const TextLine& l : wrap_lines(font, font.FontSize, item.text, text_max))
            lines.push_back(item.text.substr(l.begin, l.end - l.begin));
    }
    return out;
}

// The colour key's box size, padding included.
ImVec2 key_size(const std::vector<std::vector<std::string>>& lines, const Sizes& px, const ImFont& font) {
    const ImGuiStyle& style = ImGui::GetStyle();
    float text_w = 0.0f;
    std::size_t rows = 0;
    for (const std::vector<std::string>& item : lines) {
        for (const std::string& l : item)
            text_w = std::max(text_w, font.CalcTextSizeA(font.FontSize, FLT_MAX, 0.0f, l.c_str()).x);
        rows += std::max<std::size_t>(1, item.size());
    }
    const float rows_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(rows) - style.ItemSpacing.y;
    return {2.0f * style.WindowPadding.x + 2.0f * px.input() + style.ItemInnerSpacing.x + text_w,
            2.0f * style.WindowPadding.y + rows_h};
}

// The colour key (`lines`: key_lines of `items`) in a box with its top left at p0; returns the box.
ImVec4 draw_legend(const std::vector<KeyItem>& items, const std::vector<std::vector<std::string>>& lines, ImVec2 p0,
                   const Fonts& fonts, const Sizes& px) {
    const Rgba bg = theme_color(ImGuiCol_WindowBg);
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float marker_w = 2.0f * px.input() + style.ItemInnerSpacing.x;
    const ImVec2 size = key_size(lines, px, *fonts.regular);
    const ImVec2 p1(p0.x + size.x, p0.y + size.y);
    dl->AddRectFilled(p0, p1, rgba_u32(Rgba{bg.r, bg.g, bg.b, 0.88f}), style.ChildRounding);
    dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border), style.ChildRounding);
    float y = p0.y + style.WindowPadding.y;
    for (std::size_t k = 0; k < items.size(); ++k) {
        const KeyItem& item = items[k];
        const ImVec2 c(p0.x + style.WindowPadding.x + px.input(), y + 0.5f * ImGui::GetTextLineHeight());
        legend_marker(dl, c, item.radius, px.outline(), item.fill, item.outline);
        for (const std::string& l : lines[k]) {
            dl->AddText(fonts.regular, fonts.regular->FontSize, ImVec2(p0.x + style.WindowPadding.x + marker_w, y), ink,
                        l.c_str());
            y += line;
        }
        if (lines[k].empty()) y += line;
    }
    return ImVec4(p0.x, p0.y, p1.x, p1.y);
}

// What the picture says, in words: the caption, then what g and ε do right now.
void draw_caption(const GeometryLabState& s, const GeometryResults& r, const Fonts& fonts) {
    const Index n = geometry_dimension(s);
    ImGui::PushFont(fonts.bold);
    push_wrap_at_edge();
    if (n == 3) {
        ImGui::TextUnformatted(tr("RMSNorm maps every input onto the sphere of radius √n (here √3 ≈ 1.732); LayerNorm "
                               "first projects onto the plane Σx = 0, then onto the circle of radius √n in it."));
    } else {
        ImGui::TextUnformatted(tr("RMSNorm maps every input onto the circle of radius √n (here √2 ≈ 1.414); LayerNorm "
                               "first projects onto the line x₁ + x₂ = 0, then onto its two points at distance √2: "
                               "±(1, −1)."));
    }
    ImGui::PopFont();
    if (!gain_is_one(s.g)) {
        const Vec axes = s.g * r.scene.radius;
        ImGui::Text(tr("Gain g = %s stretches the %s with semi-axes gᵢ·√%d = %s, and LayerNorm's %s with it."),
                    fmt_tuple(s.g.transpose()).c_str(), n == 3 ? tr("sphere into an ellipsoid") : tr("circle into an ellipse"),
                    static_cast<int>(n), fmt_tuple(axes.transpose()).c_str(), n == 3 ? tr("circle") : tr("points"));
    }
    // ε matters once the spread nears √ε (inside the root) or ε (added to it).
    const bool inside = s.eps_mode == EpsMode::InsideSqrt;
    const std::string scale = (inside ? "√ε = " : "ε = ") + fmt_value(inside ? std::sqrt(s.eps) : s.eps);
    const double on_set = 0.999;   // closer than 0.1% of the radius: on the set, as far as the eye can tell
    const Index kr = r.rms_innermost, kl = r.ln_innermost;
    if (r.rms_radius(kr) > on_set && r.ln_radius(kl) > on_set) {
        ImGui::TextColored(kGoodText, tr("Every image lies on its set (to 0.1%%): each RMS(x) and σ is far above %s."),
                           scale.c_str());
    }
    if (r.rms_radius(kr) <= on_set) {
        ImGui::TextColored(kEpsColor, tr("ε pulls small inputs inside: point %d has RMS(x) = %s against %s, so its "
                           "RMSNorm image lies at %.2f%% of the radius."),
                           static_cast<int>(kr + 1), fmt_value(r.rms(kr)).c_str(), scale.c_str(),
                           100.0 * r.rms_radius(kr));
    }
    if (r.ln_radius(kl) <= on_set) {
        ImGui::TextColored(kEpsColor, tr("LayerNorm: point %d has σ = %s against %s (x near the diagonal x₁ = x₂%s, or "
                           "small), so its image lies at %.2f%% of the radius."),
                           static_cast<int>(kl + 1), fmt_value(r.sigma(kl)).c_str(), scale.c_str(),
                           n == 3 ? " = x₃" : "", 100.0 * r.ln_radius(kl));
    }
    ImGui::PopTextWrapPos();
}

constexpr float kKeyOverViewMax = 0.45f;

enum class KeyPlace { Over, Beside, Under };

// Where the view and its colour key (of size `key`) go in what is left of the window above one
// hint line (when `words`): the view fills it on whole pixels (the texture maps 1:1), at least 12
// text heights in the lab (its window scrolls), what the slide gives it on a slide. The key sits
// over the view's top left corner while it covers at most kKeyOverViewMax of the width (not in a
// narrow window, large text); else beside the view or under it, whichever leaves the ball (the
// view's shorter side) larger.
struct ViewPlace {
    KeyPlace key = KeyPlace::Over;
    ImVec2 size;
    float key_h = 0.0f;   // the room under the view the key takes
};
ViewPlace view_place(ImVec2 key, bool words) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float hint_h = words ? ImGui::GetTextLineHeightWithSpacing() : 0.0f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 room(avail.x, avail.y - hint_h);
    ViewPlace v;
    if (key.x + 2.0f * style.WindowPadding.x > kKeyOverViewMax * room.x) {
        const float beside = std::min(room.x - key.x - style.ItemSpacing.x, room.y);
        const float under = std::min(room.x, room.y - key.y - style.ItemSpacing.y);
        v.key = beside > under && key.y <= room.y ? KeyPlace::Beside : KeyPlace::Under;
    }
    v.key_h = v.key == KeyPlace::Under ? key.y + style.ItemSpacing.y : 0.0f;
    const float key_w = v.key == KeyPlace::Beside ? key.x + style.ItemSpacing.x : 0.0f;
    const float min_h = (words ? 12.0f : 4.0f) * ImGui::GetFontSize();
    v.size = ImVec2(std::floor(room.x - key_w), std::floor(std::max(room.y - v.key_h, min_h)));
    return v;
}

// The view with, when `words`, the caption above it and the mouse and keys under it (a slide
// has its own caption, and no keys).
// The view; a right-click on it saves its figure (geometry_view_plot), whose status line goes to `status`.
void draw_view(GeometryLabState& s, GeometryUi& ui, const Fonts& fonts, bool words, std::string& status) {
    const ImGuiIO& io = ImGui::GetIO();
    const Sizes px{ImGui::GetFontSize() / static_cast<float>(kDefaultFontPx)};
    const bool flat = geometry_dimension(s) == 2;

    std::optional<GeometryResults> results;
    std::string error;
    try {
        results = compute_geometry(s);
    } catch (const std::exception& e) {
        error = e.what();
    }
    if (!results) {
        ImGui::TextColored(kErrorText, tr("Cannot compute the images: %s"), error.c_str());
        return;
    }
    if (words) {
        draw_caption(s, *results, fonts);
        ImGui::Spacing();
    }

    const std::vector<KeyItem> key = key_items(s, px);
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 cursor = ImGui::GetCursorScreenPos();
    const ImVec2 origin(std::floor(cursor.x), std::floor(cursor.y));
    const std::vector<std::vector<std::string>> key_text = key_lines(key, px, *fonts.regular, ImGui::GetContentRegionAvail().x);
    const ViewPlace place = view_place(key_size(key_text, px, *fonts.regular), words);
    const ImVec2 size = place.size;
    const float key_h = place.key_h;
    const Eigen::Vector2f view_size(size.x, size.y);

    if (ui.dragging < 0) ui.framing = framing_radius(s);   // held while a point is dragged
    handle_view_mouse(s, ui, orbit_view(ui.camera, flat, ui.framing, view_size), origin, size, px);
    if (ui.dragging >= 0) results = compute_geometry(s);   // the point moved: draw where it is now
    if (std::string saved = figure_context_menu("view figure", "geometry_view", [&] { return geometry_view_plot(s, *results, figure_view(ui)); });
        !saved.empty())
        status = std::move(saved);
    const ViewTransform t = orbit_view(ui.camera, flat, ui.framing, view_size);
    const int fb_w = static_cast<int>(size.x * io.DisplayFramebufferScale.x);
    const int fb_h = static_cast<int>(size.y * io.DisplayFramebufferScale.y);
    const unsigned texture = ui.renderer.render(build_scene(s, ui, *results, px), t, fb_w, fb_h);

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 end(origin.x + size.x, origin.y + size.y);
    if (texture != 0) {
        // GL keeps the bottom row first: flip v.
        dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)), origin, end, ImVec2(0, 1),
                     ImVec2(1, 0));
        dl->PushClipRect(origin, end, true);   // labels of points near the edge stay inside the view
        ImDrawListSplitter layers;   // the key over the labels, placed first so that they can keep off it
        layers.Split(dl, 2);
        layers.SetCurrentChannel(dl, 1);
        const ImVec2 pad = style.WindowPadding;
        const ImVec4 key_box = place.key != KeyPlace::Over ? ImVec4(0, 0, 0, 0)
                                                       : draw_legend(key, key_text, ImVec2(origin.x + pad.x, origin.y + pad.y), fonts, px);
        layers.SetCurrentChannel(dl, 0);
        draw_labels(s, ui, *results, t, origin, end, fonts, px, key_box);
        layers.Merge(dl);
        dl->PopClipRect();
        if (place.key == KeyPlace::Under) draw_legend(key, key_text, ImVec2(origin.x, end.y + style.ItemSpacing.y), fonts, px);
        if (place.key == KeyPlace::Beside) draw_legend(key, key_text, ImVec2(end.x + style.ItemSpacing.x, origin.y), fonts, px);
    } else {
        dl->AddRect(origin, end, ImGui::GetColorU32(ImGuiCol_Border));
        ImGui::SetCursorScreenPos(ImVec2(origin.x + 10.0f, origin.y + 10.0f));
        ImGui::PushTextWrapPos(end.x - 10.0f);
        ImGui::TextColored(kErrorText, tr("The 3D view cannot start: %s. The numbers on the left still update."),
                           ui.renderer.error().c_str());
        ImGui::PopTextWrapPos();
    }
    dl->AddRect(origin, end, ImGui::GetColorU32(ImGuiCol_Border), ImGui::GetStyle().ChildRounding);

    if (ui.dragging < 0 && ImGui::IsMouseHoveringRect(origin, end)) {
        const int hover = pick_point(s, t, origin, io.MousePos, px);
        if (hover >= 0) {
            const std::string text = tr("Point {0} (drag to move it)", hover + 1) + "\n" + point_summary(*results, hover);
            ImGui::SetTooltip("%s", text.c_str());
        }
    }
    if (!words) return;
    ImGui::SetCursorScreenPos(ImVec2(origin.x, end.y + key_h + ImGui::GetStyle().ItemSpacing.y));
    const char* other_n = flat ? "3" : "2";
    const std::string hint =
        flat ? tr("Drag a grey point: move it · wheel: zoom · double-click or {0}: reset view · {1}: randomise · {2}: "
                  "switch to n = {3}",
                  key_of(kResetView), key_of(kRandomise), key_of(kSwitchN), other_n)
             : tr("Drag: orbit · drag a grey point: move it · wheel: zoom · double-click or {0}: reset view · {1}: "
                  "randomise · {2}: switch to n = {3}",
                  key_of(kResetView), key_of(kRandomise), key_of(kSwitchN), other_n);
    // Where the whole line does not fit, the short one: the keys alone (the tooltips say the rest).
    const std::string short_hint = tr("{0}: reset view · {1}: randomise · {2}: n = {3}", key_of(kResetView),
                                      key_of(kRandomise), key_of(kSwitchN), other_n);
    const bool fits = ImGui::CalcTextSize(hint.c_str()).x <= ImGui::GetContentRegionAvail().x;
    ImGui::TextDisabled("%s", fits ? hint.c_str() : short_hint.c_str());
}

// [SECTION] Controls panel ------------------------------------------------------------------

void draw_dimension_section(GeometryLabState& s, GeometryUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Dimension"));
    const Index n = geometry_dimension(s);
    const std::string key = tr(" (key {0})", key_of(kSwitchN));
    if (ImGui::RadioButton(tr("n = 3: sphere and circle"), n == 3) && n != 3) switch_dimension(s, ui);
    tooltip((tr("Points in R³: RMSNorm's images on the sphere ‖y‖ = √3, LayerNorm's on the circle where it meets "
             "x₁ + x₂ + x₃ = 0.") + key).c_str());
    if (ImGui::RadioButton(tr("n = 2: circle and two points"), n == 2) && n != 2) switch_dimension(s, ui);
    tooltip((tr("Points in the plane: RMSNorm's images on the circle ‖y‖ = √2; LayerNorm's collapse to ±(1, −1), "
             "the two points of that circle on the line x₁ + x₂ = 0.") + key).c_str());
}

void draw_batch_section(GeometryLabState& s, GeometryUi& ui, const std::optional<GeometryResults>& r,
                        const Fonts& fonts) {
    heading(fonts.heading, tr("Inputs x"));
    if (ImGui::Button(tr("Randomise"))) geometry_randomize(s);
    tooltip(tr("A new batch: xᵢⱼ ~ N(0.4, 1.1²), rounded to 0.01, from a seed that advances on every use. (key {0})",
               key_of(kRandomise)).c_str());
    ImGui::SameLine();
    int B = static_cast<int>(s.points.rows());
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize(tr("points B")).x - ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::SliderInt(tr("points B"), &B, static_cast<int>(kGeometryMinBatch), static_cast<int>(kGeometryMaxBatch), "%d",
                         ImGuiSliderFlags_AlwaysClamp)) {
        geometry_set_batch_size(s, B);
    }
    tooltip(tr("Number of input points (1..32), the rows of the batch x (B×n). New points are drawn at random; "
            "existing ones stay."));
    ui.selected = std::clamp(ui.selected, 0, static_cast<int>(s.points.rows()) - 1);

    // The selected point: its coordinates to edit, and its two images.
    int point = ui.selected + 1;
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize(tr("selected")).x - ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::SliderInt(tr("selected"), &point,
 1, static_cast<int>(s.points.rows()), "%d", ImGuiSliderFlags_AlwaysClamp))
        ui.selected = point - 1;
    tooltip(tr("The point whose numbers are shown below and whose paths are drawn bold; clicking a point in the view "
            "selects it too."));
    const Index n = geometry_dimension(s);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float cell_w = (ImGui::GetContentRegionAvail().x + style.ItemSpacing.x) / static_cast<float>(n);
    const float x0 = ImGui::GetCursorPosX();
    const ImGuiID slot = field_slot("coordinates");
    for (Index j = 0; j < n; ++j) {
        if (j > 0) ImGui::SameLine(x0 + static_cast<float>(j) * cell_w);
        ImGui::PushID(static_cast<int>(j));
        const std::string label = "x" + subscript(j + 1);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(label.c_str());
        ImGui::SameLine();
        ImGui::SetNextItemWidth(cell_w - ImGui::CalcTextSize(label.c_str()).x - 2.0f * style.ItemSpacing.x);
        double value = s.points(ui.selected, j);
        const bool edited = ImGui::DragScalar("##x", ImGuiDataType_Double, &value, 0.01f, &kGeometryCoordRule.lo,
                                              &kGeometryCoordRule.hi, "%.2f");
        tooltip(tr("Coordinate of the selected input, in [−4, 4] (before shrinking): drag left/right, click to "
                "type, or drag the point itself in the view."));
        accept_number(slot, label, edited, value, s.points(ui.selected, j), kGeometryCoordRule);
        ImGui::PopID();
    }
    field_message(slot);
    if (r) {
        const Index i = ui.selected;
        ImGui::TextDisabled("RMS(x) = √mean(x²) = %s", fmt_value(r->rms(i)).c_str());
        const auto row = [&](Color color, const char* name, const std::string& values, const char* help) {
            ImGui::BeginGroup();
            const float radius = 0.3f * ImGui::GetFontSize();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            legend_marker(ImGui::GetWindowDrawList(), ImVec2(p.x + radius, p.y + 0.5f * ImGui::GetTextLineHeight()),
                          radius, 1.0f, to_u32(color), to_u32(color));
            ImGui::Dummy(ImVec2(2.0f * radius, ImGui::GetTextLineHeight()));
            ImGui::SameLine();
            ImGui::Text("%s  y = %s", name, values.c_str());
            ImGui::EndGroup();
            tooltip(help);
        };
        row(colors::kRmsNorm, "RMSNorm", fmt_tuple(r->scene.rmsnorm.row(i)),
            tr("y = x / RMS(x) ⊙ g, RMS(x) = √(mean(x²) + ε) (paper eq. 4): the direction of x, length √n."));
        row(colors::kLayerNorm, "LayerNorm", fmt_tuple(r->scene.layernorm.row(i)),
            tr("y = (x − μ) / σ ⊙ g, σ = √(mean((x − μ)²) + ε) (paper eq. 2–3): the direction of x − μ, length √n."));
    }

    heading(fonts.heading, tr("Shrink the inputs"));
    log_slider("s", "s", s.shrink, kGeometryShrinkRule, "%.4g", -ImGui::CalcTextSize("s").x - style.ItemInnerSpacing.x,
               tr("The norms see s·x, s from 1e−4 to 1 on a log scale: both norms ignore the scale (the images stay) "
               "until RMS(s·x) nears √ε, where ε pulls them inside the sphere."));
}

void draw_gain_section(GeometryLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Gain g"));
    const Index n = geometry_dimension(s);
    const ImGuiStyle& style = ImGui::GetStyle();
    for (Index j = 0; j < n; ++j) {
        ImGui::PushID(static_cast<int>(j));
        const std::string label = "g" + subscript(j + 1);
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize(label.c_str()).x - style.ItemInnerSpacing.x);
        checked_number(label.c_str(), s.g(j), kGeometryGainRule, [&label](double* g) {
            const bool changed = ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, g, &kGeometryGainRule.lo,
                                                     &kGeometryGainRule.hi, "%.2f");
            tooltip(tr("Gain per axis, yᵢ = āᵢ gᵢ (paper eq. 2 and 4), 0.25 to 2: stretches the sphere to an ellipsoid "
                    "with semi-axes gᵢ√n, and LayerNorm's circle with it."));
            return changed;
        });
        ImGui::PopID();
    }
    ImGui::BeginDisabled(gain_is_one(s.g));
    if (ImGui::Button(tr("Reset: g = 1"))) s.g.setOnes();
    ImGui::EndDisabled();
    tooltip(tr("Back to the sphere of radius √n: y = ā."));
}

void draw_eps_section(GeometryLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("ε (keeps the division finite)"));
    log_slider("ε", "ε", s.eps, kGeometryEpsRule, "%.1e", -ImGui::CalcTextSize("ε").x - ImGui::GetStyle().ItemInnerSpacing.x,
               tr("ε from 1e−8 to 1 on a log scale: the image's length is √n·RMS(x)/√(RMS(x)² + ε), so inputs with "
               "RMS(x) near √ε or below land inside the sphere."));
    if (ImGui::RadioButton(tr("inside √"), s.eps_mode == EpsMode::InsideSqrt)) s.eps_mode = EpsMode::InsideSqrt;
    tooltip(tr("Divide by √(RMS(x)² + ε) (PyTorch, Hugging Face, the paper's TensorFlow code; the default)."));
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("added: RMS + ε"), s.eps_mode == EpsMode::AddToRms)) s.eps_mode = EpsMode::AddToRms;
    tooltip(tr("Divide by RMS(x) + ε (the paper's PyTorch file): ε then matters once RMS(x) nears ε rather than √ε."));
}

void draw_show_section(GeometryUi& ui, bool flat, const Fonts& fonts) {
    heading(fonts.heading, tr("Show"));
    const float col = ImGui::GetCursorPosX() + 0.5f * ImGui::GetContentRegionAvail().x;
    ImGui::Checkbox(flat ? tr("circle ‖y‖ = √2###show_sphere") : tr("sphere ‖y‖ = √3###show_sphere"), &ui.show_sphere);
    tooltip(tr("RMSNorm's image set: every y = x / RMS(x) has ‖y‖ = √n (stretched by g)."));
    ImGui::SameLine(col);
    ImGui::Checkbox(flat ? tr("line x₁ + x₂ = 0###show_plane") : tr("plane Σ = 0###show_plane"), &ui.show_plane);
    tooltip(tr("Where LayerNorm's centring puts x − μ: Σᵢ (xᵢ − μ) = 0."));
    ImGui::Checkbox(flat ? tr("LayerNorm's points###show_circle") : tr("LayerNorm's circle###show_circle"), &ui.show_circle);
    tooltip(tr("LayerNorm's image set: the sphere ‖y‖ = √n met with Σ = 0 (n = 2: the points ±(1, −1))."));
    ImGui::SameLine(col);
    ImGui::Checkbox(tr("paths###show_paths"), &ui.show_paths);
    tooltip(tr("Lines from each input to its RMSNorm image (along x) and to its LayerNorm image via x − μ."));
    ImGui::Checkbox(tr("point numbers"), &ui.show_labels);
    tooltip(tr("Number each input point as in the panel's \"selected\" slider."));
    ImGui::SameLine(col);
    if (ImGui::Button(tr("Reset view"))) reset_view(ui);
    tooltip(tr("Camera back to its first angle and zoom (also: double-click the view, key {0}).", key_of(kResetView)).c_str());

}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_geometry_lab(GeometryContext& ctx) {
    GeometryLabState& state = ctx.session.geometry;
    GeometryUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;

    ui.selected = std::clamp(ui.selected, 0, std::max(0, static_cast<int>(state.points.rows()) - 1));
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: the 3D view alone
        begin_controls_panel(0.29f, 19.0f, 28.0f);
        std::optional<GeometryResults> results;
        try {
            results = compute_geometry(state);
        } catch (const std::exception&) {
            // The view says why.
        }
        draw_dimension_section(state, ui, fonts);
        draw_batch_section(state, ui, results, fonts);
        draw_gain_section(state, fonts);
        draw_eps_section(state, fonts);
        draw_show_section(ui, geometry_dimension(state) == 2, fonts);
        end_controls_panel();
    }
    // The wheel zooms the view; a window too short for the view, its key and hint scrolls by its bar.
    ImGui::BeginChild("view", ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NavFlattened);
    draw_view(state, ui, fonts, true, ctx.app.status);
    ImGui::EndChild();
}

std::vector<Plot> geometry_lab_plots(GeometryContext& ctx) {
    const GeometryLabState& s = ctx.session.geometry;
    return {geometry_view_plot(s, compute_geometry(s), figure_view(ctx.ui))};
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void draw_geometry_figure(GeometryContext& ctx, const std::string&, ImVec2) {   // "geometry_view"
    ctx.ui.selected =
        std::clamp(ctx.ui.selected, 0, std::max(0, static_cast<int>(ctx.session.geometry.points.rows()) - 1));
    draw_view(ctx.session.geometry, ctx.ui, ctx.fonts, false, ctx.app.status);
}

const SlideParts<GeometryContext> kGeometrySlide{{{{"geometry_view", 1.3f}}, 1, {}}, nullptr, draw_geometry_figure};

}  // namespace

const LabWindow<GeometryContext> kGeometryWindow{&kGeometryInfo, draw_geometry_lab, geometry_lab_plots, geometry_lab_actions, &kGeometrySlide};

}  // namespace normlab::ui
