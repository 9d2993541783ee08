// NormLab fuzzing: what the three targets (fuzz_eval.cpp, fuzz_scene.cpp, fuzz_csv.cpp) share.
//
// Each target defines LLVMFuzzerTestOneInput, feeds the bytes to one core parser and catches
// only the error type that parser documents (normlab::InputError). Anything else escapes:
// a crash, a sanitizer report, another exception type, or a Finding thrown by expect() when a
// successful parse breaks an invariant. Under libFuzzer an escaping exception terminates the
// process (a crash, with the input saved); under the replay driver (replay_main.cpp) it is
// caught, reported with the input's file name, and fails the ctest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace normlab::fuzz {

// An invariant that a successful parse broke, e.g. "y[0][1] is not finite".
struct Finding : std::logic_error {
    using std::logic_error::logic_error;
};

inline void expect(bool ok, const std::string& what) {
    if (!ok) throw Finding(what);
}

// The fuzzer's bytes as text (not NUL-terminated; may hold any byte).
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace normlab::fuzz
