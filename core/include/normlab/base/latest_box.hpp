// NormLab core: the latest value of a worker thread's results, handed to any number of readers.
//
// publish() replaces the value; latest() returns a shared pointer to a const value that stays
// valid and unchanged however long the reader keeps it (null before the first publish). The
// hand-off of every worker (step_worker.hpp) and of the models' snapshots (SnapshotBox in
// training.hpp, DepthSnapshotBox in depth.hpp).
//
// A reader that sleeps until something happens (the app's frame loop waits for events while
// idle) sets publish_listener: every publish() of every box calls it, on the publishing thread,
// after the value is in place (the app posts an empty GLFW event to wake its loop).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

namespace normlab {

// Null: no one listens. Must be safe to call from any thread.
inline std::atomic<void (*)()> publish_listener{nullptr};

template <class T>
class LatestBox {
public:
    void publish(T value) {
        auto next = std::make_shared<const T>(std::move(value));
        {
            std::lock_guard<std::mutex> lock(mutex_);
            latest_ = std::move(next);
        }
        if (void (*listener)() = publish_listener.load()) listener();
    }
    std::shared_ptr<const T> latest() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return latest_;
    }

private:
    mutable std::mutex mutex_;
    std::shared_ptr<const T> latest_;
};

}  // namespace normlab
