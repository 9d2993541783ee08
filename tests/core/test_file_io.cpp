// core's file_io: targets that are not regular files, links written through, no silent
// replacing, long names, stale temporary files, bounded reads, FIFOs, lock files.
#include "temp_dir.hpp"

#include <normlab/base/file_io.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace normlab {
namespace {

namespace fs = std::filesystem;

std::string message_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

// A pid that certainly belonged to a process that has ended: a child that exited at once.
long dead_pid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

TEST(FileIo, AFifoTargetIsRefusedAndStaysAFifo) {
    const TempDir dir;
    const std::string fifo = dir.file("out.csv");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(message_of([&] { write_file_atomically(fifo, "x", IfExists::Replace); }),
              "cannot write \"" + fifo + "\": it is a FIFO, not a regular file");
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_EQ(unwritable_reason(fifo), "it is a FIFO, not a regular file");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.csv"}) << "no temporary file";
}

TEST(FileIo, ASocketADirectoryAndALinkToAFifoAreRefused) {
    const TempDir dir;
    const std::string sock = dir.file("s.svg");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    ASSERT_LT(sock.size(), sizeof addr.sun_path);
    sock.copy(addr.sun_path, sock.size());
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(message_of([&] { write_file_atomically(sock, "x", IfExists::Replace); }),
              "cannot write \"" + sock + "\": it is a socket, not a regular file");
    ::close(fd);

    const std::string folder = dir.file("figs");
    fs::create_directory(folder);
    EXPECT_EQ(message_of([&] { write_file_atomically(folder, "x", IfExists::Replace); }),
              "cannot write \"" + folder + "\": it is a directory, not a regular file");

    const std::string fifo = dir.file("p"), link = dir.file("l.csv");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    fs::create_symlink(fifo, link);
    EXPECT_EQ(message_of([&] { write_file_atomically(link, "x", IfExists::Replace); }),
              "cannot write \"" + link + "\": it is a symbolic link to a FIFO, not to a regular file");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::is_fifo(fifo));

    const std::string dangling = dir.file("d.svg");
    fs::create_symlink(dir.file("nowhere"), dangling);
    EXPECT_EQ(message_of([&] { write_file_atomically(dangling, "x", IfExists::Replace); }),
              "cannot write \"" + dangling + "\": it is a symbolic link to nothing that exists");
}

TEST(FileIo, ALinkToARegularFileIsWrittenThroughAndStaysALink) {
    const TempDir dir;
    fs::create_directory(dir.path / "real");
    const std::string real = dir.file("real/fig.svg"), link = dir.file("fig.svg");
    write_file_atomically(real, "old", IfExists::Refuse);
    ::chmod(real.c_str(), 0640);
    fs::create_symlink("real/fig.svg", link);
    write_file_atomically(link, "new", IfExists::Replace);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read_file(real), "new");
    EXPECT_EQ(fs::status(real).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fig.svg", "real"}));
}

TEST(FileIo, RefuseKeepsAnExistingFileAndSaysSo) {
    const TempDir dir;
    const std::string path = dir.file("foo.json");
    write_file_atomically(path, "mine", IfExists::Refuse);
    EXPECT_THROW(write_file_atomically(path, "theirs", IfExists::Refuse), FileExistsError);
    EXPECT_EQ(message_of([&] { write_file_atomically(path, "theirs", IfExists::Refuse); }),
              "cannot write \"" + path + "\": a file of that name exists (not replaced)");
    EXPECT_EQ(read_file(path), "mine");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"foo.json"}) << "no temporary file";
    write_file_atomically(path, "theirs", IfExists::Replace);
    EXPECT_EQ(read_file(path), "theirs");
}

TEST(FileIo, UnusedFileNameCountsUpFromTwo) {
    const TempDir dir;
    EXPECT_EQ(unused_file_name(dir.file("fig.svg")), dir.file("fig.svg"));
    write_file_atomically(dir.file("fig.svg"), "1", IfExists::Refuse);
    EXPECT_EQ(unused_file_name(dir.file("fig.svg")), dir.file("fig-2.svg"));
    write_file_atomically(dir.file("fig-2.svg"), "2", IfExists::Refuse);
    EXPECT_EQ(unused_file_name(dir.file("fig.svg")), dir.file("fig-3.svg"));
    write_file_atomically(dir.file("README"), "r", IfExists::Refuse);
    EXPECT_EQ(unused_file_name(dir.file("README")), dir.file("README-2"));
}

TEST(FileIo, ALegal250ByteNameCanBeWritten) {
    const TempDir dir;
    std::string name(240, 'a');
    name += "é.json";   // 248 bytes with a two-byte character near where the temp name is cut
    const std::string path = dir.file(name);
    write_file_atomically(path, "long", IfExists::Refuse);
    EXPECT_EQ(read_file(path), "long");
    write_file_atomically(path, "longer", IfExists::Replace);
    EXPECT_EQ(read_file(path), "longer");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{name});
}

TEST(FileIo, StaleTemporaryFilesOfDeadProcessesAreRemoved) {
    const TempDir dir;
    const std::string path = dir.file("out.svg");
    const std::string stale = "out.svg.tmp." + std::to_string(dead_pid()) + ".0";
    const std::string live = "out.svg.tmp." + std::to_string(static_cast<long>(::getppid())) + ".3";
    const std::string other = "other.svg.tmp." + std::to_string(dead_pid()) + ".0";
    for (const std::string& name : {stale, live, other}) write_file_atomically(dir.file(name), "x", IfExists::Refuse);
    write_file_atomically(path, "figure", IfExists::Replace);
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{other, "out.svg", live}))
        << "a dead writer's temporary file of this target goes; a live one's and other targets' stay";
}

TEST(FileIo, ReadRefusesAFifoWithoutWaitingAndDevicesAndBigFiles) {
    const TempDir dir;
    const std::string fifo = dir.file("data.csv");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(message_of([&] { read_file(fifo); }), "cannot read \"" + fifo + "\": it is a FIFO, not a regular file");
    EXPECT_EQ(message_of([&] { read_file("/dev/zero"); }),
              "cannot read \"/dev/zero\": it is a device, not a regular file");
    const std::string big = dir.file("big.json");
    write_file_atomically(big, std::string(3 << 20, ' '), IfExists::Refuse);
    EXPECT_EQ(message_of([&] { read_file(big, 1 << 20); }),
              "cannot read \"" + big + "\": it is 3 MB, more than the limit of 1 MB");
    EXPECT_EQ(read_file(big, 3 << 20).size(), 3u << 20);
}

TEST(FileIo, DescribeSize) {
    EXPECT_EQ(describe_size(512), "512 bytes");
    EXPECT_EQ(describe_size(16u << 20), "16 MB");
    EXPECT_EQ(describe_size(200 * 1048576 + 104858), "200.1 MB");
    EXPECT_EQ(describe_size(1536), "1.5 KB");
}

TEST(FileIo, ASecondLockIsRefusedAndNamesTheOwner) {
    const TempDir dir;
    const std::string path = dir.file("autosave.json.lock");
    long owner = -1;
    std::string error;
    FileLock first = FileLock::try_lock(path, owner, error);
    ASSERT_TRUE(first.held()) << error;
    FileLock second = FileLock::try_lock(path, owner, error);
    EXPECT_FALSE(second.held());
    EXPECT_EQ(owner, static_cast<long>(::getpid()));
    EXPECT_EQ(error, "");
    first = FileLock();   // released
    FileLock third = FileLock::try_lock(path, owner, error);
    EXPECT_TRUE(third.held());
}

TEST(FileIo, TheLockOfADeadProcessIsTakenOver) {
    const TempDir dir;
    const std::string path = dir.file("autosave.json.lock");
    const pid_t child = ::fork();
    if (child == 0) {
        long owner = 0;
        std::string error;
        FileLock lock = FileLock::try_lock(path, owner, error);
        ::_exit(lock.held() ? 0 : 1);   // ends holding it: as kill -9 would
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(read_file(path), std::to_string(child) + "\n") << "the lock file names its owner";
    EXPECT_FALSE(process_alive(child));
    long owner = -1;
    std::string error;
    const FileLock lock = FileLock::try_lock(path, owner, error);
    EXPECT_TRUE(lock.held());
    EXPECT_EQ(read_file(path), std::to_string(::getpid()) + "\n");
}

// A lock file that is a symbolic link (or not a regular file) is never followed nor used: the
// lock is refused with a reason that says so, and the link and what it names stay as they were.
TEST(FileIo, ALockFileThatIsALinkIsRefusedAndSaysSo) {
    const TempDir dir;
    const std::string victim = dir.file("victim.txt");
    write_file_atomically(victim, "keep me\n", IfExists::Refuse);
    const std::string path = dir.file("autosave.json.lock");
    ASSERT_EQ(::symlink(victim.c_str(), path.c_str()), 0);
    long owner = -1;
    std::string error;
    const FileLock lock = FileLock::try_lock(path, owner, error);
    EXPECT_FALSE(lock.held());
    EXPECT_EQ(owner, 0);
    EXPECT_EQ(error, "the lock file \"" + path + "\" is a symbolic link, not a regular file");
    EXPECT_EQ(lock_file_refusal(path), "it is a symbolic link, not a regular file");
    EXPECT_EQ(read_file(victim), "keep me\n");
    struct stat st {};
    ASSERT_EQ(::lstat(path.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));

    const std::string dangling = dir.file("other.json.lock");
    ASSERT_EQ(::symlink(dir.file("nothing").c_str(), dangling.c_str()), 0);
    EXPECT_FALSE(FileLock::try_lock(dangling, owner, error).held());
    EXPECT_EQ(lock_file_refusal(dangling), "it is a symbolic link, not a regular file");
    EXPECT_FALSE(path_exists(dir.file("nothing")));

    const std::string folder = dir.file("folder.lock");
    fs::create_directory(folder);
    EXPECT_FALSE(FileLock::try_lock(folder, owner, error).held());
    EXPECT_EQ(lock_file_refusal(folder), "it is a directory, not a regular file");
    EXPECT_EQ(lock_file_refusal(dir.file("fresh.lock")), "") << "a missing lock file is made";
    EXPECT_EQ(lock_file_refusal(victim), "");
}

}  // namespace
}  // namespace normlab
