// NormLab core: a worker thread's priority (see thread_priority.hpp).
#include "normlab/base/thread_priority.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace normlab {

bool lower_thread_priority() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
    // Linux: PRIO_PROCESS with the thread's id (gettid) sets that thread's nice value alone.
    const int tid = static_cast<int>(gettid());
    const int now = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
    if (now >= kWorkerNice) return true;
    return setpriority(PRIO_PROCESS, static_cast<id_t>(tid), kWorkerNice) == 0;
#else
    return false;
#endif
}

}  // namespace normlab
