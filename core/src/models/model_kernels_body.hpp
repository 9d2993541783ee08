// NormLab core (private): the body of model_kernels.hpp's kernels, compiled once per path into
// namespace NORMLAB_KERNELS_NS (portable or avx2; see model_kernels.hpp). Eigen's products
// (its blocked GEMM) and plain loops the compiler vectorizes do the work; the flags of the
// including file decide the vector width. Vector lanes hold different rows (norms, GELU, Adam)
// or different cases (attention), never parts of one sum, so each sum is taken in the same order
// on either path.
// No include guard: included once per copy.
//
// [SECTION] Row norms
// [SECTION] GELU
// [SECTION] Attention
// [SECTION] Adam
// [SECTION] Products
#ifndef NORMLAB_KERNELS_NS
#error "define NORMLAB_KERNELS_NS before including model_kernels_body.hpp"
#endif

namespace normlab::model_kernels::NORMLAB_KERNELS_NS {

// [SECTION] Row norms -----------------------------------------------------------------------

namespace {

// Per row i, column by column: sum_i = Σ_j a_ij and max_i = max_j |a_ij| (NaN compares false,
// so a NaN leaves max_i at a value the caller's `!(max ≤ limit)` still rejects: see below).
// Returns false when some value is not finite or exceeds kRowNormMaxAbs.
bool row_sums(float* sum, float* max_abs, const float* a, std::ptrdiff_t rows, std::ptrdiff_t cols) {
    for (std::ptrdiff_t i = 0; i < rows; ++i) sum[i] = max_abs[i] = 0.0f;
    for (std::ptrdiff_t j = 0; j < cols; ++j) {
        const float* col = a + j * rows;
        for (std::ptrdiff_t i = 0; i < rows; ++i) {
            sum[i] += col[i];
            const float m = col[i] < 0.0f ? -col[i] : col[i];
            max_abs[i] = m > max_abs[i] ? m : max_abs[i];
        }
    }
    // The sum carries any NaN or infinity; the max bounds the squares below.
    bool ok = true;
    for (std::ptrdiff_t i = 0; i < rows; ++i) ok = ok && max_abs[i] <= kRowNormMaxAbs && sum[i] - sum[i] == 0.0f;
    return ok;
}

}  // namespace

bool row_norm_forward(float* y, float* abar, const RowNormStats& st, const float* a, const float* g, const float* b,
                      std::ptrdiff_t rows, std::ptrdiff_t cols, const RowNormSpec& spec, float* work) {
    if (!(spec.eps >= kRowNormMinEps)) return false;
    float* dsum = work;          // rows: Σ_j d_ij, d = a − mean (then the squares' sum's correction)
    float* sq = work + rows;     // rows: Σ_j d_ij²
    if (!row_sums(st.mean, sq, a, rows, cols)) return false;
    const float inv_n = 1.0f / static_cast<float>(cols);
    for (std::ptrdiff_t i = 0; i < rows; ++i) {
        st.mean[i] = spec.center ? st.mean[i] * inv_n : 0.0f;
        dsum[i] = sq[i] = 0.0f;
    }
    // d = a − mean (float): Σd and Σd² per row
    for (std::ptrdiff_t j = 0; j < cols; ++j) {
        const float* col = a + j * rows;
        for (std::ptrdiff_t i = 0; i < rows; ++i) {
            const float d = col[i] - st.mean[i];
            dsum[i] += d;
            sq[i] += d * d;
        }
    }
    // μ = mean + Σd/n;  σ² = (Σd² − (Σd)²/n)/n;  D = √(σ² + ε) or σ + ε;  c = 1 or D/σ
    const double n = static_cast<double>(cols);
    for (std::ptrdiff_t i = 0; i < rows; ++i) {
        const double ds = spec.center ? static_cast<double>(dsum[i]) : 0.0;
        const double centred = (static_cast<double>(sq[i]) - ds * ds / n) / n;
        const double var = centred > 0.0 ? centred : 0.0;
        const double sigma = std::sqrt(var);
        const double denom = spec.eps_inside ? std::sqrt(var + spec.eps) : sigma + spec.eps;
        st.mean_lo[i] = static_cast<float>(ds / n);
        st.rstd[i] = static_cast<float>(1.0 / denom);
        const double c = spec.eps_inside ? 1.0 : (sigma > 0.0 ? denom / sigma : 0.0);
        st.proj[i] = static_cast<float>(c / n);
    }
    // ā = ((a − mean) − mean_lo)/D;  y = ā ⊙ g + b
    for (std::ptrdiff_t j = 0; j < cols; ++j) {
        const float* col = a + j * rows;
        float* abar_col = abar + j * rows;
        float* y_col = y + j * rows;
        const float gj = g[j], bj = b[j];
        for (std::ptrdiff_t i = 0; i < rows; ++i) {
            const float v = ((col[i] - st.mean[i]) - st.mean_lo[i]) * st.rstd[i];
            abar_col[i] = v;
            y_col[i] = v * gj + bj;
        }
    }
    return true;
}

void row_norm_backward(float* da, const float* dy, const float* g, const float* abar, const RowNormStats& st,
                       std::ptrdiff_t rows, std::ptrdiff_t cols, bool center, float* work) {
    float* hsum = work;           // rows: Σ_j h_ij
    float* hdot = work + rows;    // rows: Σ_j h_ij ā_ij
    for (std::ptrdiff_t i = 0; i < rows; ++i) hsum[i] = hdot[i] = 0.0f;
    for (std::ptrdiff_t j = 0; j < cols; ++j) {
        const float* dy_col = dy + j * rows;
        const float* abar_col = abar + j * rows;
        const float gj = g[j];
        for (std::ptrdiff_t i = 0; i < rows; ++i) {
            const float h = dy_col[i] * gj;
            hsum[i] += h;
            hdot[i] += h * abar_col[i];
        }
    }
    // da = (h − [center]·mean(h) − proj·ā·Σhā)·rstd, the per-row coefficients folded first
    const float inv_n = 1.0f / static_cast<float>(cols);
    for (std::ptrdiff_t i = 0; i < rows; ++i) {
        hsum[i] = center ? hsum[i] * inv_n : 0.0f;
        hdot[i] *= st.proj[i];
    }
    for (std::ptrdiff_t j = 0; j < cols; ++j) {
        const float* dy_col = dy + j * rows;
        const float* abar_col = abar + j * rows;
        float* da_col = da + j * rows;
        const float gj = g[j];
        for (std::ptrdiff_t i = 0; i < rows; ++i)
            da_col[i] = ((dy_col[i] * gj - hsum[i]) - abar_col[i] * hdot[i]) * st.rstd[i];
    }
}

// [SECTION] GELU ----------------------------------------------------------------------------

namespace {

// erf(x) ≈ x·p(x²)/q(x²) on [−4, 4], ±1 beyond: Eigen's generic_fast_erf_float (XLA's
// coefficients). Branch-free, so the loops below vectorize.
inline float erf_rational(float x) {
    x = x < -4.0f ? -4.0f : (x > 4.0f ? 4.0f : x);
    const float x2 = x * x;
    float p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
    p = x2 * p + -2.10102402082508e-06f;
    p = x2 * p + -5.69250639462346e-05f;
    p = x2 * p + -7.34990630326855e-04f;
    p = x2 * p + -2.95459980854025e-03f;
    p = x2 * p + -1.60960333262415e-02f;
    float q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
    q = x2 * q + -1.68282697438203e-03f;
    q = x2 * q + -7.37332916720468e-03f;
    q = x2 * q + -1.42647390514189e-02f;
    return x * p / q;
}

// e^x for x ≤ 0 (GELU's −z²/2), Cephes' expf: x = n ln 2 + r, |r| ≤ ½ ln 2, e^r by its degree-7
// polynomial, 2^n from the exponent's bits; x < −87 is taken as −87 (e^−87 ≈ 1.6e-38, which beside
// Φ(z) = 1 is nothing). No library call and no branch: the loop vectorizes, and its vector and
// scalar forms (a loop's head and tail) compute the same roundings, so results do not depend on
// the address of the data.
inline float exp_nonpositive(float x) {
    x = x < -87.0f ? -87.0f : x;
    // n = round(x / ln 2) by adding 1.5·2²³, whose last bits then hold n: 2ⁿ's exponent field is
    // built from them in unsigned arithmetic (no conversion or shift that a NaN could make undefined;
    // a NaN stays NaN through r)
    const float shifted = x * 1.44269504088896341f + 12582912.0f;
    std::uint32_t n_bits;
    std::memcpy(&n_bits, &shifted, sizeof n_bits);
    const float n = shifted - 12582912.0f;
    const float r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
    float p = r * 1.9875691500e-4f + 1.3981999507e-3f;
    p = r * p + 8.3334519073e-3f;
    p = r * p + 4.1665795894e-2f;
    p = r * p + 1.6666665459e-1f;
    p = r * p + 5.0000001201e-1f;
    p = p * (r * r) + r + 1.0f;
    const std::uint32_t bits = (n_bits - 0x4B400000u + 127u) << 23;   // 2ⁿ, n ≥ −126
    float two_n;
    std::memcpy(&two_n, &bits, sizeof two_n);
    return p * two_n;
}

constexpr float kInvSqrt2 = 0.70710678118654752440f;
constexpr float kInvSqrt2Pi = 0.39894228040143267794f;   // 1/√(2π)

}  // namespace

void gelu_forward(float* y, float* cdf, const float* z, std::ptrdiff_t n) {
    // Φ(z) = ½ (1 + erf(z/√2));  y = z Φ(z)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        const float phi = 0.5f + 0.5f * erf_rational(z[i] * kInvSqrt2);
        cdf[i] = phi;
        y[i] = z[i] * phi;
    }
}

void gelu_backward(float* dz, const float* dy, const float* z, const float* cdf, std::ptrdiff_t n) {
    // dz = dy (Φ(z) + z φ(z)),  φ(z) = e^{−z²/2}/√(2π)
    for (std::ptrdiff_t i = 0; i < n; ++i)
        dz[i] = dy[i] * (cdf[i] + z[i] * kInvSqrt2Pi * exp_nonpositive(-0.5f * z[i] * z[i]));
}

// [SECTION] Attention -----------------------------------------------------------------------
//
// Every operation below acts on the kAttentionLanes cases of one step at once (Lanes); the loops
// around it follow the float64 path's sums.

namespace {

constexpr std::ptrdiff_t kLanes = kAttentionLanes;

// One step's lanes as a fixed-size Eigen array: its arithmetic is whole vectors (Eigen's
// packets), whatever the compiler makes of aliasing.
using Lanes = Eigen::Array<float, kLanes, 1>;
using LanesIn = Eigen::Map<const Lanes>;
using LanesOut = Eigen::Map<Lanes>;

// (B·T)×cols (column-major) → case-minor (column·T + t)·B₈ + b, the lanes past B zero; and back.
void to_case_minor(float* dst, const float* src, std::ptrdiff_t cols, const AttentionShape& s) {
    const std::ptrdiff_t B = s.batch, T = s.time, lanes = s.lanes();
    for (std::ptrdiff_t col = 0; col < cols; ++col)
        for (std::ptrdiff_t t = 0; t < T; ++t) {
            float* out = dst + (col * T + t) * lanes;
            const float* in = src + col * B * T + t;
            for (std::ptrdiff_t b = 0; b < B; ++b) out[b] = in[b * T];
            for (std::ptrdiff_t b = B; b < lanes; ++b) out[b] = 0.0f;
        }
}

void from_case_minor(float* dst, const float* src, std::ptrdiff_t cols, const AttentionShape& s) {
    const std::ptrdiff_t B = s.batch, T = s.time, lanes = s.lanes();
    for (std::ptrdiff_t col = 0; col < cols; ++col)
        for (std::ptrdiff_t t = 0; t < T; ++t) {
            const float* in = src + (col * T + t) * lanes;
            float* out = dst + col * B * T + t;
            for (std::ptrdiff_t b = 0; b < B; ++b) out[b * T] = in[b];
        }
}

// Where head i's Q, K, V columns (and P rows) of one step of lanes start, in case-minor arrays.
struct HeadLanes {
    const float* q;   // + (c·T + t)·B₈: Q_tc of the step's cases
    const float* k;
    const float* v;
    const float* p;   // + (t·T + j)·B₈: P_tj
    std::ptrdiff_t T, dh, stride;   // stride = B₈
    float scale;
};

HeadLanes head_lanes(const float* cache, const AttentionShape& s, std::ptrdiff_t head, std::ptrdiff_t lane0) {
    const std::ptrdiff_t T = s.time, d = s.width, dh = d / s.heads, lanes = s.lanes();
    const float* qkv = cache + s.heads * T * T * lanes + lane0;
    return {qkv + head * dh * T * lanes,
            qkv + (d + head * dh) * T * lanes,
            qkv + (2 * d + head * dh) * T * lanes,
            cache + head * T * T * lanes + lane0,
            T,
            dh,
            lanes,
            static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)))};
}

// One query t of one head for one step of cases: prow (+ j·B₈: P_tj, the cache's row h.p + t·T·B₈)
// = softmax(Q_t· K_j·ᵀ/√d_h, j ≤ t), then y_tc = Σ_{j≤t} P_tj V_jc into y (+ (c·T + t)·B₈, the
// head's columns).
void attention_query_forward(float* y, float* prow, const HeadLanes& h, std::ptrdiff_t t) {
    const std::ptrdiff_t T = h.T, L = h.stride;
    Lanes row_max = Lanes::Zero(), row_sum = Lanes::Zero();
    for (std::ptrdiff_t j = 0; j <= t; ++j) {
        Lanes acc = Lanes::Zero();
        for (std::ptrdiff_t c = 0; c < h.dh; ++c) acc += LanesIn(h.q + (c * T + t) * L) * LanesIn(h.k + (c * T + j) * L);
        acc *= h.scale;
        LanesOut(prow + j * L) = acc;
        row_max = j == 0 ? acc : Lanes(row_max.max(acc));
    }
    for (std::ptrdiff_t j = 0; j <= t; ++j) {
        float* e = prow + j * L;
        for (std::ptrdiff_t l = 0; l < kLanes; ++l) e[l] = exp_nonpositive(e[l] - row_max(l));
        row_sum += LanesIn(e);
    }
    for (std::ptrdiff_t j = 0; j <= t; ++j) LanesOut(prow + j * L) /= row_sum;
    for (std::ptrdiff_t c = 0; c < h.dh; ++c) {
        Lanes acc = Lanes::Zero();
        for (std::ptrdiff_t j = 0; j <= t; ++j) acc += LanesIn(prow + j * L) * LanesIn(h.v + (c * T + j) * L);
        LanesOut(y + (c * T + t) * L) = acc;
    }
}

// The backward of one query t (dy, dq, dk, dv: the head's columns, + (c·T + t)·B₈): ∂L/∂P_tj =
// Σ_c dY_tc V_jc; ∂L/∂S_tj = P_tj (∂L/∂P_tj − Σ_k P_tk ∂L/∂P_tk)/√d_h; ∂L/∂Q_tc = Σ_j ∂L/∂S_tj K_jc;
// and query t's shares of ∂L/∂K_jc (+= ∂L/∂S_tj Q_tc) and ∂L/∂V_jc (+= P_tj dY_tc). ds: T·kLanes.
void attention_query_backward(float* dq, float* dk, float* dv, const float* dy, const HeadLanes& h, std::ptrdiff_t t,
                              float* ds) {
    const std::ptrdiff_t T = h.T, L = h.stride;
    const float* prow = h.p + t * T * L;
    Lanes row_dot = Lanes::Zero();
    for (std::ptrdiff_t j = 0; j <= t; ++j) {
        Lanes acc = Lanes::Zero();
        for (std::ptrdiff_t c = 0; c < h.dh; ++c) acc += LanesIn(dy + (c * T + t) * L) * LanesIn(h.v + (c * T + j) * L);
        LanesOut(ds + j * kLanes) = acc;
        row_dot += LanesIn(prow + j * L) * acc;
    }
    for (std::ptrdiff_t j = 0; j <= t; ++j)
        LanesOut(ds + j * kLanes) = LanesIn(prow + j * L) * (LanesIn(ds + j * kLanes) - row_dot) * h.scale;
    for (std::ptrdiff_t c = 0; c < h.dh; ++c) {
        const LanesIn q(h.q + (c * T + t) * L), g(dy + (c * T + t) * L);
        Lanes acc = Lanes::Zero();
        for (std::ptrdiff_t j = 0; j <= t; ++j) {
            const LanesIn dsj(ds + j * kLanes);
            acc += dsj * LanesIn(h.k + (c * T + j) * L);
            LanesOut(dk + (c * T + j) * L) += dsj * q;
            LanesOut(dv + (c * T + j) * L) += LanesIn(prow + j * L) * g;
        }
        LanesOut(dq + (c * T + t) * L) = acc;
    }
}

}  // namespace

void attention_forward(float* y, float* cache, const float* qkv, const AttentionShape& s, float* work) {
    const std::ptrdiff_t T = s.time, d = s.width, dh = d / s.heads, lanes = s.lanes();
    float* qkv_cm = cache + s.heads * T * T * lanes;   // 3d·T·B₈
    float* y_cm = work;                                // d·T·B₈
    to_case_minor(qkv_cm, qkv, 3 * d, s);
    for (std::ptrdiff_t lane0 = 0; lane0 < lanes; lane0 += kLanes)
        for (std::ptrdiff_t i = 0; i < s.heads; ++i) {
            const HeadLanes h = head_lanes(cache, s, i, lane0);
            float* p = cache + i * T * T * lanes + lane0;
            for (std::ptrdiff_t t = 0; t < T; ++t)
                attention_query_forward(y_cm + i * dh * T * lanes + lane0, p + t * T * lanes, h, t);
        }
    from_case_minor(y, y_cm, d, s);
}

void attention_backward(float* dqkv, const float* dy, const float* cache, const AttentionShape& s, float* work) {
    const std::ptrdiff_t T = s.time, d = s.width, dh = d / s.heads, lanes = s.lanes();
    float* dy_cm = work;                           // d·T·B₈
    float* dqkv_cm = work + d * T * lanes;         // 3d·T·B₈: ∂L/∂Q, ∂L/∂K, ∂L/∂V
    float* ds = dqkv_cm + 3 * d * T * lanes;       // T·kLanes
    to_case_minor(dy_cm, dy, d, s);
    for (std::ptrdiff_t n = d * T * lanes; n < 3 * d * T * lanes; ++n) dqkv_cm[n] = 0.0f;   // K and V accumulate
    for (std::ptrdiff_t lane0 = 0; lane0 < lanes; lane0 += kLanes)
        for (std::ptrdiff_t i = 0; i < s.heads; ++i) {
            const HeadLanes h = head_lanes(cache, s, i, lane0);
            const std::ptrdiff_t q0 = i * dh * T * lanes + lane0, k0 = (d + i * dh) * T * lanes + lane0,
                                 v0 = (2 * d + i * dh) * T * lanes + lane0;
            for (std::ptrdiff_t t = 0; t < T; ++t)
                attention_query_backward(dqkv_cm + q0, dqkv_cm + k0, dqkv_cm + v0, dy_cm + i * dh * T * lanes + lane0,
                                         h, t, ds);
        }
    from_case_minor(dqkv, dqkv_cm, 3 * d, s);
}

// [SECTION] Adam ----------------------------------------------------------------------------

void adam_update(float* theta, float* m, float* v, const float* g, std::ptrdiff_t n, const AdamStep& a) {
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        m[i] = a.beta1 * m[i] + a.one_minus_beta1 * g[i];
        v[i] = a.beta2 * v[i] + a.one_minus_beta2 * (g[i] * g[i]);
        theta[i] -= a.lr_t * m[i] / (std::sqrt(v[i] / a.c2) + a.eps);
    }
}

// [SECTION] Products ------------------------------------------------------------------------

namespace {
// c = a · b, or c += a · b (Eigen's product: a GEMM that starts from zero or from c).
template <class C, class A, class B>
void product_into(C&& c, const A& a, const B& b, bool accumulate) {
    if (accumulate)
        c.noalias() += a * b;
    else
        c.noalias() = a * b;
}
}  // namespace

void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k, bool accumulate) {
    using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<M> c(C, m, n);
    if (!transpose_a && !transpose_b)
        product_into(c, Eigen::Map<const M>(A, m, k), Eigen::Map<const M>(B, k, n), accumulate);
    else if (!transpose_a)
        product_into(c, Eigen::Map<const M>(A, m, k), Eigen::Map<const M>(B, n, k).transpose(), accumulate);
    else if (!transpose_b)
        product_into(c, Eigen::Map<const M>(A, k, m).transpose(), Eigen::Map<const M>(B, k, n), accumulate);
    else
        product_into(c, Eigen::Map<const M>(A, k, m).transpose(), Eigen::Map<const M>(B, n, k).transpose(), accumulate);
}

}  // namespace normlab::model_kernels::NORMLAB_KERNELS_NS
