// NormLab core: seeded random numbers that give the same values everywhere.
//
// The standard library fixes std::mt19937_64's output bit for bit, but not the algorithms of
// std::uniform_real_distribution, std::normal_distribution or std::shuffle: those differ between
// libstdc++, libc++ and MSVC. The training lab promises "same seed, same numbers", so the
// transforms from raw 64-bit words to doubles, normals, integers and permutations are our own.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace normlab {

// SplitMix64 of (seed, stream): independent, well-mixed seeds for the separate random streams of
// one run (data, initial weights, mini-batch order) from the one seed a user types.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

class Rng {
public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}

    std::uint64_t next() { return engine_(); }

    // Uniform on [0, 1): the top 53 bits of one word, times 2⁻⁵³.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

    // Uniform on [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

    // Standard normal by Box–Muller: two uniforms → two normals; the second is kept for the
    // next call. u1 ∈ (0, 1] so that log(u1) is finite.
    double normal() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        const double u1 = 1.0 - uniform();
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double t = 6.283185307179586476925 * u2;  // 2π u2
        spare_ = r * std::sin(t);
        has_spare_ = true;
        return r * std::cos(t);
    }

    double normal(double mean, double stddev) { return mean + stddev * normal(); }

    // Uniform integer in [0, n) without modulo bias (rejection of the incomplete last block).
    std::uint64_t below(std::uint64_t n) {
        if (n <= 1) return 0;
        const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);  // multiple of n
        std::uint64_t x;
        do x = engine_();
        while (x >= limit);
        return x % n;
    }

    // Fisher–Yates: a uniformly random permutation, in place.
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) {
            const std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(v[i - 1], v[j]);
        }
    }

private:
    std::mt19937_64 engine_;
    bool has_spare_ = false;
    double spare_ = 0.0;
};

}  // namespace normlab
