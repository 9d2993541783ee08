// NormLab core: how the libraries compute their norms — PyTorch, Hugging Face, Flax, Apex and the
// RMSNorm paper's own code — each emulated in a number format with its own method (one pass
// E[x²] − E[x]², Welford, ε outside the root, the cast back before or after the gain).
// docs/CONVENTIONS.md holds the table with the source and version of every fact.
//
// [SECTION] Conventions — one row per library norm: what it does, where that was read
// [SECTION] Numbers     — the convention's y for x in a format, beside float64
//
// Shapes: x has n entries (one case); g = 1 and b = 0 unless given.
#pragma once

#include "normlab/norm/number_format.hpp"

#include <string>
#include <vector>

namespace normlab {

// [SECTION] Conventions ---------------------------------------------------------------------

enum class Convention {
    TorchLayerNorm,    // torch.nn.LayerNorm (CUDA kernel: Welford in float32)
    TorchRMSNorm,      // torch.nn.RMSNorm (the composite: float32, ε = float32's epsilon)
    HfLlamaRMSNorm,    // transformers LlamaRMSNorm
    HfT5LayerNorm,     // transformers T5LayerNorm
    FlaxLayerNorm,     // flax.linen.LayerNorm (use_fast_variance: E[x²] − E[x]²)
    FlaxRMSNorm,       // flax.linen.RMSNorm
    ApexLayerNorm,     // apex.normalization.FusedLayerNorm (Welford; cast before the gain)
    ApexRMSNorm,       // apex.normalization.FusedRMSNorm
    PaperTorch,        // bzhangGo/rmsnorm rmsnorm_torch.py: x / (‖x‖/√n + ε)
    PaperTensorFlow,   // bzhangGo/rmsnorm rmsnorm_tensorflow.py: x · rsqrt(mean(x²) + ε)
};
inline constexpr Convention kAllConventions[] = {
    Convention::TorchLayerNorm, Convention::TorchRMSNorm,  Convention::HfLlamaRMSNorm, Convention::HfT5LayerNorm,
    Convention::FlaxLayerNorm,  Convention::FlaxRMSNorm,   Convention::ApexLayerNorm,  Convention::ApexRMSNorm,
    Convention::PaperTorch,     Convention::PaperTensorFlow};

// What one library norm does, in words, and where each fact was read (repository, path, version).
struct ConventionInfo {
    const char* name;          // "PyTorch nn.RMSNorm"
    bool centred;              // subtracts the mean (a LayerNorm)
    const char* formula;       // "y = x · rsqrt(mean(x²) + ε) · g"
    const char* eps_place;     // "inside the root" | "outside: added to the RMS"
    double eps;                // the default ε (for this format: see default_eps)
    const char* eps_default;   // "torch.finfo(x.dtype).eps (docs); float32's 1.19e-7 for float16 input (code)"
    const char* accumulate;    // "float32 (upcast)", "the input's format"
    const char* statistics;    // "Welford", "one pass E[x²] − E[x]²", "two reductions: mean(x²)"
    const char* cast_back;     // "after the gain", "before the gain"
    const char* gain;          // "float32, before the cast", "in the format, after the cast"
    const char* source;        // "pytorch/pytorch aten/src/ATen/native/layer_norm.cpp @ 3de78ed"
    const char* caveat;        // what the emulation does not model; may be ""
};
const ConventionInfo& convention_info(Convention c);

// The convention's default ε when x is in `format` (PyTorch's RMSNorm: float32's epsilon for
// the formats it upcasts, float64's for float64).
double default_eps(Convention c, NumberFormat format);

// [SECTION] Numbers -------------------------------------------------------------------------

struct ConventionResult {
    Convention convention = Convention::TorchLayerNorm;
    double eps = 0.0;                // the default ε used
    Vec y;                           // n: as the library returns it (its output format)
    NumberFormat output = NumberFormat::Float32;   // the format y is returned in
    Vec reference;                   // n: float64 of the same formula and ε on the stored x
    double max_ulps = 0.0;           // max |y − reference| in ulps of `output` (NaN where y is not finite)
};

// The convention applied to x stored in `format` (g = 1, b = 0, the parameters in `format` too),
// step by step in the library's order and precision. x: n ≥ 1 finite entries.
ConventionResult apply_convention(Convention c, const Vec& x, NumberFormat format);

}  // namespace normlab
