// The lab table and the window that hosts the labs as tabs.
#include "labs.hpp"

namespace normlab::ui {

const Lab kLabs[] = {
    // id           tab               Help ▸ This lab    draw                 figures                keys
    {"explorer",   "Explorer",       &kExplorerInfo,    draw_explorer_lab,   nullptr,               explorer_lab_keys},
    {"invariance", "Invariance",     &kInvarianceInfo,  draw_invariance_lab, invariance_lab_plots,  invariance_lab_keys},
    {"worked",     "Worked example", &kWorkedInfo,      draw_worked_lab,     nullptr,               worked_lab_keys},
    {"gradients",  "Gradients",      &kGradientsInfo,   draw_gradients_lab,  gradients_lab_plots,   gradients_lab_keys},
    {"geometry",   "Geometry",       &kGeometryInfo,    draw_geometry_lab,   nullptr,               geometry_lab_keys},
    {"training",   "Training",       &kTrainingInfo,    draw_training_lab,   training_lab_plots,    training_lab_keys},
    {"gpu",        "GPU",            &kGpuInfo,         draw_gpu_lab,        gpu_lab_plots,         gpu_lab_keys},
    {"depth",      "Depth",          &kDepthInfo,       draw_depth_lab,      depth_lab_plots,       depth_lab_keys},
};
const int kLabCount = static_cast<int>(sizeof kLabs / sizeof kLabs[0]);

int find_lab(const std::string& id) {
    for (int i = 0; i < kLabCount; ++i)
        if (id == kLabs[i].id) return i;
    return -1;
}

std::string lab_ids() {
    std::string out;
    for (const Lab& lab : kLabs) out += (out.empty() ? "" : ", ") + std::string(lab.id);
    return out;
}

void draw_labs(LabContext& ctx, ImVec2 pos, ImVec2 size) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    constexpr ImGuiWindowFlags kHost = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                       ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                       ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar;
    ImGui::Begin("##labs", nullptr, kHost);
    if (ImGui::BeginTabBar("labs")) {
        for (int i = 0; i < kLabCount; ++i) {
            const ImGuiTabItemFlags flags = ctx.app.select_lab == i ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(kLabs[i].tab, nullptr, flags)) {
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kLabs[i].info->title);
                ctx.app.lab = i;
                ImGui::BeginChild(kLabs[i].id);
                kLabs[i].draw(ctx);
                ImGui::EndChild();
                ImGui::EndTabItem();
            } else if (ImGui::IsItemHovered()) {
                ImGui::SetTooltip("%s", kLabs[i].info->title);
            }
        }
        ImGui::EndTabBar();
    }
    ctx.app.select_lab = -1;
    ImGui::End();
}

}  // namespace normlab::ui
