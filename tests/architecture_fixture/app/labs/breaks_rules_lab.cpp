// A lab window that breaks three rules: scripts/check_architecture.py must name each (code.architecture_refuses).
#include "labs.hpp"

int count_frames(const std::vector<Plot>& plots) {
    static int frames = 0;
    return ++frames + static_cast<int>(plots[1].series.size());
}

int allowed(int x) {
    static int calls = 0;   // process-wide: a marked static is let through
    return x + ++calls;
}
