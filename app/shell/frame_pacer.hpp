// When the frame loop draws the next frame, and when it sleeps: an idle window costs nothing.
//
// The next frame comes at once while input waits in the queue (input_queue.hpp) and for a few
// frames after the last input (Dear ImGui settles: a pop-up opens the frame after its click, a
// window sizes itself over two frames); while a lab animates (AppUi::animate: a run plays) at
// most kAnimateFps a second: without vsync (Xvfb, some drivers) the loop would draw as fast as
// the CPU allows, taking the cores from the workers whose results it shows (docs/BENCHMARKS.md);
// and where a frame costs more (a software renderer), less often still: a frame at most every
// frame-cost ÷ kAnimateShare seconds, so that drawing takes at most that share of one core and
// the worker the rest. A worker's results do not end that wait; input does.
// Otherwise the loop sleeps in glfwWaitEventsTimeout until an event arrives: input, a window
// exposed or resized, or a worker's new results (each LatestBox::publish posts an empty event,
// normlab/base/latest_box.hpp), or until `wake_at` (the autosave's due time) or a text field's
// cursor blink. Scripted runs (--frames N) never wait. --frame-delay MS sleeps after each frame.
#pragma once

#include <string>
#include <vector>

namespace normlab::ui {

inline constexpr int kSettleFrames = 3;
inline constexpr double kAnimateFps = 60.0;   // a display's usual refresh rate
inline constexpr double kAnimateShare = 0.2;  // of one core, at most, for the frames of a run

class FramePacer {
public:
    FramePacer(bool never_wait, int delay_ms) : never_wait_(never_wait), delay_ms_(delay_ms) {}

    // Before a frame: polls GLFW's events, or waits for one (see above). `text_input`: a text
    // field has the keyboard (its cursor blinks); `wake_at` in glfwGetTime() seconds, a value in
    // the past or infinity is fine.
    void poll_or_wait(bool input_pending, bool animate, bool text_input, double wake_at);

    // The page's question (web_page.hpp): the browser calls it once per animation frame and
    // nothing may block there, so it draws only when poll_or_wait would not have waited: input,
    // animation, settling, a worker's wake-up, `wake_at` passed, a text cursor to blink.
    bool due(bool input_pending, bool animate, bool text_input, double wake_at);

    // After the frame was shown: --frame-delay's sleep.
    void frame_shown() const;

    // After the input queue fed the frame: whether it had any input.
    void fed(bool had_input) {
        if (had_input) settle_ = kSettleFrames;
    }

    // --loop-stats: {"frames_per_second": [frames drawn in second 0, 1, … of the run], "waits": n}.
    std::string stats_json() const;

    // The page: animation frames skipped since the start (`due` said no).
    long skipped() const { return skipped_; }

private:
    bool never_wait_;
    int delay_ms_;
    int settle_ = kSettleFrames;   // frames still drawn at once
    std::vector<int> frames_per_second_;
    long waits_ = 0;
    long skipped_ = 0;
    double last_frame_at_ = 0.0;   // glfwGetTime() of the latest frame
    double frame_cost_ = 0.0;      // seconds a frame takes from its start to the next wait (running mean)
};

// Wakes the frame loop from any thread (glfwPostEmptyEvent; in the page, which has no event to
// post, a flag that `due` reads): the listener of LatestBox::publish.
void wake_frame_loop();

}  // namespace normlab::ui
