// `normlab-cli eval`: reads one JSON request on stdin, writes one JSON result on stdout.
// The parsing and the numbers are core's (normlab/norm/eval.hpp); this file only does the I/O.
#include "commands.hpp"

#include "normlab/norm/eval.hpp"
#include "normlab/norm/format_eval.hpp"
#include "normlab/base/file_io.hpp"

#include <iostream>
#include <iterator>
#include <string>

namespace normlab::cli {

const char kEvalHelp[] = R"help(Usage: normlab-cli eval < request.json

Evaluates one normalization layer, y = norm(x Wᵀ) ⊙ g + b, for a batch of B cases, in double
precision (or, with dtype, in a number format beside double). Reads one JSON object on stdin and
writes one JSON object on stdout.

Request keys:
  norm        layernorm | rmsnorm | prmsnorm | l2norm | batchnorm | weightnorm | none (required)
  eps         number ≥ 0 (default 1e-5); weightnorm has no ε (Salimans & Kingma) and ignores it
  eps_mode    inside_sqrt (default: sqrt(σ² + ε)) | add_to_rms (σ + ε)
  p           prmsnorm: fraction of the n entries the RMS is estimated from, 0 < p ≤ 1 (default 0.0625)
  k_rounding  prmsnorm: k = ceil(n·p) (default, the paper) | floor (the authors' PyTorch code)
  x           B lists of m numbers; a flat list of m numbers means B = 1 (required)
  W           n lists of m numbers (absent: a = x, n = m)
  g, b        n numbers each (defaults: ones, zeros)
  dy          B lists of n numbers (a flat list when B = 1): asks for the gradients of L = Σ dy ⊙ y
  dtype       float64 (default: the result below) | float32 | float16 | bfloat16: the forward of
              layernorm, rmsnorm, prmsnorm or l2norm (a = x: no W, no dy) op by op in that format
  accumulate  same (default: every operation rounded to dtype, ε too) | float32 (x, g, b stored in
              dtype, computed in float32, y rounded back to dtype); only with a dtype other than float64

Result keys:
  norm, eps, eps_mode  what was in force (and p, k_rounding, k for prmsnorm)
  a, y                 B×n lists of lists (nested even when B = 1)
  stats                per case: mean, var, std, rms of a (for prmsnorm: rms of the first k entries, and k)
  norm_stats           what the norm divided by, named: {"per": case | feature | weight_row, "over": words,
                       "groups": [{mean, std | rms | norm, denom}]} (batchnorm: per feature; null for none)
  grad                 with dy: x (B×m), g (n), b (n), W (n×m, when W was given)
  notes                sentences, when something needs saying (e.g. a var beyond the double range is null)

Result keys with a dtype other than float64 (B×n lists, null where not finite):
  dtype, accumulate, eps_used   the format, the arithmetic, ε as the arithmetic holds it
  x_stored, y                   x as dtype stores it; y as dtype holds it
  y_float64, y_float64_exact    float64 from x_stored, g, b, eps_used (the arithmetic's error) and from
                                the x, g, b, eps asked for (the storage's error too)
  ulps, ulps_exact              y's error against each, in ulps of dtype (null where undefined)
  stats                         per case in the computing format: mean (layernorm), var | mean_square |
                                sum_squares, denom
  flags                         what happened where: {kind: overflow | underflow | divide_by_zero | nan |
                                eps_dominated, case, where, value, more, message}, e.g. "x₁² = 90000
                                overflows float16 (max 65504), as do 3 more squares (case 0)"

Examples:
  echo '{"norm": "rmsnorm", "eps": 0, "x": [2, 4, 6, 8]}' | normlab-cli eval
  echo '{"norm": "rmsnorm", "x": [300, 400, 500, 600], "dtype": "float16"}' | normlab-cli eval

Exit codes: 0 success; 2 bad request (one line on stderr says what and where, e.g.
`x[1][3] is not a number (got string "abc")`). Numbers are printed to full round-trip precision.
)help";

namespace {
constexpr std::size_t kMaxRequestBytes = 256u << 20;   // a million-wide request is ~20 MB
}  // namespace

int run_eval(const Args& args) {
    if (!args.empty())
        throw InputError("eval reads its request on stdin and takes no arguments (got " + quote_for_message(args[0]) +
                         "); see normlab-cli eval --help");
    // At most kMaxRequestBytes: /dev/zero on stdin is refused, not read until memory runs out.
    std::string text;
    char buf[65536];
    while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
        if (text.size() > kMaxRequestBytes)
            throw InputError("request is more than " + describe_size(kMaxRequestBytes) + " (the limit)");
    }
    std::cout << evaluate_request_with_format(text).dump() << '\n';
    return 0;
}

}  // namespace normlab::cli
