// The read scope of a scene's data files (base/data_files.hpp): checked on the file actually
// opened, at every read; a swap between the check and the open changes nothing; no device or
// FIFO is opened for reading; a file the user agreed to read that changes asks again.
#include "normlab/base/data_files.hpp"
#include "normlab/models/datasets.hpp"
#include "normlab/norm/eval.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using namespace normlab;
namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// a/ (the scene's folder) with race.csv inside, b/secret.csv outside; the scope is a/.
class ReadScope : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("normlab-scope-" + std::to_string(::getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_ / "a");
        fs::create_directories(root_ / "b");
        write_text(root_ / "a" / "race.csv", "inside\n");
        write_text(root_ / "b" / "secret.csv", "secret\n");
        set_read_scope(std::vector<std::string>{(root_ / "a").string()});
    }
    void TearDown() override {
        set_read_check_hook(nullptr);
        set_read_scope(std::nullopt);
        fs::remove_all(root_);
    }
    std::string race() const { return (root_ / "a" / "race.csv").string(); }
    std::string secret() const { return (root_ / "b" / "secret.csv").string(); }
    // Makes a/race.csv a link to ../b/secret.csv (replacing the file in one rename).
    void swap_to_link() const {
        const fs::path tmp = root_ / "a" / "link.tmp";
        fs::create_symlink("../b/secret.csv", tmp);
        fs::rename(tmp, race());
    }
    fs::path root_;
};

fs::path g_swap_root;
void swap_hook() {
    const fs::path tmp = g_swap_root / "a" / "link.tmp";
    fs::create_symlink("../b/secret.csv", tmp);
    fs::rename(tmp, g_swap_root / "a" / "race.csv");
}

std::string read_all(int fd) {
    std::string out;
    char buf[256];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return out;
}

}  // namespace

TEST_F(ReadScope, AFileInsideIsRead) { EXPECT_EQ(read_all(open_data_file(race())), "inside\n"); }

TEST_F(ReadScope, ALinkToOutsideIsRefusedAndItsTargetNamed) {
    swap_to_link();
    try {
        open_data_file(race());
        FAIL() << "read a file outside the scope";
    } catch (const OutsideReadError& e) {
        EXPECT_EQ(e.target(), fs::canonical(secret()).string());
        EXPECT_EQ(std::string(e.what()), "cannot read " + race() + ": it leads to \"" + e.target() +
                                             "\", outside the scene's folder (not read without asking)");
    }
    const std::vector<OutsideReadError> refused = take_refused_reads();
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0].path(), race());
    EXPECT_TRUE(take_refused_reads().empty());
    // The data readers say the same, as an InputError.
    EXPECT_THROW(read_text_file(race()), InputError);
}

TEST_F(ReadScope, ASwapBetweenTheCheckAndTheOpenReadsTheFileThatWasChecked) {
    // Deterministic: the hook swaps the file for a link to outside after the check.
    g_swap_root = root_;
    set_read_check_hook(swap_hook);
    EXPECT_EQ(read_all(open_data_file(race())), "inside\n");
    set_read_check_hook(nullptr);
    EXPECT_TRUE(fs::is_symlink(race()));   // the swap happened
    EXPECT_THROW(open_data_file(race()), OutsideReadError);
}

TEST_F(ReadScope, AnAgreedFileIsReadUntilItChangesIntoAnotherFile) {
    swap_to_link();
    agree_to_read(race());
    EXPECT_EQ(read_all(open_data_file(race())), "secret\n");
    // The same name, a new file (another inode): asked again.
    write_text(root_ / "b" / "new.csv", "other\n");
    fs::rename(root_ / "b" / "new.csv", secret());
    EXPECT_THROW(open_data_file(race()), OutsideReadError);
    // The link pointed elsewhere: asked again too.
    agree_to_read(race());
    EXPECT_EQ(read_all(open_data_file(race())), "other\n");
    fs::remove(race());
    fs::create_symlink("/etc/hostname", race());
    EXPECT_THROW(open_data_file(race()), OutsideReadError);
}

TEST_F(ReadScope, NoScopeReadsAnyPath) {
    set_read_scope(std::nullopt);
    EXPECT_EQ(read_all(open_data_file(secret())), "secret\n");
}

TEST_F(ReadScope, DevicesAndFifosAreRefusedWithoutBeingOpened) {
    set_read_scope(std::nullopt);
    const std::string fifo = (root_ / "a" / "pipe.csv").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A FIFO opened for reading without a writer would block (or, O_NONBLOCK, be opened): the
    // type is known from O_PATH, so neither happens.
    try {
        open_data_file(fifo);
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "cannot read " + fifo + ": it is a FIFO, not a regular file");
    }
    try {
        open_data_file("/dev/zero");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "cannot read /dev/zero: it is a device or socket, not a regular file");
    }
}
