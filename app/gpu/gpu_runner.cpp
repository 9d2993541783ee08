// The GPU runner (see gpu_runner.hpp).
//
// [SECTION] Programs
// [SECTION] Kernels
// [SECTION] The runner: set-up
// [SECTION] The runner: buffers
// [SECTION] The runner: dispatches
// [SECTION] The runner: checks
// [SECTION] The runner: timing
// [SECTION] Timer ring
// [SECTION] Lost context
#include "gpu_runner.hpp"

#include "gl_program.hpp"

#include "gpu_shaders.hpp"   // generated from shaders/*.comp (cmake/EmbedShaders.cmake)

#include <normlab/norm/norm.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace normlab::ui {

// [SECTION] Programs ------------------------------------------------------------------------

#ifndef __EMSCRIPTEN__   // GL 4.3; the page's runner: web_gpu_runner.cpp
GLuint build_compute_program(const std::string& name, const char* source, const std::string& defines,
                             std::string& error) {
    // The defines go after the #version line, which must stay first.
    const std::string text(source);
    const std::size_t eol = text.find('\n');
    const std::string version = eol == std::string::npos ? text : text.substr(0, eol + 1);
    const std::string body = eol == std::string::npos ? std::string() : text.substr(eol + 1);
    const std::string prefix = version + defines + "#line 2\n";   // the driver's line numbers match the file's
    return build_gl_program(name, {{GL_COMPUTE_SHADER, {prefix, body}, ""}}, error);
}

#endif   // __EMSCRIPTEN__

bool is_software_renderer(std::string_view renderer) {
    for (std::string_view name : {"llvmpipe", "softpipe", "swrast"})
        if (renderer.find(name) != std::string_view::npos) return true;
    return false;
}

GpuShaderSources embedded_shader_sources() {
    return {shaders::norm_forward_comp, shaders::norm_backward_comp, shaders::norm_reduce_columns_comp,
            shaders::copy_comp};
}

// [SECTION] Kernels -------------------------------------------------------------------------

GpuNorm gpu_norm(Norm norm) {
    switch (norm) {
        case Norm::LayerNorm: return GpuNorm::LayerNorm;
        case Norm::RMSNorm: return GpuNorm::RMSNorm;
        case Norm::PRMSNorm: return GpuNorm::PRMSNorm;
        default: throw std::invalid_argument("the GPU kernels compute LayerNorm, RMSNorm and pRMSNorm only");
    }
}

namespace {

constexpr int kMaxDispatch = 65535;        // GL 4.3's guaranteed workgroup count per dimension
constexpr int kCopyGroups = 4096;          // the copy's grid: enough threads to keep any GPU's memory busy
constexpr int kReduceColumns = 64;         // norm_reduce_columns.comp: columns per workgroup

int next_pow2(int v) {
    int p = 1;
    while (p < v) p <<= 1;
    return p;
}

int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

const char* norm_define(GpuNorm norm) {
    switch (norm) {
        case GpuNorm::LayerNorm: return "0";
        case GpuNorm::RMSNorm: return "1";
        case GpuNorm::PRMSNorm: return "2";
    }
    return "0";
}

const char* norm_file(GpuNorm norm) {
    switch (norm) {
        case GpuNorm::LayerNorm: return "LayerNorm";
        case GpuNorm::RMSNorm: return "RMSNorm";
        case GpuNorm::PRMSNorm: return "pRMSNorm";
    }
    return "";
}

GpuNorm norm_of(BenchKernel kernel) { return gpu_norm(bench_norm(kernel)); }

}  // namespace

RowSplit row_split(int rows, int cols, int local_size) {
    RowSplit s;
    s.vec4 = cols % 4 == 0;
    s.elements = s.vec4 ? cols / 4 : cols;
    s.lanes = std::min(local_size, next_pow2(std::max(s.elements, 1)));
    s.rows_per_group = local_size / s.lanes;
    s.blocks = ceil_div(rows, s.rows_per_group);
    s.forward_groups = std::min(s.blocks, kMaxDispatch);
    // Enough workgroups to fill a large GPU (≥ 64 where there are blocks for them), few enough that
    // each adds ~kBackwardBlocksPerGroup rows into its dg, db shares: the partial sums then cost a
    // few percent of the backward's traffic.
    s.backward_groups =
        std::min({s.blocks, std::max(64, ceil_div(s.blocks, kBackwardBlocksPerGroup)), kMaxDispatch});
    s.slots = s.backward_groups * s.rows_per_group;
    return s;
}

#ifndef __EMSCRIPTEN__   // GL 4.3; the page's runner: web_gpu_runner.cpp

// [SECTION] The runner: set-up --------------------------------------------------------------

GpuRunner::GpuRunner(const GpuShaderSources& sources, const GpuRunnerOptions& options) {
    if (const GLubyte* r = glGetString(GL_RENDERER)) renderer_ = reinterpret_cast<const char*>(r);
    const bool software = is_software_renderer(renderer_);
    timing_ = options.timing.value_or(software ? TimingMethod::GlFinishCpuClock : TimingMethod::GlTimeElapsed);
    local_size_ = options.local_size > 0 ? std::min(next_pow2(options.local_size), kGpuLocalSize)
                                         : (software ? kSoftwareLocalSize : kGpuLocalSize);
    const int version = epoxy_gl_version();
    if (version < 43) {
        error_ = "the GPU kernels need OpenGL 4.3 (compute shaders); this context is OpenGL " +
                 std::to_string(version / 10) + "." + std::to_string(version % 10) + " on " +
                 (renderer_.empty() ? std::string("an unknown renderer") : renderer_);
        return;
    }
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    max_buffer_bytes_ = static_cast<long long>(max_block);
    build(sources);
}

void GpuRunner::build(const GpuShaderSources& sources) {
    const auto defines = [this](const char* norm, bool vec4) {
        const int local = norm != nullptr ? local_size_ : kCopyLocalSize;   // the copy has no barriers
        std::string d = "#define LOCAL_SIZE " + std::to_string(local) + "\n#define VEC4 " +
                        (vec4 ? "1" : "0") + "\n#define MAX_ITEMS " + std::to_string(kMaxItems) + "\n";
        if (norm != nullptr) d += std::string("#define NORM ") + norm + "\n";
        return d;
    };
    const auto make = [&](Program& p, const std::string& name, const std::string& source, const std::string& defs) {
        if (!error_.empty()) return;
        p.id = build_compute_program(name, source.c_str(), defs, error_);
        if (p.id == 0) return;
        for (auto [location, uniform] : {std::pair{&p.rows, "u_rows"}, {&p.cols, "u_cols"}, {&p.lanes, "u_lanes"},
                                         {&p.k, "u_k"}, {&p.eps, "u_eps"}, {&p.n, "u_n"}, {&p.slots, "u_slots"}})
            *location = glGetUniformLocation(p.id, uniform);
    };
    for (int v = 0; v < 2; ++v) {
        const bool vec4 = v == 1;
        const std::string suffix = vec4 ? " (vec4)" : " (float)";
        for (int n = 0; n < kGpuNormCount; ++n) {
            const auto norm = static_cast<GpuNorm>(n);
            make(forward_[n][v], std::string("shaders/norm_forward.comp, ") + norm_file(norm) + suffix,
                 sources.norm_forward, defines(norm_define(norm), vec4));
            make(backward_[n][v], std::string("shaders/norm_backward.comp, ") + norm_file(norm) + suffix,
                 sources.norm_backward, defines(norm_define(norm), vec4));
        }
        make(reduce_[v], "shaders/norm_reduce_columns.comp" + suffix, sources.norm_reduce_columns,
             defines(nullptr, vec4));
        make(copy_[v], "shaders/copy.comp" + suffix, sources.copy, defines(nullptr, vec4));
    }
    if (error_.empty()) {
        for (Buffer& b : buffers_) glGenBuffers(1, &b.id);
        for (int n = 0; n < kGpuNormCount; ++n) {
            glGenBuffers(1, &mean_[n].id);
            glGenBuffers(1, &rstd_[n].id);
        }
    }
}

GpuRunner::~GpuRunner() {
    for (auto* group : {&forward_[0][0], &backward_[0][0]})
        for (int i = 0; i < kGpuNormCount * 2; ++i)
            if (group[i].id != 0) glDeleteProgram(group[i].id);
    for (int v = 0; v < 2; ++v) {
        if (reduce_[v].id != 0) glDeleteProgram(reduce_[v].id);
        if (copy_[v].id != 0) glDeleteProgram(copy_[v].id);
    }
    for (Buffer& b : buffers_)
        if (b.id != 0) glDeleteBuffers(1, &b.id);
    for (int n = 0; n < kGpuNormCount; ++n) {
        if (mean_[n].id != 0) glDeleteBuffers(1, &mean_[n].id);
        if (rstd_[n].id != 0) glDeleteBuffers(1, &rstd_[n].id);
    }
}

void GpuRunner::require_available() const {
    if (!available()) throw std::invalid_argument("the GPU runner is off: " + error_);
}

// [SECTION] The runner: buffers -------------------------------------------------------------

namespace {

std::string megabytes(long long bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MB"; }

// Drains the GL error queue; true when it held GL_OUT_OF_MEMORY.
bool out_of_memory() {
    bool oom = false;
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) oom = oom || e == GL_OUT_OF_MEMORY;
    return oom;
}

void bind(GLuint binding, GLuint buffer, long long bytes) {
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, buffer, 0, static_cast<GLsizeiptr>(std::max(bytes, 4LL)));
}

// Fills `bytes` of `buffer` with a fixed pattern of values in [lo, hi): one megabyte uploaded,
// then doubled on the GPU (glCopyBufferSubData), so that filling a gigabyte costs the CPU nothing.
void fill_pattern(GLuint buffer, long long bytes, float lo, float hi, std::uint32_t seed) {
    constexpr long long kChunk = 4 * static_cast<long long>(kBenchPatternValues);   // bytes
    std::vector<float> pattern(static_cast<std::size_t>(std::min(bytes, kChunk) / 4));
    bench_fill(pattern.data(), pattern.size(), lo, hi, seed);   // the CPU's values (bench_buffers.hpp)
    const long long first = static_cast<long long>(pattern.size()) * 4;
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, static_cast<GLsizeiptr>(first), pattern.data());
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    for (long long filled = first; filled < bytes;) {
        const long long n = std::min(filled, bytes - filled);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, static_cast<GLintptr>(filled),
                            static_cast<GLsizeiptr>(n));
        filled += n;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

void upload(GLuint buffer, const std::vector<float>& data) {
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, static_cast<GLsizeiptr>(data.size() * 4), data.data());
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

std::vector<float> download(GLuint buffer, std::size_t count) {
    std::vector<float> out(count);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(count * 4), out.data());
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return out;
}

}  // namespace

std::string GpuRunner::reserve(Buffer& buffer, long long bytes) {
    bytes = std::max(bytes, 16LL);
    if (buffer.bytes >= bytes) return "";
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.id);
    out_of_memory();   // clear older errors, so that the check below sees this call's
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_COPY);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    if (out_of_memory()) {
        buffer.bytes = 0;
        return "out of GPU memory for " + megabytes(bytes);
    }
    buffer.bytes = bytes;
    return "";
}

std::string GpuRunner::reserve_shape(int rows, int cols, double p) {
    if (rows < 1 || cols < 1) return "rows and cols must be at least 1";
    const long long tensor = 4LL * rows * cols;
    if (tensor > max_buffer_bytes_)
        return std::to_string(rows) + "×" + std::to_string(cols) + " floats (" + megabytes(tensor) +
               ") exceed this GL's largest shader storage block (" + megabytes(max_buffer_bytes_) + ")";
    const RowSplit split = row_split(rows, cols, local_size_);
    const long long partial = 4LL * split.slots * cols;
    for (auto [id, bytes] : {std::pair{X, tensor}, {Y, tensor}, {Dy, tensor}, {Dx, tensor}, {G, 4LL * cols},
                             {B, 4LL * cols}, {Dg, 4LL * cols}, {Db, 4LL * cols}, {PartialG, partial},
                             {PartialB, partial}})
        if (std::string err = reserve(buffers_[id], bytes); !err.empty()) return err;
    for (int n = 0; n < kGpuNormCount; ++n) {
        if (std::string err = reserve(mean_[n], 4LL * rows); !err.empty()) return err;
        if (std::string err = reserve(rstd_[n], 4LL * rows); !err.empty()) return err;
    }
    shape_rows_ = rows;
    shape_cols_ = cols;
    shape_k_ = static_cast<int>(partial_k(cols, p, PartialRounding::Ceil));
    return "";
}

void GpuRunner::release_buffers() {
    for (Buffer& b : buffers_) {
        if (b.id == 0) continue;
        glDeleteBuffers(1, &b.id);
        glGenBuffers(1, &b.id);
        b.bytes = 0;
    }
    prepared_ = {};
}

// [SECTION] The runner: dispatches ----------------------------------------------------------

namespace {

// Saves the bound program and restores it on exit: the runner is called in the middle of an
// ImGui frame, between other GL users.
class ProgramGuard {
public:
    ProgramGuard() { glGetIntegerv(GL_CURRENT_PROGRAM, &program_); }
    ~ProgramGuard() { glUseProgram(static_cast<GLuint>(program_)); }
    ProgramGuard(const ProgramGuard&) = delete;
    ProgramGuard& operator=(const ProgramGuard&) = delete;

private:
    GLint program_ = 0;
};

void set_uint(GLuint program, GLint location, long long v) {
    if (location >= 0) glProgramUniform1ui(program, location, static_cast<GLuint>(v));
}

}  // namespace

void GpuRunner::run_forward(GpuNorm norm, float eps) {
    const RowSplit s = row_split(shape_rows_, shape_cols_, local_size_);
    const int n = static_cast<int>(norm);
    const Program& p = forward_[n][s.vec4 ? 1 : 0];
    const long long tensor = 4LL * shape_rows_ * shape_cols_;
    bind(0, buffers_[Y].id, tensor);
    bind(1, mean_[n].id, 4LL * shape_rows_);
    bind(2, rstd_[n].id, 4LL * shape_rows_);
    bind(3, buffers_[X].id, tensor);
    bind(4, buffers_[G].id, 4LL * shape_cols_);
    bind(5, buffers_[B].id, 4LL * shape_cols_);
    set_uint(p.id, p.rows, shape_rows_);
    set_uint(p.id, p.cols, shape_cols_);
    set_uint(p.id, p.lanes, s.lanes);
    set_uint(p.id, p.k, norm == GpuNorm::PRMSNorm ? shape_k_ : shape_cols_);
    if (p.eps >= 0) glProgramUniform1f(p.id, p.eps, eps);
    ProgramGuard guard;
    glUseProgram(p.id);
    glDispatchCompute(static_cast<GLuint>(s.forward_groups), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void GpuRunner::run_backward(GpuNorm norm) {
    const RowSplit s = row_split(shape_rows_, shape_cols_, local_size_);
    const int n = static_cast<int>(norm);
    const int v = s.vec4 ? 1 : 0;
    const long long tensor = 4LL * shape_rows_ * shape_cols_;
    const long long partial = 4LL * s.slots * shape_cols_;
    ProgramGuard guard;

    // Pass 1: dx per row, and each slot's share of dg, db.
    const Program& p = backward_[n][v];
    bind(0, buffers_[Dx].id, tensor);
    bind(1, buffers_[PartialG].id, partial);
    bind(2, buffers_[PartialB].id, partial);
    bind(3, buffers_[Dy].id, tensor);
    bind(4, buffers_[X].id, tensor);
    bind(5, buffers_[G].id, 4LL * shape_cols_);
    bind(6, mean_[n].id, 4LL * shape_rows_);
    bind(7, rstd_[n].id, 4LL * shape_rows_);
    set_uint(p.id, p.rows, shape_rows_);
    set_uint(p.id, p.cols, shape_cols_);
    set_uint(p.id, p.lanes, s.lanes);
    set_uint(p.id, p.k, norm == GpuNorm::PRMSNorm ? shape_k_ : shape_cols_);
    glUseProgram(p.id);
    glDispatchCompute(static_cast<GLuint>(s.backward_groups), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    // Pass 2: dg, db as the sums of the slots.
    const Program& r = reduce_[v];
    bind(0, buffers_[Dg].id, 4LL * shape_cols_);
    bind(1, buffers_[Db].id, 4LL * shape_cols_);
    bind(2, buffers_[PartialG].id, partial);
    bind(3, buffers_[PartialB].id, partial);
    set_uint(r.id, r.cols, shape_cols_);
    set_uint(r.id, r.slots, s.slots);
    glUseProgram(r.id);
    glDispatchCompute(static_cast<GLuint>(ceil_div(s.elements, kReduceColumns)), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void GpuRunner::run_copy(long long n) {
    const bool vec4 = n % 4 == 0;
    const Program& p = copy_[vec4 ? 1 : 0];
    const long long elements = vec4 ? n / 4 : n;
    bind(0, buffers_[Y].id, 4 * n);
    bind(1, buffers_[X].id, 4 * n);
    set_uint(p.id, p.n, elements);
    ProgramGuard guard;
    glUseProgram(p.id);
    glDispatchCompute(static_cast<GLuint>(std::max(1, std::min(ceil_div(elements, kCopyLocalSize), kCopyGroups))), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

// [SECTION] The runner: checks --------------------------------------------------------------

namespace {

void require_size(const std::vector<float>& v, long long n, const char* what) {
    if (static_cast<long long>(v.size()) != n)
        throw std::invalid_argument(std::string(what) + " has " + std::to_string(v.size()) + " entries, expected " +
                                    std::to_string(n));
}

}  // namespace

GpuForward GpuRunner::forward(GpuNorm norm, int rows, int cols, const std::vector<float>& x,
                              const std::vector<float>& g, const std::vector<float>& b, float eps, double p) {
    require_available();
    require_size(x, 1LL * rows * cols, "x");
    require_size(g, cols, "g");
    require_size(b, cols, "b");
    prepared_ = {};
    if (std::string err = reserve_shape(rows, cols, p); !err.empty()) throw std::runtime_error(err);
    upload(buffers_[X].id, x);
    upload(buffers_[G].id, g);
    upload(buffers_[B].id, b);
    run_forward(norm, eps);
    const int n = static_cast<int>(norm);
    return {download(buffers_[Y].id, x.size()), download(mean_[n].id, static_cast<std::size_t>(rows)),
            download(rstd_[n].id, static_cast<std::size_t>(rows))};
}

GpuBackward GpuRunner::backward(GpuNorm norm, int rows, int cols, const std::vector<float>& dy,
                                const std::vector<float>& x, const std::vector<float>& g,
                                const std::vector<float>& mean, const std::vector<float>& rstd, double p) {
    require_available();
    require_size(dy, 1LL * rows * cols, "dy");
    require_size(x, 1LL * rows * cols, "x");
    require_size(g, cols, "g");
    require_size(mean, rows, "mean");
    require_size(rstd, rows, "rstd");
    prepared_ = {};
    if (std::string err = reserve_shape(rows, cols, p); !err.empty()) throw std::runtime_error(err);
    const int n = static_cast<int>(norm);
    upload(buffers_[Dy].id, dy);
    upload(buffers_[X].id, x);
    upload(buffers_[G].id, g);
    upload(mean_[n].id, mean);
    upload(rstd_[n].id, rstd);
    run_backward(norm);
    return {download(buffers_[Dx].id, dy.size()), download(buffers_[Dg].id, static_cast<std::size_t>(cols)),
            download(buffers_[Db].id, static_cast<std::size_t>(cols))};
}

std::vector<float> GpuRunner::copy(const std::vector<float>& src) {
    require_available();
    if (src.empty()) return {};
    const long long n = static_cast<long long>(src.size());
    if (4 * n > max_buffer_bytes_) throw std::runtime_error(megabytes(4 * n) + " exceed this GL's largest shader storage block");
    prepared_ = {};
    for (BufferId id : {X, Y})
        if (std::string err = reserve(buffers_[id], 4 * n); !err.empty()) throw std::runtime_error(err);
    upload(buffers_[X].id, src);
    run_copy(n);
    return download(buffers_[Y].id, src.size());
}

// [SECTION] The runner: timing --------------------------------------------------------------

std::string GpuRunner::prepare(int rows, int cols, double p, float eps) {
    require_available();
    if (prepared_.rows == rows && prepared_.cols == cols && prepared_.p == p && prepared_.eps == eps) return "";
    prepared_ = {};
    if (std::string err = reserve_shape(rows, cols, p); !err.empty()) return err;
    const long long tensor = 4LL * rows * cols;
    fill_pattern(buffers_[X].id, tensor, -2.0f, 2.0f, 1);
    fill_pattern(buffers_[Dy].id, tensor, -1.0f, 1.0f, 2);
    fill_pattern(buffers_[G].id, 4LL * cols, 0.5f, 1.5f, 3);
    fill_pattern(buffers_[B].id, 4LL * cols, -0.5f, 0.5f, 4);
    if (out_of_memory()) return "out of GPU memory while filling the inputs";
    for (int n = 0; n < kGpuNormCount; ++n) run_forward(static_cast<GpuNorm>(n), eps);   // mean, rstd for the backwards
    prepared_ = {rows, cols, p, eps};
    return "";
}

void GpuRunner::dispatch(BenchKernel kernel) {
    require_available();
    if (prepared_.rows == 0) throw std::logic_error("GpuRunner::dispatch before prepare()");
    if (kernel == BenchKernel::Copy) {
        run_copy(1LL * shape_rows_ * shape_cols_);
    } else if (is_backward(kernel)) {
        run_backward(norm_of(kernel));
    } else {
        run_forward(norm_of(kernel), prepared_.eps);
    }
}

std::vector<double> GpuRunner::time_runs_with_finish(BenchKernel kernel, int runs) {
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        glFinish();   // nothing of earlier frames or runs inside the interval
        const auto t0 = std::chrono::steady_clock::now();
        dispatch(kernel);
        glFinish();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return ms;
}

// [SECTION] Timer ring ----------------------------------------------------------------------

TimerRing::TimerRing(int capacity) : queries_(static_cast<std::size_t>(std::max(capacity, 1))) {
    glGenQueries(static_cast<GLsizei>(queries_.size()), queries_.data());
}

TimerRing::~TimerRing() { glDeleteQueries(static_cast<GLsizei>(queries_.size()), queries_.data()); }

void TimerRing::begin(int tag) {
    if (full()) throw std::logic_error("TimerRing::begin on a full ring: collect() first");
    const GLuint q = queries_[next_];
    next_ = (next_ + 1) % queries_.size();
    in_flight_.emplace_back(q, tag);
    glBeginQuery(GL_TIME_ELAPSED, q);
}

void TimerRing::end() { glEndQuery(GL_TIME_ELAPSED); }

std::vector<std::pair<int, double>> TimerRing::collect(bool wait) {
    std::vector<std::pair<int, double>> done;
    while (!in_flight_.empty()) {
        const auto [q, tag] = in_flight_.front();
        GLuint ready = GL_FALSE;
        glGetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &ready);
        if (ready != GL_TRUE && !(wait && done.empty())) break;   // queries finish in order
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);            // waits only when asked to
        done.emplace_back(tag, static_cast<double>(ns) * 1e-6);
        in_flight_.pop_front();
    }
    return done;
}

#endif   // __EMSCRIPTEN__

// [SECTION] Lost context --------------------------------------------------------------------

#ifndef __EMSCRIPTEN__   // GL 4.3; the page's runner: web_gpu_runner.cpp
std::string describe_graphics_reset(GLenum status) {
    const std::string lost = "the GPU was reset and the GL context is lost; ";
    switch (status) {
        case GL_NO_ERROR: return {};
        case GL_GUILTY_CONTEXT_RESET: return lost + "this app's GL work caused it (GL_GUILTY_CONTEXT_RESET)";
        case GL_INNOCENT_CONTEXT_RESET:
            return lost + "another program's GPU work caused it (GL_INNOCENT_CONTEXT_RESET)";
        case GL_UNKNOWN_CONTEXT_RESET: return lost + "the cause is unknown (GL_UNKNOWN_CONTEXT_RESET)";
        default: {
            char hex[16];
            std::snprintf(hex, sizeof hex, "0x%04X", static_cast<unsigned>(status));
            return "the GL context is lost (reset status " + std::string(hex) + ")";
        }
    }
}

bool ContextWatch::check() {
    if (lost()) return false;
    if (query_ == Query::Unknown) {
        query_ = epoxy_gl_version() >= 45                    ? Query::Core
                 : epoxy_has_gl_extension("GL_KHR_robustness") ? Query::Khr
                 : epoxy_has_gl_extension("GL_ARB_robustness") ? Query::Arb
                                                               : Query::None;
    }
    switch (query_) {
        case Query::Core: return observe(glGetGraphicsResetStatus());
        case Query::Khr: return observe(glGetGraphicsResetStatusKHR());
        case Query::Arb: return observe(glGetGraphicsResetStatusARB());
        default: return false;
    }
}

#endif   // __EMSCRIPTEN__

bool ContextWatch::observe(GLenum status) {
    if (lost() || status == GL_NO_ERROR) return false;
    message_ = describe_graphics_reset(status);
    return true;
}

}  // namespace normlab::ui
