// SIGINT / SIGTERM / SIGHUP / SIGQUIT → the frame loop's quit; a lost X connection → the final
// autosave inside Xlib's handler (see quit_signals.hpp).
#include "quit_signals.hpp"

#include "session_io.hpp"

#include <normlab/base/file_io.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#ifdef NORMLAB_HAS_X11
#include <X11/Xlib.h>
#endif

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <thread>

#include <semaphore.h>
#include <unistd.h>

namespace normlab::ui {

namespace {

volatile std::sig_atomic_t g_signal = 0;
sem_t g_wake;
std::atomic<bool> g_stop{false};
// On the heap and never destroyed: an exit() from elsewhere must not destroy a joinable
// std::thread, which would call std::terminate.
std::thread* g_watcher = nullptr;
std::thread::id g_loop_thread;   // the frame loop's: install_quit_signals' caller

constexpr int kQuitSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void on_quit_signal(int signal) {
    if (g_signal == 0) g_signal = signal;
    sem_post(&g_wake);
}

// What a lost X connection saves (on_display_lost, publish_session).
struct LostDisplay {
    std::mutex mutex;
    std::function<std::string()> final_save;
    std::string file, text;
    bool keep_previous = false;
    std::atomic<bool> saving{false};
};
LostDisplay* const g_lost = new LostDisplay;   // never destroyed: Xlib's handler may run during exit
LostDisplay& lost_display() { return *g_lost; }

// Writes the published text (a thread other than the frame loop's found the connection gone):
// the line for stderr.
std::string save_published(LostDisplay& lost) {
    std::lock_guard<std::mutex> hold(lost.mutex);
    if (lost.file.empty()) return "";
    try {
        if (lost.keep_previous) {
            const std::string kept = keep_previous_autosave(lost.file, lost.text);
            if (!kept.empty()) std::fprintf(stderr, "normlab: the previous session is kept in %s\n", kept.c_str());
        }
        write_file_atomically(lost.file, lost.text, IfExists::Replace);
        return "saved the session to " + lost.file;
    } catch (const std::exception& e) {
        return std::string("the session was NOT saved: ") + e.what();
    }
}

#ifdef NORMLAB_HAS_X11
// Xlib's I/O error handler: the connection is gone and Xlib exits when this returns, so the
// session is saved here, once; a second thread that finds it gone waits for the first's exit.
extern "C" int on_x_io_error(Display*) {
    LostDisplay& lost = lost_display();
    if (lost.saving.exchange(true)) {
        for (;;) ::pause();
    }
    std::string line;
    if (std::this_thread::get_id() == g_loop_thread && lost.final_save) {
        try {
            line = lost.final_save();
        } catch (const std::exception& e) {
            line = std::string("the session was NOT saved: ") + e.what();
        }
    } else {
        line = save_published(lost);
    }
    std::fprintf(stderr, "normlab: the connection to the X server was lost%s%s\n", line.empty() ? "" : ": ", line.c_str());
    std::fflush(nullptr);
    ::_exit(1);   // as Xlib would, without running destructors under running threads
}
#endif

}  // namespace

void install_quit_signals() {
    if (g_watcher != nullptr) return;
    g_loop_thread = std::this_thread::get_id();
    sem_init(&g_wake, 0, 0);
    g_stop = false;
    g_watcher = new std::thread([] {
        for (;;) {
            while (sem_wait(&g_wake) != 0 && errno == EINTR) {
            }
            if (g_stop) return;
            glfwPostEmptyEvent();
        }
    });
    struct sigaction action {};
    action.sa_handler = on_quit_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_RESTART;
    for (const int signal : kQuitSignals) {
        struct sigaction before {};
        sigaction(signal, nullptr, &before);
        // An ignored SIGHUP or SIGQUIT stays ignored (nohup normlab, a shell's background job).
        if ((signal == SIGHUP || signal == SIGQUIT) && before.sa_handler == SIG_IGN) continue;
        sigaction(signal, &action, nullptr);
    }
#ifdef NORMLAB_HAS_X11
    XSetIOErrorHandler(on_x_io_error);
#endif
}

int quit_signal() { return static_cast<int>(g_signal); }

void stop_quit_signals() {
    if (g_watcher == nullptr) return;
    g_stop = true;
    sem_post(&g_wake);
    g_watcher->join();
    delete g_watcher;
    g_watcher = nullptr;
}

const char* signal_name(int signal) {
    switch (signal) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        case SIGQUIT: return "SIGQUIT";
        default: return "a signal";
    }
}

void die_of_quit_signal() {
    if (g_signal != SIGQUIT) return;
    std::fflush(nullptr);
    std::signal(SIGQUIT, SIG_DFL);
    sigset_t quit;
    sigemptyset(&quit);
    sigaddset(&quit, SIGQUIT);
    pthread_sigmask(SIG_UNBLOCK, &quit, nullptr);
    std::raise(SIGQUIT);
    ::_exit(128 + SIGQUIT);   // only if the default action was not to end the process
}

void on_display_lost(std::function<std::string()> final_save) {
    LostDisplay& lost = lost_display();
    std::lock_guard<std::mutex> hold(lost.mutex);
    lost.final_save = std::move(final_save);
    if (!lost.final_save) lost.file.clear();
}

void publish_session(const std::string& autosave_file, const std::string& text, bool keep_previous) {
    LostDisplay& lost = lost_display();
    std::lock_guard<std::mutex> hold(lost.mutex);
    lost.keep_previous = keep_previous;
    if (lost.file == autosave_file && lost.text == text) return;
    lost.file = autosave_file;
    lost.text = text;
}

}  // namespace normlab::ui
