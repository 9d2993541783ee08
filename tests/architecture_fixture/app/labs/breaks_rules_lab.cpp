// A lab window that breaks rules: scripts/check_architecture.py must name each (code.architecture_refuses).
#include "labs.hpp"
#include "other_lab.hpp"

int count_frames(const std::vector<Plot>& plots) {
    static int frames = 0;
    return ++frames + static_cast<int>(plots[1].series.size());
}

int by_index(const std::vector<Plot>& shown, std::size_t i, OtherUi& other) {
    return static_cast<int>(shown[i].series.size()) + other.count;
}

std::size_t last(const Session& s) { return explorer_plots(s).back().series.size(); }

int allowed(int x, const std::vector<Plot>& plots) {
    static int calls = 0;   // process-wide: a marked static is let through
    return x + ++calls + static_cast<int>(plot_named(plots, "loss").series.size());
}
