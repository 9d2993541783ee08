// NormLab core: a job stepped on its own thread, its snapshots handed to the UI — the one worker
// of the Training and Depth labs (docs/ARCHITECTURE.md, Data flow).
//
// [SECTION] Job      — what a worker steps
// [SECTION] Worker   — the thread, its commands, its pace, its hand-off
#pragma once

#include "normlab/base/latest_box.hpp"
#include "normlab/base/thread_priority.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace normlab {

// [SECTION] Job -----------------------------------------------------------------------------
//
// A Job is a plain class touched only by the worker's thread:
//   bool work(bool train)      — one unit of work; false when there was none (`train`: playing, or
//                                 allowed by advance(); a job may do untrained work without it);
//   std::uint64_t units()      — units done so far;
//   bool finished()            — whether no unit will come again, whatever it is told;
//   S snapshot()               — what the UI shows, published through a LatestBox<S>.

// [SECTION] Worker --------------------------------------------------------------------------
//
// The thread applies the commands it is posted (in order, before its next unit), then works:
//   play(v)      — train at v units per second (v ≤ 0: as fast as it can) until paused;
//   pause()      — stop training after the unit in progress;
//   advance(n)   — pause, then exactly n more units (at most `cap`), training: scripted runs.
// It publishes a snapshot at most every kPublishInterval (or 4× what a snapshot costs, so that
// publishing takes at most a quarter of its time) while it works, and always when it rests
// (nothing to do, or an advance() limit reached) or has applied a command, so that a pause, a step
// or the end is on screen exactly. The destructor stops the thread and joins it (after the unit
// or command in progress). The thread runs below the UI thread's priority (thread_priority.hpp),
// and so do the threads it starts (the Depth lab's pool): the window keeps drawing while it trains.
// A command, unit or snapshot that throws (std::bad_alloc when memory runs out) stops the worker:
// failure() says why, the last snapshot stays, later commands are dropped (docs/RELIABILITY.md,
// Memory); the job is destroyed with the worker, never used again.
template <class Job>
class StepWorker {
public:
    using Snapshot = decltype(std::declval<Job&>().snapshot());
    using Command = std::function<void(Job&)>;
    static constexpr std::chrono::milliseconds kPublishInterval{40};

    // Paused; `first` (building the job's data, say) runs on the thread, before any unit.
    explicit StepWorker(Command first) : commands_{std::move(first)}, thread_([this] { run(); }) {}
    ~StepWorker() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        published_.notify_all();
        thread_.join();
    }
    StepWorker(const StepWorker&) = delete;
    StepWorker& operator=(const StepWorker&) = delete;

    void post(Command command) {
        std::lock_guard<std::mutex> lock(mutex_);
        commands_.push_back(std::move(command));
        wake_locked();
    }

    void play(double units_per_second = 0.0) {
        std::lock_guard<std::mutex> lock(mutex_);
        playing_ = true;
        limit_.reset();
        pace_locked(units_per_second);
        wake_locked();
    }

    // The pace of a play in progress (not playing: play() sets it).
    void set_speed(double units_per_second) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!playing_) return;
        pace_locked(units_per_second);
        wake_.notify_all();
    }

    void pause() {
        std::lock_guard<std::mutex> lock(mutex_);
        playing_ = false;
        limit_.reset();
        ++pace_generation_;
        wake_.notify_all();   // out of a pace wait; a resting thread stays at rest
    }

    // Allows n more units past those done (or allowed) so far, at most `cap` in all; returns the
    // unit count the worker will rest at.
    std::uint64_t advance(int units, std::uint64_t cap = std::numeric_limits<std::uint64_t>::max()) {
        std::lock_guard<std::mutex> lock(mutex_);
        playing_ = false;
        ++pace_generation_;
        limit_ = std::min(cap, std::max(limit_.value_or(0), units_) + static_cast<std::uint64_t>(std::max(units, 0)));
        wake_locked();
        return *limit_;
    }

    // Blocks until a snapshot of at least `units` units is published, or the worker rests with
    // nothing left to do. Returns whether `units` was reached.
    bool wait_for(std::uint64_t units) const {
        std::unique_lock<std::mutex> lock(mutex_);
        published_.wait(lock, [&] { return stop_ || (published_any_ && (published_units_ >= units || published_rest_)); });
        return published_any_ && published_units_ >= units;
    }

    // play() in force and the job not finished.
    bool playing() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return playing_ && !finished_;
    }

    std::shared_ptr<const Snapshot> latest() const { return box_.latest(); }

    // Empty while the worker works; else why it stopped ("out of memory", an exception's text).
    std::string failure() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return failure_;
    }

private:
    using Clock = std::chrono::steady_clock;

    // With mutex_ held: a command arrived, so the thread has work to look at and the latest
    // snapshot no longer tells wait_for() that it rests.
    void wake_locked() {
        ++wakes_;
        resting_ = false;
        published_rest_ = false;
        wake_.notify_all();
    }

    void pace_locked(double units_per_second) {
        paced_ = units_per_second > 0.0 && std::isfinite(units_per_second);
        speed_ = units_per_second;
        pace_origin_ = Clock::now();
        pace_units_ = units_;
        ++pace_generation_;
    }

    // With the lock held and a paced play in force: waits until unit u may start, (u − pace_units_
    // − 1) / speed seconds after the pace was set. Returns false when woken before that (a command,
    // a new pace, a pause, the stop): look again.
    bool wait_pace(std::unique_lock<std::mutex>& lock) {
        const auto due = pace_origin_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                                            static_cast<double>(units_ - pace_units_) / speed_));
        const std::uint64_t generation = pace_generation_;
        return !wake_.wait_until(lock, due,
                                 [&] { return stop_ || !commands_.empty() || pace_generation_ != generation; });
    }

    void run() {
        lower_thread_priority();
        try {
            loop();
        } catch (const std::bad_alloc&) {
            fail("out of memory");
        } catch (const std::exception& e) {
            fail(e.what());
        }
    }

    // Stops for good: no more units, the waiters released, playing() false.
    void fail(std::string why) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            failure_ = why.empty() ? "stopped by an error" : std::move(why);
            finished_ = true;
            playing_ = false;
            limit_.reset();
            commands_.clear();
            published_rest_ = true;
            stop_ = true;
        }
        published_.notify_all();
        if (void (*listener)() = publish_listener.load()) listener();   // the window shows why
    }

    void loop() {
        Clock::time_point last_publish = Clock::now() - kPublishInterval;
        Clock::duration interval = kPublishInterval;
        for (;;) {
            std::vector<Command> commands;
            bool train = false, may_work = false;
            std::uint64_t seen = 0;   // wakes_ when the thread looked: a wake since then forbids rest
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || !resting_; });
                if (stop_) return;
                if (commands_.empty() && playing_ && paced_ && !finished_ && !wait_pace(lock)) continue;
                commands.swap(commands_);
                seen = wakes_;
                train = playing_ || limit_.has_value();
                may_work = !limit_ || units_ < *limit_;
            }
            for (Command& c : commands) c(job_);
            const bool commanded = !commands.empty();
            const bool worked = may_work && job_.work(train);
            bool rest = false;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                units_ = job_.units();
                finished_ = job_.finished();
                rest = wakes_ == seen && (!worked || (limit_ && units_ >= *limit_));
                resting_ = rest;
                if (!worked && limit_) limit_ = std::min(*limit_, units_);   // nothing to do: no allowance kept
            }
            if (!(rest || commanded || Clock::now() - last_publish >= interval)) continue;
            const Clock::time_point t0 = Clock::now();
            box_.publish(job_.snapshot());
            last_publish = Clock::now();
            interval = std::max<Clock::duration>(kPublishInterval, 4 * (last_publish - t0));
            {
                std::lock_guard<std::mutex> lock(mutex_);
                published_any_ = true;
                published_units_ = job_.units();
                published_rest_ = rest && resting_;   // at rest only while no command came in since
            }
            published_.notify_all();
        }
    }

    Job job_;                                      // the thread's alone
    LatestBox<Snapshot> box_;
    mutable std::mutex mutex_;
    mutable std::condition_variable wake_;         // the thread waits on it for commands and pace
    mutable std::condition_variable published_;    // wait_for() waits on it
    std::vector<Command> commands_;                // posted, not applied yet
    bool playing_ = false;
    std::optional<std::uint64_t> limit_;           // advance(): rest once units_ reaches it
    bool paced_ = false;                           // playing at a set speed
    double speed_ = 0.0;                           // units per second while paced
    Clock::time_point pace_origin_;
    std::uint64_t pace_units_ = 0;                 // units_ at pace_origin_
    std::uint64_t pace_generation_ = 0;            // changes with each play, pace, pause or advance
    std::uint64_t units_ = 0;                      // units done (as of the last unit)
    bool finished_ = false;                        // the job said no unit will come again
    bool resting_ = false;                         // nothing to do until a command arrives
    std::uint64_t wakes_ = 0;                      // commands, plays and advances so far
    bool published_any_ = false;                   // a snapshot is in box_
    std::uint64_t published_units_ = 0;            // of the latest snapshot
    bool published_rest_ = false;                  // the latest snapshot was taken at rest, no command since
    bool stop_ = false;                            // the destructor's, or a failure's
    std::string failure_;                          // why the worker stopped, if it failed
    std::thread thread_;                           // last: started once everything above is set
};

}  // namespace normlab
