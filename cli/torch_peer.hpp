// normlab-cli bench: PyTorch as a peer measured in the same run (bench/torch_peer.py).
//
// PyTorch is optional (Debian's python3-torch is ~180 packages): `bench --torch` starts
// `PYTHON -u bench/torch_peer.py --serve` as a child process and sends it one JSON request per
// line (set up a shape or a model; run a kernel or N training steps); the child times its own
// work and replies {"ms": t}. The bench commands interleave these requests with their own
// timings, repetition by repetition, so that outside load hits both alike. When Python or
// PyTorch is missing, start() says why (with the command that installs it) and the bench goes on
// without the PyTorch column.
#pragma once

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <sys/types.h>

namespace normlab::cli {

class TorchPeer {
public:
    // Python: `python` if not empty, else $NORMLAB_PYTHON, else /usr/bin/python3 (Debian's, where
    // python3-torch installs), else python3 on PATH. Script: $NORMLAB_TORCH_PEER, else
    // bench/torch_peer.py in the source tree this binary was built from.
    // Returns null and sets `why` (one line) when the peer cannot run: no Python, no script, no
    // PyTorch, or its first reply is an error. `hello` is that first request (e.g. the shape).
    static std::unique_ptr<TorchPeer> start(const std::string& python, const nlohmann::json& hello,
                                            std::string& why);
    ~TorchPeer();  // closes its stdin (the child then exits) and reaps it
    TorchPeer(const TorchPeer&) = delete;
    TorchPeer& operator=(const TorchPeer&) = delete;

    // One request, one reply. Throws std::runtime_error when the child died or replied with
    // {"error": ...}.
    nlohmann::json request(const nlohmann::json& req);
    // The reply's "ms" to {"op": "run", "kernel": kernel, ...extra}.
    double run_ms(const std::string& kernel, const nlohmann::json& extra = nlohmann::json::object());

    const std::string& version() const { return version_; }  // torch.__version__
    int threads() const { return threads_; }                 // torch.get_num_threads()
    const std::string& command() const { return command_; }  // what was started, for the report
    // "OpenBLAS (path)" or "reference BLAS (path)": what the peer's products ran on. The child
    // is started with Debian's OpenBLAS first on LD_LIBRARY_PATH where it is installed
    // (libopenblas0-serial or -pthread), so that the peer is PyTorch at its best.
    const std::string& blas() const { return blas_; }

private:
    TorchPeer() = default;
    pid_t pid_ = -1;
    int to_child_ = -1;
    std::FILE* from_child_ = nullptr;
    std::string version_, command_, blas_;
    int threads_ = 0;
    void (*previous_sigpipe_)(int) = SIG_DFL;   // restored when the peer goes
};

}  // namespace normlab::cli
