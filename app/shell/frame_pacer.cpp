// When the next frame comes, and how long the loop sleeps (see frame_pacer.hpp).
#include "frame_pacer.hpp"

#include "input_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

namespace normlab::ui {

namespace {
constexpr double kBlinkSeconds = 0.4;   // Dear ImGui's text cursor blinks with a 1.2 s period
constexpr double kAnimateSeconds = 1.0 / kAnimateFps;
std::atomic<bool> g_woken{false};       // wake_frame_loop was called since the latest frame
}  // namespace

void FramePacer::poll_or_wait(bool input_pending, bool animate, bool text_input, double wake_at) {
    g_woken = false;
    if (last_frame_at_ > 0.0) frame_cost_ = 0.7 * frame_cost_ + 0.3 * std::min(1.0, glfwGetTime() - last_frame_at_);
    if (text_input) wake_at = std::min(wake_at, glfwGetTime() + kBlinkSeconds);
    if (never_wait_ || input_pending || settle_ > 0) {
        if (settle_ > 0) --settle_;
        glfwPollEvents();
    } else if (animate) {
        // At most kAnimateFps frames a second, and at most kAnimateShare of a core: input ends the wait early.
        // A worker's wake-up (wake_frame_loop) waits on; anything else (input, a window event, a
        // quit signal's empty event) ends the wait.
        const double next = last_frame_at_ + std::max(kAnimateSeconds, frame_cost_ / kAnimateShare);
        glfwPollEvents();
        for (double wait = next - glfwGetTime(); wait > 0.0 && !input_queued(); wait = next - glfwGetTime()) {
            g_woken = false;
            glfwWaitEventsTimeout(wait);
            if (!g_woken && glfwGetTime() < next) break;
        }
    } else {
        ++waits_;
        const double timeout = wake_at - glfwGetTime();
        if (!std::isfinite(timeout))
            glfwWaitEvents();
        else if (timeout > 0.0)
            glfwWaitEventsTimeout(timeout);
        else
            glfwPollEvents();
    }
    last_frame_at_ = glfwGetTime();
    const auto second = static_cast<std::size_t>(std::max(0.0, last_frame_at_));
    if (frames_per_second_.size() <= second) frames_per_second_.resize(second + 1, 0);
    ++frames_per_second_[second];
}

bool FramePacer::due(bool input_pending, bool animate, bool text_input, double wake_at) {
    const double now = glfwGetTime();
    if (text_input) wake_at = std::min(wake_at, last_frame_at_ + kBlinkSeconds);
    if (never_wait_ || input_pending || animate || settle_ > 0 || g_woken.exchange(false) || now >= wake_at)
        return true;
    ++skipped_;
    return false;
}

void FramePacer::frame_shown() const {
    if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
}

std::string FramePacer::stats_json() const {
    std::string out = "{\"frames_per_second\": [";
    for (std::size_t i = 0; i < frames_per_second_.size(); ++i)
        out += (i ? ", " : "") + std::to_string(frames_per_second_[i]);
    return out + "], \"waits\": " + std::to_string(waits_) + "}";
}

void wake_frame_loop() {
    g_woken = true;
    glfwPostEmptyEvent();
}

}  // namespace normlab::ui
