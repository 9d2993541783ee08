// NormLab core: order statistics (see stats.hpp).
#include "normlab/base/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace normlab {

double median(std::vector<double> samples) { return percentile(std::move(samples), 0.5); }

double percentile(std::vector<double> samples, double q) {
    if (samples.empty() || !(q >= 0.0 && q <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
    // Rank r = q·(n − 1): the value at ⌊r⌋ and the next one up, weighted by r's fraction.
    const double rank = q * static_cast<double>(samples.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto nth = samples.begin() + static_cast<std::ptrdiff_t>(lo);
    std::nth_element(samples.begin(), nth, samples.end());
    const double below = *nth;
    if (lo + 1 >= samples.size()) return below;
    const double above = *std::min_element(nth + 1, samples.end());
    return below + (rank - static_cast<double>(lo)) * (above - below);
}

}  // namespace normlab
