// The presets that set the Explorer's x, as actions of any lab that shows that x (the
// Explorer's own, the Worked example's): a lab window includes this, not the Explorer's header.
#pragma once

#include "action_table.hpp"
#include "lab.hpp"

namespace normlab::ui {

// The presets that set x ([2, 4, 6, 8], [200, 300, 150, 250], random: keys E, L, R), as actions
// of any lab that shows the Explorer's x (the Explorer's own, the Worked example's).
enum XPreset { kExampleX, kLargeX, kRandomX, kXPresetCount };
void set_x_preset(LabContext& ctx, XPreset preset);

template <class Context>
inline constexpr Action<Context> kXPresetActions[kXPresetCount] = {
    {"2, 4, 6, 8", {'E'}, tr_later("x = [2, 4, 6, 8], the paper explainer's example"),
     tr_later("LayerNorm gives ≈ [−1.342, −0.447, 0.447, 1.342], RMSNorm ≈ [0.365, 0.730, 1.095, 1.461]."),
     [](Context& ctx) { set_x_preset(ctx, kExampleX); }},
    {"200, 300, 150, 250", {'L'}, tr_later("x = [200, 300, 150, 250], large, far from zero mean"),
     tr_later("RMSNorm keeps the common offset, LayerNorm removes it."), [](Context& ctx) { set_x_preset(ctx, kLargeX); }},
    {tr_later("Random"), {'R'}, tr_later("random x"), tr_later("xᵢ ~ N(1, 2²), rounded to 0.01, from a seed that advances on every use."),
     [](Context& ctx) { set_x_preset(ctx, kRandomX); }},
};

}  // namespace normlab::ui
