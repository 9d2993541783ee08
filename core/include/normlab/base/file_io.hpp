// NormLab core: whole-file reads and atomic whole-file writes (figures, sessions, exports).
//
// write_file_atomically never leaves a partial file at `path`: the bytes go to a new temporary
// file in the same directory (path + ".tmp.<pid>.<n>"), which is flushed, fsync'ed and then
// renamed over `path` (atomic on POSIX file systems); the directory is fsync'ed afterwards so
// that the rename survives a crash. Readers see the old file or the new one, never a mix.
// On any failure the temporary file is removed, `path` is left as it was, and
// std::runtime_error is thrown with a one-line message that names the path, the step that
// failed and the system's reason, e.g.
//   cannot write "/no/such/dir/fig.svg": cannot create temporary file "/no/such/dir/fig.svg.tmp.123.0": No such file or directory
//   cannot write "fig.svg": write to "fig.svg.tmp.123.0" failed: No space left on device
//   cannot write "figs": cannot rename "figs.tmp.123.0" over it: Is a directory
// POSIX only (open/write/fsync/rename).
#pragma once

#include <string>
#include <string_view>

namespace normlab {

// Replaces (or creates) the file at `path` with exactly `bytes`. New files get mode 0666 minus
// the umask; an existing file's permission bits are kept. Throws std::runtime_error.
void write_file_atomically(const std::string& path, std::string_view bytes);

// The whole content of the file at `path`. Throws std::runtime_error naming the path and the
// reason (missing, a directory, unreadable, ...).
std::string read_file(const std::string& path);

}  // namespace normlab
