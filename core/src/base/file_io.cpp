// NormLab core: atomic whole-file writes and whole-file reads on POSIX.
//
// [SECTION] Errors — one-line messages: path, step, strerror(errno)
// [SECTION] write_file_atomically — temp file, write loop, fsync, rename, directory fsync
// [SECTION] read_file
#include "normlab/base/file_io.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace normlab {

// [SECTION] Errors --------------------------------------------------------------------------

namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

[[noreturn]] void fail(const char* verb, const std::string& path, const std::string& step, int err) {
    std::string msg = std::string("cannot ") + verb + " " + quoted(path) + ": " + step;
    if (err != 0) msg += std::string(": ") + std::strerror(err);
    throw std::runtime_error(msg);
}

// close() that retries nothing (POSIX leaves the descriptor state unspecified after EINTR, and
// Linux always releases it) and reports the error.
int close_fd(int fd) { return ::close(fd) == 0 ? 0 : errno; }

// The directory part of a path, for the directory fsync ("." for a bare name).
std::string parent_dir(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::atomic<unsigned long> g_temp_counter{0};

}  // namespace

// [SECTION] write_file_atomically -----------------------------------------------------------

void write_file_atomically(const std::string& path, std::string_view bytes) {
    if (path.empty()) fail("write", path, "empty path", 0);
    if (path.back() == '/') fail("write", path, "path names a directory", EISDIR);

    // Keep an existing file's permission bits; new files get 0666 & ~umask.
    mode_t mode = 0666;
    bool keep_mode = false;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        mode = st.st_mode & 07777;
        keep_mode = true;
    }

    // A fresh temporary file next to the target (same file system, so rename is atomic).
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = path + ".tmp." + std::to_string(static_cast<long>(::getpid())) + "." +
              std::to_string(g_temp_counter.fetch_add(1));
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) fail("write", path, "cannot create temporary file " + quoted(tmp), errno);

    // From here on, every failure removes the temporary file.
    auto abort_with = [&](const std::string& step, int err, bool close_it) {
        if (close_it) ::close(fd);
        ::unlink(tmp.c_str());
        fail("write", path, step, err);
    };
    if (keep_mode && ::fchmod(fd, mode) != 0) abort_with("cannot set permissions of " + quoted(tmp), errno, true);

    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            abort_with("write to " + quoted(tmp) + " failed", errno, true);
        }
        if (n == 0) abort_with("write to " + quoted(tmp) + " made no progress", EIO, true);
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) abort_with("fsync of " + quoted(tmp) + " failed", errno, true);
    if (const int err = close_fd(fd); err != 0) abort_with("close of " + quoted(tmp) + " failed", err, false);
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        abort_with("cannot rename " + quoted(tmp) + " over it", errno, false);

    // Make the rename durable; the new file is already complete and in place, so a failure
    // here (some file systems refuse to fsync directories) is not an error of the write.
    const int dfd = ::open(parent_dir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
}

// [SECTION] read_file -----------------------------------------------------------------------

std::string read_file(const std::string& path) {
    if (path.empty()) fail("read", path, "empty path", 0);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("read", path, "cannot open", errno);
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        fail("read", path, "it is a directory, not a file", 0);
    }
    std::string out;
    if (st.st_size > 0) out.reserve(static_cast<std::size_t>(st.st_size));
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            ::close(fd);
            fail("read", path, "read failed", err);
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

}  // namespace normlab
