// NormLab core: order statistics of timing samples (benchmarks, frame times).
#pragma once

#include <vector>

namespace normlab {

// The median of the samples (the mean of the middle two for an even count); NaN when empty.
double median(std::vector<double> samples);

// The q-quantile, 0 ≤ q ≤ 1, by linear interpolation between the closest ranks (q = 0.5 is the
// median, 0 the smallest, 1 the largest); NaN when empty or q is outside [0, 1].
double percentile(std::vector<double> samples, double q);

}  // namespace normlab
