#include "frame_pacer.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cmath>

namespace normlab::ui {

void FramePacer::poll_or_wait(bool input_pending, bool animate, double wake_at) {
    if (never_wait_ || input_pending || animate || settle_ > 0) {
        if (settle_ > 0) --settle_;
        glfwPollEvents();
        return;
    }
    const double timeout = wake_at - glfwGetTime();
    if (!std::isfinite(timeout))
        glfwWaitEvents();
    else if (timeout > 0.0)
        glfwWaitEventsTimeout(timeout);
    else
        glfwPollEvents();
}

void wake_frame_loop() { glfwPostEmptyEvent(); }

}  // namespace normlab::ui
