// NormLab core: fast float32 LayerNorm / RMSNorm kernels (see fast_norm.hpp for the contract).
//
// [SECTION] Paths and CPU detection
// [SECTION] Buffers
// [SECTION] The pool and how rows are split
// [SECTION] Scalar path   — portable C++, double accumulators; the reference for the AVX2 path
// [SECTION] AVX2 path     — 8 floats per instruction, FMA, prefetch, streaming stores
// [SECTION] Public kernels — split rows over the pool, reduce dg/db, pick the path
//
// Shapes: x, y, dy, dx rows×cols (row-major); g, b, dg, db cols; mean, rstd rows. C = cols.
//
// Memory traffic is what limits these kernels, so both paths read each input element from DRAM
// once and write each output element once: a row's later passes (variance, output; the
// backward's output) find the row in L1/L2. The scalar path does the passes one after another,
// plainly; it is the definition. The AVX2 path pipelines the rows (its section says how) so that
// DRAM sees a steady stream of reads and writes, as in a copy, and writes large outputs with
// streaming stores (_mm256_stream_ps), which skip the read-for-ownership an ordinary store costs
// (otherwise every written line is first read: 3 transfers, not 2). Streaming stores are weakly
// ordered: each thread ends with _mm_sfence() before it reports its part done.
//
// Sums: the scalar path sums in double. The AVX2 path sums short runs in float (at most 32 values
// per lane within a row, 64 rows for dg/db) and adds each run into a double, so a row of 65 536
// values loses nothing worth measuring while the inner loops stay all-float.
#include "normlab/norm/fast_norm.hpp"

#include "base/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#define NORMLAB_HAVE_X86 1
#include <immintrin.h>
// Compiles one function for AVX2 + FMA whatever the target of the rest of the build; it only
// ever runs after avx2_supported() said yes.
#define NORMLAB_AVX2 __attribute__((target("avx2,fma")))
#else
#define NORMLAB_HAVE_X86 0
#endif

namespace normlab::fast {

// [SECTION] Paths and CPU detection ---------------------------------------------------------

bool avx2_supported() {
#if NORMLAB_HAVE_X86
    static const bool supported = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return supported;
#else
    return false;
#endif
}

KernelPath resolve_path(KernelPath path) {
    if (path == KernelPath::Scalar) return KernelPath::Scalar;
    return avx2_supported() ? KernelPath::Avx2 : KernelPath::Scalar;
}

std::string_view to_string(KernelPath path) {
    switch (path) {
        case KernelPath::Auto: return "auto";
        case KernelPath::Scalar: return "scalar";
        case KernelPath::Avx2: return "avx2";
    }
    return "unknown";
}

std::optional<KernelPath> parse_kernel_path(std::string_view name) {
    for (KernelPath p : {KernelPath::Auto, KernelPath::Scalar, KernelPath::Avx2})
        if (to_string(p) == name) return p;
    return std::nullopt;
}

// [SECTION] Buffers -------------------------------------------------------------------------

FloatBuffer::FloatBuffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    if (n > (SIZE_MAX - 63) / sizeof(float)) throw std::bad_alloc();
    const std::size_t bytes = (n * sizeof(float) + 63) / 64 * 64;  // aligned_alloc wants a multiple
    data_.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
    if (!data_) throw std::bad_alloc();
}

void FloatBuffer::Free::operator()(float* p) const { std::free(p); }

// [SECTION] The pool and how rows are split -------------------------------------------------

namespace {

constexpr unsigned kMaxDefaultThreads = 32;
// Fewer elements than this per thread and waking another thread costs more than it saves.
constexpr std::size_t kMinElementsPerTask = std::size_t{1} << 15;

unsigned default_threads() {
    if (const std::optional<unsigned> n = threads_from_env()) return *n;
    const unsigned hw = std::thread::hardware_concurrency();
    return std::clamp(hw, 1u, kMaxDefaultThreads);
}

// The process's pool: created on first use; set_num_threads() swaps in a new one (a kernel still
// running on the old one keeps it alive through its shared_ptr).
std::mutex g_pool_mutex;
std::shared_ptr<ThreadPool> g_pool;

std::shared_ptr<ThreadPool> the_pool() {
    std::lock_guard<std::mutex> lock(g_pool_mutex);
    if (!g_pool) g_pool = std::make_shared<ThreadPool>(default_threads());
    return g_pool;
}

unsigned task_count(const ThreadPool& pool, std::size_t rows, std::size_t cols) {
    const std::size_t by_work = std::max<std::size_t>(1, rows * cols / kMinElementsPerTask);
    return static_cast<unsigned>(std::min<std::size_t>({pool.size(), rows, by_work}));
}

// Rows (or, for the copy, elements) are handed out in contiguous chunks, first come first served,
// kChunksPerTask per thread: a thread that the OS delays (the machine may be busy with other
// work) then holds up no one, as the others take its share. Sums over rows (dg, db) are kept per
// chunk and added in chunk order, so they do not depend on which thread took which chunk.
constexpr std::size_t kChunksPerTask = 8;

struct Range {
    std::size_t begin, end;
};

struct Chunks {
    std::size_t total, size, count;  // `total` items in `count` chunks of `size` (the last may be short)
    Range operator[](std::size_t i) const { return {i * size, std::min(total, (i + 1) * size)}; }
};

// `align`: chunk sizes are a multiple of it (the copy's: whole cache lines of its destination).
Chunks make_chunks(std::size_t total, unsigned tasks, std::size_t align = 1) {
    const std::size_t wanted = tasks == 1 ? 1 : std::min<std::size_t>(total, kChunksPerTask * tasks);
    const std::size_t size = ((total + wanted - 1) / wanted + align - 1) / align * align;
    return {total, size, (total + size - 1) / size};
}

// Calls fn(task, chunk, begin, end) for every chunk, on `tasks` threads of the pool.
template <class Fn>
void for_each_chunk(ThreadPool& pool, unsigned tasks, const Chunks& chunks, const Fn& fn) {
    std::atomic<std::size_t> next{0};
    pool.run(tasks, [&](unsigned t) {
        for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < chunks.count;) {
            const Range r = chunks[i];
            fn(t, i, r.begin, r.end);
        }
    });
}

bool use_streaming(KernelPath resolved, std::size_t output_elements) {
    return resolved == KernelPath::Avx2 && output_elements * sizeof(float) >= kStreamingThresholdBytes;
}

// A forward over rows × cols: rows(resolved path, whether stores stream, begin, end) for every
// chunk of rows, on the pool.
template <class Rows>
void for_row_chunks(std::size_t rows, std::size_t cols, KernelPath path, const Rows& run_rows) {
    const std::shared_ptr<ThreadPool> pool = the_pool();
    const KernelPath resolved = resolve_path(path);
    const bool stream = use_streaming(resolved, rows * cols);
    const unsigned tasks = task_count(*pool, rows, cols);
    for_each_chunk(*pool, tasks, make_chunks(rows, tasks), [&](unsigned, std::size_t, std::size_t r0, std::size_t r1) {
        run_rows(resolved, stream, r0, r1);
    });
}

// The backward's partial sums of dg and db: in double, 2·C per chunk; and on the AVX2 path in
// float, 2·C per task, see kFlushRows. Owned by the calling thread and reused by its later calls:
// allocated once per calling thread, grown when C or the number of chunks grows.
struct BackwardScratch {
    double* partials;  // 2·C·chunks: per chunk, dg then db
    float* fresh;      // 2·C·tasks: per task, float sums not yet added into a chunk's partials
};
BackwardScratch backward_scratch(std::size_t cols, std::size_t chunks, unsigned tasks) {
    thread_local std::vector<double> partials;
    thread_local std::vector<float> fresh;
    if (partials.size() < 2 * cols * chunks) partials.resize(2 * cols * chunks);
    if (fresh.size() < 2 * cols * tasks) fresh.resize(2 * cols * tasks);
    return {partials.data(), fresh.data()};
}

}  // namespace

unsigned num_threads() { return the_pool()->size(); }

void set_num_threads(unsigned threads) {
    auto fresh = std::make_shared<ThreadPool>(threads == 0 ? default_threads() : threads);
    std::lock_guard<std::mutex> lock(g_pool_mutex);
    g_pool.swap(fresh);  // the old pool is joined when its last user lets go (here, after unlock)
}

// [SECTION] Scalar path ---------------------------------------------------------------------
//
// One function per kernel over rows [r0, r1). Plain loops with double sums: the definition, in
// code, of what the AVX2 path computes.

namespace {

void copy_scalar(float* dst, const float* src, std::size_t n) {
    if (n) std::memcpy(dst, src, n * sizeof(float));
}

void layernorm_forward_rows_scalar(float* y, float* mean, float* rstd, const float* x, const float* g,
                                   const float* b, std::size_t r0, std::size_t r1, std::size_t C, float eps) {
    for (std::size_t r = r0; r < r1; ++r) {
        const float* xr = x + r * C;
        float* yr = y + r * C;
        double sum = 0.0;
        for (std::size_t j = 0; j < C; ++j) sum += xr[j];
        const auto m = static_cast<float>(sum / static_cast<double>(C));  // μ
        double ss = 0.0;
        for (std::size_t j = 0; j < C; ++j) {
            const double d = xr[j] - m;
            ss += d * d;
        }
        // rstd = 1/sqrt(var + ε), var biased (the paper's σ², eq. 3)
        const auto s = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(C) + eps));
        for (std::size_t j = 0; j < C; ++j) {
            const float n = (xr[j] - m) * s;           // x̂ = (x − μ)·rstd
            yr[j] = n * g[j] + (b ? b[j] : 0.0f);      // y = x̂ ⊙ g + b
        }
        mean[r] = m;
        rstd[r] = s;
    }
}

void rmsnorm_forward_rows_scalar(float* y, float* rstd, const float* x, const float* g, const float* b,
                                 std::size_t r0, std::size_t r1, std::size_t C, float eps) {
    for (std::size_t r = r0; r < r1; ++r) {
        const float* xr = x + r * C;
        float* yr = y + r * C;
        double ss = 0.0;
        for (std::size_t j = 0; j < C; ++j) ss += static_cast<double>(xr[j]) * xr[j];
        // rstd = 1/RMS(x) = 1/sqrt(mean(x²) + ε)   (eq. 4)
        const auto s = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(C) + eps));
        for (std::size_t j = 0; j < C; ++j) yr[j] = xr[j] * s * g[j] + (b ? b[j] : 0.0f);
        rstd[r] = s;
    }
}

// dgp, dbp: this task's partial sums (C doubles each, zeroed by the caller), or null.
void layernorm_backward_rows_scalar(float* dx, double* dgp, double* dbp, const float* dy, const float* x,
                                    const float* g, const float* mean, const float* rstd, std::size_t r0,
                                    std::size_t r1, std::size_t C) {
    for (std::size_t r = r0; r < r1; ++r) {
        const float* xr = x + r * C;
        const float* dyr = dy + r * C;
        float* dxr = dx + r * C;
        const float m = mean[r], s = rstd[r];
        double sum_dn = 0.0, sum_dn_xhat = 0.0;
        for (std::size_t j = 0; j < C; ++j) {
            const float xhat = (xr[j] - m) * s;
            const float dn = dyr[j] * g[j];  // ∂L/∂x̂
            sum_dn += dn;
            sum_dn_xhat += static_cast<double>(dn) * xhat;
            if (dgp) dgp[j] += static_cast<double>(dyr[j]) * xhat;  // ∂L/∂g = Σ dy ⊙ x̂
            if (dbp) dbp[j] += dyr[j];                               // ∂L/∂b = Σ dy
        }
        const auto a = static_cast<float>(sum_dn / static_cast<double>(C));       // mean(dx̂)
        const auto c = static_cast<float>(sum_dn_xhat / static_cast<double>(C));  // mean(dx̂ ⊙ x̂)
        for (std::size_t j = 0; j < C; ++j) {
            const float xhat = (xr[j] - m) * s;
            const float dn = dyr[j] * g[j];
            dxr[j] = (dn - a - xhat * c) * s;  // dx = rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂ ⊙ x̂))
        }
    }
}

void rmsnorm_backward_rows_scalar(float* dx, double* dgp, double* dbp, const float* dy, const float* x,
                                  const float* g, const float* rstd, std::size_t r0, std::size_t r1,
                                  std::size_t C) {
    for (std::size_t r = r0; r < r1; ++r) {
        const float* xr = x + r * C;
        const float* dyr = dy + r * C;
        float* dxr = dx + r * C;
        const float s = rstd[r];
        double sum_dn_xhat = 0.0;
        for (std::size_t j = 0; j < C; ++j) {
            const float xhat = xr[j] * s;
            const float dn = dyr[j] * g[j];
            sum_dn_xhat += static_cast<double>(dn) * xhat;
            if (dgp) dgp[j] += static_cast<double>(dyr[j]) * xhat;  // eq. 10
            if (dbp) dbp[j] += dyr[j];                               // eq. 9
        }
        const auto c = static_cast<float>(sum_dn_xhat / static_cast<double>(C));
        for (std::size_t j = 0; j < C; ++j) {
            const float xhat = xr[j] * s;
            dxr[j] = (dyr[j] * g[j] - xhat * c) * s;  // dx = rstd·(dx̂ − x̂·mean(dx̂ ⊙ x̂))   (eq. 8)
        }
    }
}

// [SECTION] AVX2 path -----------------------------------------------------------------------
//
// Same formulas as the scalar path, 8 columns per instruction, and one more idea: the rows are
// pipelined. Each kernel makes one sweep per row that does two things at once:
//
//     for each row r of a chunk of rows:
//         from row r's sums (computed in the previous sweep): μ_r, rstd_r (or the backward's a, c)
//         one sweep over the columns j:
//             write out_r[j]                    from x_r[j] (and dy_r[j]): in L1/L2 since the last sweep
//             add row r+1's values into its sums from x_{r+1}[j] (and dy_{r+1}[j]): read from DRAM
//
// So each input element comes from DRAM once (as row r+1) and from the cache once (as row r),
// each output element goes to DRAM once, and DRAM sees one steady stream of reads and one of
// writes, as in a copy, rather than bursts separated by passes over cached data. The sweep also
// prefetches kPrefetchAhead bytes ahead of its reads (which runs on into row r+2 near the end of
// a row); big outputs go out with streaming stores. The first row of a chunk gets its sums from
// a sweep of its own; the last row is written by a sweep that reads nothing new.
//
// The LayerNorm forward sums x − K and (x − K)² in that one sweep, K being the mean of the row's
// first 16 values (a shift that keeps the single-sweep variance accurate); if the mean still
// lies far from K (|μ − K| > √8·σ), the variance is recomputed as Σ (x − μ)² over the cached row.
//
// Float accumulators: four chains (16 columns per loop step, 2 vectors of 8 for each of two
// sums), flushed into double every kSumBlock columns so that no float lane sums more than 32
// values. dg and db: float partial sums per thread, flushed into the chunk's double partials every
// kFlushRows rows and at the chunk's end; two rows' terms are added per read and write of those
// sums (the backward's own comment says which sweep adds which row's).

#if NORMLAB_HAVE_X86

constexpr std::size_t kSumBlock = 512;
constexpr std::size_t kPrefetchAhead = 2048;  // bytes, measured (docs/BENCHMARKS.md)
constexpr std::size_t kFlushRows = 64;

NORMLAB_AVX2 inline double widen_sum(__m256 v) {  // Σ of the 8 lanes, in double
    const __m256d d = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)),
                                    _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
    const __m128d s = _mm_add_pd(_mm256_castpd256_pd128(d), _mm256_extractf128_pd(d, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

NORMLAB_AVX2 inline double widen_sum2(__m256 a, __m256 b) { return widen_sum(_mm256_add_ps(a, b)); }

NORMLAB_AVX2 inline void prefetch_ahead(const float* p) {
    _mm_prefetch(reinterpret_cast<const char*>(p) + kPrefetchAhead, _MM_HINT_T0);  // never faults
}

template <bool kStream>
NORMLAB_AVX2 inline void store8(float* p, __m256 v) {
    if constexpr (kStream) _mm256_stream_ps(p, v);  // p is 32-byte aligned here
    else _mm256_storeu_ps(p, v);
}

// Values written one by one before the 8-wide stores so that those are 32-byte aligned.
inline std::size_t head_count(bool stream, const float* out, std::size_t C) {
    if (!stream) return 0;
    const auto misalign = reinterpret_cast<std::uintptr_t>(out) & 31u;
    return std::min<std::size_t>(C, ((32u - misalign) & 31u) / sizeof(float));
}

// ---- Per-kernel pieces: what a row's sums are, and how an output value is made from them ----

// LayerNorm's row sums about the pivot K: s1 = Σ (x − K), s2 = Σ (x − K)².
struct Moments {
    float pivot = 0.0f;
    double s1 = 0.0, s2 = 0.0;
};

inline float pivot_of(const float* xr, std::size_t C) {  // mean of the first ≤ 16 values
    const std::size_t n = std::min<std::size_t>(C, 16);
    float sum = 0.0f;
    for (std::size_t j = 0; j < n; ++j) sum += xr[j];
    return sum / static_cast<float>(n);
}

// μ and rstd of a row from its moments (var = s2/C − (s1/C)²), or from a second look at the
// row when the pivot was too far from the mean for that difference to be accurate.
NORMLAB_AVX2 inline void layernorm_stats(float& m, float& s, const Moments& mo, const float* xr, std::size_t C,
                                         float eps) {
    const double n = static_cast<double>(C);
    const double shift = mo.s1 / n;  // μ − K
    double var = mo.s2 / n - shift * shift;
    m = static_cast<float>(mo.pivot + shift);
    if (shift * shift > 8.0 * var) {  // rare: Σ (x − μ)², the two-pass way, on the cached row
        const __m256 vm = _mm256_set1_ps(m);
        __m256 q0 = _mm256_setzero_ps(), q1 = q0;
        double ss = 0.0;
        std::size_t j = 0;
        for (; j + 16 <= C; j += 16) {
            const __m256 d0 = _mm256_sub_ps(_mm256_loadu_ps(xr + j), vm);
            const __m256 d1 = _mm256_sub_ps(_mm256_loadu_ps(xr + j + 8), vm);
            q0 = _mm256_fmadd_ps(d0, d0, q0), q1 = _mm256_fmadd_ps(d1, d1, q1);
            if ((j + 16) % kSumBlock == 0) ss += widen_sum2(q0, q1), q0 = q1 = _mm256_setzero_ps();
        }
        ss += widen_sum2(q0, q1);
        for (; j < C; ++j) ss += static_cast<double>(xr[j] - m) * (xr[j] - m);
        var = ss / n;
    }
    s = static_cast<float>(1.0 / std::sqrt(std::max(var, 0.0) + eps));  // rstd = 1/sqrt(var + ε)
}

// y = (x − μ)·rstd ⊙ g + b   (b only when kBias)
template <bool kBias>
struct LayerNormOut {
    const float *x, *g, *b;
    float m, s;
    NORMLAB_AVX2 __m256 eight(std::size_t j) const {
        const __m256 n = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + j), _mm256_set1_ps(m)), _mm256_set1_ps(s));
        return kBias ? _mm256_fmadd_ps(n, _mm256_loadu_ps(g + j), _mm256_loadu_ps(b + j))
                     : _mm256_mul_ps(n, _mm256_loadu_ps(g + j));
    }
    float one(std::size_t j) const { return (x[j] - m) * s * g[j] + (kBias ? b[j] : 0.0f); }
};

// y = x·rstd ⊙ g + b   (b only when kBias)
template <bool kBias>
struct RmsNormOut {
    const float *x, *g, *b;
    float s;
    NORMLAB_AVX2 __m256 eight(std::size_t j) const {
        const __m256 n = _mm256_mul_ps(_mm256_loadu_ps(x + j), _mm256_set1_ps(s));
        return kBias ? _mm256_fmadd_ps(n, _mm256_loadu_ps(g + j), _mm256_loadu_ps(b + j))
                     : _mm256_mul_ps(n, _mm256_loadu_ps(g + j));
    }
    float one(std::size_t j) const { return x[j] * s * g[j] + (kBias ? b[j] : 0.0f); }
};

// dx = rstd·(dx̂ − a − x̂·c), a = mean(dx̂) (0 for RMSNorm), c = mean(dx̂ ⊙ x̂), regrouped with
// x̂ = (x − μ)·rstd as  dx = dx̂·rstd − (x − μ)·(rstd²·c) − rstd·a  (μ = 0 for RMSNorm).
struct NormBackwardOut {
    const float *x, *dy, *g;
    float m, s, s2c, sa;  // μ, rstd, rstd²·c, rstd·a
    NORMLAB_AVX2 __m256 centred(std::size_t j) const {  // x − μ
        return _mm256_sub_ps(_mm256_loadu_ps(x + j), _mm256_set1_ps(m));
    }
    // dx from dy, x − μ and g at 8 columns (a sweep that has them loaded already passes them).
    NORMLAB_AVX2 __m256 eight(__m256 vdy, __m256 d, __m256 vg) const {
        const __m256 t = _mm256_fnmadd_ps(d, _mm256_set1_ps(s2c), _mm256_set1_ps(-sa));
        return _mm256_fmadd_ps(_mm256_mul_ps(vdy, vg), _mm256_set1_ps(s), t);  // dx̂ = dy ⊙ g
    }
    NORMLAB_AVX2 __m256 eight(std::size_t j) const {
        return eight(_mm256_loadu_ps(dy + j), centred(j), _mm256_loadu_ps(g + j));
    }
    float one(std::size_t j) const { return dy[j] * g[j] * s - (x[j] - m) * s2c - sa; }
};

// out[j] = op(j) for j < C, with nothing to read ahead: a chunk's last row.
template <bool kStream, class Op>
NORMLAB_AVX2 inline void write_row(float* out, std::size_t C, const Op& op) {
    std::size_t j = 0;
    for (const std::size_t head = head_count(kStream, out, C); j < head; ++j) out[j] = op.one(j);
    for (; j + 8 <= C; j += 8) store8<kStream>(out + j, op.eight(j));
    for (; j < C; ++j) out[j] = op.one(j);
}

// ---- The fused sweeps: write row r (op), sum row r+1 --------------------------------------
//
// Each has the same shape: a scalar head (up to the 32-byte boundary of the output), blocks of
// kSumBlock columns in 16-column steps, a scalar tail of at most 15 columns. Without kWrite they
// only sum: that is how a chunk's first row gets its sums.

// LayerNorm forward: y_r from op (when kWrite: a chunk's first row has nothing to write yet);
// the moments of the next row xn.
template <bool kStream, bool kWrite, class Op>
NORMLAB_AVX2 Moments write_row_sum_moments(float* out, std::size_t C, const Op& op, const float* xn) {
    Moments mo;
    mo.pivot = pivot_of(xn, C);
    const __m256 vk = _mm256_set1_ps(mo.pivot);
    std::size_t j = 0;
    for (const std::size_t head = kWrite ? head_count(kStream, out, C) : 0; j < head; ++j) {
        out[j] = op.one(j);
        const double d = xn[j] - mo.pivot;
        mo.s1 += d, mo.s2 += d * d;
    }
    while (j + 16 <= C) {
        const std::size_t end = std::min(j + kSumBlock, j + (C - j) / 16 * 16);
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, q0 = a0, q1 = a0;
        for (; j < end; j += 16) {
            prefetch_ahead(xn + j);
            const __m256 d0 = _mm256_sub_ps(_mm256_loadu_ps(xn + j), vk);
            const __m256 d1 = _mm256_sub_ps(_mm256_loadu_ps(xn + j + 8), vk);
            a0 = _mm256_add_ps(a0, d0), a1 = _mm256_add_ps(a1, d1);
            q0 = _mm256_fmadd_ps(d0, d0, q0), q1 = _mm256_fmadd_ps(d1, d1, q1);
            if constexpr (kWrite) {
                store8<kStream>(out + j, op.eight(j));
                store8<kStream>(out + j + 8, op.eight(j + 8));
            }
        }
        mo.s1 += widen_sum2(a0, a1), mo.s2 += widen_sum2(q0, q1);
    }
    for (; j < C; ++j) {  // at most 15 columns
        if constexpr (kWrite) out[j] = op.one(j);
        const double d = xn[j] - mo.pivot;
        mo.s1 += d, mo.s2 += d * d;
    }
    return mo;
}

// RMSNorm forward: y_r from op (when kWrite); Σ x² of the next row xn.
template <bool kStream, bool kWrite, class Op>
NORMLAB_AVX2 double write_row_sum_squares(float* out, std::size_t C, const Op& op, const float* xn) {
    double ss = 0.0;
    std::size_t j = 0;
    for (const std::size_t head = kWrite ? head_count(kStream, out, C) : 0; j < head; ++j) {
        out[j] = op.one(j);
        ss += static_cast<double>(xn[j]) * xn[j];
    }
    while (j + 16 <= C) {
        const std::size_t end = std::min(j + kSumBlock, j + (C - j) / 16 * 16);
        __m256 q0 = _mm256_setzero_ps(), q1 = q0;
        for (; j < end; j += 16) {
            prefetch_ahead(xn + j);
            const __m256 v0 = _mm256_loadu_ps(xn + j), v1 = _mm256_loadu_ps(xn + j + 8);
            q0 = _mm256_fmadd_ps(v0, v0, q0), q1 = _mm256_fmadd_ps(v1, v1, q1);
            if constexpr (kWrite) {
                store8<kStream>(out + j, op.eight(j));
                store8<kStream>(out + j + 8, op.eight(j + 8));
            }
        }
        ss += widen_sum2(q0, q1);
    }
    for (; j < C; ++j) {  // at most 15 columns
        if constexpr (kWrite) out[j] = op.one(j);
        ss += static_cast<double>(xn[j]) * xn[j];
    }
    return ss;
}

// The backward's sums of one row, with d = x − μ (μ = 0 for RMSNorm) and dx̂ = dy ⊙ g:
//   dn = Σ dx̂ (kCentred),  dn_d = Σ dx̂ ⊙ d;  and, when kGrads, dgf += dy ⊙ d·rstd, dbf += dy.
struct BackwardSums {
    double dn = 0.0, dn_d = 0.0;
};

// The backward: dx_r from op (when kWrite); the sums of the next row (xn, dyn, with its μ = mn,
// rstd = sn); dg, db contributions added into dgf, dbf: the written row's when kGradsW, the
// read row's when kGradsR.
template <bool kCentred, bool kStream, bool kWrite, bool kGradsW, bool kGradsR>
NORMLAB_AVX2 BackwardSums write_row_sum_backward(float* out, std::size_t C, const NormBackwardOut& op,
                                                 const float* xn, const float* dyn, const float* g, float mn,
                                                 float sn, float* dgf, float* dbf) {
    static_assert(kWrite || !kGradsW, "only a written row has grads on the write side");
    constexpr bool kGrads = kGradsW || kGradsR;
    BackwardSums su;
    const __m256 vm = _mm256_set1_ps(mn), vs = _mm256_set1_ps(sn);
    auto one = [&](std::size_t j) {
        if constexpr (kWrite) out[j] = op.one(j);
        if constexpr (kGradsW) dgf[j] += op.dy[j] * ((op.x[j] - op.m) * op.s), dbf[j] += op.dy[j];
        const float d = xn[j] - mn, dn = dyn[j] * g[j];
        su.dn += dn, su.dn_d += static_cast<double>(dn) * d;
        if constexpr (kGradsR) dgf[j] += dyn[j] * (d * sn), dbf[j] += dyn[j];
    };
    std::size_t j = 0;
    for (const std::size_t head = kWrite ? head_count(kStream, out, C) : 0; j < head; ++j) one(j);
    while (j + 16 <= C) {
        const std::size_t end = std::min(j + kSumBlock, j + (C - j) / 16 * 16);
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, c0 = a0, c1 = a0;
        for (; j < end; j += 16) {
            prefetch_ahead(xn + j);
            prefetch_ahead(dyn + j);
            const __m256 g0 = _mm256_loadu_ps(g + j), g1 = _mm256_loadu_ps(g + j + 8);
            const __m256 dy0 = _mm256_loadu_ps(dyn + j), dy1 = _mm256_loadu_ps(dyn + j + 8);
            __m256 d0 = _mm256_loadu_ps(xn + j), d1 = _mm256_loadu_ps(xn + j + 8);
            if constexpr (kCentred) d0 = _mm256_sub_ps(d0, vm), d1 = _mm256_sub_ps(d1, vm);
            const __m256 dn0 = _mm256_mul_ps(dy0, g0), dn1 = _mm256_mul_ps(dy1, g1);
            if constexpr (kCentred) a0 = _mm256_add_ps(a0, dn0), a1 = _mm256_add_ps(a1, dn1);
            c0 = _mm256_fmadd_ps(dn0, d0, c0), c1 = _mm256_fmadd_ps(dn1, d1, c1);
            __m256 dg0 = _mm256_setzero_ps(), dg1 = dg0, db0 = dg0, db1 = dg0;
            if constexpr (kGradsR) {
                dg0 = _mm256_mul_ps(dy0, _mm256_mul_ps(d0, vs)), dg1 = _mm256_mul_ps(dy1, _mm256_mul_ps(d1, vs));
                db0 = dy0, db1 = dy1;
            }
            if constexpr (kWrite) {
                const __m256 wdy0 = _mm256_loadu_ps(op.dy + j), wdy1 = _mm256_loadu_ps(op.dy + j + 8);
                const __m256 wd0 = op.centred(j), wd1 = op.centred(j + 8);
                store8<kStream>(out + j, op.eight(wdy0, wd0, g0));
                store8<kStream>(out + j + 8, op.eight(wdy1, wd1, g1));
                if constexpr (kGradsW) {
                    const __m256 ws = _mm256_set1_ps(op.s);
                    dg0 = _mm256_fmadd_ps(wdy0, _mm256_mul_ps(wd0, ws), dg0), dg1 = _mm256_fmadd_ps(wdy1, _mm256_mul_ps(wd1, ws), dg1);
                    db0 = _mm256_add_ps(db0, wdy0), db1 = _mm256_add_ps(db1, wdy1);
                }
            }
            if constexpr (kGrads) {
                _mm256_storeu_ps(dgf + j, _mm256_add_ps(_mm256_loadu_ps(dgf + j), dg0));
                _mm256_storeu_ps(dgf + j + 8, _mm256_add_ps(_mm256_loadu_ps(dgf + j + 8), dg1));
                _mm256_storeu_ps(dbf + j, _mm256_add_ps(_mm256_loadu_ps(dbf + j), db0));
                _mm256_storeu_ps(dbf + j + 8, _mm256_add_ps(_mm256_loadu_ps(dbf + j + 8), db1));
            }
        }
        if constexpr (kCentred) su.dn += widen_sum2(a0, a1);
        su.dn_d += widen_sum2(c0, c1);
    }
    for (; j < C; ++j) one(j);  // at most 15 columns: not worth an 8-wide step
    return su;
}

// ---- Kernels: one loop over the rows [r0, r1) of a chunk ----------------------------------------

template <bool kStream>
NORMLAB_AVX2 void copy_avx2(float* dst, const float* src, std::size_t n) {
    if constexpr (!kStream) {
        copy_scalar(dst, src, n);  // in-cache sizes: the C library's copy is as good as any
    } else {
        std::size_t i = head_count(true, dst, n);
        for (std::size_t k = 0; k < i; ++k) dst[k] = src[k];
        for (; i + 32 <= n; i += 32) {  // two cache lines per step
            const __m256 a = _mm256_loadu_ps(src + i), b = _mm256_loadu_ps(src + i + 8);
            const __m256 c = _mm256_loadu_ps(src + i + 16), d = _mm256_loadu_ps(src + i + 24);
            _mm256_stream_ps(dst + i, a);
            _mm256_stream_ps(dst + i + 8, b);
            _mm256_stream_ps(dst + i + 16, c);
            _mm256_stream_ps(dst + i + 24, d);
        }
        for (; i + 8 <= n; i += 8) _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
        for (; i < n; ++i) dst[i] = src[i];
        _mm_sfence();
    }
}


template <bool kStream, bool kBias>
NORMLAB_AVX2 void layernorm_forward_rows_avx2(float* y, float* mean, float* rstd, const float* x, const float* g,
                                              const float* b, std::size_t r0, std::size_t r1, std::size_t C,
                                              float eps) {
    if (r0 >= r1) return;
    using Out = LayerNormOut<kBias>;
    Moments mo = write_row_sum_moments<kStream, false>(nullptr, C, Out{}, x + r0 * C);
    for (std::size_t r = r0; r < r1; ++r) {
        const float* xr = x + r * C;
        float m, s;
        layernorm_stats(m, s, mo, xr, C, eps);  // μ, rstd = 1/sqrt(var + ε)
        mean[r] = m;
        rstd[r] = s;
        const Out op{xr, g, b, m, s};                                 // y = (x − μ)·rstd ⊙ g + b
        if (r + 1 < r1) mo = write_row_sum_moments<kStream, true>(y + r * C, C, op, xr + C);
        else write_row<kStream>(y + r * C, C, op);
    }
    if constexpr (kStream) _mm_sfence();
}

template <bool kStream, bool kBias>
NORMLAB_AVX2 void rmsnorm_forward_rows_avx2(float* y, float* rstd, const float* x, const float* g, const float* b,
                                            std::size_t r0, std::size_t r1, std::size_t C, float eps) {
    if (r0 >= r1) return;
    using Out = RmsNormOut<kBias>;
    double ss = write_row_sum_squares<kStream, false>(nullptr, C, Out{}, x + r0 * C);
    for (std::size_t r = r0; r < r1; ++r) {
        const float* xr = x + r * C;
        const auto s = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(C) + eps));  // 1/RMS, eq. 4
        rstd[r] = s;
        const Out op{xr, g, b, s};                                                         // y = x·rstd ⊙ g + b
        if (r + 1 < r1) ss = write_row_sum_squares<kStream, true>(y + r * C, C, op, xr + C);
        else write_row<kStream>(y + r * C, C, op);
    }
    if constexpr (kStream) _mm_sfence();
}

NORMLAB_AVX2 inline void flush_partials(double* dgp, double* dbp, float* dgf, float* dbf, std::size_t C) {
    for (std::size_t j = 0; j < C; ++j) {
        dgp[j] += dgf[j];
        dbp[j] += dbf[j];
        dgf[j] = dbf[j] = 0.0f;
    }
}

// kCentred: LayerNorm (x̂ = (x − μ)·rstd, dx has the −mean(dx̂) term); otherwise RMSNorm
// (x̂ = x·rstd). kGrads: sum dg and db, in dgf/dbf (zeroed by the caller) and then dgp/dbp.
// Rows' dg, db terms go into dgf, dbf in pairs, so that each pair costs one read and one write of
// them (measured: the backward with dg, db, at 8192 × 4096, went from 51–56% to 58–64% of the
// copy when the copy ran fastest): rows r0 + 2k and r0 + 2k + 1 in the sweep that writes the
// first and reads the second; a last unpaired row in the sweep that reads it.
template <bool kCentred, bool kStream, bool kGrads>
NORMLAB_AVX2 void norm_backward_rows_avx2(float* dx, double* dgp, double* dbp, float* dgf, float* dbf,
                                          const float* dy, const float* x, const float* g, const float* mean,
                                          const float* rstd, std::size_t r0, std::size_t r1, std::size_t C) {
    if (r0 >= r1) return;
    const auto mu = [&](std::size_t r) { return kCentred ? mean[r] : 0.0f; };
    const double inv_c = 1.0 / static_cast<double>(C);
    const auto first = r0 + 1 == r1 ? write_row_sum_backward<kCentred, kStream, false, false, kGrads>
                                    : write_row_sum_backward<kCentred, kStream, false, false, false>;
    BackwardSums su = first(nullptr, C, NormBackwardOut{}, x + r0 * C, dy + r0 * C, g, mu(r0), rstd[r0], dgf, dbf);
    for (std::size_t r = r0; r < r1; ++r) {
        if (kGrads && (r - r0) % kFlushRows == 0 && r > r0) flush_partials(dgp, dbp, dgf, dbf, C);
        const float* xr = x + r * C;
        const float* dyr = dy + r * C;
        const float m = mu(r), s = rstd[r];
        const double a = kCentred ? su.dn * inv_c : 0.0;  // mean(dx̂); RMSNorm has no such term
        const double c = su.dn_d * inv_c * s;             // mean(dx̂ ⊙ x̂)
        // dx = rstd·(dx̂ − a − x̂·c)
        const NormBackwardOut op{xr, dyr, g, m, s, static_cast<float>(c * s * s), static_cast<float>(a * s)};
        if (r + 1 == r1) {
            write_row<kStream>(dx + r * C, C, op);
            break;
        }
        const bool pair = (r - r0) % 2 == 0, last_alone = !pair && r + 2 == r1;
        const auto sweep = !kGrads ? write_row_sum_backward<kCentred, kStream, true, false, false>
                           : pair ? write_row_sum_backward<kCentred, kStream, true, kGrads, kGrads>
                           : last_alone ? write_row_sum_backward<kCentred, kStream, true, false, kGrads>
                                        : write_row_sum_backward<kCentred, kStream, true, false, false>;
        su = sweep(dx + r * C, C, op, xr + C, dyr + C, g, mu(r + 1), rstd[r + 1], dgf, dbf);
    }
    if constexpr (kGrads) flush_partials(dgp, dbp, dgf, dbf, C);
    if constexpr (kStream) _mm_sfence();
}

#endif  // NORMLAB_HAVE_X86

}  // namespace

// [SECTION] Public kernels ------------------------------------------------------------------

void copy(float* dst, const float* src, std::size_t n, KernelPath path) {
    if (n == 0) return;
    const std::shared_ptr<ThreadPool> pool = the_pool();
    const KernelPath resolved = resolve_path(path);
    const bool stream = use_streaming(resolved, n);
    const auto tasks = static_cast<unsigned>(
        std::min<std::size_t>(pool->size(), std::max<std::size_t>(1, n / kMinElementsPerTask)));
    // Chunks of whole cache lines (16 floats), so that threads never share a line of dst.
    for_each_chunk(*pool, tasks, make_chunks(n, tasks, 16), [&](unsigned, std::size_t, std::size_t i0, std::size_t i1) {
#if NORMLAB_HAVE_X86
        if (resolved == KernelPath::Avx2) {
            if (stream) copy_avx2<true>(dst + i0, src + i0, i1 - i0);
            else copy_avx2<false>(dst + i0, src + i0, i1 - i0);
            return;
        }
#endif
        (void)stream;
        copy_scalar(dst + i0, src + i0, i1 - i0);
    });
}

void layernorm_forward(float* y, float* mean, float* rstd, const float* x, const float* g, const float* b,
                       std::size_t rows, std::size_t cols, float eps, KernelPath path) {
    if (rows == 0 || cols == 0) return;
    assert(y && mean && rstd && x && g);
    for_row_chunks(rows, cols, path, [&](KernelPath resolved, bool stream, std::size_t r0, std::size_t r1) {
#if NORMLAB_HAVE_X86
        if (resolved == KernelPath::Avx2) {
            if (stream && b) layernorm_forward_rows_avx2<true, true>(y, mean, rstd, x, g, b, r0, r1, cols, eps);
            else if (stream) layernorm_forward_rows_avx2<true, false>(y, mean, rstd, x, g, b, r0, r1, cols, eps);
            else if (b) layernorm_forward_rows_avx2<false, true>(y, mean, rstd, x, g, b, r0, r1, cols, eps);
            else layernorm_forward_rows_avx2<false, false>(y, mean, rstd, x, g, b, r0, r1, cols, eps);
            return;
        }
#endif
        (void)resolved, (void)stream;
        layernorm_forward_rows_scalar(y, mean, rstd, x, g, b, r0, r1, cols, eps);
    });
}

void rmsnorm_forward(float* y, float* rstd, const float* x, const float* g, const float* b, std::size_t rows,
                     std::size_t cols, float eps, KernelPath path) {
    if (rows == 0 || cols == 0) return;
    assert(y && rstd && x && g);
    for_row_chunks(rows, cols, path, [&](KernelPath resolved, bool stream, std::size_t r0, std::size_t r1) {
#if NORMLAB_HAVE_X86
        if (resolved == KernelPath::Avx2) {
            if (stream && b) rmsnorm_forward_rows_avx2<true, true>(y, rstd, x, g, b, r0, r1, cols, eps);
            else if (stream) rmsnorm_forward_rows_avx2<true, false>(y, rstd, x, g, b, r0, r1, cols, eps);
            else if (b) rmsnorm_forward_rows_avx2<false, true>(y, rstd, x, g, b, r0, r1, cols, eps);
            else rmsnorm_forward_rows_avx2<false, false>(y, rstd, x, g, b, r0, r1, cols, eps);
            return;
        }
#endif
        (void)resolved, (void)stream;
        rmsnorm_forward_rows_scalar(y, rstd, x, g, b, r0, r1, cols, eps);
    });
}

namespace {

// The backward of either norm: each chunk of rows gets dx written and dg, db summed over it into
// its own partials (2·C doubles); the calling thread then adds the chunks' partials column by
// column, in chunk order.
template <bool kCentred>
void norm_backward(float* dx, float* dg, float* db, const float* dy, const float* x, const float* g,
                   const float* mean, const float* rstd, std::size_t rows, std::size_t cols, KernelPath path) {
    if (rows == 0 || cols == 0) return;
    assert(dx && dy && x && g && rstd && (mean || !kCentred));
    const std::shared_ptr<ThreadPool> pool = the_pool();
    const KernelPath resolved = resolve_path(path);
    const bool stream = use_streaming(resolved, rows * cols);
    const unsigned tasks = task_count(*pool, rows, cols);
    const Chunks chunks = make_chunks(rows, tasks);
    const bool grads = dg || db;
    const BackwardScratch scratch =
        grads ? backward_scratch(cols, chunks.count, tasks) : BackwardScratch{nullptr, nullptr};
    if (grads) std::fill(scratch.fresh, scratch.fresh + 2 * cols * tasks, 0.0f);  // flushes leave them 0
    for_each_chunk(*pool, tasks, chunks, [&](unsigned t, std::size_t i, std::size_t r0, std::size_t r1) {
        double* dgp = grads ? scratch.partials + 2 * cols * i : nullptr;
        double* dbp = grads ? dgp + cols : nullptr;
        if (grads) std::fill(dgp, dgp + 2 * cols, 0.0);
#if NORMLAB_HAVE_X86
        if (resolved == KernelPath::Avx2) {
            float* dgf = grads ? scratch.fresh + 2 * cols * t : nullptr;
            float* dbf = grads ? dgf + cols : nullptr;
            if (stream && grads)
                norm_backward_rows_avx2<kCentred, true, true>(dx, dgp, dbp, dgf, dbf, dy, x, g, mean, rstd, r0, r1, cols);
            else if (stream)
                norm_backward_rows_avx2<kCentred, true, false>(dx, dgp, dbp, dgf, dbf, dy, x, g, mean, rstd, r0, r1, cols);
            else if (grads)
                norm_backward_rows_avx2<kCentred, false, true>(dx, dgp, dbp, dgf, dbf, dy, x, g, mean, rstd, r0, r1, cols);
            else
                norm_backward_rows_avx2<kCentred, false, false>(dx, dgp, dbp, dgf, dbf, dy, x, g, mean, rstd, r0, r1, cols);
            return;
        }
#endif
        (void)stream, (void)t;
        if constexpr (kCentred) layernorm_backward_rows_scalar(dx, dgp, dbp, dy, x, g, mean, rstd, r0, r1, cols);
        else rmsnorm_backward_rows_scalar(dx, dgp, dbp, dy, x, g, rstd, r0, r1, cols);
    });
    if (!grads) return;
    // The final reduction: dg_j = Σ_i dgp_i[j], db_j = Σ_i dbp_i[j] over the chunks i, in order
    // (chunks · 2·C adds; C ≪ rows·C).
    for (std::size_t j = 0; j < cols; ++j) {
        double sg = 0.0, sb = 0.0;
        for (std::size_t i = 0; i < chunks.count; ++i) {
            sg += scratch.partials[2 * cols * i + j];
            sb += scratch.partials[2 * cols * i + cols + j];
        }
        if (dg) dg[j] = static_cast<float>(sg);
        if (db) db[j] = static_cast<float>(sb);
    }
}

}  // namespace

void layernorm_backward(float* dx, float* dg, float* db, const float* dy, const float* x, const float* g,
                        const float* mean, const float* rstd, std::size_t rows, std::size_t cols, KernelPath path) {
    norm_backward<true>(dx, dg, db, dy, x, g, mean, rstd, rows, cols, path);
}

void rmsnorm_backward(float* dx, float* dg, float* db, const float* dy, const float* x, const float* g,
                      const float* rstd, std::size_t rows, std::size_t cols, KernelPath path) {
    norm_backward<false>(dx, dg, db, dy, x, g, nullptr, rstd, rows, cols, path);
}

}  // namespace normlab::fast
