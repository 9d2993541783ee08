// NormLab fuzzing: the replay driver. Linked with one target's .cpp (without libFuzzer), it
// feeds every file of the given directories to LLVMFuzzerTestOneInput, one call per file, as
// libFuzzer would replay a corpus. ctest runs it over fuzz/corpus/<target>/ (the seed corpus)
// and fuzz/regressions/<target>/ (inputs that once found a bug).
//
//   normlab_replay_<target> DIR...
//
// Prints one line per input ("FILE: ok"); an input whose call throws is reported with the
// exception's type and message, and the driver exits 1 after the remaining inputs. A crash
// ends the process with the file's name as the last line printed. Exits 2 on a missing
// directory or when the directories hold no input at all (a replay of nothing proves nothing).
// Names starting with '.' (.gitkeep) are skipped.
#include "fuzz_target.hpp"

#include <algorithm>
#include <cstdio>
#include <cxxabi.h>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

namespace fs = std::filesystem;

// "std::invalid_argument" rather than "St16invalid_argument".
std::string type_name(const std::type_info& type) {
    int status = 0;
    const std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                                      std::free);
    return status == 0 && name ? name.get() : type.name();
}

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs one input; returns false (after saying why) when it throws.
bool replay(const fs::path& path) {
    std::cout << path.string() << ": " << std::flush;
    const std::vector<std::uint8_t> bytes = read_bytes(path);
    try {
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    } catch (const std::exception& e) {
        std::cout << "FAILED: uncaught " << type_name(typeid(e)) << ": " << e.what() << "\n";
        return false;
    } catch (...) {
        std::cout << "FAILED: uncaught exception of an unknown type\n";
        return false;
    }
    std::cout << "ok\n";
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " DIR...\n";
        return 2;
    }
    std::size_t inputs = 0, failures = 0;
    for (int i = 1; i < argc; ++i) {
        const fs::path dir(argv[i]);
        if (!fs::is_directory(dir)) {
            std::cerr << dir.string() << " is not a directory\n";
            return 2;
        }
        std::vector<fs::path> files;   // sorted, so that runs print in the same order
        for (const fs::directory_entry& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file() && entry.path().filename().string().front() != '.')
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            ++inputs;
            if (!replay(file)) ++failures;
        }
    }
    if (inputs == 0) {
        std::cerr << "no inputs to replay\n";
        return 2;
    }
    std::cout << inputs << " inputs, " << failures << " failed\n";
    return failures == 0 ? 0 : 1;
}
