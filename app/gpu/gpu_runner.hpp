// The GPU runner: the norm kernels of shaders/*.comp (GL 4.3 compute shaders, float32) on the
// app's GL context, for the GPU lab, `normlab --bench-gpu`, other labs' GPU overlays and
// tests/gui/test_gpu_kernels.cpp.
//
// [SECTION] Programs  — compiling a compute shader with defines, with a one-line error
// [SECTION] Kernels   — the norms it runs, and how rows are split over threads
// [SECTION] The runner — programs, buffers, dispatches, read-back for checks
// [SECTION] Timing    — GL_TIME_ELAPSED queries in a ring, read a frame or more later
// [SECTION] Lost context — a GPU reset, noticed once per frame and said once in words
//
// Rules: every call needs the GL context the runner was made on to be current. Nothing here
// waits for the GPU except the check functions (forward, backward, copy), which read results
// back, and time_runs_with_finish(), which is for software renderers (see TimingMethod).
// When the context has no GL 4.3 or a program does not compile or link, the runner is not
// available(): error() says why in one line, and callers fall back to the CPU.
#pragma once

#include <normlab/labs/gpu_lab.hpp>

#include "gl.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace normlab::ui {

// [SECTION] Programs ------------------------------------------------------------------------

// Compiles one compute shader and links it into a program. `defines` ("#define NORM 1\n…") are
// inserted right after the source's first line, its #version. Returns the program, or 0 with
// `error` set to one line: "<name> does not compile: <the driver's first message>" (or "does not
// link: …"). Needs GL 4.3.
GLuint build_compute_program(const std::string& name, const char* source, const std::string& defines,
                             std::string& error);

// True for Mesa's software renderers (GL_RENDERER contains llvmpipe, softpipe or swrast), where
// GL_TIME_ELAPSED has been seen to read ~0 for compute work: time them with glFinish and a CPU
// clock instead (see TimingMethod).
bool is_software_renderer(std::string_view renderer);

// The GLSL the runner compiles: by default the files of shaders/, embedded at build time
// (cmake/EmbedShaders.cmake). Tests swap one for a broken text to exercise the fallback.
struct GpuShaderSources {
    std::string norm_forward, norm_backward, norm_reduce_columns, copy;
};
GpuShaderSources embedded_shader_sources();

// [SECTION] Kernels -------------------------------------------------------------------------

enum class GpuNorm { LayerNorm, RMSNorm, PRMSNorm };
inline constexpr int kGpuNormCount = 3;
GpuNorm gpu_norm(Norm norm);   // LayerNorm, RMSNorm or PRMSNorm; throws std::invalid_argument otherwise

// Threads per workgroup of the norm kernels. On a GPU, 256: one long row per workgroup, its sums
// through shared memory. On a software renderer, 8 (one 256-bit SIMD vector of llvmpipe): there a
// workgroup with barriers runs as coroutines, one per 8 threads, and each barrier switches between
// them; with one coroutine per workgroup, barriers cost next to nothing.
inline constexpr int kGpuLocalSize = 256;
inline constexpr int kSoftwareLocalSize = 8;
inline constexpr int kCopyLocalSize = 256;          // the copy (no barriers)
inline constexpr int kMaxItems = 8;                 // backward: dg, db shares in registers up to this many per thread
inline constexpr int kBackwardBlocksPerGroup = 16;  // backward: about this many row blocks per workgroup

// How a row of `cols` floats is split: vec4s when cols % 4 == 0 (else floats); `lanes` threads
// per row (a power of two, ≤ local_size, ≥ the row's element count when it fits), so a workgroup
// holds local_size / lanes rows.
struct RowSplit {
    bool vec4 = false;
    int elements = 0;         // per row: cols / 4 or cols
    int lanes = 1;
    int rows_per_group = 1;
    int blocks = 0;           // ceil(rows / rows_per_group)
    int forward_groups = 0;   // workgroups of a forward dispatch
    int backward_groups = 0;  // workgroups of a backward dispatch (each adds several blocks into its slots)
    int slots = 0;            // backward_groups · rows_per_group: rows of the dg, db partial sums
};
RowSplit row_split(int rows, int cols, int local_size);

// [SECTION] The runner ----------------------------------------------------------------------

// Results read back from the GPU (row-major, as core's fast_norm.hpp lays them out).
struct GpuForward {
    std::vector<float> y;      // rows × cols
    std::vector<float> mean;   // rows (0 for RMSNorm and pRMSNorm)
    std::vector<float> rstd;   // rows
};
struct GpuBackward {
    std::vector<float> dx;     // rows × cols
    std::vector<float> dg;     // cols
    std::vector<float> db;     // cols
};

// What a runner would otherwise choose by its renderer (tests run both choices on llvmpipe).
struct GpuRunnerOptions {
    int local_size = 0;                  // threads per workgroup of the norm kernels, 1 to 256
                                         // (rounded up to a power of two); 0: kGpuLocalSize, or
                                         // kSoftwareLocalSize on a software renderer
    std::optional<TimingMethod> timing;  // unset: GlFinishCpuClock on a software renderer, else GlTimeElapsed
};

class GpuRunner {
public:
    // Compiles and links every program now (needs the GL context current). Never throws for a
    // missing GL 4.3 or a bad shader: available() is then false and error() says why.
    explicit GpuRunner(const GpuShaderSources& sources = embedded_shader_sources(), const GpuRunnerOptions& options = {});
    ~GpuRunner();
    GpuRunner(const GpuRunner&) = delete;
    GpuRunner& operator=(const GpuRunner&) = delete;

    bool available() const { return error_.empty(); }
    const std::string& error() const { return error_; }           // one line; empty when available
    const std::string& renderer() const { return renderer_; }     // GL_RENDERER
    TimingMethod timing() const { return timing_; }
    long long max_buffer_bytes() const { return max_buffer_bytes_; }   // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
    int local_size() const { return local_size_; }

    // -- Checks: upload, run once, read back (waits for the GPU). Throw std::invalid_argument on
    //    wrong sizes or when !available(), std::runtime_error when the GL cannot hold the data.
    // y = norm(x) ⊙ g + b per row, ε inside the square root; pRMSNorm's k = partial_k(cols, p, Ceil).
    GpuForward forward(GpuNorm norm, int rows, int cols, const std::vector<float>& x, const std::vector<float>& g,
                       const std::vector<float>& b, float eps, double p = 0.0625);
    // The gradients of L = Σ dy ⊙ y, from the forward's mean and rstd.
    GpuBackward backward(GpuNorm norm, int rows, int cols, const std::vector<float>& dy, const std::vector<float>& x,
                         const std::vector<float>& g, const std::vector<float>& mean, const std::vector<float>& rstd,
                         double p = 0.0625);
    // dst = src (the vec4 kernel when src.size() % 4 == 0, else the float one).
    std::vector<float> copy(const std::vector<float>& src);

    // -- Timing: buffers for one shape, filled with a fixed pseudo-random pattern; each norm's
    //    forward has run once on them, so that its backward has its mean and rstd.
    // Returns "" when ready (at once when already prepared for this shape, p and ε), else why not
    // (too large for this GL, out of memory), in words.
    std::string prepare(int rows, int cols, double p, float eps);
    // One run of `kernel` on the prepared buffers; does not wait. A backward is both of its passes.
    void dispatch(BenchKernel kernel);
    // Software renderers: `runs` runs, each bracketed by glFinish, timed with std::chrono::steady_clock (ms).
    std::vector<double> time_runs_with_finish(BenchKernel kernel, int runs);
    // Frees the timing buffers (the next prepare() allocates them again).
    void release_buffers();

private:
    struct Buffer {
        GLuint id = 0;
        long long bytes = 0;   // allocated
    };
    struct Program {
        GLuint id = 0;
        GLint rows = -1, cols = -1, lanes = -1, k = -1, eps = -1, n = -1, slots = -1;
    };
    // Programs by [norm][vec4] for forward and backward, [vec4] for the others.
    Program forward_[kGpuNormCount][2], backward_[kGpuNormCount][2], reduce_[2], copy_[2];

    enum BufferId { X, Y, Dy, Dx, G, B, Dg, Db, PartialG, PartialB, BufferCount };
    Buffer buffers_[BufferCount];
    Buffer mean_[kGpuNormCount], rstd_[kGpuNormCount];   // each norm's own statistics, so backwards use theirs

    std::string error_, renderer_;
    TimingMethod timing_ = TimingMethod::GlTimeElapsed;
    long long max_buffer_bytes_ = 0;
    int local_size_ = kGpuLocalSize;
    struct Prepared {
        int rows = 0, cols = 0;
        double p = 0.0;
        float eps = 0.0f;
    };
    Prepared prepared_{};   // rows = 0: nothing prepared
    int shape_rows_ = 0, shape_cols_ = 0, shape_k_ = 0;   // what the buffers hold now

    void build(const GpuShaderSources& sources);
    void require_available() const;
    std::string reserve(Buffer& buffer, long long bytes);   // "" or why not
    std::string reserve_shape(int rows, int cols, double p);
    void run_forward(GpuNorm norm, float eps);
    void run_backward(GpuNorm norm);
    void run_copy(long long n);
};

// [SECTION] Timing --------------------------------------------------------------------------

// GL_TIME_ELAPSED queries in a ring: begin()/end() bracket one timed run, and collect() hands
// back the runs whose results have arrived — on a real GPU a frame or more later — without
// waiting unless asked to. At most capacity runs are in flight.
class TimerRing {
public:
    explicit TimerRing(int capacity = 64);
    ~TimerRing();
    TimerRing(const TimerRing&) = delete;
    TimerRing& operator=(const TimerRing&) = delete;

    bool full() const { return static_cast<int>(in_flight_.size()) >= static_cast<int>(queries_.size()); }
    int in_flight() const { return static_cast<int>(in_flight_.size()); }
    void begin(int tag);   // tag: the caller's name for this run
    void end();
    // (tag, ms) of finished runs, oldest first. wait: wait for the oldest one in flight if none is ready.
    std::vector<std::pair<int, double>> collect(bool wait);

private:
    std::vector<GLuint> queries_;
    std::deque<std::pair<GLuint, int>> in_flight_;   // query, tag
    std::size_t next_ = 0;
};

// [SECTION] Lost context --------------------------------------------------------------------

// One line for a reset status of glGetGraphicsResetStatus: "" for GL_NO_ERROR, else what was
// lost and who caused it, e.g. "the GPU was reset and the GL context is lost; this app's GL work
// caused it (GL_GUILTY_CONTEXT_RESET)".
std::string describe_graphics_reset(GLenum status);

// Notices a lost GL context: a GPU reset (a hung or faulting kernel, a driver restart) leaves the
// context dead, every later GL call ignored. Needs a context made with reset notification
// (GLFW_CONTEXT_ROBUSTNESS = GLFW_LOSE_CONTEXT_ON_RESET) and GL 4.5, GL_KHR_robustness or
// GL_ARB_robustness; without them the driver never reports a reset and check() stays false.
class ContextWatch {
public:
    // Asks the current context's reset status (one cheap call: once per frame). True on the call
    // that first sees a reset: the moment to say so, once. After that it asks no more.
    bool check();
    // What check() does with the driver's answer; tests give the status themselves.
    bool observe(GLenum status);
    bool lost() const { return !message_.empty(); }
    const std::string& message() const { return message_; }   // describe_graphics_reset of the reset seen

private:
    enum class Query { Unknown, None, Core, Khr, Arb };   // how to ask, looked up on the first check()
    Query query_ = Query::Unknown;
    std::string message_;
};

}  // namespace normlab::ui
