// Colours with a meaning, shared by the app and the GUI test's pixel checker
// (tests/gui/check_screenshot.cpp), so that the two cannot drift apart.
// Bar colours are Okabe–Ito (safe for colour-blind viewers); bars are drawn fully opaque
// in exactly these colours. The heat map's diverging ends are purple and green so that no
// cell can take a bar colour.
#pragma once

namespace normlab::palette {

struct Rgb {
    unsigned char r, g, b;
};

inline constexpr Rgb kLayerNormBar{0, 114, 178};      // blue
inline constexpr Rgb kRmsNormBar{213, 94, 0};         // vermillion
inline constexpr Rgb kSummedInputBar{96, 96, 104};    // slate grey: a = W x

inline constexpr Rgb kHeatNegative{118, 42, 131};     // purple: W_ij = −max|W|
inline constexpr Rgb kHeatZero{247, 247, 247};        // near white: W_ij = 0
inline constexpr Rgb kHeatPositive{27, 120, 55};      // green: W_ij = +max|W|

// ✓ / ✗ as filled cells and banners (the invariance table, the worked example's verdict), with
// ui_util.hpp's kGoodText / kErrorText on them; the outline of a measured cell that disagrees
// with the paper.
inline constexpr Rgb kPassFill{214, 240, 220};        // pale green: ✓
inline constexpr Rgb kFailFill{252, 222, 218};        // pale red: ✗
inline constexpr Rgb kDisagreeOutline{240, 170, 0};   // amber

}  // namespace normlab::palette
