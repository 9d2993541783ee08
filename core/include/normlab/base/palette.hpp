// NormLab core: the one palette — every colour with a meaning, for the figures (plot/), the app's
// widgets and the GUI test's pixel checker alike (docs/ARCHITECTURE.md, Conventions). Header-only,
// no dependencies, so that the checker needs nothing else.
//
// [SECTION] Okabe–Ito  — the series colours, safe for colour-blind viewers
// [SECTION] Named      — greys, highlights and tints that carry a meaning
#pragma once

#include <cstdint>

namespace normlab {

struct Color {
    std::uint8_t r = 0, g = 0, b = 0;
};

// [SECTION] Okabe–Ito -----------------------------------------------------------------------

// Okabe & Ito (2008), "Color Universal Design", ordered for lines on white: yellow last.
namespace okabe_ito {
inline constexpr Color kBlue{0, 114, 178};
inline constexpr Color kVermillion{213, 94, 0};
inline constexpr Color kBluishGreen{0, 158, 115};
inline constexpr Color kReddishPurple{204, 121, 167};
inline constexpr Color kOrange{230, 159, 0};
inline constexpr Color kSkyBlue{86, 180, 233};
inline constexpr Color kBlack{0, 0, 0};
inline constexpr Color kYellow{240, 228, 66};
}  // namespace okabe_ito

inline constexpr int kPaletteSize = 8;
inline constexpr Color kOkabeIto[kPaletteSize] = {okabe_ito::kBlue,   okabe_ito::kVermillion, okabe_ito::kBluishGreen,
                                                  okabe_ito::kReddishPurple, okabe_ito::kOrange, okabe_ito::kSkyBlue,
                                                  okabe_ito::kBlack,  okabe_ito::kYellow};

// [SECTION] Named ---------------------------------------------------------------------------

namespace colors {
inline constexpr Color kLayerNorm = okabe_ito::kBlue;        // norm_color(Norm::LayerNorm)
inline constexpr Color kRmsNorm = okabe_ito::kVermillion;    // norm_color(Norm::RMSNorm)
inline constexpr Color kGrey{110, 110, 110};          // grey: a variant without a norm, reference lines
inline constexpr Color kSummedInput{96, 96, 104};       // slate grey: a = W x
inline constexpr Color kHeatNegative{118, 42, 131};     // purple: W_ij = −max|W| (never a bar colour)
inline constexpr Color kHeatZero{247, 247, 247};        // near white: W_ij = 0
inline constexpr Color kHeatPositive{27, 120, 55};      // green: W_ij = +max|W|
inline constexpr Color kPassFill{214, 240, 220};        // pale green: ✓
inline constexpr Color kFailFill{252, 222, 218};        // pale red: ✗
inline constexpr Color kAmber{240, 170, 0};             // a measured cell that disagrees with the paper
inline constexpr Color kPointer{230, 100, 0};           // the lecture's pointer ring (drawn at alpha 220)
}  // namespace colors

}  // namespace normlab
