// Tests of core/src/norm/fast_norm.cpp (the float32 kernels) against core's double-precision engine
// (norm.hpp: layer_forward / layer_backward with W absent, so a = x): every output — y, the
// cached mean and rstd, dx, dg, db — on both kernel paths, on shapes chosen to reach every branch:
// widths that are not multiples of 8 or 16 (tails), one row, fewer rows than threads, very wide
// rows, outputs big enough for the streaming stores (and misaligned, so their head runs), and
// rows whose mean lies far from their first values (the LayerNorm forward's exact fallback).
// Speed is never tested here: see normlab-cli bench and docs/BENCHMARKS.md.
#include "normlab/norm/fast_norm.hpp"
#include "normlab/norm/norm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace normlab {
namespace {

using fast::KernelPath;

// ‖out − ref‖ / ‖ref‖ over n values (‖out‖ when ref is all zeros).
double relative_error(const float* out, const double* ref, size_t n) {
    double diff = 0.0, norm = 0.0;
    for (size_t i = 0; i < n; ++i) {
        diff += (out[i] - ref[i]) * (out[i] - ref[i]);
        norm += ref[i] * ref[i];
    }
    return norm > 0.0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

constexpr double kTolerance = 1e-5;

std::vector<KernelPath> paths() {
    std::vector<KernelPath> out = {KernelPath::Scalar};
    if (fast::avx2_supported()) out.push_back(KernelPath::Avx2);
    return out;
}

// One batch: float inputs (what the kernels see) and the same values in double (the reference's).
struct Batch {
    size_t rows, cols;
    std::vector<float> x, dy, g, b;
    Mat X, DY;
    LayerParams params;
};

// x_ij = offset + spread·u, u uniform in [−1, 1); g in [0.5, 1.5), b in [−0.5, 0.5).
Batch make_batch(size_t rows, size_t cols, unsigned seed, double offset = 0.0, double spread = 2.0) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Batch bt{rows, cols, {}, {}, {}, {}, Mat(rows, cols), Mat(rows, cols), {}};
    bt.x.resize(rows * cols);
    bt.dy.resize(rows * cols);
    for (size_t i = 0; i < rows * cols; ++i) {
        bt.x[i] = static_cast<float>(offset + spread * u(rng));
        bt.dy[i] = static_cast<float>(u(rng));
    }
    bt.g.resize(cols);
    bt.b.resize(cols);
    for (size_t j = 0; j < cols; ++j) {
        bt.g[j] = static_cast<float>(1.0 + 0.5 * u(rng));
        bt.b[j] = static_cast<float>(0.5 * u(rng));
    }
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < cols; ++j) {
            bt.X(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(j)) = bt.x[r * cols + j];
            bt.DY(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(j)) = bt.dy[r * cols + j];
        }
    bt.params.g = Vec(static_cast<Eigen::Index>(cols));
    bt.params.b = Vec(static_cast<Eigen::Index>(cols));
    for (size_t j = 0; j < cols; ++j) {
        bt.params.g[static_cast<Eigen::Index>(j)] = bt.g[j];
        bt.params.b[static_cast<Eigen::Index>(j)] = bt.b[j];
    }
    return bt;
}

// Row-major copy of an Eigen matrix (Eigen stores column-major).
std::vector<double> row_major(const Mat& m) {
    std::vector<double> out(static_cast<size_t>(m.size()));
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c) out[static_cast<size_t>(r * m.cols() + c)] = m(r, c);
    return out;
}

std::vector<double> to_vector(const Vec& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

// Copies `values` into a fresh buffer at `offset` floats past a 64-byte boundary, so that the
// rows (and the streaming stores' head) start misaligned when offset ≠ 0.
struct Placed {
    fast::FloatBuffer storage;
    float* data;
    Placed(const std::vector<float>& values, size_t offset) : storage(values.size() + offset) {
        data = storage.data() + offset;
        std::copy(values.begin(), values.end(), data);
    }
    Placed(size_t n, size_t offset) : storage(n + offset), data(storage.data() + offset) {
        std::fill(data, data + n, std::nanf(""));  // every output must be written
    }
};

// Runs the forward and backward of `norm` on `bt` through the fast kernels and checks every
// output against layer_forward / layer_backward.
void check_norm(Norm norm, const Batch& bt, KernelPath path, bool bias, size_t offset = 0, float eps = 1e-5f) {
    SCOPED_TRACE(std::string(to_string(norm)) + " " + std::to_string(bt.rows) + "x" + std::to_string(bt.cols) +
                 " path " + std::string(fast::to_string(path)) + (bias ? " with bias" : " no bias") + " offset " +
                 std::to_string(offset));
    const size_t n = bt.rows * bt.cols;
    NormSpec spec{norm, eps};
    LayerParams params = bt.params;
    if (!bias) params.b.setZero();
    const LayerForward ref = layer_forward(spec, bt.X, params);
    const LayerGrads grads = layer_backward(spec, bt.X, params, ref, bt.DY);

    Placed x(bt.x, offset), dy(bt.dy, offset), y(n, offset), dx(n, offset);
    std::vector<float> mean(bt.rows, std::nanf("")), rstd(bt.rows, std::nanf(""));
    std::vector<float> dg(bt.cols, std::nanf("")), db(bt.cols, std::nanf(""));
    const float* b = bias ? bt.b.data() : nullptr;
    if (norm == Norm::LayerNorm) {
        fast::layernorm_forward(y.data, mean.data(), rstd.data(), x.data, bt.g.data(), b, bt.rows, bt.cols, eps, path);
        fast::layernorm_backward(dx.data, dg.data(), bias ? db.data() : nullptr, dy.data, x.data, bt.g.data(),
                                 mean.data(), rstd.data(), bt.rows, bt.cols, path);
    } else {
        fast::rmsnorm_forward(y.data, rstd.data(), x.data, bt.g.data(), b, bt.rows, bt.cols, eps, path);
        fast::rmsnorm_backward(dx.data, dg.data(), bias ? db.data() : nullptr, dy.data, x.data, bt.g.data(),
                               rstd.data(), bt.rows, bt.cols, path);
    }

    std::vector<double> ref_mean, ref_rstd;
    for (const GroupStats& s : ref.cache.groups) {
        ref_mean.push_back(s.mean);
        ref_rstd.push_back(1.0 / s.denom);
    }
    EXPECT_LT(relative_error(y.data, row_major(ref.y).data(), n), kTolerance) << "y";
    if (norm == Norm::LayerNorm) {
        EXPECT_LT(relative_error(mean.data(), ref_mean.data(), bt.rows), kTolerance) << "mean";
    }
    EXPECT_LT(relative_error(rstd.data(), ref_rstd.data(), bt.rows), kTolerance) << "rstd";
    // dx = rstd·(dx̂ − ...) is a difference of terms of size ‖rstd·dy ⊙ g‖; where the output barely
    // depends on x (a row of one value, or LayerNorm on two) dx itself is tiny next to them, and
    // float can only promise accuracy relative to the terms. So dx is measured against the larger.
    const std::vector<double> ref_dx = row_major(grads.dx);
    double term = 0.0, ref_norm = 0.0, diff = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double t = ref_rstd[i / bt.cols] * bt.dy[i] * bt.g[i % bt.cols];
        term += t * t;
        ref_norm += ref_dx[i] * ref_dx[i];
        diff += (dx.data[i] - ref_dx[i]) * (dx.data[i] - ref_dx[i]);
    }
    EXPECT_LT(std::sqrt(diff / std::max(ref_norm, term)), kTolerance) << "dx";
    if (ref_norm >= term) {
        EXPECT_LT(relative_error(dx.data, ref_dx.data(), n), kTolerance) << "dx";
    }
    EXPECT_LT(relative_error(dg.data(), to_vector(grads.dg).data(), bt.cols), kTolerance) << "dg";
    if (bias) EXPECT_LT(relative_error(db.data(), to_vector(grads.db).data(), bt.cols), kTolerance) << "db";
    else EXPECT_TRUE(std::isnan(db[0])) << "db must be left alone when it is null";
}

void check_both_norms(const Batch& bt, size_t offset = 0) {
    for (KernelPath path : paths())
        for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm})
            for (bool bias : {true, false}) check_norm(norm, bt, path, bias, offset);
}

// Restores the default pool size when a test changes it.
struct ThreadsGuard {
    explicit ThreadsGuard(unsigned n) { fast::set_num_threads(n); }
    ~ThreadsGuard() { fast::set_num_threads(0); }
};

// ---- Paths --------------------------------------------------------------------------------

TEST(FastNorm, PathsResolve) {
    EXPECT_EQ(fast::resolve_path(KernelPath::Scalar), KernelPath::Scalar);
    const KernelPath best = fast::avx2_supported() ? KernelPath::Avx2 : KernelPath::Scalar;
    EXPECT_EQ(fast::resolve_path(KernelPath::Auto), best);
    EXPECT_EQ(fast::resolve_path(KernelPath::Avx2), best);  // falls back when the CPU lacks AVX2
    for (KernelPath p : {KernelPath::Auto, KernelPath::Scalar, KernelPath::Avx2})
        EXPECT_EQ(fast::parse_kernel_path(fast::to_string(p)), p);
    EXPECT_FALSE(fast::parse_kernel_path("avx512").has_value());
}

TEST(FastNorm, BufferIsAligned) {
    for (size_t n : {1, 3, 16, 1000}) {
        fast::FloatBuffer buf(n);
        EXPECT_EQ(buf.size(), n);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buf.data()) % 64, 0u) << n;
    }
    EXPECT_EQ(fast::FloatBuffer().data(), nullptr);
}

// ---- Shapes -------------------------------------------------------------------------------

TEST(FastNorm, SmallAndOddWidths) {
    unsigned seed = 1;
    for (size_t cols : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 257, 513, 1031})
        for (size_t rows : {1, 2, 5}) check_both_norms(make_batch(rows, cols, seed++));
}

TEST(FastNorm, OneRow) { check_both_norms(make_batch(1, 4099, 11)); }

TEST(FastNorm, VeryWideRows) { check_both_norms(make_batch(3, 65537, 12)); }

TEST(FastNorm, ManyRowsAcrossThreads) {
    // Tall batches: several tasks, each with a first row, a last row, and dg/db flushes (64 rows).
    check_both_norms(make_batch(300, 129, 13));
    check_both_norms(make_batch(1000, 40, 14));
}

TEST(FastNorm, FewerRowsThanThreads) {
    const ThreadsGuard threads(5);
    EXPECT_EQ(fast::num_threads(), 5u);
    check_both_norms(make_batch(2, 40000, 15));  // two tasks of one row each
    check_both_norms(make_batch(3, 20001, 16));
    check_both_norms(make_batch(7, 10000, 17));  // five tasks of one or two rows
}

TEST(FastNorm, OneThread) {
    const ThreadsGuard threads(1);
    check_both_norms(make_batch(200, 300, 18));
}

TEST(FastNorm, StreamingStoresWithMisalignedRows) {
    // 1100 × 2049 floats ≈ 9 MB: above the streaming threshold. Offsets of 0, 1 and 5 floats make
    // every row start at a different distance from a 32-byte boundary.
    static_assert(fast::kStreamingThresholdBytes <= 1100 * 2049 * sizeof(float));
    const Batch bt = make_batch(1100, 2049, 19);
    for (size_t offset : {0, 1, 5})
        for (KernelPath path : paths()) {
            check_norm(Norm::LayerNorm, bt, path, true, offset);
            check_norm(Norm::RMSNorm, bt, path, false, offset);
        }
}

// ---- Values -------------------------------------------------------------------------------

TEST(FastNorm, MeanFarFromZero) {
    // x ≈ 30 ± 1: var = 1/3 next to mean(x²) ≈ 900, so a variance taken as mean(x²) − μ² in float
    // would be off by ~1e-4 (and this test would fail); the kernels' is not. (Further out, float32
    // itself sets the limit: μ is cached as a float, and its rounding, ~ulp(μ)/2, shifts every
    // x − μ; at x ≈ 1000 ± 1 that is a relative error of ~5e-5 in y, here ~1e-6.)
    check_both_norms(make_batch(37, 300, 20, 30.0, 1.0));
}

TEST(FastNorm, RowsWhoseFirstValuesAreOutliers) {
    // The AVX2 LayerNorm forward sums about the mean of a row's first 16 values; here those are
    // far from the rest, which sends it to its exact two-pass variance.
    Batch bt = make_batch(9, 1000, 21);
    for (size_t r = 0; r < bt.rows; ++r)
        for (size_t j = 0; j < 16; ++j) {
            bt.x[r * bt.cols + j] += 300.0f;
            bt.X(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(j)) += 300.0;
        }
    for (KernelPath path : paths()) check_norm(Norm::LayerNorm, bt, path, true);
}

TEST(FastNorm, EpsDominatesConstantRows) {
    // Constant rows: var = 0, so rstd = 1/sqrt(ε) and LayerNorm's y = b.
    Batch bt = make_batch(4, 24, 22);
    for (size_t i = 0; i < bt.x.size(); ++i) {
        bt.x[i] = 3.0f;
        bt.X(static_cast<Eigen::Index>(i / bt.cols), static_cast<Eigen::Index>(i % bt.cols)) = 3.0;
    }
    for (KernelPath path : paths()) check_norm(Norm::LayerNorm, bt, path, true, 0, 1e-3f);
}

TEST(FastNorm, SeedExample) {
    // [2, 4, 6, 8] with g = 1, b = 0, ε = 0 (docs/ARCHITECTURE.md): LayerNorm ≈ ±1.342, ±0.447; RMSNorm ≈
    // 0.365, 0.730, 1.095, 1.461.
    const float x[4] = {2, 4, 6, 8}, g[4] = {1, 1, 1, 1};
    for (KernelPath path : paths()) {
        float y[4], mean, rstd;
        fast::layernorm_forward(y, &mean, &rstd, x, g, nullptr, 1, 4, 0.0f, path);
        EXPECT_FLOAT_EQ(mean, 5.0f);
        EXPECT_NEAR(y[0], -1.3416408f, 1e-6f);
        EXPECT_NEAR(y[3], 1.3416408f, 1e-6f);
        fast::rmsnorm_forward(y, &rstd, x, g, nullptr, 1, 4, 0.0f, path);
        EXPECT_NEAR(y[0], 0.3651484f, 1e-6f);
        EXPECT_NEAR(y[3], 1.4605935f, 1e-6f);
    }
}

// ---- dg, db -------------------------------------------------------------------------------

TEST(FastNorm, ParameterGradientsAreOptional) {
    const Batch bt = make_batch(50, 70, 23);
    const size_t n = bt.rows * bt.cols;
    for (KernelPath path : paths()) {
        std::vector<float> y(n), mean(bt.rows), rstd(bt.rows), dx_all(n), dx_none(n), dg(bt.cols), db(bt.cols);
        fast::layernorm_forward(y.data(), mean.data(), rstd.data(), bt.x.data(), bt.g.data(), bt.b.data(), bt.rows,
                                bt.cols, 1e-5f, path);
        fast::layernorm_backward(dx_all.data(), dg.data(), db.data(), bt.dy.data(), bt.x.data(), bt.g.data(),
                                 mean.data(), rstd.data(), bt.rows, bt.cols, path);
        fast::layernorm_backward(dx_none.data(), nullptr, nullptr, bt.dy.data(), bt.x.data(), bt.g.data(),
                                 mean.data(), rstd.data(), bt.rows, bt.cols, path);
        EXPECT_EQ(dx_all, dx_none) << fast::to_string(path);  // dx does not depend on whether dg/db are asked
    }
}

TEST(FastNorm, ParameterGradientsSumOverRows) {
    // db = Σ_rows dy exactly as a column sum, whatever the split over threads.
    const ThreadsGuard threads(3);
    const Batch bt = make_batch(257, 130, 24);
    std::vector<double> expect(bt.cols, 0.0);
    for (size_t r = 0; r < bt.rows; ++r)
        for (size_t j = 0; j < bt.cols; ++j) expect[j] += bt.dy[r * bt.cols + j];
    for (KernelPath path : paths()) {
        std::vector<float> y(bt.x.size()), dx(bt.x.size()), rstd(bt.rows), dg(bt.cols), db(bt.cols);
        fast::rmsnorm_forward(y.data(), rstd.data(), bt.x.data(), bt.g.data(), bt.b.data(), bt.rows, bt.cols, 1e-5f,
                              path);
        fast::rmsnorm_backward(dx.data(), dg.data(), db.data(), bt.dy.data(), bt.x.data(), bt.g.data(), rstd.data(),
                               bt.rows, bt.cols, path);
        EXPECT_LT(relative_error(db.data(), expect.data(), bt.cols), 1e-6) << fast::to_string(path);
    }
}

TEST(FastNorm, ParameterGradientsDoNotDependOnScheduling) {
    // Threads take chunks of rows first come first served; dg and db are still summed per chunk
    // and added in chunk order, so repeated calls agree bit for bit.
    const ThreadsGuard threads(3);
    const Batch bt = make_batch(500, 301, 25);
    for (KernelPath path : paths()) {
        std::vector<float> y(bt.x.size()), dx(bt.x.size()), mean(bt.rows), rstd(bt.rows);
        fast::layernorm_forward(y.data(), mean.data(), rstd.data(), bt.x.data(), bt.g.data(), bt.b.data(), bt.rows,
                                bt.cols, 1e-5f, path);
        std::vector<float> first_dg(bt.cols), first_db(bt.cols);
        fast::layernorm_backward(dx.data(), first_dg.data(), first_db.data(), bt.dy.data(), bt.x.data(),
                                 bt.g.data(), mean.data(), rstd.data(), bt.rows, bt.cols, path);
        for (int repeat = 0; repeat < 20; ++repeat) {
            std::vector<float> dg(bt.cols), db(bt.cols);
            fast::layernorm_backward(dx.data(), dg.data(), db.data(), bt.dy.data(), bt.x.data(), bt.g.data(),
                                     mean.data(), rstd.data(), bt.rows, bt.cols, path);
            ASSERT_EQ(dg, first_dg) << fast::to_string(path) << " repeat " << repeat;
            ASSERT_EQ(db, first_db) << fast::to_string(path) << " repeat " << repeat;
        }
    }
}

// ---- Copy ---------------------------------------------------------------------------------

TEST(FastNorm, CopyIsExact) {
    for (size_t n : {size_t{1}, size_t{7}, size_t{1000}, size_t{3} << 20 | 5}) {  // the last one streams
        std::vector<float> src(n);
        for (size_t i = 0; i < n; ++i) src[i] = static_cast<float>(i) * 0.5f - 3.0f;
        for (KernelPath path : paths()) {
            Placed dst(n, 3);
            fast::copy(dst.data, src.data(), n, path);
            EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.data)) << n << " " << fast::to_string(path);
        }
    }
}

}  // namespace
}  // namespace normlab
