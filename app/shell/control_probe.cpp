// `normlab --probe-controls` (see control_probe.hpp).
#include "control_probe.hpp"

#include "labs.hpp"
#include "session_io.hpp"

#include <normlab/scene/scene.hpp>

#include <imgui_internal.h>   // GImGui->HoveredId: the widget under the mouse this frame
#include <nlohmann/json.hpp>

#include <cmath>

namespace normlab::ui {

namespace {

constexpr std::size_t kClickFrames = 4;   // hover, press, release, one frame for the edit to show

int columns(ImVec2 size, float step) { return std::max(1, static_cast<int>(size.x / step)); }
int rows(ImVec2 size, float step) { return std::max(1, static_cast<int>(size.y / step)); }

bool inside(ImVec2 p, const SlideRect& r) { return p.x >= r.min.x && p.x < r.max.x && p.y >= r.min.y && p.y < r.max.y; }

nlohmann::json box_json(const SlideRect& r) { return {r.min.x, r.min.y, r.max.x, r.max.y}; }

}  // namespace

ControlProbe::ControlProbe(ImVec2 size, float step) : size_(size), step_(step) {}

void ControlProbe::before_frame(ImGuiIO& io) const {
    if (phase_ == Phase::Scan) {
        const int cols = columns(size_, step_);
        io.MousePos = ImVec2((static_cast<float>(point_ % cols) + 0.5f) * step_,
                             (static_cast<float>(point_ / cols) + 0.5f) * step_);
        io.MouseDown[0] = false;
    } else if (phase_ == Phase::Click) {
        io.MousePos = to_click_[click_];
        io.MouseDown[0] = click_frame_ == 1;
    }
}

std::string ControlProbe::fingerprint(const AppContext& ctx) {
    return scene_to_text(current_scene(ctx)) + (ctx.uis.training.playing ? "training plays" : "training paused") +
           (ctx.uis.depth.playing ? "depth plays" : "depth paused");
}

void ControlProbe::after_frame(const AppContext& ctx, const std::vector<SlideBox>& boxes) {
    if (phase_ == Phase::Scan) {
        const ImGuiID hovered = GImGui->HoveredId;
        if (hovered != 0 && widgets_.count(hovered) == 0) {
            const int cols = columns(size_, step_);
            widgets_[hovered] = {ImVec2((static_cast<float>(point_ % cols) + 0.5f) * step_,
                                        (static_cast<float>(point_ / cols) + 0.5f) * step_)};
        }
        if (++point_ < columns(size_, step_) * rows(size_, step_)) return;
        for (const auto& [id, w] : widgets_) {
            bool named = false;
            for (const SlideBox& b : boxes) named = named || (!b.figure && inside(w.at, b.rect));
            if (!named) to_click_.push_back(w.at);
        }
        phase_ = to_click_.empty() ? Phase::Done : Phase::Click;
        return;
    }
    if (phase_ != Phase::Click) return;
    if (click_frame_ == 0) before_ = fingerprint(ctx);
    if (++click_frame_ < kClickFrames) return;
    std::string effect;
    if (fingerprint(ctx) != before_) effect = "edits the session or a lab's run";
    else if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) effect = "opens a pop-up";
    else if (ImGui::GetIO().WantTextInput) effect = "takes the keyboard";
    if (!effect.empty()) unnamed_.push_back({to_click_[click_], effect});
    click_frame_ = 0;
    if (++click_ == to_click_.size()) phase_ = Phase::Done;
}

std::string ControlProbe::report_json(const std::vector<SlideBox>& boxes) const {
    nlohmann::json named = nlohmann::json::array(), figures = nlohmann::json::array(), unnamed = nlohmann::json::array();
    for (const SlideBox& b : boxes) (b.figure ? figures : named).push_back({{"id", b.id}, {"box", box_json(b.rect)}});
    for (const Unnamed& u : unnamed_) unnamed.push_back({{"at", {u.at.x, u.at.y}}, {"effect", u.effect}});
    const nlohmann::json out = {{"widgets", widgets_.size()}, {"clicked", to_click_.size()}, {"named", named},
                                {"figures", figures}, {"unnamed", unnamed}};
    return out.dump(2) + "\n";
}

}  // namespace normlab::ui
