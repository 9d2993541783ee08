// `normlab --probe-controls`: does a presenter slide draw an editing control its lecture file did
// not name? The probe hovers the window every few pixels, one frame per point, and notes each
// widget that answers (Dear ImGui's hovered item). Each widget found outside the boxes of the
// slide's named controls is then clicked once: if the click edits the session, starts or stops a
// lab's run, opens a pop-up or takes the keyboard, it is an editing control the slide did not
// name. Figures' own canvases (a plot's zoom, a table cell's tooltip) do none of these.
#pragma once

#include "shell_state.hpp"
#include "slide.hpp"

#include <imgui.h>

#include <map>
#include <string>
#include <vector>

namespace normlab::ui {

class ControlProbe {
public:
    // Every `step` pixels over a window `size` large.
    ControlProbe(ImVec2 size, float step);

    // Before ImGui::NewFrame (after the platform backend's): the mouse for this frame.
    void before_frame(ImGuiIO& io) const;
    // After the frame's widgets: what it showed. `boxes`: the slide's (empty outside presenter view).
    void after_frame(const AppContext& ctx, const std::vector<SlideBox>& boxes);
    bool done() const { return phase_ == Phase::Done; }

    // {"widgets": N, "named": [...], "unnamed": [{"at": [x, y], "effect": "..."}]}
    std::string report_json(const std::vector<SlideBox>& boxes) const;
    bool passed() const { return unnamed_.empty(); }

private:
    enum class Phase { Scan, Click, Done };
    struct Found {
        ImVec2 at;   // the first probe point it answered at
    };
    struct Unnamed {
        ImVec2 at;
        std::string effect;
    };
    static std::string fingerprint(const AppContext& ctx);

    ImVec2 size_;
    float step_;
    Phase phase_ = Phase::Scan;
    int point_ = 0;                            // scan: the probe point of this frame
    std::map<unsigned, Found> widgets_;        // by ImGuiID
    std::vector<ImVec2> to_click_;             // widgets outside the named controls
    std::size_t click_ = 0, click_frame_ = 0;  // click: which one, which of its frames
    std::string before_;                       // the fingerprint before the click
    std::vector<Unnamed> unnamed_;
};

}  // namespace normlab::ui
