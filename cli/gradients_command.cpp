// `normlab-cli gradients`: log-log slopes of the gradient magnitudes against δ (paper eq. 8–10),
// from core's gradient_sweep.
#include "commands.hpp"
#include "options.hpp"

#include "normlab/base/input_error.hpp"
#include "normlab/norm/gradients.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace normlab::cli {

const char kGradientsHelp[] = R"(Usage: normlab-cli gradients [--seed S] [--eps E] [--json]

Measures ‖∂L/∂W‖, ‖∂L/∂x‖, ‖∂L/∂g‖ and ‖∂L/∂b‖ for LayerNorm, RMSNorm and pRMSNorm (p = 6.25%) on
a seeded random layer (4 cases, 8 inputs, 8 outputs, a fixed random upstream gradient) while x or W
is scaled by δ over [1e-2, 1e2] (41 log-spaced values), and fits the log-log slope of each.
The paper (eq. 8–10) predicts: input scaling 0, −1, 0, 0; weight scaling −1, 0, 0, 0 (for W, x, g, b).

Options:
  --seed S   the random layer's seed (default 1)
  --eps E    ε ≥ 0, inside the square root (default 1e-12)
  --json     {"slopes": {NORM: {SCALING: {"dW": s, "dx": s, "dg": s, "db": s}}}}
)";

int run_gradients(const Args& args) {
    const Options opt("gradients", args, {{"seed", true}, {"eps", true}, {"json", false}});
    const auto seed = static_cast<unsigned>(opt.integer("seed", 1, 0, 4294967295L));
    NormSpec spec;
    spec.eps = opt.number("eps", 1e-12);
    if (spec.eps < 0.0) throw InputError("--eps must be ≥ 0");
    const GradientProbe probe = random_gradient_probe(seed);

    nlohmann::json slopes;
    if (!opt.flag("json"))
        std::printf("Gradient magnitude slopes d log‖∂L/∂·‖ / d log δ, δ ∈ [1e-2, 1e2], seed %u, ε = %g\n\n%-10s %-15s %7s %7s %7s %7s\n",
                    seed, spec.eps, "norm", "scaling", "W", "x", "g", "b");
    for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm}) {
        spec.norm = norm;
        for (Scaling s : {Scaling::Input, Scaling::Weight}) {
            const GradNorms k = gradient_sweep(spec, probe, s).slope;
            slopes[std::string(to_string(norm))][std::string(to_string(s))] = {
                {"dW", k.dW}, {"dx", k.dx}, {"dg", k.dg}, {"db", k.db}};
            if (!opt.flag("json"))
                std::printf("%-10s %-15s %7.3f %7.3f %7.3f %7.3f\n", std::string(display_name(norm)).c_str(),
                            std::string(to_string(s)).c_str(), k.dW, k.dx, k.dg, k.db);
        }
    }
    if (opt.flag("json")) std::cout << nlohmann::json{{"seed", seed}, {"eps", spec.eps}, {"slopes", slopes}}.dump() << '\n';
    return 0;
}

}  // namespace normlab::cli
