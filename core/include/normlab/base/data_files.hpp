// NormLab core: where a scene may make NormLab read, checked on the file actually opened, at
// every read (docs/ARCHITECTURE.md, File safety).
//
// A scene names data files (a training CSV, a Depth text). Those inside the scene's folder or
// assets/ are read without asking; one outside is read only once the user agreed to read it.
// A check of the path at the time the scene opened is not enough: the file can be swapped for a
// link to somewhere else afterwards, or between the check and the open. So every read opens the
// path first without reading (O_PATH: no device driver runs, no FIFO waits), checks the type and
// where the opened file really is (its descriptor's path), and then reads that same file.
//
// [SECTION] Scope  — the folders, the files the user agreed to
// [SECTION] Opening
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace normlab {

// [SECTION] Scope ---------------------------------------------------------------------------

// Process-wide: the app sets it when a scene opens, normlab-cli export from the scene's folder.
// Without a scope (std::nullopt, the start) every path is read: a path typed by the user on a
// command line or in a lab's field is the user's own choice.
void set_read_scope(std::optional<std::vector<std::string>> folders);

// Where `path` leads now: every link resolved, absolute (as far as it exists).
std::string read_target(const std::string& path);

// The user agreed to read `path` as it is now: the file it leads to and that file's identity
// (device and inode). A later read of `path` that leads to another file, or to a new file at
// that place, is refused again (OutsideReadError) until the user agrees again.
void agree_to_read(const std::string& path);

// Refused: `path` leads to `target`, outside the scope and not agreed to. Nothing was read.
//   cannot read "a/race.csv": it leads to "/home/u/b/secret.csv", outside the scene's folder
//   (not read without asking)
class OutsideReadError : public std::runtime_error {
public:
    OutsideReadError(std::string path, std::string target);
    const std::string& path() const { return path_; }
    const std::string& target() const { return target_; }

private:
    std::string path_, target_;
};

// The outside reads refused since the last call (path as given, target), oldest first: the app
// asks the user about them.
std::vector<OutsideReadError> take_refused_reads();

// [SECTION] Opening -------------------------------------------------------------------------

// A descriptor open for reading (O_RDONLY, O_NONBLOCK, close-on-exec) on the regular file at
// `path`, inside the scope or agreed to. Its type is checked before it is opened: a directory,
// FIFO, device or socket is never opened for reading. Throws OutsideReadError, or
// std::runtime_error: `cannot read "P": it is a FIFO, not a regular file`, `…: cannot open: …`.
// The caller closes it.
int open_data_file(const std::string& path);

// Tests only: called between the check of the opened file and the open for reading (to swap the
// file there); nullptr: none.
void set_read_check_hook(void (*hook)());

}  // namespace normlab
