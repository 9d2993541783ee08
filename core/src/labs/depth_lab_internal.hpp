// NormLab core: what the Depth lab's files share (private to core/src/labs).
#pragma once

#include "normlab/labs/depth_lab.hpp"

#include <tuple>
#include <vector>

namespace normlab::depth_internal {

// Mean of the last kDepthSweepTail entries (all when fewer).
double tail_mean(const std::vector<double>& losses);

// DepthLabState's fields in groups, each field named once: equal groups are equal settings.
// operator== compares them all; the engine, the groups a part of its work depends on.
// The models every run builds: the task, the architecture, the seed, the scalar.
inline auto model_fields(const DepthLabState& s) {
    return std::tie(s.task, s.text_path, s.placements, s.norm, s.layers, s.width, s.heads, s.residual_scale,
                    s.normformer, s.init, s.seed, s.precision);
}
inline auto training_fields(const DepthLabState& s) { return std::tie(s.steps, s.lr); }   // the main runs'
inline auto claims_fields(const DepthLabState& s) { return std::tie(s.measure_steps, s.seeds); }
inline auto display_fields(const DepthLabState& s) { return std::tie(s.evolution); }
inline auto sweep_fields(const DepthLabState& s) {
    return std::tie(s.sweep_lr_min, s.sweep_lr_max, s.sweep_points, s.sweep_steps);
}
inline auto sample_fields(const DepthLabState& s) {
    return std::tie(s.prompt, s.temperature, s.sample_lines, s.sample_seed);
}

}  // namespace normlab::depth_internal
