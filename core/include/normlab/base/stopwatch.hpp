// NormLab core: seconds since a steady-clock time point, for the timing fields of results.
#pragma once

#include <chrono>

namespace normlab {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace normlab
