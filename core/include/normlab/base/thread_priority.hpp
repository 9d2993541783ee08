// NormLab core: a worker thread's priority below the UI thread's (docs/ARCHITECTURE.md, Data flow).
#pragma once

namespace normlab {

// The nice value a worker thread takes (StepWorker): on Linux, where it is a thread's own and
// the threads it starts inherit it, the kernel gives a nice-0 thread (the UI thread, the GL
// rasterizer's threads) about 9× the CPU of a nice-10 thread when both want a core, and the
// worker every cycle the UI leaves (docs/BENCHMARKS.md, the Depth lab's demo).
inline constexpr int kWorkerNice = 10;

// Lowers the calling thread's priority to kWorkerNice (never raises it); false where the system
// has no per-thread priority (the web page) or refused. The numbers a thread computes never
// depend on it.
bool lower_thread_priority();

}  // namespace normlab
