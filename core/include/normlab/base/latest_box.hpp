// NormLab core: the latest value of a worker thread's results, handed to any number of readers.
//
// publish() replaces the value; latest() returns a shared pointer to a const value that stays
// valid and unchanged however long the reader keeps it (null before the first publish). The
// hand-off of every worker (step_worker.hpp) and of the models' snapshots (SnapshotBox in
// training.hpp, DepthSnapshotBox in depth.hpp).
#pragma once

#include <memory>
#include <mutex>
#include <utility>

namespace normlab {

template <class T>
class LatestBox {
public:
    void publish(T value) {
        auto next = std::make_shared<const T>(std::move(value));
        std::lock_guard<std::mutex> lock(mutex_);
        latest_ = std::move(next);
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
