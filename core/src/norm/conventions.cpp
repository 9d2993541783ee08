// NormLab core: the libraries' norms in a number format (see conventions.hpp; the sources and
// versions read are in docs/CONVENTIONS.md). Built with -ffp-contract=off like number_format.cpp:
// every step below is one rounding in the library's format.
//
// [SECTION] Conventions — the table
// [SECTION] Arithmetic  — one format's rounded operations
// [SECTION] Methods     — each library's order of operations
#include "normlab/norm/conventions.hpp"

#include <cfloat>
#include <cmath>
#include <limits>

namespace normlab {

// [SECTION] Conventions ---------------------------------------------------------------------

namespace {

const ConventionInfo kInfo[] = {
    {"PyTorch nn.LayerNorm", true, "y = (x − μ) · rsqrt(σ² + ε) · g + b", "inside the root", 1e-5, "1e-5, any dtype",
     "float32 for float16/bfloat16 input (acc type)", "Welford, one pass", "after the gain and bias",
     "float32, before the cast", "pytorch/pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu @ bad757b",
     "the vectorized CUDA kernel, one thread's Welford (for n > 4 threads' partial sums are combined)"},
    {"PyTorch nn.RMSNorm", false, "y = x · rsqrt(mean(x²) + ε) · g", "inside the root", FLT_EPSILON,
     "None → docs: torch.finfo(x.dtype).eps; code: the float32 epsilon 1.19e-7 for float16/bfloat16 input",
     "float32 (upcast to the op-math type)", "mean of x² (a reduction)", "after the gain", "float32, before the cast",
     "pytorch/pytorch aten/src/ATen/native/layer_norm.cpp rms_norm_composite @ 3de78ed",
     "the composite path; the fused kernel may reduce in another order"},
    {"Hugging Face LlamaRMSNorm", false, "y = g · cast(x · rsqrt(mean(x²) + ε))", "inside the root", 1e-6, "1e-6 (rms_norm_eps)",
     "float32 (x.to(float32))", "mean of x²", "before the gain", "in the format, after the cast (weights in the format)",
     "huggingface/transformers src/transformers/models/llama/modeling_llama.py @ 0022728 (v4.38 era)",
     "weights assumed in the format (model.to(dtype)); float32 weights give a float32 y"},
    {"Hugging Face T5LayerNorm", false, "y = g · cast(x · rsqrt(mean(x²) + ε))", "inside the root", 1e-6,
     "1e-6 (layer_norm_epsilon)", "float32 for the variance only; x · rsqrt promotes to float32", "mean of x²",
     "before the gain, only when g is float16/bfloat16", "in the format, after the cast",
     "huggingface/transformers src/transformers/models/t5/modeling_t5.py @ 6b8b757",
     "Apex's FusedRMSNorm replaces it when apex is installed"},
    {"Flax linen.LayerNorm", true, "y = (x − μ) · (rsqrt(max(0, E[x²] − μ²) + ε) · g) + b", "inside the root", 1e-6,
     "1e-6", "at least float32 (force_float32_reductions)", "E[x²] − E[x]² (use_fast_variance = True)",
     "to dtype, by default the promoted type of x and the float32 parameters: float32", "float32, folded into rsqrt",
     "google/flax flax/linen/normalization.py @ 18f8f31 (v0.12.7+77)", "output stays float32 with float32 parameters"},
    {"Flax linen.RMSNorm", false, "y = x · (rsqrt(mean(x²) + ε) · g)", "inside the root", 1e-6, "1e-6",
     "at least float32", "mean of x² (use_mean = False)", "as LayerNorm: float32 by default", "float32, folded into rsqrt",
     "google/flax flax/linen/normalization.py @ 18f8f31 (v0.12.7+77)", "output stays float32 with float32 parameters"},
    {"Apex FusedLayerNorm", true, "y = g · cast((x − μ) · rsqrt(σ² + ε)) + b", "inside the root", 1e-5, "1e-5",
     "float32 (U = acc type)", "Welford online (cuWelfordOnlineSum)", "before the gain and bias",
     "in the output format, after the cast", "NVIDIA/apex csrc/layer_norm_cuda_kernel.cu, fused_layer_norm.py @ 6424da3 (25.09+52)",
     "rsqrtf on the GPU is within 2 ulp of 1/√ (emulated as correctly rounded); per-thread sums combined (Chan) for long rows"},
    {"Apex FusedRMSNorm", false, "y = g · cast(x · rsqrt(mean(x²) + ε))", "inside the root", 1e-5, "1e-5",
     "float32 (U = acc type)", "Σx² online (cuRMSOnlineSum)", "before the gain", "in the output format, after the cast",
     "NVIDIA/apex csrc/layer_norm_cuda_kernel.cu, fused_layer_norm.py @ 6424da3 (25.09+52)",
     "rsqrtf on the GPU is within 2 ulp of 1/√ (emulated as correctly rounded)"},
    {"RMSNorm paper, PyTorch", false, "y = g · x / (‖x‖₂ · n^(−1/2) + ε)", "outside: added to the RMS", 1e-8,
     "1e-8 (0 in float16, and below any RMS's ulp in bfloat16)", "the input's format (torch.norm reduces in float32)",
     "‖x‖₂ then × n^(−1/2)", "none: every step in the format", "in the format",
     "bzhangGo/rmsnorm rmsnorm_torch.py @ c6691f2", "torch.norm's float32 reduction modelled as one sum rounded once"},
    {"RMSNorm paper, TensorFlow", false, "y = g · x · rsqrt(mean(x²) + ε)", "inside the root", 1e-8,
     "1e-8", "the input's format (x ** 2 in it)", "mean of x²", "none: every step in the format", "in the format",
     "bzhangGo/rmsnorm rmsnorm_tensorflow.py @ c6691f2", "reduce_mean's inner accumulation modelled as float32"},
};

}  // namespace

const ConventionInfo& convention_info(Convention c) { return kInfo[static_cast<int>(c)]; }

double default_eps(Convention c, NumberFormat format) {
    if (c == Convention::TorchRMSNorm && format == NumberFormat::Float64) return DBL_EPSILON;
    return convention_info(c).eps;
}

// [SECTION] Arithmetic ----------------------------------------------------------------------

namespace {

// One format's rounded operations on doubles that hold its numbers (number_format.hpp's argument:
// each double result rounded once is correctly rounded for these formats).
struct Ops {
    NumberFormat f;
    double r(double v) const { return round_to(f, v); }
    double add(double a, double b) const { return r(a + b); }
    double sub(double a, double b) const { return r(a - b); }
    double mul(double a, double b) const { return r(a * b); }
    double div(double a, double b) const { return r(a / b); }
    double rsqrt(double a) const { return r(1.0 / r(std::sqrt(a))); }   // 1 / √ as two roundings
    // (((v₁ + v₂) + v₃) + …) / n
    double mean(const Vec& v) const {
        double s = v(0);
        for (Eigen::Index i = 1; i < v.size(); ++i) s = add(s, v(i));
        return div(s, r(static_cast<double>(v.size())));
    }
    Vec squares(const Vec& v) const {
        Vec out(v.size());
        for (Eigen::Index i = 0; i < v.size(); ++i) out(i) = mul(v(i), v(i));
        return out;
    }
};

// The accumulating format: float32 for the narrow formats, the format itself otherwise.
NumberFormat upcast(NumberFormat f) { return compute_format(f, Arithmetic::Float32); }

struct Welford {
    double mean = 0.0, m2 = 0.0;
};
// One value at a time: δ = x − μ, μ += δ / count (PyTorch: δ · (1/count)), m2 += δ · (x − μ).
Welford welford(const Ops& op, const Vec& a, bool reciprocal) {
    Welford w;
    for (Eigen::Index i = 0; i < a.size(); ++i) {
        const double delta = op.sub(a(i), w.mean);
        const double count = op.r(static_cast<double>(i + 1));
        w.mean = op.add(w.mean, reciprocal ? op.mul(delta, op.div(1.0, count)) : op.div(delta, count));
        w.m2 = op.add(w.m2, op.mul(delta, op.sub(a(i), w.mean)));
    }
    return w;
}

// [SECTION] Methods -------------------------------------------------------------------------

// y (in the returned format) for a = x stored in f, g = 1, b = 0 stored in f.
Vec layer_norm_like(Convention c, const Vec& a, NumberFormat f, double eps, NumberFormat& out) {
    const Ops acc{upcast(f)}, fmt{f};
    const Eigen::Index n = a.size();
    Vec y(n);
    if (c == Convention::TorchLayerNorm || c == Convention::ApexLayerNorm) {
        const Welford w = welford(acc, a, c == Convention::TorchLayerNorm);
        const double rstd = acc.rsqrt(acc.add(acc.div(w.m2, acc.r(static_cast<double>(n))), acc.r(eps)));
        for (Eigen::Index i = 0; i < n; ++i) {
            const double norm = acc.mul(acc.sub(a(i), w.mean), rstd);
            y(i) = c == Convention::TorchLayerNorm ? fmt.r(acc.add(acc.mul(norm, 1.0), 0.0))   // g, b in float32
                                                   : fmt.add(fmt.mul(1.0, fmt.r(norm)), 0.0);  // cast, then g, b
        }
        out = f;
        return y;
    }
    // Flax: E[x²] − E[x]², clamped at 0; the scale folded into rsqrt; float32 out.
    const double mu = acc.mean(a), mu2 = acc.mean(acc.squares(a));
    const double var = std::max(0.0, acc.sub(mu2, acc.mul(mu, mu)));
    const double mul = acc.mul(acc.rsqrt(acc.add(var, acc.r(eps))), 1.0);
    for (Eigen::Index i = 0; i < n; ++i) y(i) = acc.add(acc.mul(acc.sub(a(i), mu), mul), 0.0);
    out = upcast(f);
    return y;
}

Vec rms_norm_like(Convention c, const Vec& a, NumberFormat f, double eps, NumberFormat& out) {
    const Ops acc{upcast(f)}, fmt{f};
    const Eigen::Index n = a.size();
    Vec y(n);
    out = f;
    if (c == Convention::PaperTorch) {   // ‖x‖ (float32 reduction, rounded to f) · n^(−1/2), + ε, all in f
        double ss = 0.0;
        for (Eigen::Index i = 0; i < n; ++i) ss = acc.add(ss, acc.mul(a(i), a(i)));
        const double norm = fmt.r(acc.r(std::sqrt(ss)));
        const double rms = fmt.r(acc.mul(norm, acc.r(std::pow(static_cast<double>(n), -0.5))));
        const double denom = fmt.r(acc.add(rms, acc.r(eps)));
        for (Eigen::Index i = 0; i < n; ++i) y(i) = fmt.mul(1.0, fmt.div(a(i), denom));
        return y;
    }
    if (c == Convention::PaperTensorFlow) {   // x ** 2 in f, the mean accumulated in float32, the rest in f
        const Vec sq = fmt.squares(a);
        const double ms = fmt.r(acc.mean(sq));
        const double r = fmt.rsqrt(fmt.add(ms, fmt.r(eps)));
        for (Eigen::Index i = 0; i < n; ++i) y(i) = fmt.mul(fmt.mul(1.0, a(i)), r);
        return y;
    }
    double ss = 0.0;   // Apex's online Σx²; the others' mean(x²) sums the same squares left to right
    for (Eigen::Index i = 0; i < n; ++i) ss = acc.add(ss, acc.mul(a(i), a(i)));
    const double ms = acc.div(ss, acc.r(static_cast<double>(n)));
    const double r = acc.rsqrt(acc.add(ms, acc.r(eps)));
    for (Eigen::Index i = 0; i < n; ++i) {
        const double v = acc.mul(a(i), r);
        switch (c) {
            case Convention::TorchRMSNorm: y(i) = fmt.r(acc.mul(v, 1.0)); break;            // g in float32, then cast
            case Convention::FlaxRMSNorm: y(i) = acc.mul(v, 1.0); out = upcast(f); break;    // float32 out
            default: y(i) = fmt.mul(1.0, fmt.r(v)); break;                                   // cast, then g in f
        }
    }
    return y;
}

}  // namespace

ConventionResult apply_convention(Convention c, const Vec& x, NumberFormat format) {
    const ConventionInfo& info = convention_info(c);
    ConventionResult r;
    r.convention = c;
    r.eps = default_eps(c, format);
    Vec a(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) a(i) = round_to(format, x(i));
    r.y = info.centred ? layer_norm_like(c, a, format, r.eps, r.output) : rms_norm_like(c, a, format, r.eps, r.output);

    NormSpec spec;
    spec.norm = info.centred ? Norm::LayerNorm : Norm::RMSNorm;
    spec.eps = r.eps;
    spec.eps_mode = c == Convention::PaperTorch ? EpsMode::AddToRms : EpsMode::InsideSqrt;
    const Eigen::Index n = a.size();
    r.reference = layer_forward(spec, a.transpose(), LayerParams{std::nullopt, Vec::Ones(n), Vec::Zero(n)}).y.transpose();
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::optional<double> e = ulp_error(r.output, r.y(i), r.reference(i));
        r.max_ulps = e ? std::max(r.max_ulps, std::fabs(*e)) : std::numeric_limits<double>::quiet_NaN();
        if (!e) break;
    }
    return r;
}

}  // namespace normlab
