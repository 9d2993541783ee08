// NormLab core: whole-file reads and atomic whole-file writes (figures, sessions, exports), and
// the lock that tells two NormLabs sharing one autosave apart. docs/ARCHITECTURE.md, File safety.
//
// [SECTION] Writing — atomic, never over a special file, replacing only when the caller says so
// [SECTION] Reading — regular files only, within a size limit, never blocking on a FIFO
// [SECTION] Locks   — a lock file with its owner's pid
//
// write_file_atomically never leaves a partial file at `path`: the bytes go to a new temporary
// file in the same directory (path + ".tmp.<pid>.<n>"; a name too long for that is shortened),
// which is flushed, fsync'ed and then renamed over `path` (atomic on POSIX file systems); the
// directory is fsync'ed afterwards so that the rename survives a crash. Readers see the old file
// or the new one, never a mix. On any failure the temporary file is removed, `path` is left as
// it was, and std::runtime_error is thrown with a one-line message that names the path, the step
// that failed and the system's reason, e.g.
//   cannot write "/no/such/dir/fig.svg": cannot create temporary file "/no/such/dir/fig.svg.tmp.123.0": No such file or directory
//   cannot write "fig.svg": write to "fig.svg.tmp.123.0" failed: No space left on device
//   cannot write "/dev/null": it is a device, not a regular file
// Temporary files that a killed NormLab left next to the target (their pid is dead) are removed.
// POSIX only (open/write/fsync/rename).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace normlab {

// [SECTION] Writing -------------------------------------------------------------------------

// What a write does when a file of that name exists: the caller decides, and says so to the
// user (a dialog's "Replace" button, --replace on a command line, the autosave's own file).
enum class IfExists { Replace, Refuse };

// Thrown by write_file_atomically(…, IfExists::Refuse) when the target exists; nothing written:
//   cannot write "fig.svg": a file of that name exists (not replaced)
struct FileExistsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Replaces (or creates) the file at `path` with exactly `bytes`. New files get mode 0666 minus
// the umask; an existing file's permission bits are kept. A symbolic link to a regular file is
// written through (the file it names is replaced, the link stays); a target that is a folder, a
// FIFO, a device, a socket or a link to none of these is refused. Throws std::runtime_error
// (FileExistsError when `if_exists` is Refuse and the target exists: the check and the final
// link are one atomic step, so a file created meanwhile is not replaced either).
void write_file_atomically(const std::string& path, std::string_view bytes, IfExists if_exists);

// Moves the file `from` to `to` in one rename (both on one file system), with the rules of
// write_file_atomically: a special target or a link to one refused, a link to a regular file
// written through, an existing file replaced only with IfExists::Replace (FileExistsError).
void move_file(const std::string& from, const std::string& to, IfExists if_exists);

// "" when `path` may be written (nothing there, or a regular file, or a link to one); otherwise
// why not, as write_file_atomically would say it ("it is a FIFO, not a regular file").
std::string unwritable_reason(const std::string& path);

// Whether something (a file, a link, anything) exists at `path`.
bool path_exists(const std::string& path);

// `path` when nothing exists there, else the first free of "stem-2.ext", "stem-3.ext", …
// (checked now; pass the result with IfExists::Refuse so that a race cannot replace a file).
std::string unused_file_name(const std::string& path);

// [SECTION] Reading -------------------------------------------------------------------------

// Limits of the files NormLab reads, named in the messages that refuse a bigger one.
inline constexpr std::size_t kMaxSceneBytes = 16u << 20;   // scenes, lectures, the autosave
inline constexpr std::size_t kMaxDataBytes = 16u << 20;    // CSVs (decompressed) and text corpora

// The whole content of the regular file at `path`, at most `max_bytes` long. Throws
// std::runtime_error naming the path and the reason:
//   cannot read "x.json": cannot open: No such file or directory
//   cannot read "d": it is a folder, not a file
//   cannot read "/dev/zero": it is a device, not a regular file
//   cannot read "big.json": it is 200.0 MB, more than the limit of 16 MB
// A FIFO is refused without waiting for a writer.
std::string read_file(const std::string& path, std::size_t max_bytes = kMaxDataBytes);

// "12.3 MB", "512 bytes": sizes in messages (MB = 2^20 bytes).
std::string describe_size(std::size_t bytes);
// "1.2 TB", "512 MB", "3.2 GB": an estimate of memory in messages (GB = 2^30 bytes).
std::string describe_memory(double bytes);

// [SECTION] Locks ---------------------------------------------------------------------------

// An exclusive lock on `path` (created if missing) that holds the owner's pid as text. The
// kernel drops it when the process ends, however it ends, so the lock of a dead NormLab is taken
// over without asking. Movable, released by the destructor.
class FileLock {
public:
    FileLock() = default;
    ~FileLock();
    FileLock(FileLock&& other) noexcept;
    FileLock& operator=(FileLock&& other) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    // Takes the lock; on failure `owner_pid` is the holder's pid (0 when unknown) and `error`
    // says why when the lock file itself could not be made or is refused (then owner_pid is 0).
    // A lock file that is a symbolic link (dangling or not) or not a regular file is never
    // followed nor used: `error` says so (the lock file "X" is a symbolic link, not a regular file);
    // lock_file_refusal tells that case from a folder where no lock file can be made.
    static FileLock try_lock(const std::string& path, long& owner_pid, std::string& error);

    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

// "" when `path` may serve as a lock file (nothing there, or a regular file); otherwise why
// not: "it is a symbolic link, not a regular file", "it is a directory, not a regular file".
std::string lock_file_refusal(const std::string& path);

// Whether a process with this pid exists (kill(pid, 0) does not fail with ESRCH).
bool process_alive(long pid);

}  // namespace normlab
