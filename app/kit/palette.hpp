// The app's colours with a meaning, by the names its widgets and the GUI test's pixel checker
// (tests/gui/check_screenshot.cpp) use: each is a colour of the one palette, core's
// base/palette.hpp, so that figures, widgets and checker cannot drift apart. Bars are drawn fully
// opaque in exactly these colours; the heat map's diverging ends are purple and green so that no
// cell can take a bar colour.
#pragma once

#include <normlab/base/palette.hpp>

namespace normlab::palette {

using Rgb = Color;

inline constexpr Rgb kLayerNormBar = okabe_ito::kBlue;         // norm_color(Norm::LayerNorm)
inline constexpr Rgb kRmsNormBar = okabe_ito::kVermillion;     // norm_color(Norm::RMSNorm)
inline constexpr Rgb kSummedInputBar = colors::kSummedInput;   // a = W x

inline constexpr Rgb kHeatNegative = colors::kHeatNegative;
inline constexpr Rgb kHeatZero = colors::kHeatZero;
inline constexpr Rgb kHeatPositive = colors::kHeatPositive;

// ✓ / ✗ as filled cells and banners (the invariance table, the worked example's verdict), with
// ui_util.hpp's kGoodText / kErrorText on them; the outline of a measured cell that disagrees
// with the paper.
inline constexpr Rgb kPassFill = colors::kPassFill;
inline constexpr Rgb kFailFill = colors::kFailFill;
inline constexpr Rgb kDisagreeOutline = colors::kAmber;

}  // namespace normlab::palette
