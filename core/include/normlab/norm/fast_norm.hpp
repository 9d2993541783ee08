// NormLab core: fast float32 LayerNorm and RMSNorm over a batch (the benchmarked path).
//
// [SECTION] Kernel paths    — AVX2 + FMA when the CPU has it, a portable scalar path otherwise
// [SECTION] Buffers         — 64-byte aligned float arrays, allocated once
// [SECTION] Threads         — the persistent pool the kernels split rows over
// [SECTION] Kernels         — copy, LayerNorm and RMSNorm forward / backward
//
// The fast float32 twin of norm.hpp (the reference) for the two norms the RMSNorm paper times;
// the tests check every kernel here against norm.hpp (docs/ARCHITECTURE.md, The science: fast
// kernels, for the memory traffic and the streaming stores).
//
// Layout (llm.c's): x, y, dy, dx are rows×cols, row-major, contiguous; one row is one case and
// its cols values are one group; g and b are per column; mean and rstd are per row. ε sits
// inside the square root (EpsMode::InsideSqrt):
//   LayerNorm  μ = (1/C) Σ_j x_j,  rstd = 1/sqrt((1/C) Σ_j (x_j − μ)² + ε),  y = (x − μ)·rstd ⊙ g + b
//   RMSNorm             rstd = 1/sqrt((1/C) Σ_j x_j² + ε),                   y = x·rstd ⊙ g (+ b)
// The forwards cache mean and rstd for the backwards. Outputs of kStreamingThresholdBytes or more
// are written with non-temporal stores.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace normlab::fast {

// [SECTION] Kernel paths --------------------------------------------------------------------

// Which implementation a kernel runs. Auto picks Avx2 when the running CPU supports AVX2 and FMA
// (checked once, at run time: the binary itself runs on any x86-64 or non-x86 CPU), Scalar
// otherwise. Asking for Avx2 on a CPU without it falls back to Scalar (see resolve_path).
enum class KernelPath { Auto, Scalar, Avx2 };

bool avx2_supported();                           // this CPU (and this build) can run the Avx2 path
KernelPath resolve_path(KernelPath path);        // Auto/Avx2 → the path that will actually run
std::string_view to_string(KernelPath path);     // "auto" | "scalar" | "avx2"
std::optional<KernelPath> parse_kernel_path(std::string_view name);

// Outputs at least this large are written with streaming stores (on the Avx2 path); smaller ones
// with ordinary stores, so that a result that fits in the caches stays there for its reader.
inline constexpr std::size_t kStreamingThresholdBytes = std::size_t{8} << 20;  // 8 MiB

// [SECTION] Buffers -------------------------------------------------------------------------

// A float array aligned to 64 bytes (a cache line), uninitialized. The kernels accept any
// alignment; aligned rows let the streaming stores cover whole cache lines.
class FloatBuffer {
public:
    FloatBuffer() = default;
    explicit FloatBuffer(std::size_t n);  // throws std::bad_alloc

    float* data() { return data_.get(); }
    const float* data() const { return data_.get(); }
    std::size_t size() const { return size_; }
    float& operator[](std::size_t i) { return data_[i]; }
    float operator[](std::size_t i) const { return data_[i]; }

private:
    struct Free {
        void operator()(float* p) const;
    };
    std::unique_ptr<float[], Free> data_;
    std::size_t size_ = 0;
};

// [SECTION] Threads -------------------------------------------------------------------------

// The kernels run on a pool of num_threads() threads that is created on first use and lives
// until exit (no thread is created per call). Its size is std::thread::hardware_concurrency()
// capped at 32, or the environment variable NORMLAB_THREADS (1–256) when set; the calling thread
// works as one of them. Rows are handed out in contiguous chunks (about 8 per thread), first come
// first served, so a thread the OS delays holds no one up; dg and db are summed per chunk and
// added in chunk order, so they do not depend on which thread took which chunk. Small batches
// (under 32 Ki values per thread) use fewer threads. Calls from several threads at once are safe:
// they take turns.
unsigned num_threads();

// Replaces the pool by one of `threads` threads (0: the default above), e.g. to measure how the
// kernels scale or to test how rows are split. A kernel already running finishes on the old pool.
void set_num_threads(unsigned threads);

// [SECTION] Kernels -------------------------------------------------------------------------
//
// Pointers: outputs first, then inputs (llm.c's order); none may alias another. Only the ones
// marked "may be null" may be null. All sizes are element counts; rows, cols ≥ 1 (rows = 0 or
// cols = 0 does nothing).

// dst = src, n floats: the bandwidth ceiling the norms are measured against (the same traffic as a
// forward: n·4 bytes read, n·4 written). Streaming stores past the threshold, all threads.
void copy(float* dst, const float* src, std::size_t n, KernelPath path = KernelPath::Auto);

// LayerNorm forward.
//   y    rows×cols  out: (x − μ)·rstd ⊙ g + b
//   mean rows       out: μ of each row
//   rstd rows       out: 1/sqrt(var + ε), var the biased variance of the row
//   x    rows×cols  in
//   g    cols       in: gain
//   b    cols       in: bias (may be null: no bias)
void layernorm_forward(float* y, float* mean, float* rstd, const float* x, const float* g, const float* b,
                       std::size_t rows, std::size_t cols, float eps, KernelPath path = KernelPath::Auto);

// LayerNorm backward: the gradients of L = Σ dy ⊙ y, with x̂ = (x − μ)·rstd and dx̂ = dy ⊙ g:
//   dx = rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂))      per row
//   dg = Σ_rows dy ⊙ x̂,   db = Σ_rows dy                  per column
//   dx   rows×cols  out (overwritten, not accumulated: it is streamed, never read)
//   dg   cols       out (may be null: not computed)
//   db   cols       out (may be null: not computed)
//   dy   rows×cols  in
//   x    rows×cols  in
//   g    cols       in
//   mean, rstd rows in: from layernorm_forward
// dg and db are summed over each chunk of rows (in double), then the chunks' sums are added.
void layernorm_backward(float* dx, float* dg, float* db, const float* dy, const float* x, const float* g,
                        const float* mean, const float* rstd, std::size_t rows, std::size_t cols,
                        KernelPath path = KernelPath::Auto);

// RMSNorm forward (paper eq. 4 with ε inside the square root).
//   y    rows×cols  out: x·rstd ⊙ g + b
//   rstd rows       out: 1/sqrt(mean(x²) + ε)
//   x    rows×cols  in
//   g    cols       in: gain
//   b    cols       in: bias (may be null: the usual RMSNorm, no bias)
void rmsnorm_forward(float* y, float* rstd, const float* x, const float* g, const float* b, std::size_t rows,
                     std::size_t cols, float eps, KernelPath path = KernelPath::Auto);

// RMSNorm backward (paper eq. 8–10), with x̂ = x·rstd and dx̂ = dy ⊙ g:
//   dx = rstd · (dx̂ − x̂ · mean(dx̂ ⊙ x̂))    per row
//   dg = Σ_rows dy ⊙ x̂,   db = Σ_rows dy    per column
//   dx   rows×cols  out (overwritten)
//   dg   cols       out (may be null)
//   db   cols       out (may be null: no bias)
//   dy, x rows×cols in;  g cols in;  rstd rows in: from rmsnorm_forward
void rmsnorm_backward(float* dx, float* dg, float* db, const float* dy, const float* x, const float* g,
                      const float* rstd, std::size_t rows, std::size_t cols, KernelPath path = KernelPath::Auto);

}  // namespace normlab::fast
