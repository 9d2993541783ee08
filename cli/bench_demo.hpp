// `normlab-cli bench --depth-demo`: the Depth lab's default demo, timed as the app trains it
// (bench_demo.cpp; the mode is picked in bench_command.cpp).
#pragma once

#include "options.hpp"

namespace normlab::cli {

// Runs DepthLab's default state, or a scene's Depth lab (--scene; --precision overrides either;
// --threads T, else the lab's own choice), on a StepWorker, snapshots included, as the app's DepthLabWorker plays it,
// and prints the time to each part's end, the steps and the machine's load (--json: one object).
int run_depth_demo_bench(const Options& opt);

}  // namespace normlab::cli
