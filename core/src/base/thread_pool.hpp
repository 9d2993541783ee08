// NormLab core (private): a small persistent thread pool for the fast float32 kernels.
//
// The pool owns size() − 1 worker threads, created once; the thread that calls run() works as
// task 0, so a one-task run wakes no one. Workers sleep on a condition variable between runs.
// One run at a time: concurrent callers take turns (run() holds a mutex for its whole length).
// A task must not call run() on the same pool (it would wait for itself).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace normlab::fast {

class ThreadPool {
public:
    explicit ThreadPool(unsigned threads);  // threads ≥ 1, counting the caller
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return size_; }

    // Calls fn(t) for t = 0 .. tasks−1, each on its own thread (t = 0 on the caller), and returns
    // when all have returned. tasks is clamped to [1, size()]. fn must not throw.
    template <class Fn>
    void run(unsigned tasks, const Fn& fn) {
        run_erased(tasks, [](const void* f, unsigned t) { (*static_cast<const Fn*>(f))(t); }, &fn);
    }

private:
    using Trampoline = void (*)(const void* fn, unsigned task);
    void run_erased(unsigned tasks, Trampoline call, const void* fn);
    void worker_loop(unsigned id);

    unsigned size_;
    std::mutex run_mutex_;  // one run at a time
    std::mutex mutex_;      // guards everything below
    std::condition_variable start_cv_, done_cv_;
    std::uint64_t generation_ = 0;  // bumped by each run; workers wait for a new one
    unsigned tasks_ = 0;            // tasks of the current run
    unsigned pending_ = 0;          // worker tasks of the current run not yet finished
    Trampoline call_ = nullptr;
    const void* fn_ = nullptr;
    bool stop_ = false;
    std::vector<std::thread> workers_;
};

// NORMLAB_THREADS when it is set to a whole number from 1 to 256 (the fast kernels' and the Depth
// lab's thread count); nothing otherwise.
std::optional<unsigned> threads_from_env();

}  // namespace normlab::fast
