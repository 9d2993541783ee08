// SIGINT / SIGTERM → the frame loop's quit (see quit_signals.hpp).
#include "quit_signals.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <thread>

#include <semaphore.h>

namespace normlab::ui {

namespace {

volatile std::sig_atomic_t g_signal = 0;
sem_t g_wake;
std::atomic<bool> g_stop{false};
// On the heap and never destroyed: an exit() from elsewhere (Xlib's handler of a lost X
// connection) must not destroy a joinable std::thread, which would call std::terminate.
std::thread* g_watcher = nullptr;

extern "C" void on_quit_signal(int signal) {
    if (g_signal == 0) g_signal = signal;
    sem_post(&g_wake);
}

}  // namespace

void install_quit_signals() {
    if (g_watcher != nullptr) return;
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
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
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
    return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace normlab::ui
