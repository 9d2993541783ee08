// What every lab tells the Help menu about itself.
#pragma once

namespace normlab::ui {

// Help ▸ "This lab": the equations a lab demonstrates and the core code that computes them.
struct LabInfo {
    const char* title;         // the lab window's title
    const char* equations;     // one per line
    const char* computed_by;   // core functions and their files
};

}  // namespace normlab::ui
