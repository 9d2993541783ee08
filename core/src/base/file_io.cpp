// NormLab core: atomic whole-file writes, bounded whole-file reads and lock files on POSIX.
// docs/ARCHITECTURE.md, File safety.
//
// [SECTION] Errors — one-line messages: path, step, strerror(errno)
// [SECTION] Targets — what is at a path: missing, a regular file, a link to one, something else
// [SECTION] Temporary files — names that fit NAME_MAX, stale ones of dead processes
// [SECTION] write_file_atomically — temp file, write loop, fsync, rename or link, directory fsync
// [SECTION] read_file
// [SECTION] FileLock
#include "normlab/base/file_io.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
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

// The directory part of a path ("." for a bare name) and the name in it.
std::string parent_dir(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "a directory", "a FIFO", …: what a stat mode is, for "it is … , not a regular file".
std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

std::string describe_size(std::size_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    const bool mb = bytes >= (1u << 20);
    const double v = static_cast<double>(bytes) / (mb ? 1048576.0 : 1024.0);
    char buf[32];
    const bool whole = bytes % (mb ? (1u << 20) : 1024u) == 0;
    std::snprintf(buf, sizeof buf, whole ? "%.0f %s" : "%.1f %s", v, mb ? "MB" : "KB");
    return buf;
}

std::string describe_memory(double bytes) {
    const char* units[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 5) {
        bytes /= 1024.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, bytes < 10.0 && u > 0 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

// [SECTION] Targets -------------------------------------------------------------------------

namespace {

struct Target {
    std::string path;     // where the bytes go: `path`, or the file a link names
    bool exists = false;  // a regular file is there
    mode_t mode = 0;      // its permission bits
    std::string refusal;  // why nothing may be written there; "" when it may
};

Target inspect_target(const std::string& path) {
    Target t{path, false, 0, ""};
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return t;   // missing (or unreachable: the temp file says why)
    if (S_ISLNK(st.st_mode)) {
        if (::stat(path.c_str(), &st) != 0) {
            t.refusal = "it is a symbolic link to nothing that exists";
            return t;
        }
        if (!S_ISREG(st.st_mode)) {
            t.refusal = "it is a symbolic link to " + kind_of(st.st_mode) + ", not to a regular file";
            return t;
        }
        // Written through: the file the link names is replaced next to itself, the link stays.
        std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
        if (real) t.path = real.get();
    } else if (!S_ISREG(st.st_mode)) {
        t.refusal = "it is " + kind_of(st.st_mode) + ", not a regular file";
        return t;
    }
    t.exists = true;
    t.mode = st.st_mode & 07777;
    return t;
}

}  // namespace

std::string unwritable_reason(const std::string& path) { return inspect_target(path).refusal; }

bool path_exists(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

std::string unused_file_name(const std::string& path) {
    if (!path_exists(path)) return path;
    const std::string dir_part = path.substr(0, path.size() - base_name(path).size());
    const std::string name = base_name(path);
    const auto dot = name.find_last_of('.');
    const bool has_ext = dot != std::string::npos && dot > 0;
    const std::string stem = has_ext ? name.substr(0, dot) : name;
    const std::string ext = has_ext ? name.substr(dot) : "";
    for (int n = 2; n < 100000; ++n) {
        const std::string candidate = dir_part + stem + "-" + std::to_string(n) + ext;
        if (!path_exists(candidate)) return candidate;
    }
    return path;   // 100000 taken: the caller's IfExists::Refuse says so
}

// [SECTION] Temporary files -----------------------------------------------------------------

namespace {

std::atomic<unsigned long> g_temp_counter{0};

// The file-name part that temporary files of `name` start with: the name itself, cut (at a
// UTF-8 character boundary) so that "<it>.tmp.<pid>.<n>" stays within NAME_MAX (255 bytes).
std::string temp_stem(const std::string& name) {
    constexpr std::size_t kMaxStem = 200;   // 255 − ".tmp." − 10 pid digits − "." − 20 counter digits
    if (name.size() <= kMaxStem) return name;
    std::size_t cut = kMaxStem;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
    return name.substr(0, cut);
}

// The pid in "<stem>.tmp.<pid>.<n>", or 0 when `entry` is not such a name.
long temp_owner(const std::string& entry, const std::string& stem) {
    const std::string head = stem + ".tmp.";
    if (entry.size() <= head.size() || entry.compare(0, head.size(), head) != 0) return 0;
    const char* p = entry.c_str() + head.size();
    char* end = nullptr;
    const long pid = std::strtol(p, &end, 10);
    if (end == p || *end != '.' || pid <= 0) return 0;
    const char* n = end + 1;
    if (*n == '\0') return 0;
    for (; *n != '\0'; ++n)
        if (*n < '0' || *n > '9') return 0;
    return pid;
}

// Removes "<stem>.tmp.<pid>.<n>" files in `dir` whose process is gone (a NormLab killed mid-write).
void remove_stale_temp_files(const std::string& dir, const std::string& stem) {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return;
    const long self = static_cast<long>(::getpid());
    while (const dirent* e = ::readdir(d)) {
        const std::string entry = e->d_name;
        const long pid = temp_owner(entry, stem);
        if (pid != 0 && pid != self && !process_alive(pid)) ::unlinkat(::dirfd(d), entry.c_str(), 0);
    }
    ::closedir(d);
}

// Moves the finished temporary file to `target`: rename (replaces), or, when refusing to
// replace, rename without replacing (link + unlink where the file system lacks it). errno on failure.
int move_into_place(const std::string& tmp, const std::string& target, IfExists if_exists) {
    if (if_exists == IfExists::Replace) return ::rename(tmp.c_str(), target.c_str()) == 0 ? 0 : errno;
#ifdef __EMSCRIPTEN__
    // The web build's file system (emscripten's, in the page's memory) has neither renameat2 nor
    // link, and no other process shares it: a check, then the rename.
    struct stat st {};
    if (::lstat(target.c_str(), &st) == 0) return EEXIST;
    return ::rename(tmp.c_str(), target.c_str()) == 0 ? 0 : errno;
#else
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return errno;
    if (::link(tmp.c_str(), target.c_str()) != 0) return errno;
    ::unlink(tmp.c_str());
    return 0;
#endif
}

}  // namespace

// [SECTION] write_file_atomically -----------------------------------------------------------

void write_file_atomically(const std::string& path, std::string_view bytes, IfExists if_exists) {
    if (path.empty()) fail("write", path, "empty path", 0);
    if (path.back() == '/') fail("write", path, "path names a directory", EISDIR);
    const Target target = inspect_target(path);
    if (!target.refusal.empty()) fail("write", path, target.refusal, 0);
    const auto exists = [&] { throw FileExistsError("cannot write " + quoted(path) + ": a file of that name exists (not replaced)"); };
    if (target.exists && if_exists == IfExists::Refuse) exists();

    // Keep an existing file's permission bits; new files get 0666 & ~umask.
    const mode_t mode = target.exists ? target.mode : 0666;
    const std::string dir = parent_dir(target.path);
    const std::string stem = temp_stem(base_name(target.path));
    remove_stale_temp_files(dir, stem);

    // A fresh temporary file next to the target (same file system, so rename is atomic).
    const std::string tmp_prefix = target.path.substr(0, target.path.size() - base_name(target.path).size()) + stem;
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = tmp_prefix + ".tmp." + std::to_string(static_cast<long>(::getpid())) + "." +
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
    if (target.exists && ::fchmod(fd, mode) != 0) abort_with("cannot set permissions of " + quoted(tmp), errno, true);

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
    if (const int err = move_into_place(tmp, target.path, if_exists); err != 0) {
        if (err == EEXIST) {
            ::unlink(tmp.c_str());
            exists();
        }
        abort_with("cannot rename " + quoted(tmp) + " over it", err, false);
    }

    // Make the rename durable; the new file is already complete and in place, so a failure
    // here (some file systems refuse to fsync directories) is not an error of the write.
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
}

// [SECTION] move_file -----------------------------------------------------------------------

void move_file(const std::string& from, const std::string& to, IfExists if_exists) {
    const Target target = inspect_target(to);
    if (!target.refusal.empty()) fail("write", to, target.refusal, 0);
    if (target.exists && if_exists == IfExists::Refuse) throw FileExistsError("cannot write " + quoted(to) + ": a file of that name exists (not replaced)");
    if (const int err = move_into_place(from, target.path, if_exists); err != 0) {
        if (err == EEXIST) throw FileExistsError("cannot write " + quoted(to) + ": a file of that name exists (not replaced)");
        fail("write", to, "cannot rename " + quoted(from) + " over it", err);
    }
}

// [SECTION] read_file -----------------------------------------------------------------------

std::string read_file(const std::string& path, std::size_t max_bytes) {
    if (path.empty()) fail("read", path, "empty path", 0);
    // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) fail("read", path, "cannot open", errno);
    const auto refuse = [&](const std::string& why, int err) {
        ::close(fd);
        fail("read", path, why, err);
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0) refuse("cannot stat", errno);
    if (S_ISDIR(st.st_mode)) refuse("it is a directory, not a file", 0);
    if (!S_ISREG(st.st_mode)) refuse("it is " + kind_of(st.st_mode) + ", not a regular file", 0);
    const auto too_big = [&](std::size_t size, bool at_least) {
        refuse(std::string("it is ") + (at_least ? "more than " : "") + describe_size(size) +
                   ", more than the limit of " + describe_size(max_bytes), 0);
    };
    if (st.st_size > 0 && static_cast<std::size_t>(st.st_size) > max_bytes) too_big(static_cast<std::size_t>(st.st_size), false);
    std::string out;
    if (st.st_size > 0) out.reserve(static_cast<std::size_t>(st.st_size));
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            refuse("read failed", errno);
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > max_bytes) too_big(max_bytes, true);   // it grew, or reports no size (/proc)
    }
    ::close(fd);
    return out;
}

// [SECTION] FileLock ------------------------------------------------------------------------

bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);   // closing the last descriptor releases the flock
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

std::string lock_file_refusal(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return "";
    if (S_ISLNK(st.st_mode)) return "it is a symbolic link, not a regular file";
    if (!S_ISREG(st.st_mode)) return "it is " + kind_of(st.st_mode) + ", not a regular file";
    return "";
}

FileLock FileLock::try_lock(const std::string& path, long& owner_pid, std::string& error) {
    owner_pid = 0;
    error.clear();
    FileLock lock;
    // O_NOFOLLOW: a link is refused (ELOOP), never the file it names locked or written;
    // O_NONBLOCK: a FIFO does not wait for a writer before fstat refuses it.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) {
        const int err = errno;
        const std::string refusal = lock_file_refusal(path);
        error = "the lock file " + quoted(path) + " " +
                (!refusal.empty() ? refusal.substr(3) : std::string("cannot be opened: ") + std::strerror(err));
        return lock;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error = "the lock file " + quoted(path) + " " + ("is " + kind_of(st.st_mode) + ", not a regular file");
        ::close(fd);
        return lock;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        char buf[32] = {};
        const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
        if (n > 0) owner_pid = std::strtol(buf, nullptr, 10);
        if (err != EWOULDBLOCK) error = "cannot lock " + quoted(path) + ": " + std::strerror(err);
        ::close(fd);
        return lock;
    }
    // Ours now (a dead owner's lock went with its process): say who holds it.
    const std::string pid = std::to_string(static_cast<long>(::getpid())) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        // The lock holds regardless; only the pid shown to a second NormLab is missing.
    }
    lock.fd_ = fd;
    return lock;
}

}  // namespace normlab
