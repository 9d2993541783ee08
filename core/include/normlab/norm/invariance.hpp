// NormLab core: the invariance experiment of the RMSNorm paper's Table 1, computed numerically.
//
// For a batch x (B×m), weights W (n×m), gain g and bias b (n), each transform T below is
// applied and the relative change of the layer's output is measured:
//     residual = ‖y(T(x, W)) − y(x, W)‖ / ‖y(x, W)‖
// A cell is "invariant" when residual ≤ tolerance. Nothing here is hard-coded except the
// paper's own table (paper_table1), kept only to be compared with the measurement.
#pragma once

#include "normlab/norm/norm.hpp"

#include <array>
#include <optional>
#include <string_view>

namespace normlab {

enum class Transform {
    WeightMatrixRescaling,    // W' = δ W
    WeightMatrixRecentering,  // W' = W + 1 γ_Wᵀ   (the same γ_W ∈ R^m added to every row)
    WeightVectorRescaling,    // w_i' = δ_i w_i,  δ_i = δ^((i+1)/n)  (a different factor per row)
    DatasetRescaling,         // x' = δ x for every case
    DatasetRecentering,       // x' = x + γ_x for every case
    SingleCaseRescaling,      // x_0' = δ x_0, the other cases unchanged
};
inline constexpr Transform kAllTransforms[] = {
    Transform::WeightMatrixRescaling, Transform::WeightMatrixRecentering, Transform::WeightVectorRescaling,
    Transform::DatasetRescaling,      Transform::DatasetRecentering,      Transform::SingleCaseRescaling};
inline constexpr int kNumTransforms = 6;

// The paper's Table 1 rows, in its order.
inline constexpr Norm kTableNorms[] = {Norm::BatchNorm, Norm::WeightNorm, Norm::LayerNorm, Norm::RMSNorm,
                                       Norm::PRMSNorm};
inline constexpr int kNumTableNorms = 5;

std::string_view to_string(Transform t);     // "weight_matrix_rescaling", ... (the CLI's names)
std::string_view display_name(Transform t);  // "Weight matrix re-scaling", ...
std::string_view formula(Transform t);       // "W′ = δW", ...
std::optional<Transform> parse_transform(std::string_view name);

// The data a transform acts on. gamma_W and gamma_x (m) are the re-centering shifts.
struct InvarianceData {
    Mat x;        // B×m, B ≥ 2 (BatchNorm needs a batch)
    Mat W;        // n×m
    Vec g, b;     // n
    Vec gamma_W;  // m
    Vec gamma_x;  // m
};

// Seeded standard-normal x, W, γ_W, γ_x; g = 1, b = 0. Deterministic for a seed.
InvarianceData random_invariance_data(unsigned seed, Eigen::Index B = 8, Eigen::Index m = 6, Eigen::Index n = 5);

// T(data) for scale δ (δ ≠ 0; shifts are used as given).
InvarianceData apply_transform(Transform t, const InvarianceData& data, double delta);

// ‖y′ − y‖ / ‖y‖ for one norm and transform (spec.norm selects the norm).
double invariance_residual(const NormSpec& spec, Transform t, const InvarianceData& data, double delta);

struct InvarianceTable {
    double delta = 1.0;
    double tolerance = 1e-6;
    // [row: kTableNorms index][column: kAllTransforms index]
    std::array<std::array<double, kNumTransforms>, kNumTableNorms> residual{};
    bool invariant(int row, int col) const { return residual[row][col] <= tolerance; }
};

// Every cell of Table 1 for this data. spec supplies ε, its placement and pRMSNorm's p;
// its norm field is ignored (each row sets its own).
InvarianceTable invariance_table(const NormSpec& spec, const InvarianceData& data, double delta,
                                 double tolerance = 1e-6);

// The paper's Table 1 (✓ = true), for comparison with the measured table only.
bool paper_table1(Norm norm, Transform t);

}  // namespace normlab
