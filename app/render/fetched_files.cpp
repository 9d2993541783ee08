// Files fetched when first needed: see fetched_files.hpp.
#include "fetched_files.hpp"

#include <filesystem>
#include <mutex>
#include <set>

namespace normlab::ui {

namespace {
struct Fetched {
    std::mutex mutex;
    FileFetcher fetch = nullptr;
    std::set<std::string> asked;   // each path once: a failed download is not retried every frame
};
Fetched g_fetched;
}  // namespace

void set_file_fetcher(FileFetcher fetch) {
    std::lock_guard<std::mutex> lock(g_fetched.mutex);
    g_fetched.fetch = fetch;
}

bool fetch_if_missing(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) return true;
    std::lock_guard<std::mutex> lock(g_fetched.mutex);
    if (g_fetched.fetch == nullptr || !g_fetched.asked.insert(path).second) return false;
    return g_fetched.fetch(path);
}

}  // namespace normlab::ui
