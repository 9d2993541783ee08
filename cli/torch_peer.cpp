// normlab-cli bench: the PyTorch peer's child process (see torch_peer.hpp). POSIX: pipe, fork,
// execvp; one JSON line each way per request.
#include "torch_peer.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#ifndef NORMLAB_SOURCE_DIR
#define NORMLAB_SOURCE_DIR "."
#endif

namespace normlab::cli {

namespace {

// In the child, before exec: Debian's OpenBLAS (serial first: the peer runs on the threads it is
// given) ahead of whatever libblas.so.3 the alternatives system picked.
void prefer_openblas() {
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu/openblas-serial", "/usr/lib/x86_64-linux-gnu/openblas-pthread"}) {
        const std::string lib = std::string(dir) + "/libblas.so.3";
        if (::access(lib.c_str(), R_OK) != 0) continue;
        const char* old = std::getenv("LD_LIBRARY_PATH");
        const std::string path = old && *old ? std::string(dir) + ":" + old : std::string(dir);
        ::setenv("LD_LIBRARY_PATH", path.c_str(), 1);
        return;
    }
}

std::string pick_python(const std::string& python) {
    if (!python.empty()) return python;
    if (const char* env = std::getenv("NORMLAB_PYTHON"); env && *env) return env;
    if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
    return "python3";
}

std::string pick_script() {
    if (const char* env = std::getenv("NORMLAB_TORCH_PEER"); env && *env) return env;
    return std::string(NORMLAB_SOURCE_DIR) + "/bench/torch_peer.py";
}

bool write_all(int fd, const std::string& s) {
    for (std::size_t done = 0; done < s.size();) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

std::unique_ptr<TorchPeer> TorchPeer::start(const std::string& python_arg, const nlohmann::json& hello,
                                            std::string& why) {
    const std::string python = pick_python(python_arg), script = pick_script();
    if (python.find('/') != std::string::npos && ::access(python.c_str(), X_OK) != 0) {
        why = "there is no Python at " + python + " (--python or $NORMLAB_PYTHON)";
        return nullptr;
    }
    if (::access(script.c_str(), R_OK) != 0) {
        why = "the PyTorch peer script " + script + " is not readable (set NORMLAB_TORCH_PEER to its path)";
        return nullptr;
    }
    int in[2], out[2];  // in: parent → child's stdin; out: child's stdout → parent
    if (::pipe(in) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        return nullptr;
    }
    if (::pipe(out) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        ::close(in[0]), ::close(in[1]);
        return nullptr;
    }
    // While the peer lives, a child that died shows up as a failed write, not a signal.
    void (*previous_sigpipe)(int) = std::signal(SIGPIPE, SIG_IGN);
    const pid_t pid = ::fork();
    if (pid < 0) {
        why = std::string("fork: ") + std::strerror(errno);
        for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
        std::signal(SIGPIPE, previous_sigpipe);
        return nullptr;
    }
    if (pid == 0) {  // the child: stdin ← in, stdout → out, stderr inherited
        ::dup2(in[0], STDIN_FILENO);
        ::dup2(out[1], STDOUT_FILENO);
        for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
        prefer_openblas();
        const char* argv[] = {python.c_str(), "-u", script.c_str(), "--serve", nullptr};
        ::execvp(argv[0], const_cast<char* const*>(argv));
        _exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    std::unique_ptr<TorchPeer> peer(new TorchPeer);
    peer->pid_ = pid;
    peer->previous_sigpipe_ = previous_sigpipe;
    peer->to_child_ = in[1];
    peer->from_child_ = ::fdopen(out[0], "r");
    peer->command_ = python + " -u " + script + " --serve";
    if (peer->from_child_ == nullptr) {
        why = std::string("fdopen: ") + std::strerror(errno);
        ::close(out[0]);
        return nullptr;   // the destructor closes the child's stdin and reaps it
    }
    try {
        const nlohmann::json reply = peer->request(hello);
        peer->version_ = reply.value("torch", "");
        peer->threads_ = reply.value("threads", 0);
        peer->blas_ = reply.value("blas", "unknown");
    } catch (const std::exception& e) {
        why = std::string(e.what()) + " [" + peer->command_ + "]";
        return nullptr;
    }
    return peer;
}

TorchPeer::~TorchPeer() {
    if (to_child_ >= 0) ::close(to_child_);
    if (from_child_) std::fclose(from_child_);
    if (pid_ > 0) {
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    std::signal(SIGPIPE, previous_sigpipe_);
}

nlohmann::json TorchPeer::request(const nlohmann::json& req) {
    if (!write_all(to_child_, req.dump() + "\n"))
        throw std::runtime_error("the PyTorch peer is not running (could not start it, or it exited)");
    char* line = nullptr;
    std::size_t cap = 0;
    const ssize_t n = ::getline(&line, &cap, from_child_);
    const std::string text = n > 0 ? std::string(line, static_cast<std::size_t>(n)) : std::string();
    std::free(line);
    if (text.empty()) {
        // execvp failed in the child (_exit(127)): say that the Python could not be run.
        int status = 0;
        if (pid_ > 0 && ::waitpid(pid_, &status, 0) == pid_) {
            pid_ = -1;
            if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
                throw std::runtime_error("cannot run the Python for the PyTorch peer (not found or not executable)");
        }
        throw std::runtime_error("the PyTorch peer exited without replying");
    }
    nlohmann::json reply = nlohmann::json::parse(text, nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
        throw std::runtime_error("the PyTorch peer replied with something other than JSON: " + text.substr(0, 200));
    if (reply.contains("error")) throw std::runtime_error(reply["error"].get<std::string>());
    return reply;
}

double TorchPeer::run_ms(const std::string& kernel, const nlohmann::json& extra) {
    nlohmann::json req = extra;
    req["op"] = "run";
    req["kernel"] = kernel;
    return request(req).at("ms").get<double>();
}

}  // namespace normlab::cli
