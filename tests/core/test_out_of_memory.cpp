// Memory running out in the middle of a training step (docs/RELIABILITY.md, Memory): the step
// throws std::bad_alloc and everything it built is destroyed cleanly — never a double free, a
// use after free or a crash — at every address-space limit of a sweep. Each try runs in a forked
// child under setrlimit(RLIMIT_AS). AddressSanitizer reserves terabytes of address space, so
// these tests skip themselves in the sanitizer build (they say so); the worker test runs in both.
#include "normlab/base/fit_size.hpp"
#include "normlab/base/step_worker.hpp"
#include "normlab/models/depth.hpp"
#include "normlab/models/training.hpp"

#include "sanitized.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <new>
#include <string>

using namespace normlab;

namespace {

// The process's address space now (VmSize), bytes.
std::size_t address_space_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    statm >> pages;
    return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

constexpr int kReturned = 0, kOutOfMemory = 3, kOtherError = 4;

// Runs fn in a child whose address space may grow by `extra` bytes (0: no limit); its exit code
// says how fn ended. Returns the wait status.
// Maps 1 MB of stack now: under RLIMIT_AS the kernel cannot grow the stack later (SIGSEGV), and
// that is not what these tests are about.
void grow_stack() {
    volatile char pages[1 << 20];
    for (std::size_t i = 0; i < sizeof pages; i += 4096) pages[i] = 1;
}

int run_limited(std::size_t extra, const std::function<void()>& fn) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        grow_stack();
        if (extra > 0) {
            const rlimit limit{address_space_bytes() + extra, RLIM_INFINITY};
            if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(kOtherError);
        }
        try {
            fn();   // builds, trains, and destroys what it built when it returns or throws
        } catch (const std::bad_alloc&) {
            _exit(kOutOfMemory);
        } catch (...) {
            _exit(kOtherError);
        }
        _exit(kReturned);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

std::string describe(int status) {
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    return "exit " + std::to_string(WEXITSTATUS(status));
}

// Sweeps `tries` limits from 1 MB to a little past what fn needs: each ends in fn returning or
// in a clean std::bad_alloc; counts both.
void sweep(const std::function<void()>& fn, std::size_t need, int tries) {
    int returned = 0, refused = 0;
    for (int i = 0; i < tries; ++i) {
        const std::size_t extra = (1u << 20) + need * static_cast<std::size_t>(i) / static_cast<std::size_t>(tries - 1);
        const int status = run_limited(extra, fn);
        ASSERT_TRUE(WIFEXITED(status) && (WEXITSTATUS(status) == kReturned || WEXITSTATUS(status) == kOutOfMemory))
            << "limit +" << extra / 1024 << " KB: " << describe(status);
        (WEXITSTATUS(status) == kReturned ? returned : refused) += 1;
    }
    // The sweep covers both ends: the smallest limits refuse, the largest let the run finish.
    EXPECT_GT(refused, 0);
    EXPECT_GT(returned, 0);
}

// What a child's run adds to the address space at its peak (VmPeak − VmSize before), bytes.
std::size_t growth_of(const std::function<void()>& fn) {
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) return 0;
    const std::function<void()> measured = [&] {
        const std::size_t before = address_space_bytes();
        fn();
        std::ifstream status("/proc/self/status");
        std::string key;
        std::size_t peak_kb = 0;
        while (status >> key)
            if (key == "VmPeak:" && status >> peak_kb) break;
        const std::size_t growth = peak_kb * 1024 > before ? peak_kb * 1024 - before : 0;
        if (write(pipe_fd[1], &growth, sizeof growth) != sizeof growth) _exit(kOtherError);
    };
    run_limited(0, measured);
    close(pipe_fd[1]);
    std::size_t growth = 0;
    if (read(pipe_fd[0], &growth, sizeof growth) != sizeof growth) growth = 0;
    close(pipe_fd[0]);
    return growth;
}

// The MLP trainer with BatchNorm: mini-batches of 512 and evaluations on the whole sets (other
// sizes: every buffer changes size between them).
void train_mlp(Precision precision) {
    DataSpec data = default_data_spec(DatasetKind::Spiral);
    data.samples = 1500;
    TrainConfig config = default_train_config(DatasetKind::Spiral, Norm::BatchNorm);
    config.model.hidden_layers = 4;
    config.model.width = 128;
    config.batch_size = 256;
    config.steps = 2;
    config.eval_every = 1;
    config.precision = precision;
    Trainer trainer(make_dataset(data), config);
    for (int s = 0; s < config.steps; ++s) trainer.step();
}

// The depth model, NormFormer (every norm and scale), 3 layers: training batches of 8 and the
// held-out set of 24.
void train_depth(Precision precision) {
    DepthConfig config = default_depth_config(TaskKind::Sort, NormPlacement::NormFormer);
    config.model.layers = 3;
    config.model.width = 64;
    config.model.residual_scale = true;
    config.batch_size = 8;
    config.eval_cases = 24;
    config.steps = 2;
    config.eval_every = 1;
    config.precision = precision;
    DepthTrainer trainer(config);
    for (int s = 0; s < config.steps; ++s) trainer.step();
}

void sweep_run(const std::function<void()>& fn) {
    if (normlab::test::kSanitized) GTEST_SKIP() << "skipped under AddressSanitizer: it cannot run under an address-space limit";
    const std::size_t need = growth_of(fn);
    ASSERT_GT(need, 0u) << "the run did not finish without a limit";
    sweep(fn, need + need / 8, 40);
}

}  // namespace

TEST(OutOfMemory, FitSizeKeepsContentsWhenTheSizeStays) {
    Eigen::MatrixXd m = Eigen::MatrixXd::Constant(3, 4, 2.0);
    const double* data = m.data();
    fit_size(m, 3, 4);
    EXPECT_EQ(m.data(), data);
    EXPECT_EQ(m(2, 3), 2.0);
    fit_size(m, 5, 2);
    EXPECT_EQ(m.rows(), 5);
    EXPECT_EQ(m.cols(), 2);
    Eigen::VectorXf v(3);
    fit_size(v, 7);
    EXPECT_EQ(v.size(), 7);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<double>(i);   // m(r, c) = r + 5c
    assign_resized(m, m.transpose());   // reads m before it changes
    EXPECT_EQ(m.rows(), 2);
    EXPECT_EQ(m.cols(), 5);
    EXPECT_EQ(m(1, 3), 8.0);
}

TEST(OutOfMemory, MlpTrainingStepsFailCleanlyAtEveryLimit) { sweep_run([] { train_mlp(Precision::F64); }); }
TEST(OutOfMemory, MlpTrainingStepsFailCleanlyAtEveryLimitInFloat) { sweep_run([] { train_mlp(Precision::F32); }); }
TEST(OutOfMemory, DepthStepsFailCleanlyAtEveryLimit) { sweep_run([] { train_depth(Precision::F64); }); }
TEST(OutOfMemory, DepthStepsFailCleanlyAtEveryLimitInFloat) { sweep_run([] { train_depth(Precision::F32); }); }

namespace {
struct Greedy {   // a job whose second unit runs out of memory
    int done = 0;
    bool work(bool train) {
        if (!train) return false;
        if (++done == 2) throw std::bad_alloc();
        return true;
    }
    std::uint64_t units() const { return static_cast<std::uint64_t>(done); }
    bool finished() const { return false; }
    int snapshot() const { return done; }
};
}  // namespace

TEST(OutOfMemory, AWorkerThatRunsOutOfMemoryStopsAndSaysSo) {
    StepWorker<Greedy> w([](Greedy&) {});
    EXPECT_EQ(w.failure(), "");
    w.play();
    EXPECT_FALSE(w.wait_for(5));   // released, not blocked forever
    EXPECT_EQ(w.failure(), "out of memory");
    EXPECT_FALSE(w.playing());
    ASSERT_NE(w.latest(), nullptr);
    EXPECT_LE(*w.latest(), 1);     // the last snapshot before the failure
    w.post([](Greedy& g) { g.done = 100; });   // dropped
    w.play();
    EXPECT_FALSE(w.playing());
}
