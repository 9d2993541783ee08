// NormLab core: `normlab-cli eval` with a number format — the request keys "dtype" and
// "accumulate" (docs/ARCHITECTURE.md, "Command-line contract").
//
// Request: eval's keys (eval.hpp) and
//   dtype       float64 (default) | float32 | float16 | bfloat16
//   accumulate  same (default) | float32; only with dtype float32, float16 or bfloat16
// Without dtype, or with float64 (and no accumulate), the result is eval's, byte for byte.
// Otherwise norm is layernorm, rmsnorm, prmsnorm or l2norm, and W and dy are refused (the
// forward of a = x only), and the result is (B×n lists nested, null where not finite):
//   norm, eps, eps_mode (p, k_rounding, k), dtype, accumulate, eps_used (ε as the arithmetic holds it)
//   x_stored          x as the format stores it
//   y                 y as the format holds it
//   y_float64         float64 from x_stored, g, b and eps_used (the arithmetic's error)
//   y_float64_exact   float64 from the x, g, b and eps asked for (the storage's error too)
//   ulps, ulps_exact  (y − y_float64) / ulp, (y − y_float64_exact) / ulp, in ulps of dtype
//   stats             per case, as the computing format holds them: mean (layernorm), var |
//                     mean_square | sum_squares, denom
//   flags             events: {kind, case (absent for ε), where, value, more, message}
//   notes             sentences, when the two arithmetics coincide (float32)
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace normlab {

// The whole of `normlab-cli eval`: request text → result JSON; bad input throws InputError.
nlohmann::json evaluate_request_with_format(std::string_view text);

}  // namespace normlab
