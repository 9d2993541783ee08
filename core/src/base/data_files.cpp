// NormLab core: the read scope of a scene's data files, checked on the opened file
// (base/data_files.hpp; docs/ARCHITECTURE.md, File safety).
//
// [SECTION] Scope
// [SECTION] Opening — O_PATH, type, where the descriptor really is, then that same file for reading
#include "normlab/base/data_files.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace normlab {

namespace fs = std::filesystem;

namespace {

struct Agreed {
    std::string target;   // where the path led when the user agreed
    dev_t dev = 0;
    ino_t ino = 0;
};

std::mutex g_mutex;                                  // guards the three below
std::optional<std::vector<std::string>> g_folders;   // resolved
std::vector<Agreed> g_agreed;
std::vector<OutsideReadError> g_refused;
std::atomic<void (*)()> g_hook{nullptr};

// Whether `file` is `folder` or below it; both absolute and normal.
bool inside(const fs::path& file, const fs::path& folder) {
    const fs::path rel = file.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}

[[noreturn]] void refuse(const std::string& verb, const std::string& path, const std::string& why) {
    throw std::runtime_error("cannot " + verb + " " + path + ": " + why);
}

// The type check the data readers have always made, before anything is opened for reading.
void check_regular(const struct stat& st, const std::string& path) {
    if (S_ISDIR(st.st_mode)) refuse("read", path, std::strerror(EISDIR));
    if (!S_ISREG(st.st_mode))
        refuse("read", path, std::string(S_ISFIFO(st.st_mode) ? "it is a FIFO" : "it is a device or socket") +
                                 ", not a regular file");
}

#ifndef __EMSCRIPTEN__
// Where the open descriptor really is (its /proc/self/fd link); "" when /proc cannot say.
std::string descriptor_path(int fd) {
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    std::string out(4096, '\0');
    const ssize_t n = ::readlink(link.c_str(), out.data(), out.size());
    if (n <= 0 || static_cast<std::size_t>(n) >= out.size()) return "";
    out.resize(static_cast<std::size_t>(n));
    return out;
}
#endif

// Whether a file at `target` with this identity may be read. With g_mutex held.
bool allowed_locked(const std::string& target, const struct stat& st) {
    if (!g_folders) return true;
    for (const std::string& folder : *g_folders)
        if (inside(fs::path(target), fs::path(folder))) return true;
    for (const Agreed& a : g_agreed)
        if (a.target == target && a.dev == st.st_dev && a.ino == st.st_ino) return true;
    return false;
}

// The scope check on the file `target` names (identity `st`); throws OutsideReadError.
void check_scope(const std::string& path, const std::string& target, const struct stat& st) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (allowed_locked(target, st)) return;
    OutsideReadError refused(path, target);
    if (g_refused.size() < 16) g_refused.push_back(refused);   // nobody may be taking them (the CLI)
    throw refused;
}

}  // namespace

// [SECTION] Scope ---------------------------------------------------------------------------

OutsideReadError::OutsideReadError(std::string path, std::string target)
    : std::runtime_error("cannot read " + path + ": it leads to \"" + target +
                         "\", outside the scene's folder (not read without asking)"),
      path_(std::move(path)),
      target_(std::move(target)) {}

std::string read_target(const std::string& path) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    if (ec) return path;
    const fs::path p = fs::weakly_canonical(absolute, ec);
    return (ec ? absolute.lexically_normal() : p).string();
}

void set_read_scope(std::optional<std::vector<std::string>> folders) {
    if (folders)
        for (std::string& f : *folders) f = read_target(f);
    std::lock_guard<std::mutex> lock(g_mutex);
    g_folders = std::move(folders);
    g_agreed.clear();
    g_refused.clear();
}

void agree_to_read(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;   // nothing there: a later read fails on its own
    const std::string target = read_target(path);
    std::lock_guard<std::mutex> lock(g_mutex);
    for (Agreed& a : g_agreed)
        if (a.target == target) {
            a = {target, st.st_dev, st.st_ino};
            return;
        }
    g_agreed.push_back({target, st.st_dev, st.st_ino});
}

std::vector<OutsideReadError> take_refused_reads() {
    std::lock_guard<std::mutex> lock(g_mutex);
    std::vector<OutsideReadError> out;
    out.swap(g_refused);
    return out;
}

void set_read_check_hook(void (*hook)()) { g_hook = hook; }

// [SECTION] Opening -------------------------------------------------------------------------

int open_data_file(const std::string& path) {
    if (path.empty()) refuse("open", path, "empty path");
#ifdef __EMSCRIPTEN__
    // The page's files are its own virtual file system (the bundled assets and what the page
    // wrote): no device, no other user's file to reach; the type and the scope are still checked.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) refuse("open", path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        refuse("read", path, std::strerror(err));
    }
    try {
        check_regular(st, path);
        check_scope(path, read_target(path), st);
    } catch (...) {
        ::close(fd);
        throw;
    }
    return fd;
#else
    // 1. Open without reading: links are followed, but no driver's open() runs and no FIFO waits.
    const int probe = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (probe < 0) refuse("open", path, std::strerror(errno));
    struct stat st {};
    try {
        if (::fstat(probe, &st) != 0) refuse("read", path, std::strerror(errno));
        check_regular(st, path);
        // 2. Where the opened file is: whatever the path names by now, this is what gets read.
        std::string target = descriptor_path(probe);
        if (target.empty()) target = read_target(path);   // no /proc: the path's target (step 3 checks identity)
        check_scope(path, target, st);
    } catch (...) {
        ::close(probe);
        throw;
    }
    if (void (*hook)() = g_hook.load()) hook();
    // 3. That same file, for reading: through its descriptor; where /proc is missing, by path
    // again, kept only when it is still the same file (device and inode).
    int fd = ::open(("/proc/self/fd/" + std::to_string(probe)).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0 && errno == ENOENT) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    const int err = errno;
    ::close(probe);
    if (fd < 0) refuse("open", path, std::strerror(err));
    struct stat now {};
    if (::fstat(fd, &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
        ::close(fd);
        refuse("read", path, "it changed while it was being opened; try again");
    }
    return fd;
#endif
}

}  // namespace normlab
