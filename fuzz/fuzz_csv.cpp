// NormLab fuzzing: the training lab's CSV parser (normlab/models/datasets.hpp, parse_csv).
//
// Input: any bytes, taken as the file's text (up to -max_len, 4096 in scripts/fuzz.sh).
// Expected: parse_csv returns Samples or throws InputError. On success the Samples are
// consistent: X is N×d with N, d ≥ 1 and finite entries; y has N labels in [0, K); K ∈ [2, 100]
// with K class names (distinct integers in increasing order) and every class used; d feature names.
#include "fuzz_target.hpp"

#include "normlab/models/datasets.hpp"
#include "normlab/base/input_error.hpp"   // InputError

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using normlab::fuzz::expect;
    normlab::Samples s;
    try {
        s = normlab::parse_csv(normlab::fuzz::as_text(data, size), "fuzz.csv");
    } catch (const normlab::InputError&) {
        return 0;   // a bad file, reported with its line and column
    }
    const Eigen::Index n = s.X.rows(), d = s.X.cols();
    expect(n >= 1 && d >= 1, "X is " + std::to_string(n) + "×" + std::to_string(d));
    expect(s.X.allFinite(), "X has a non-finite entry");
    expect(s.y.size() == n, "y has " + std::to_string(s.y.size()) + " labels for " + std::to_string(n) + " rows");
    expect(s.classes >= 2 && s.classes <= 100, "classes = " + std::to_string(s.classes));
    expect(s.class_names.size() == static_cast<std::size_t>(s.classes), "class_names does not have K entries");
    expect(s.feature_names.size() == static_cast<std::size_t>(d), "feature_names does not have d entries");
    for (std::size_t k = 1; k < s.class_names.size(); ++k)
        expect(std::stoll(s.class_names[k - 1]) < std::stoll(s.class_names[k]), "class names are not increasing");
    std::vector<bool> used(static_cast<std::size_t>(s.classes), false);
    for (Eigen::Index i = 0; i < n; ++i) {
        expect(s.y(i) >= 0 && s.y(i) < s.classes, "y[" + std::to_string(i) + "] is not in [0, K)");
        used[static_cast<std::size_t>(s.y(i))] = true;
    }
    for (bool u : used) expect(u, "a class has no row");
    return 0;
}
