// NormLab core: norm kernels in double precision (forward and analytic backward).
//
// [SECTION] Names and parsing
// [SECTION] pRMSNorm's k
// [SECTION] Group statistics (scaled, overflow-free)
// [SECTION] Norm forward / backward on summed inputs a
// [SECTION] Layer forward / backward (a = W x, weightnorm, gain and bias)
//
// Shapes: x B×m, W n×m, a/ā/y/dy B×n, g/b n. One case per row.
#include "normlab/norm/norm.hpp"
#include "normlab/base/i18n.hpp"

#include "normlab/base/fit_size.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

namespace normlab {

// [SECTION] Names and parsing ---------------------------------------------------------------

namespace {
struct NormName {
    Norm norm;
    std::string_view id;
    std::string_view display;
};
constexpr NormName kNormNames[] = {
    {Norm::None, "none", "None"},
    {Norm::LayerNorm, "layernorm", "LayerNorm"},
    {Norm::RMSNorm, "rmsnorm", "RMSNorm"},
    {Norm::PRMSNorm, "prmsnorm", "pRMSNorm"},
    {Norm::L2Norm, "l2norm", "L2-Norm"},
    {Norm::BatchNorm, "batchnorm", "BatchNorm"},
    {Norm::WeightNorm, "weightnorm", "WeightNorm"},
};
}  // namespace

std::string_view to_string(Norm norm) {
    for (const NormName& n : kNormNames)
        if (n.norm == norm) return n.id;
    return "unknown";
}

Color norm_color(Norm norm) {
    switch (norm) {
        case Norm::LayerNorm: return colors::kLayerNorm;
        case Norm::RMSNorm: return colors::kRmsNorm;
        case Norm::BatchNorm: return okabe_ito::kBluishGreen;
        case Norm::WeightNorm: return okabe_ito::kReddishPurple;
        case Norm::PRMSNorm: return okabe_ito::kOrange;
        case Norm::L2Norm: return okabe_ito::kSkyBlue;
        case Norm::None: break;
    }
    return colors::kGrey;
}

std::string_view display_name(Norm norm) {
    if (norm == Norm::None) return tr("None");   // a word, not a norm's name: in the interface's language
    for (const NormName& n : kNormNames)
        if (n.norm == norm) return n.display;
    return "Unknown";
}

std::optional<Norm> parse_norm(std::string_view name) {
    for (const NormName& n : kNormNames)
        if (n.id == name) return n.norm;
    return std::nullopt;
}

std::string_view to_string(EpsMode mode) {
    return mode == EpsMode::InsideSqrt ? "inside_sqrt" : "add_to_rms";
}

std::optional<EpsMode> parse_eps_mode(std::string_view name) {
    if (name == "inside_sqrt") return EpsMode::InsideSqrt;
    if (name == "add_to_rms") return EpsMode::AddToRms;
    return std::nullopt;
}

std::string_view to_string(PartialRounding rounding) { return rounding == PartialRounding::Ceil ? "ceil" : "floor"; }

std::optional<PartialRounding> parse_rounding(std::string_view name) {
    if (name == "ceil") return PartialRounding::Ceil;
    if (name == "floor") return PartialRounding::Floor;
    return std::nullopt;
}

// [SECTION] pRMSNorm's k --------------------------------------------------------------------

Eigen::Index partial_k(Eigen::Index n, double p, PartialRounding rounding) {
    const double np = static_cast<double>(n) * p;
    const double nearest = std::round(np);
    double k;
    if (std::abs(np - nearest) <= 1e-9 * std::max(1.0, np))
        k = nearest;  // n·p is an integer up to rounding error
    else
        k = rounding == PartialRounding::Ceil ? std::ceil(np) : std::floor(np);
    return std::clamp(static_cast<Eigen::Index>(k), Eigen::Index{1}, n);
}

// [SECTION] Group statistics ----------------------------------------------------------------

double pow2_scale(double max_abs) {
    if (max_abs == 0.0 || !std::isfinite(max_abs)) return max_abs;  // 0, inf and NaN pass through
    return std::ldexp(1.0, std::ilogb(max_abs));  // 2^⌊log₂ max_abs⌋, subnormals included
}

TwoDouble compensated_sum(const Eigen::Ref<const Vec>& v) {
    // Neumaier: each addition's rounding error (exact, by TwoSum) gathered in lo.
    double hi = 0.0, lo = 0.0;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        const double x = v[i], t = hi + x;
        lo += std::abs(hi) >= std::abs(x) ? (hi - t) + x : (x - t) + hi;
        hi = t;
    }
    return {hi, lo};
}

TwoDouble precise_mean(const Eigen::Ref<const Vec>& v) {
    if (v.size() == 0) return {};
    const TwoDouble sum = compensated_sum(v);
    // (hi + lo)/N with the division's remainder hi − q·N (exact by fma) carried into the sum.
    const double n = static_cast<double>(v.size());
    const double q = sum.hi / n;
    if (!std::isfinite(q)) return {q, 0.0};
    const double corr = (std::fma(-q, n, sum.hi) + sum.lo) / n;
    const double mean = q + corr;
    return {mean, corr - (mean - q)};  // Fast2Sum: |q| ≥ |corr|
}

double accurate_mean(const Eigen::Ref<const Vec>& v) { return precise_mean(v).hi; }

double centred_sum_squares(const Eigen::Ref<const Vec>& v, const TwoDouble& mean, bool center) {
    if (!center) return v.squaredNorm();
    const Eigen::ArrayXd d = (v.array() - mean.hi) - mean.lo;  // N: v_i − hi is exact near the mean
    const double sum_d = d.sum();  // 0 for an exact mean; else what its rounding left
    return std::max(0.0, d.square().sum() - sum_d * sum_d / static_cast<double>(v.size()));
}

namespace {

// How a norm reduces one group v (length N) to (μ, σ₀):
//   center  — subtract the mean first (LayerNorm, BatchNorm);
//   k       — only the first k entries enter σ₀ (pRMSNorm; N otherwise);
//   divisor — σ₀² = Σ_{i<k} (v_i − μ)² / divisor: N (std, RMS), k (pRMSNorm), 1 (L2 norm).
struct Reduction {
    bool center = false;
    Eigen::Index k = 0;
    double divisor = 1.0;
};

// Statistics of v in units of s = 2^⌊log₂ max|v|⌋ (so v/s is exact and squares stay within
// [0, 4]). The mean is summed in compensated form and the centred sum of squares carries the
// two-pass correction −(Σd)²/N (Chan, Golub & LeVeque), so a large common offset costs no
// digits: docs/ARCHITECTURE.md, "Exact where cheap". u: scratch (N).
GroupStats group_stats(const Eigen::Ref<const Vec>& v, const Reduction& r, double eps, EpsMode mode, Vec& u) {
    GroupStats st;
    st.scale = v.size() ? pow2_scale(v.cwiseAbs().maxCoeff()) : 0.0;
    const double s = st.scale;
    TwoDouble mean_u;     // μ/s
    double sigma0_u = 0.0;  // σ₀/s
    if (s > 0.0) {
        assign_resized(u, v / s);  // N, |u_i| < 2, exact
        if (r.center) mean_u = precise_mean(u);
        if (r.k == v.size()) sigma0_u = std::sqrt(centred_sum_squares(u, mean_u, r.center) / r.divisor);
    }
    st.mean = s * mean_u.hi;
    st.mean_lo = s * mean_u.lo;
    st.sigma0 = s * sigma0_u;
    if (r.k < v.size()) {
        // pRMSNorm (never centred): the first k entries in units of their own power of two, so
        // that a head far smaller than the rest (1e60 against 1e300) is not squared into underflow.
        const double sk = pow2_scale(v.head(r.k).cwiseAbs().maxCoeff());
        st.sigma0 = sk > 0.0 ? sk * std::sqrt((v.head(r.k) / sk).squaredNorm() / r.divisor) : 0.0;
        sigma0_u = s > 0.0 ? st.sigma0 / s : 0.0;
    }
    if (mode == EpsMode::InsideSqrt) {
        // D = sqrt(σ₀² + ε) without forming σ₀² (which overflows for σ₀ ~ 1e200).
        st.denom = std::hypot(st.sigma0, std::sqrt(eps));
        st.denom_u = s > 0.0 ? std::hypot(sigma0_u, std::sqrt(eps) / s) : st.denom;
    } else {
        st.denom = st.sigma0 + eps;
        st.denom_u = s > 0.0 ? sigma0_u + eps / s : st.denom;
    }
    return st;
}

// ā_i = (v_i − μ)/D, evaluated as (v_i/s − μ/s)/(D/s): exact for 1e-320 and 1e200 alike.
// A group with nothing to divide by (all zero, or constant under centring, with ε = 0) maps to
// 0: the ε → 0⁺ limit of (v − μ)/√(σ₀² + ε) when v − μ = 0, rather than 0/0. out: N.
void normalize_group(const Eigen::Ref<const Vec>& v, const GroupStats& st, Vec& out) {
    fit_size(out, v.size());
    if (st.scale == 0.0 || st.denom_u == 0.0) out.setZero();
    else out = (((v / st.scale).array() - st.mean / st.scale) - st.mean_lo / st.scale) / st.denom_u;
}

// ∂L/∂v from h = ∂L/∂ā for one group (derivation in docs: differentiate ā_i = (v_i − μ)/D):
//   ∂L/∂v_i = ( h_i − [center]·mean(h) − [i<k]·c·ā_i·(Σ_j h_j ā_j)/divisor ) / D
// with c = 1 when ε is inside the square root and c = D/σ₀ when it is added to σ₀.
// For RMSNorm (k = N, divisor N, no centring) this is the paper's eq. 8 chain through ā. dv: N.
void group_backward(const Eigen::Ref<const Vec>& h, const Eigen::Ref<const Vec>& abar, const Reduction& r,
                    const GroupStats& st, EpsMode mode, Vec& dv) {
    assign_resized(dv, h);
    if (r.center) dv.array() -= h.mean();
    const double proj = h.dot(abar) / r.divisor;
    double c = 1.0;
    if (mode == EpsMode::AddToRms) c = st.sigma0 > 0.0 ? st.denom / st.sigma0 : 0.0;  // ā = 0 there
    if (c != 0.0 && proj != 0.0) dv.head(r.k) -= (c * proj) * abar.head(r.k);
    dv /= st.denom;
}

// The reduction a norm applies to a group of `size` values.
Reduction reduction_for(const NormSpec& spec, Eigen::Index size) {
    const double n = static_cast<double>(size);
    switch (spec.norm) {
        case Norm::LayerNorm: return {true, size, n};
        case Norm::BatchNorm: return {true, size, n};
        case Norm::RMSNorm: return {false, size, n};
        case Norm::PRMSNorm: {
            const Eigen::Index k = partial_k(size, spec.p, spec.rounding);
            return {false, k, static_cast<double>(k)};
        }
        case Norm::L2Norm:
        case Norm::WeightNorm: return {false, size, 1.0};
        case Norm::None: break;
    }
    return {false, size, n};
}

}  // namespace

std::vector<CaseStats> case_stats(const Mat& a) {
    std::vector<CaseStats> out;
    out.reserve(static_cast<size_t>(a.rows()));
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        // In units of s = 2^⌊log₂ max|a_i|⌋ (as group_stats): var = s·(s·var_u) overflows only
        // when the variance itself exceeds the double range, and is exact for small integers.
        const Vec v = a.row(i).transpose();  // n
        const double s = pow2_scale(v.size() ? v.cwiseAbs().maxCoeff() : 0.0);
        CaseStats cs;
        if (s > 0.0) {
            const Vec u = v / s;  // n, exact
            const TwoDouble mean_u = precise_mean(u);
            const double var_u = centred_sum_squares(u, mean_u, true) / static_cast<double>(u.size());
            cs.mean = s * mean_u.hi;
            cs.var = s * (s * var_u);
            cs.std = s * std::sqrt(var_u);
            cs.rms = s * std::sqrt(u.squaredNorm() / static_cast<double>(u.size()));
        }
        out.push_back(cs);
    }
    return out;
}

// [SECTION] Norm forward / backward on summed inputs a ---------------------------------------

// Groups are copied into scratch.v (a row of the column-major a is strided) and produced in
// scratch.out, so that every reduction runs over a contiguous vector, as it always has.
void norm_forward(const NormSpec& spec, const Mat& a, NormCache& cache, Mat& abar, NormScratch& scratch) {
    cache.groups.clear();
    cache.k = a.cols();
    if (spec.norm == Norm::None || spec.norm == Norm::WeightNorm) {
        assign_resized(abar, a);
        return;
    }
    fit_size(abar, a.rows(), a.cols());  // B×n
    if (spec.norm == Norm::BatchNorm) {
        // Statistics per feature j over the B cases (column j of a).
        const Reduction r = reduction_for(spec, a.rows());
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            cache.groups.push_back(group_stats(a.col(j), r, spec.eps, spec.eps_mode, scratch.u));
            normalize_group(a.col(j), cache.groups.back(), scratch.out);
            abar.col(j) = scratch.out;
        }
        return;
    }
    // Row norms: statistics per case i over its n features (paper eq. 3 for LayerNorm, eq. 4 for
    // RMSNorm, the k-prefix RMS of §4 for pRMSNorm).
    const Reduction r = reduction_for(spec, a.cols());
    cache.k = r.k;
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        assign_resized(scratch.v, a.row(i).transpose());
        cache.groups.push_back(group_stats(scratch.v, r, spec.eps, spec.eps_mode, scratch.u));
        normalize_group(scratch.v, cache.groups.back(), scratch.out);
        abar.row(i) = scratch.out.transpose();
    }
}

Mat norm_forward(const NormSpec& spec, const Mat& a, NormCache& cache) {
    Mat abar;
    NormScratch scratch;
    norm_forward(spec, a, cache, abar, scratch);
    return abar;
}

void norm_backward(const NormSpec& spec, const Mat& a, const NormCache& cache, const Mat& abar, const Mat& dabar,
                   Mat& da, NormScratch& scratch) {
    if (spec.norm == Norm::None || spec.norm == Norm::WeightNorm) {
        assign_resized(da, dabar);
        return;
    }
    fit_size(da, a.rows(), a.cols());  // B×n
    if (spec.norm == Norm::BatchNorm) {
        const Reduction r = reduction_for(spec, a.rows());
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            group_backward(dabar.col(j), abar.col(j), r, cache.groups[j], spec.eps_mode, scratch.out);
            da.col(j) = scratch.out;
        }
        return;
    }
    const Reduction r = reduction_for(spec, a.cols());
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        assign_resized(scratch.h, dabar.row(i).transpose());
        assign_resized(scratch.abar, abar.row(i).transpose());
        group_backward(scratch.h, scratch.abar, r, cache.groups[i], spec.eps_mode, scratch.out);
        da.row(i) = scratch.out.transpose();
    }
}

Mat norm_backward(const NormSpec& spec, const Mat& a, const NormCache& cache, const Mat& dabar) {
    // ā recomputed from a and the cached statistics (the backward's view of the forward).
    NormScratch scratch;
    Mat abar(a.rows(), a.cols());  // B×n
    if (spec.norm == Norm::BatchNorm) {
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            normalize_group(a.col(j), cache.groups[j], scratch.out);
            abar.col(j) = scratch.out;
        }
    } else if (spec.norm != Norm::None && spec.norm != Norm::WeightNorm) {
        for (Eigen::Index i = 0; i < a.rows(); ++i) {
            scratch.v = a.row(i).transpose();
            normalize_group(scratch.v, cache.groups[i], scratch.out);
            abar.row(i) = scratch.out.transpose();
        }
    }
    Mat da;
    norm_backward(spec, a, cache, abar, dabar, da, scratch);
    return da;
}

// [SECTION] Layer forward / backward --------------------------------------------------------

namespace {
void check_shapes(const Mat& x, const LayerParams& params) {
    const Eigen::Index n = params.W ? params.W->rows() : x.cols();
    if (params.W && params.W->cols() != x.cols())
        throw std::invalid_argument("W has " + std::to_string(params.W->cols()) + " columns, x has " +
                                    std::to_string(x.cols()) + " entries");
    if (params.g.size() != n || params.b.size() != n)
        throw std::invalid_argument("g and b need n = " + std::to_string(n) + " entries");
}

// WeightNorm's per-row statistics of W (n×m): D_i = ‖w_i‖, with no ε, as Salimans & Kingma
// (2016) define it (w = g·v/‖v‖); spec.eps is for the norms of summed inputs only. An all-zero
// row has scale 0 and maps to ā_i = 0 (layer_forward).
std::vector<GroupStats> weight_row_stats(const NormSpec& spec, const Mat& W) {
    std::vector<GroupStats> st;
    const Reduction r = reduction_for(spec, W.cols());
    Vec u;
    for (Eigen::Index i = 0; i < W.rows(); ++i)
        st.push_back(group_stats(W.row(i).transpose(), r, 0.0, spec.eps_mode, u));
    return st;
}
}  // namespace

LayerForward layer_forward(const NormSpec& spec, const Mat& x, const LayerParams& params) {
    check_shapes(x, params);
    LayerForward f;
    f.a = params.W ? Mat(x * params.W->transpose()) : x;  // B×n, eq. 1: a_i = w_iᵀ x
    if (spec.norm == Norm::WeightNorm) {
        // ā_i = (w_i / ‖w_i‖)ᵀ x = a_i / ‖w_i‖; with no W, W = I and ‖e_i‖ = 1.
        const Mat W = params.W ? *params.W : Mat::Identity(x.cols(), x.cols());
        f.cache.groups = weight_row_stats(spec, W);
        f.cache.k = W.cols();
        f.abar.resize(f.a.rows(), f.a.cols());
        for (Eigen::Index i = 0; i < W.rows(); ++i) {
            const GroupStats& st = f.cache.groups[i];
            f.abar.col(i) = st.scale == 0.0 ? Vec::Zero(f.a.rows()) : Vec(x * (W.row(i).transpose() / st.scale) / st.denom_u);
        }
    } else {
        f.abar = norm_forward(spec, f.a, f.cache);
    }
    // y = ā ⊙ g + b (eq. 2 with f = identity), g and b broadcast over cases.
    f.y = (f.abar.array().rowwise() * params.g.transpose().array()).rowwise() + params.b.transpose().array();
    return f;
}

LayerGrads layer_backward(const NormSpec& spec, const Mat& x, const LayerParams& params, const LayerForward& fwd,
                          const Mat& dy) {
    check_shapes(x, params);
    if (dy.rows() != fwd.y.rows() || dy.cols() != fwd.y.cols())
        throw std::invalid_argument("dy must have the shape of y");
    LayerGrads gr;
    // eq. 10 (∂L/∂b) and eq. 9 (∂L/∂g): sums over the batch; invariant to scaling x or W.
    gr.db = dy.colwise().sum().transpose();                                  // n
    gr.dg = (dy.array() * fwd.abar.array()).colwise().sum().transpose();     // n
    const Mat h = dy.array().rowwise() * params.g.transpose().array();       // B×n, ∂L/∂ā

    if (spec.norm == Norm::WeightNorm) {
        const Mat W = params.W ? *params.W : Mat::Identity(x.cols(), x.cols());
        // v_i = w_i / D_i, ā = x Vᵀ  ⇒  ∂L/∂x = h V,  G = ∂L/∂V = hᵀ x (n×m),
        // ∂L/∂w_i = (G_i − c·v_i (v_i·G_i)) / D_i  with c as in group_backward.
        Mat V(W.rows(), W.cols());
        for (Eigen::Index i = 0; i < W.rows(); ++i) {
            const GroupStats& st = fwd.cache.groups[i];
            V.row(i) = st.scale == 0.0 ? Vec::Zero(W.cols()).transpose() : ((W.row(i) / st.scale) / st.denom_u).eval();
        }
        gr.dx = h * V;  // B×m
        if (params.W) {
            const Mat G = h.transpose() * x;  // n×m
            Mat dW(W.rows(), W.cols());
            const Reduction r = reduction_for(spec, W.cols());
            Vec dw;  // m
            for (Eigen::Index i = 0; i < W.rows(); ++i) {
                group_backward(G.row(i).transpose(), V.row(i).transpose(), r, fwd.cache.groups[i], spec.eps_mode, dw);
                dW.row(i) = dw.transpose();
            }
            gr.dW = dW;
        }
        return gr;
    }

    const Mat da = norm_backward(spec, fwd.a, fwd.cache, h);  // B×n, ∂L/∂a (eq. 8 for RMSNorm)
    if (params.W) {
        gr.dx = da * *params.W;              // B×m, ∂L/∂x = ∂L/∂a · W
        gr.dW = da.transpose() * x;          // n×m, ∂L/∂W = Σ_cases ∂L/∂a ⊗ x (eq. 8)
    } else {
        gr.dx = da;
    }
    return gr;
}

}  // namespace normlab
