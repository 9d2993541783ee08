// NormLab core: `normlab-cli eval`: one JSON request in, one JSON result out (docs/ARCHITECTURE.md,
// "Command-line contract"). The JSON readers it uses: base/json_read.hpp.
//
// Shapes as in norm.hpp: x B×m (one case per row), W n×m, a/y/dy B×n, g/b n.
#pragma once

#include "normlab/base/json_read.hpp"
#include "normlab/norm/norm.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] eval ----------------------------------------------------------------------------
//
// Request (a JSON object; any other key is an error, which catches typos such as "esp"):
//   norm        layernorm | rmsnorm | prmsnorm | l2norm | batchnorm | weightnorm | none (required)
//   eps         number ≥ 0 (default 1e-5)
//   eps_mode    inside_sqrt (default) | add_to_rms
//   p           prmsnorm: 0 < p ≤ 1 (default 0.0625)
//   k_rounding  prmsnorm: ceil (default, the paper) | floor (the authors' PyTorch code)
//   x           B lists of m numbers; a flat list of m numbers means B = 1 (required)
//   W           n lists of m numbers (absent: a = x, n = m)
//   g, b        n numbers each (defaults: ones, zeros)
//   dy          B lists of n numbers, or a flat list when B = 1 (optional)
//
// Result: norm, eps, eps_mode (and p, k_rounding, k for prmsnorm), a and y (B×n, always nested),
// stats (per case: mean, var, std, rms, and k for prmsnorm, whose rms is the first k entries'),
// norm_stats (the statistics the norm divided by, per case, feature or weight row), grad when dy is given (x: B×m,
// g: n, b: n, W: n×m when W was given; gradients of L = Σ dy ⊙ y), and notes (sentences) when
// something needs saying: a var beyond the double range (printed as null), an ignored p.
// Any other non-finite result is an InputError naming its first entry and the likely reason,
// e.g. `grad.x[0][1] is not finite: case 0 is all zeros and eps = 0`.

struct EvalRequest {
    NormSpec spec;
    Mat x;                           // B×m
    LayerParams params;              // W (n×m, optional), g (n), b (n)
    std::optional<Mat> dy;           // B×n
    std::vector<std::string> notes;  // about the request itself, e.g. a p that the norm ignores
};

// Validates a parsed request; throws InputError.
EvalRequest parse_eval_request(const nlohmann::json& request);

// Runs core::layer_forward (and layer_backward when dy is given); throws InputError when the
// result is not finite.
nlohmann::json evaluate(const EvalRequest& request);

// The whole of `normlab-cli eval`: request text → result JSON. Any bad request, and any result
// that would not be finite, throws InputError; nothing else is expected (the fuzzer's target).
nlohmann::json evaluate_request(std::string_view text);

}  // namespace normlab
