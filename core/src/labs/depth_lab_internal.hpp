// NormLab core: what the Depth lab's files share (private to core/src/labs).
#pragma once

#include <vector>

namespace normlab::depth_internal {

// Mean of the last kDepthSweepTail entries (all when fewer).
double tail_mean(const std::vector<double>& losses);

}  // namespace normlab::depth_internal
