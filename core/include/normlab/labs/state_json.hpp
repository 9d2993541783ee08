// NormLab core: what a lab's state needs to live in a scene file (scene.hpp) — a reader of one
// JSON object that names every value by its path, and writers for vectors and matrices.
//
// [SECTION] Writing  — Vec and Mat as JSON lists (full double precision: they read back exactly)
// [SECTION] Reading  — SceneReader: one JSON object, key by key, each error naming PATH.key
//
// Every lab state has a pair next to its struct (explorer_lab.hpp, invariance_lab.hpp, …):
//     nlohmann::json state_to_json(const XxxState& state);     // every field, by name
//     void state_from_json(SceneReader& in, XxxState& state);  // the keys present, checked
// state_from_json reads only the keys the object has, so a field a file lacks (an older file, a
// hand-written one) keeps the value `state` came with: the default. It checks ranges and shapes
// and throws InputError naming the value, e.g. `labs.explorer.x[2] is not a number (got string
// "a")`, `labs.explorer.delta = 5000 is out of range [0.001, 1000]`. Keys it did not read are
// reported by the caller as ignored (SceneReader::unread_keys), not as errors, so that a file
// from a newer NormLab of the same format version still opens.
#pragma once

#include "normlab/base/input_error.hpp"
#include "normlab/norm/norm.hpp"
#include "normlab/base/number_rule.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Writing -------------------------------------------------------------------------

nlohmann::json vec_to_json(const Vec& v);   // [v0, v1, …]
nlohmann::json mat_to_json(const Mat& m);   // [[row 0], [row 1], …]

// The names of the flags that are set, in order: {"layernorm", "rmsnorm"}.
template <std::size_t N>
nlohmann::json flags_to_json(const std::array<bool, N>& flags, const std::array<std::string_view, N>& names) {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < N; ++i)
        if (flags[i]) out.push_back(std::string(names[i]));
    return out;
}

// [SECTION] Reading -------------------------------------------------------------------------

class SceneReader {
public:
    // `object` must be a JSON object; otherwise InputError "PATH is not an object (got a list)".
    SceneReader(const nlohmann::json& object, std::string path);
    SceneReader(const nlohmann::json&& object, std::string path) = delete;   // it keeps a reference

    const std::string& path() const { return path_; }
    std::string path_of(std::string_view key) const;   // "labs.explorer" + "x" → "labs.explorer.x"
    bool has(std::string_view key) const;
    // The member, marked as read; null when absent.
    const nlohmann::json* get(std::string_view key);

    // Each read sets `out` when the key is present (and returns true), leaves it otherwise.
    bool read(std::string_view key, double& out);                          // a finite number
    bool read(std::string_view key, double& out, const NumberRule& rule);  // … that `rule` accepts
    bool read(std::string_view key, bool& out);
    bool read(std::string_view key, int& out, int lo, int hi);            // a whole number in [lo, hi]
    bool read(std::string_view key, std::uint64_t& out);                  // a whole number ≥ 0 (seeds)
    bool read(std::string_view key, std::string& out);
    bool read(std::string_view key, Vec& out, bool allow_empty = false);  // a list of finite numbers
    bool read(std::string_view key, Mat& out);                            // R lists of C numbers
    bool read(std::string_view key, EpsMode& out);                        // "inside_sqrt" | "add_to_rms"

    // One name of `names` → out = values[i]; otherwise `PATH.key is "foo", expected one of: a, b`.
    template <class T, std::size_t N>
    bool read_choice(std::string_view key, T& out, const std::array<std::string_view, N>& names,
                     const std::array<T, N>& values) {
        const nlohmann::json* v = get(key);
        if (v == nullptr) return false;
        out = values[choice_index(*v, path_of(key), names.data(), N)];
        return true;
    }

    // A list of names, each one of `names`, no repeats → flags[i] = whether names[i] is listed.
    template <std::size_t N>
    bool read_flags(std::string_view key, std::array<bool, N>& flags, const std::array<std::string_view, N>& names) {
        const nlohmann::json* v = get(key);
        if (v == nullptr) return false;
        const std::vector<std::size_t> picked = flag_indices(*v, path_of(key), names.data(), N);
        flags.fill(false);
        for (std::size_t i : picked) flags[i] = true;
        return true;
    }

    // Every entry of the value read from `key` must pass `rule`; otherwise InputError with
    // number_problem's message for the first that does not: "PATH.key[2] = 1e+09 is out of range …"
    // (a matrix: "PATH.key[1][3] …"; a vector is one column).
    void check_entries(std::string_view key, const Mat& values, const NumberRule& rule) const;

    // Throws InputError "PATH.key WHAT", e.g. fail("W", "has 3 columns, labs.explorer.x has 4 entries").
    [[noreturn]] void fail(std::string_view key, const std::string& what) const;

    // Keys of the object that no get()/read() asked for, as paths: {"labs.explorer.delat"}.
    std::vector<std::string> unread_keys() const;

private:
    static std::size_t choice_index(const nlohmann::json& v, const std::string& path, const std::string_view* names,
                                    std::size_t n);
    static std::vector<std::size_t> flag_indices(const nlohmann::json& v, const std::string& path,
                                                 const std::string_view* names, std::size_t n);

    const nlohmann::json& object_;
    std::string path_;
    std::set<std::string, std::less<>> read_;
};

}  // namespace normlab
