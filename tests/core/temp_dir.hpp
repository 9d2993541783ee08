// A fresh directory under the system's temp directory for one test, removed with its content
// afterwards (shared by the core tests that write files).
#pragma once

#include <algorithm>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace normlab {

struct TempDir {
    std::filesystem::path path;

    TempDir() {
        std::random_device rd;
        for (int i = 0; i < 100; ++i) {
            path = std::filesystem::temp_directory_path() /
                   ("normlab_test_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
            if (std::filesystem::create_directory(path)) return;
        }
        throw std::runtime_error("cannot create a temporary directory");
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // The path of `name` inside the directory.
    std::string file(const std::string& name) const { return (path / name).string(); }

    // The names of what the directory holds, sorted.
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(path)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
};

}  // namespace normlab
