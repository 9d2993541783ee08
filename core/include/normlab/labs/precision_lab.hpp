// NormLab core: the Number formats lab ("precision" in scene files and --lab) — its state, the
// norms of its x in a format beside float64, the δ and offset sweeps, and its figures
// (docs/ARCHITECTURE.md, The science: number formats; not the models' float32 "Precision").
//
// [SECTION] State    — x, the norm, the format, the arithmetic, ε
// [SECTION] Results  — the outputs now, the sweeps, where things begin
// [SECTION] Figures  — the δ sweep, the offset sweep, the outputs table
//
// Shapes: x has n entries (one case); sweeps hold one value per δ (or offset c).
#pragma once

#include "normlab/base/number_rule.hpp"
#include "normlab/norm/number_format.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/plot/table.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

// [SECTION] State ---------------------------------------------------------------------------

inline constexpr NumberRule kPrecisionEntryRule{-1e30, 1e30};   // beyond every format but float64's x²
inline constexpr NumberRule kPrecisionEpsRule{0.0, 1.0};
inline constexpr Eigen::Index kPrecisionMaxEntries = 64;
inline constexpr std::array<Norm, 4> kPrecisionNorms{Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::L2Norm};
inline constexpr std::array<Arithmetic, 2> kPrecisionArithmetics{Arithmetic::Same, Arithmetic::Float32};

// The default: float16 RMSNorm of [300, 400, 500, 600] in "same": every x² overflows, y = 0.
struct PrecisionLabState {
    Vec x = (Vec(4) << 300.0, 400.0, 500.0, 600.0).finished();   // 1..kPrecisionMaxEntries entries
    Norm norm = Norm::RMSNorm;                                      // one of kPrecisionNorms
    NumberFormat format = NumberFormat::Float16;
    Arithmetic arithmetic = Arithmetic::Same;
    double eps = 1e-5;                                              // kPrecisionEpsRule, inside the root
    bool operator==(const PrecisionLabState& o) const {
        return x.size() == o.x.size() && x == o.x && norm == o.norm && format == o.format &&
               arithmetic == o.arithmetic && eps == o.eps;
    }
};

class SceneReader;   // state_json.hpp

// Scene file: {"x": [...], "norm": "rmsnorm", "format": "float16", "arithmetic": "same", "eps": 1e-5}.
nlohmann::json state_to_json(const PrecisionLabState& state);
void state_from_json(SceneReader& in, PrecisionLabState& state);

// [SECTION] Results -------------------------------------------------------------------------

// One sweep: the relative error ‖y − y₆₄‖ / ‖y₆₄‖ of each norm (kPrecisionNorms order) in each
// arithmetic (kPrecisionArithmetics order) at each point t; NaN where y is not finite.
struct PrecisionSweep {
    std::vector<double> t;
    std::array<std::array<std::vector<double>, 2>, 4> error;
    std::array<std::array<std::vector<bool>, 2>, 4> finite;   // y finite at t
};

// Where things begin along the δ sweep for the state's norm and arithmetic (nullopt: nowhere in
// 1e-8..1e8): the smallest δ with an overflow, the largest δ with an underflow to 0 and with an
// ε-dominated denominator, and the longest δ range where the paper's re-scaling invariance holds
// in the format (relative error to float64's y(x) within 8 units of roundoff, 8·2⁻ᵖ).
struct PrecisionMarks {
    std::optional<double> overflow_from, underflow_below, eps_below;
    std::optional<double> invariant_lo, invariant_hi;
};

struct PrecisionLabResults {
    FormatResult now;            // the state's norm, format and arithmetic on x (1×n)
    std::string headline;        // "float16 RMSNorm returns zeros here", "within 1 ulp of float64"
    std::vector<std::string> consequences;   // what the events did to y, in plain words
    PrecisionSweep delta;        // x′ = δx, δ = 10⁻⁸..10⁸ (8 points a decade); reference: float64 y(x)
    PrecisionSweep offset;       // x′ = x + c, c = 10⁻²..10⁸; reference: float64 y(x + c)
    PrecisionMarks marks;
};

// Throws std::invalid_argument when x is empty or not finite.
PrecisionLabResults compute_precision_lab(const PrecisionLabState& state);

// [SECTION] Figures -------------------------------------------------------------------------

// "precision_delta_sweep": relative error against δ (log-log), 8 curves (4 norms, solid for
// "same", dashed for "float32"), markers where y is not finite, the unit roundoff, and vertical
// lines where overflow, underflow and ε-dominance begin and invariance breaks.
Plot precision_delta_plot(const PrecisionLabState& state, const PrecisionLabResults& r);
// "precision_offset_sweep": LayerNorm's and RMSNorm's relative error against the offset c.
Plot precision_offset_plot(const PrecisionLabState& state, const PrecisionLabResults& r);
// "precision_outputs": per entry x, stored x, y in the format, float64 y, error in ulps.
Table precision_outputs_table(const PrecisionLabState& state, const PrecisionLabResults& r);
// "precision_conventions": each library's norm (norm/conventions.hpp) of x in the state's format
// with its default ε: formula, ε, accumulation, cast, y, the error in ulps and the source read.
Table precision_conventions_table(const PrecisionLabState& state);

std::vector<Plot> precision_lab_plots(const PrecisionLabState& state, const PrecisionLabResults& r);

}  // namespace normlab
