// NormLab core (private): the fast kernels' thread pool (see thread_pool.hpp).
#include "base/thread_pool.hpp"

#include <algorithm>
#include <cstdlib>

namespace normlab::fast {

ThreadPool::ThreadPool(unsigned threads) : size_(std::max(1u, threads)) {
    workers_.reserve(size_ - 1);
    for (unsigned id = 1; id < size_; ++id) workers_.emplace_back([this, id] { worker_loop(id); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    start_cv_.notify_all();
    for (std::thread& w : workers_) w.join();
}

void ThreadPool::run_erased(unsigned tasks, Trampoline call, const void* fn) {
    tasks = std::clamp(tasks, 1u, size_);
    if (tasks == 1) {  // nothing to share: no wake-up, no lock
        call(fn, 0);
        return;
    }
    std::lock_guard<std::mutex> turn(run_mutex_);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        call_ = call;
        fn_ = fn;
        tasks_ = tasks;
        pending_ = tasks - 1;
        ++generation_;
    }
    start_cv_.notify_all();
    call(fn, 0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_cv_.wait(lock, [this] { return pending_ == 0; });
}

void ThreadPool::worker_loop(unsigned id) {
    std::uint64_t seen = 0;
    for (;;) {
        Trampoline call = nullptr;
        const void* fn = nullptr;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            start_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            if (id >= tasks_) continue;  // this run needs fewer threads
            call = call_;
            fn = fn_;
        }
        call(fn, id);
        std::lock_guard<std::mutex> lock(mutex_);
        if (--pending_ == 0) done_cv_.notify_one();
    }
}

std::optional<unsigned> threads_from_env() {
    const char* env = std::getenv("NORMLAB_THREADS");
    if (!env) return std::nullopt;
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || n < 1 || n > 256) return std::nullopt;
    return static_cast<unsigned>(n);
}

}  // namespace normlab::fast
