// NormLab core: Table 1 of the RMSNorm paper, measured on the user's data.
#include "normlab/norm/invariance.hpp"
#include "normlab/base/i18n.hpp"

#include <cmath>
#include <random>

namespace normlab {

namespace {
struct TransformName {
    Transform t;
    std::string_view id, display, formula;
};
constexpr TransformName kTransformNames[] = {
    {Transform::WeightMatrixRescaling, "weight_matrix_rescaling", tr_later("Weight matrix re-scaling"), "W′ = δW"},
    {Transform::WeightMatrixRecentering, "weight_matrix_recentering", tr_later("Weight matrix re-centering"), "W′ = W + 1γᵀ"},
    {Transform::WeightVectorRescaling, "weight_vector_rescaling", tr_later("Weight vector re-scaling"), "w′ᵢ = δᵢwᵢ"},
    {Transform::DatasetRescaling, "dataset_rescaling", tr_later("Dataset re-scaling"), "x′ = δx (all cases)"},
    {Transform::DatasetRecentering, "dataset_recentering", tr_later("Dataset re-centering"), "x′ = x + γ (all cases)"},
    {Transform::SingleCaseRescaling, "single_case_rescaling", tr_later("Single-case re-scaling"), "x′₀ = δx₀ (one case)"},
};

const TransformName& entry(Transform t) {
    for (const TransformName& e : kTransformNames)
        if (e.t == t) return e;
    return kTransformNames[0];
}

Mat standard_normal(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
    std::normal_distribution<double> normal(0.0, 1.0);
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
    return m;
}
}  // namespace

std::string_view to_string(Transform t) { return entry(t).id; }
std::string_view display_name(Transform t) { return entry(t).display; }
std::string_view formula(Transform t) { return entry(t).formula; }

std::optional<Transform> parse_transform(std::string_view name) {
    for (const TransformName& e : kTransformNames)
        if (e.id == name) return e.t;
    return std::nullopt;
}

InvarianceData random_invariance_data(unsigned seed, Eigen::Index B, Eigen::Index m, Eigen::Index n) {
    std::mt19937_64 rng(seed);
    InvarianceData d;
    d.x = standard_normal(B, m, rng);
    d.W = standard_normal(n, m, rng);
    d.gamma_W = standard_normal(m, 1, rng);
    d.gamma_x = standard_normal(m, 1, rng);
    d.g = Vec::Ones(n);
    d.b = Vec::Zero(n);
    return d;
}

InvarianceData apply_transform(Transform t, const InvarianceData& data, double delta) {
    InvarianceData out = data;
    switch (t) {
        case Transform::WeightMatrixRescaling: out.W *= delta; break;
        case Transform::WeightMatrixRecentering: out.W.rowwise() += data.gamma_W.transpose(); break;
        case Transform::WeightVectorRescaling: {
            const double n = static_cast<double>(data.W.rows());
            for (Eigen::Index i = 0; i < data.W.rows(); ++i) {
                // δ_i = sign(δ)·|δ|^((i+1)/n): every row a different factor, all 1 when δ = 1.
                const double di = std::copysign(std::pow(std::abs(delta), static_cast<double>(i + 1) / n), delta);
                out.W.row(i) *= di;
            }
            break;
        }
        case Transform::DatasetRescaling: out.x *= delta; break;
        case Transform::DatasetRecentering: out.x.rowwise() += data.gamma_x.transpose(); break;
        case Transform::SingleCaseRescaling: out.x.row(0) *= delta; break;
    }
    return out;
}

namespace {
Mat layer_output(const NormSpec& spec, const InvarianceData& d) {
    return layer_forward(spec, d.x, {d.W, d.g, d.b}).y;  // B×n
}
}  // namespace

double relative_change(const Mat& after, const Mat& before) {
    // Each norm as m·2^k with m = ‖v/2^k‖ ∈ [1, 2√N), k = ⌊log₂ max|v|⌋: neither overflows nor
    // underflows, and the quotient's power of two is applied last (inf only where the ratio is).
    const auto norm_exp = [](const Mat& v, int& k) {
        const double s = pow2_scale(v.size() ? v.cwiseAbs().maxCoeff() : 0.0);
        if (s == 0.0 || !std::isfinite(s)) return k = 0, s;
        k = std::ilogb(s);
        return (v / s).norm();
    };
    const Mat half_diff = 0.5 * after - 0.5 * before;  // B×n; halves, so that 1e308 − (−1e308) stays finite
    int k_diff = 0, k_base = 0;
    const double m_diff = norm_exp(half_diff, k_diff), m_base = norm_exp(before, k_base);
    if (m_diff == 0.0 || !std::isfinite(m_diff)) return m_diff;
    if (m_base == 0.0) return std::ldexp(m_diff, k_diff + 1);  // nothing to compare with: the absolute change
    return std::ldexp(m_diff / m_base, k_diff + 1 - k_base);
}

double invariance_residual(const NormSpec& spec, Transform t, const InvarianceData& data, double delta) {
    return relative_change(layer_output(spec, apply_transform(t, data, delta)), layer_output(spec, data));
}

InvarianceTable invariance_table(const NormSpec& spec, const InvarianceData& data, double delta, double tolerance) {
    InvarianceTable table;
    table.delta = delta;
    table.tolerance = tolerance;
    for (int r = 0; r < kNumTableNorms; ++r) {
        NormSpec row_spec = spec;
        row_spec.norm = kTableNorms[r];
        for (int c = 0; c < kNumTransforms; ++c)
            table.residual[r][c] = invariance_residual(row_spec, kAllTransforms[c], data, delta);
    }
    return table;
}

bool paper_table1(Norm norm, Transform t) {
    // Rows of Table 1, columns in kAllTransforms order.
    static constexpr bool kBatch[] = {true, false, true, true, true, false};
    static constexpr bool kWeight[] = {true, false, true, false, false, false};
    static constexpr bool kLayer[] = {true, true, false, true, false, true};
    static constexpr bool kRms[] = {true, false, false, true, false, true};
    const int c = static_cast<int>(t);
    switch (norm) {
        case Norm::BatchNorm: return kBatch[c];
        case Norm::WeightNorm: return kWeight[c];
        case Norm::LayerNorm: return kLayer[c];
        case Norm::RMSNorm:
        case Norm::PRMSNorm: return kRms[c];
        default: return false;
    }
}

}  // namespace normlab
