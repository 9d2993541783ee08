// Bad and extreme input everywhere a user hands NormLab text or a file: eval requests
// (normlab-cli eval), scene files and CSV data in one table, each row with the exact message, or
// for an extreme but valid input the exact result; then inputs of 10^6 numbers and 10^5 rows, and
// the files around them: missing, a directory, a parent that is a file, a full disk.
// (Each loader's own test file has more cases of its own: test_eval.cpp, test_scene.cpp,
// test_datasets.cpp; docs/RELIABILITY.md "# Bad input" maps the classes to these tests.)
//
// [SECTION] Helpers
// [SECTION] The table        — one row per input: the exact error, or the exact result
// [SECTION] Extreme values   — 1e±300, subnormals, DBL_MAX: scaled before squaring, never 0/Inf/NaN
// [SECTION] Large inputs     — a 10^6-wide eval request, a 10^5-row CSV: right numbers, bounded memory
// [SECTION] Files            — missing, a directory, a parent that is a file, read-only, disk full
#include "normlab/models/datasets.hpp"
#include "normlab/norm/eval.hpp"
#include "normlab/base/file_io.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/labs/state_json.hpp"
#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <csignal>
#include <functional>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace normlab {
namespace {

// The default session and an empty scene, named once: GCC 12 warns (falsely) of an uninitialized
// string in the destructor of their temporaries.
const Session kDefaultSession;
const Scene kEmptyScene;

using nlohmann::json;

// [SECTION] Helpers -------------------------------------------------------------------------

enum class Loader { Eval, Scene, Csv };

// What a loader makes of `text`, as JSON: eval's result; the scene as it would be saved; the
// CSV's samples as {"X": N×d, "y": [class indices], "classes": [names], "features": [names]}.
json load(Loader loader, const std::string& text) {
    switch (loader) {
        case Loader::Eval: return evaluate_request(text);
        case Loader::Scene: return scene_to_json(parse_scene(text));
        case Loader::Csv: {
            const Samples s = parse_csv(text, "data.csv");
            json y = json::array();
            for (Eigen::Index i = 0; i < s.y.size(); ++i) y.push_back(s.y(i));
            return {{"X", mat_to_json(s.X)}, {"y", y}, {"classes", s.class_names}, {"features", s.feature_names}};
        }
    }
    return nullptr;
}

// The InputError message for `text`, or "" when it loads.
std::string error_of(Loader loader, const std::string& text) {
    try {
        load(loader, text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string scene_with(const std::string& labs) {
    return R"({"format": "normlab-scene", "version": 1, "labs": )" + labs + "}";
}

// "[1, 1, …]" with n ones.
std::string ones(int n) {
    std::string out = "[1";
    for (int i = 1; i < n; ++i) out += ", 1";
    return out + "]";
}

std::string explorer_scene(const std::string& keys) { return scene_with(R"({"explorer": {)" + keys + "}}"); }

// "1e300,4e-320,1\n-1e300,-4e-320,0\n" × times: two features of extreme magnitude, the label
// following the sign, so that a stratified split keeps as many + as − cases in each part.
std::string extreme_csv(int times) {
    std::string text;
    for (int i = 0; i < times; ++i) text += "1e300,4e-320,1\n-1e300,-4e-320,0\n";
    return text;
}

// A temporary file's name holds the process id and a counter: "x.svg.tmp.4711.0" → "x.svg.tmp.PID.N".
std::string without_temp_ids(const std::string& message) {
    return std::regex_replace(message, std::regex(R"(\.tmp\.[0-9]+\.[0-9]+)"), ".tmp.PID.N");
}

// The message of whatever `f` throws (std::runtime_error, InputError included), or "".
std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

// The process's peak resident memory so far, in bytes (Linux reports ru_maxrss in KiB).
long peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss * 1024L;
}

// [SECTION] The table -----------------------------------------------------------------------
//
// Each row: which loader, the text, and either `error` (the exact one-line message) or, for an
// input that must load, `pointer` into load()'s JSON and the exact value found there.

struct Row {
    const char* name;
    Loader loader;
    std::string text;
    std::string error;         // "" for an input that loads
    const char* pointer = "";  // a JSON pointer into load()'s result, e.g. "/y/0"
    json value = nullptr;      // … and the exact value there
};

std::vector<Row> rows() {
    const Loader E = Loader::Eval, S = Loader::Scene, C = Loader::Csv;
    const std::string max = "1.7976931348623157e308";   // DBL_MAX
    return {
        // --- eval: empty, not JSON, non-finite numbers spelled out, text where numbers go
        {"eval_empty", E, "", "request is empty: expected one JSON object on stdin"},
        {"eval_nan", E, R"({"norm": "rmsnorm", "x": [1, NaN]})", "x[1] is not finite (got NaN, which is not valid JSON)"},
        {"eval_nan_lower", E, R"({"norm": "rmsnorm", "x": [[1, 2], [3, nan]]})",
         "x[1][1] is not finite (got nan, which is not valid JSON)"},
        {"eval_infinity", E, R"({"norm": "rmsnorm", "x": [1, 2], "g": [Infinity, 1]})",
         "g[0] is not finite (got Infinity, which is not valid JSON)"},
        {"eval_minus_inf", E, R"({"norm": "rmsnorm", "eps": -inf, "x": [1, 2]})",
         "eps is not finite (got -inf, which is not valid JSON)"},
        {"eval_overflow", E, R"({"norm": "rmsnorm", "x": [1, -1e309]})", "x[1] is not finite (it overflows the double range)"},
        {"eval_word", E, R"({"norm": "rmsnorm", "x": [1, layernorm]})",
         "request is not valid JSON: parse error at line 1, column 30: syntax error while parsing value - invalid literal; last read: '1, l'"},
        {"eval_text_number", E, R"({"norm": "rmsnorm", "x": [[1, 2], [3, "six"]]})",
         R"(x[1][1] is not a number (got string "six"))"},
        {"eval_deep_list", E, R"({"norm": "rmsnorm", "x": [[[1]]]})", "x[0][0] is not a number (got a list)"},
        {"eval_truncated", E, R"({"norm": "rmsnorm", "x": [1, 2)",
         "request is not valid JSON: parse error at line 1, column 31: syntax error while parsing array - unexpected end of input; expected ']'"},
        {"eval_duplicate_key", E, R"({"norm": "rmsnorm", "x": [1, 2], "norm": "layernorm"})",
         "norm is given twice (each key may appear once in an object)"},
        // --- eval: ε, p and their edges
        {"eval_eps_negative", E, R"({"norm": "rmsnorm", "eps": -1e-12, "x": [1, 2]})", "eps = -1e-12 must be ≥ 0"},
        {"eval_p_negative", E, R"({"norm": "prmsnorm", "p": -0.5, "x": [1, 2]})", "p = -0.5 is out of range (0, 1]"},
        {"eval_p_above_one", E, R"({"norm": "prmsnorm", "p": 1.0000001, "x": [1, 2]})",
         "p = 1.0000001 is out of range (0, 1]"},
        {"eval_p_one", E, R"({"norm": "prmsnorm", "p": 1, "eps": 0, "x": [3, 4]})", "", "/k", 2},
        {"eval_p_tiny", E, R"({"norm": "prmsnorm", "p": 1e-300, "eps": 0, "x": [-2, 4]})", "", "/y/0", {-1.0, 2.0}},
        {"eval_eps_zero_prms_zeros", E,
         R"({"norm": "prmsnorm", "p": 0.5, "eps": 0, "x": [0, 0, 3, 4], "dy": [1, 1, 1, 1]})",
         "grad.x[0][0] is not finite: the first k = 2 entries of case 0 are all zeros and eps = 0"},
        {"eval_eps_zero_limit", E, R"({"norm": "layernorm", "eps": 0, "x": [7, 7, 7]})", "", "/y/0", {0.0, 0.0, 0.0}},
        // --- eval: extreme magnitudes give the exact answer (RMSNorm of ±c is ±1, whatever c)
        {"eval_1e300", E, R"({"norm": "rmsnorm", "eps": 0, "x": [1e300, -1e300, 1e300, -1e300]})", "", "/y/0",
         {1.0, -1.0, 1.0, -1.0}},
        {"eval_1e300_var_null", E, R"({"norm": "rmsnorm", "eps": 0, "x": [1e300, -1e300]})", "", "/stats/0",
         {{"mean", 0.0}, {"rms", 1e300}, {"std", 1e300}, {"var", nullptr}}},
        {"eval_1e_minus_300", E, R"({"norm": "layernorm", "eps": 0, "x": [1e-300, -1e-300]})", "", "/y/0", {1.0, -1.0}},
        {"eval_subnormal", E, R"({"norm": "rmsnorm", "eps": 0, "x": [5e-324, -5e-324, 5e-324]})", "", "/y/0",
         {1.0, -1.0, 1.0}},
        {"eval_dbl_max", E, R"({"norm": "layernorm", "eps": 0, "x": [)" + max + ", -" + max + "]}", "", "/y/0",
         {1.0, -1.0}},
        {"eval_overflowing_a", E, R"({"norm": "rmsnorm", "x": [1e300], "W": [[1e10]]})",
         "a[0][0] is not finite: x Wᵀ overflows the double range"},

        // --- scenes: empty, truncated, future, wrong types deep down, duplicate keys
        {"scene_empty", S, "", "file is empty"},
        {"scene_truncated", S, R"({"format": "normlab-scene", "version": 1, "labs": {"explorer": {"x": [1, 2)",
         "file is truncated: parse error at line 1, column 75: syntax error while parsing array - unexpected end of input; expected ']'"},
        {"scene_future", S, R"({"format": "normlab-scene", "version": 2, "labs": {"explorer": {"x": "new"}}})",
         "version 2 is newer than this NormLab (1): update NormLab to open it"},
        {"scene_version_fraction", S, R"({"format": "normlab-scene", "version": 1.5})",
         "version is not a whole number (got number 1.5) (this NormLab reads versions 1 to 1)"},
        {"scene_version_negative", S, R"({"format": "normlab-scene", "version": -1})",
         "version -1 is not a valid version (this NormLab reads versions 1 to 1)"},
        {"scene_deep_type", S, explorer_scene(R"("x": [1, 2, 3, 4], "W": [[1, 0, 0, 0], [0, "one", 0, 0]])"),
         R"(labs.explorer.W[1][1] is not a number (got string "one"))"},
        {"scene_deep_name_type", S, scene_with(R"({"invariance": {"curve_norms": ["layernorm", 3]}})"),
         "labs.invariance.curve_norms[1] is not a string (got number 3)"},
        {"scene_section_type", S, scene_with(R"({"training": {"variants": "rmsnorm"}})"),
         R"(labs.training.variants is not a list of names (got string "rmsnorm"))"},
        {"scene_nan", S, explorer_scene(R"("x": [1, NaN, 3])"),
         "labs.explorer.x[1] is not finite (got NaN, which is not valid JSON)"},
        {"scene_duplicate_key", S, explorer_scene(R"("delta": 2, "delta": 3)"),
         "labs.explorer.delta is given twice (each key may appear once in an object)"},
        {"scene_delta_zero", S, explorer_scene(R"("delta": 0)"), "labs.explorer.delta = 0 is out of range [0.001, 1000]"},
        {"scene_delta_negative", S, scene_with(R"({"invariance": {"delta": -2}})"),
         "labs.invariance.delta = -2 is out of range [0.001, 1000]"},
        {"scene_eps_negative", S, scene_with(R"({"gradients": {"eps": -1e-300}})"),
         "labs.gradients.eps = -1e-300 is out of range (0, 1]"},
        {"scene_eps_zero", S, explorer_scene(R"("eps": 0)"), "labs.explorer.eps = 0 is out of range (0, 1]"},
        {"scene_p_zero", S, scene_with(R"({"training": {"p": 0}})"), "labs.training.p = 0 is out of range (0, 1]"},
        {"scene_p_above_one", S, scene_with(R"({"gradients": {"p": 1.5}})"), "labs.gradients.p = 1.5 is out of range (0, 1]"},
        {"scene_size_negative", S, scene_with(R"({"training": {"samples": -5}})"),
         "labs.training.samples = -5 is out of range [2, 100000]"},
        {"scene_size_huge", S, scene_with(R"({"training": {"width": 1e9}})"),
         "labs.training.width = 1000000000 is out of range [2, 256]"},
        {"scene_vector_too_wide", S, explorer_scene(R"("x": )" + ones(65)), "labs.explorer.x has 65 entries, expected 2 to 64"},
        {"scene_entry_huge", S, explorer_scene(R"("x": [1e300, 1])"),
         "labs.explorer.x[0] = 1e+300 is out of range [-1000000, 1000000]"},
        {"scene_extremes_kept", S, explorer_scene(R"("x": [1e6, -5e-324, 1e-300, -1e6], "eps": 1e-300)"), "",
         "/labs/explorer/x", {1e6, -5e-324, 1e-300, -1e6}},

        // --- CSV: empty, ragged, labels, non-finite cells, one class, extremes
        {"csv_empty", C, "", "data.csv is empty: expected rows of numbers, each ending with an integer class label"},
        {"csv_ragged", C, "1,2,0\n3,4,5,1\n", "data.csv line 2 has 4 columns, line 1 has 3"},
        {"csv_ragged_short", C, "x,y,label\n1,2,0\n3,1\n", "data.csv line 3 has 2 columns, line 2 has 3"},
        {"csv_label_text", C, "1,2,0\n3,4,cat\n", R"(data.csv line 2, column 3 is not a number)"},
        {"csv_label_fraction", C, "1,2,0\n3,4,0.5\n", R"(data.csv line 2, column 3: the label is not an integer)"},
        {"csv_label_huge", C, "1,2,0\n3,4,1e300\n",
         R"(data.csv line 2, column 3: the label is out of range: labels are integers from -10^15 to 10^15)"},
        {"csv_one_class", C, "1,2,3\n4,5,3\n6,7,3\n", "data.csv: every row has label 3; need at least 2 classes"},
        {"csv_nan", C, "1,2,0\nNaN,4,1\n", R"(data.csv line 2, column 1 is not a finite number)"},
        {"csv_infinity", C, "1,-Infinity,0\n3,4,1\n", R"(data.csv line 1, column 2 is not a finite number)"},
        {"csv_overflow", C, "1,2,0\n3,1e309,1\n", R"(data.csv line 2, column 2 is not a finite number)"},
        {"csv_hex", C, "1,2,0\n0x1A,4,1\n", R"(data.csv line 2, column 1 is not a number)"},
        {"csv_nul_byte", C, std::string("1,2,0\n3,4\0,1\n", 13), R"(data.csv line 2, column 2 is not a number)"},
        {"csv_empty_cell", C, "1,2,0\n3, ,1\n", "data.csv line 2, column 2 is empty"},
        {"csv_header_only", C, "x,y,label\n", "data.csv has a header line but no data rows"},
        {"csv_1e300", C, "1e300,-1e300,0\n-1e300,1e300,1\n", "", "/X", {{1e300, -1e300}, {-1e300, 1e300}}},
        {"csv_subnormal", C, "4e-320,5e-324,0\n-4e-320,1e-310,1\n", "", "/X", {{4e-320, 5e-324}, {-4e-320, 1e-310}}},
        {"csv_below_subnormal", C, "2e-324,1,0\n3,4,1\n", "", "/X/0/0", 0.0},
        {"csv_negative_labels", C, "1,2,-1\n3,4,1\n5,6,-1\n", "", "/y", {0, 1, 0}},
    };
}

// ctest shows the row's name, not its bytes.
void PrintTo(const Row& row, std::ostream* os) { *os << row.name; }

class BadInput : public ::testing::TestWithParam<Row> {};

TEST_P(BadInput, ExactErrorOrExactResult) {
    const Row& row = GetParam();
    if (!row.error.empty()) {
        EXPECT_EQ(error_of(row.loader, row.text), row.error);
        return;
    }
    json result;
    ASSERT_NO_THROW(result = load(row.loader, row.text)) << error_of(row.loader, row.text);
    if (*row.pointer == '\0') return;
    EXPECT_EQ(result.at(json::json_pointer(row.pointer)), row.value) << row.pointer;
}

INSTANTIATE_TEST_SUITE_P(Table, BadInput, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<Row>& param_info) { return std::string(param_info.param.name); });

TEST(BadInputTable, HasAtLeastThirtyRowsAcrossAllThreeLoaders) {
    int counts[3] = {0, 0, 0};
    for (const Row& row : rows()) ++counts[static_cast<int>(row.loader)];
    EXPECT_GE(counts[0] + counts[1] + counts[2], 30);
    for (int c : counts) EXPECT_GE(c, 10);
}

// [SECTION] Extreme values ------------------------------------------------------------------
// Closed forms where the result is not a round number; squares of these inputs would overflow
// (1e200² = 1e400) or underflow (1e-170² = 1e-340 → 0) if formed.

TEST(ExtremeValues, RmsAndOutputsOfHugeAndTinyVectorsAreRight) {
    for (const double c : {1e200, 1e-170, 4e-320}) {
        // [3c, 4c]: RMS = c·sqrt(12.5), y = [3, 4] / sqrt(12.5).
        const json x = {3 * c, 4 * c};
        const json r = evaluate_request(json{{"norm", "rmsnorm"}, {"eps", 0}, {"x", x}}.dump());
        const double rms = r["stats"][0]["rms"].get<double>();
        // Subnormal inputs carry fewer digits (4e-320 has 14 bits): a relative tolerance to match.
        const double tolerance = c < DBL_MIN ? 1e-3 : 1e-15;
        EXPECT_NEAR(rms / c, std::sqrt(12.5), tolerance * std::sqrt(12.5)) << "c = " << c;
        EXPECT_NEAR(r["y"][0][0].get<double>(), 3 / std::sqrt(12.5), tolerance) << "c = " << c;
        EXPECT_NEAR(r["y"][0][1].get<double>(), 4 / std::sqrt(12.5), tolerance) << "c = " << c;
    }
}

TEST(ExtremeValues, LayerNormOfHugeOffsetsAndAHugeEps) {
    // [c, 3c]: mean 2c, σ = c, y = [−1, 1]; the sum 4c would not even overflow, its square would.
    const json r = evaluate_request(R"({"norm": "layernorm", "eps": 0, "x": [1e300, 3e300]})");
    EXPECT_NEAR(r["y"][0][0].get<double>(), -1.0, 1e-15);
    EXPECT_NEAR(r["y"][0][1].get<double>(), 1.0, 1e-15);
    EXPECT_NEAR(r["stats"][0]["mean"].get<double>() / 2e300, 1.0, 1e-15);
    // ε = 1.5e308 inside the square root next to mean(a²) = 12.5e308, a sum beyond the double
    // range: y = x / sqrt(12.5e308 + 1.5e308) = [3, 4] / sqrt(14).
    const json e = evaluate_request(R"({"norm": "rmsnorm", "eps": 1.5e308, "x": [3e154, 4e154]})");
    EXPECT_NEAR(e["y"][0][0].get<double>(), 3 / std::sqrt(14.0), 1e-15);
    EXPECT_NEAR(e["y"][0][1].get<double>(), 4 / std::sqrt(14.0), 1e-15);
}

TEST(ExtremeValues, GradientsOfHugeInputsAreFinite) {
    // RMSNorm of [c, −c] with dy = [1, 1]: ∂L/∂x = (dy − y·mean(dy ⊙ y)) / RMS = 1/c each.
    const json r = evaluate_request(R"({"norm": "rmsnorm", "eps": 0, "x": [1e300, -1e300], "dy": [1, 1]})");
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(r["grad"]["x"][0][i].get<double>() * 1e300, 1.0, 1e-15) << i;
}

TEST(ExtremeValues, CsvFeaturesOfExtremeMagnitudeStandardizeToPlusMinusOne) {
    // Features ±1e300 and ±4e-320, the label following the sign: in each part of the stratified
    // split half the cases are + and half −, so the mean is 0 and the std the magnitude itself.
    const Samples samples = parse_csv(extreme_csv(10), "CSV");
    const Dataset ds = split_dataset(samples, 0.8, 1, true, "extreme", DatasetKind::Csv);
    ASSERT_EQ(ds.train_x.rows(), 16);
    EXPECT_EQ(ds.scaler.mean, Vec::Zero(2));
    EXPECT_EQ(ds.scaler.scale, (Vec(2) << 1e300, 4e-320).finished());
    for (const Mat* x : {&ds.train_x, &ds.test_x})
        for (Eigen::Index i = 0; i < x->rows(); ++i)
            for (Eigen::Index j = 0; j < 2; ++j) EXPECT_EQ(std::abs((*x)(i, j)), 1.0) << "case " << i << ", feature " << j;
}

// [SECTION] Large inputs --------------------------------------------------------------------

TEST(LargeInputs, AMillionWideEvalRequest) {
    // x alternates ±c: mean 0, RMS = σ = c, y = ±1; with dy = 1, mean(dy ⊙ y) = 0 and ∂L/∂x = 1/c.
    constexpr std::size_t kWidth = 1000000;
    constexpr double c = 3.5;
    std::string text = R"({"norm": "rmsnorm", "eps": 0, "x": [)";
    std::string dy = "[";
    for (std::size_t i = 0; i < kWidth; ++i) {
        text += i % 2 ? "-3.5," : "3.5,";
        dy += "1,";
    }
    text.back() = ']';
    dy.back() = ']';
    text += R"(, "dy": )" + dy + "}";

    const long before = peak_rss_bytes();
    const json r = evaluate_request(text);
    const long grown = peak_rss_bytes() - before;

    ASSERT_EQ(r["y"][0].size(), kWidth);
    EXPECT_EQ(r["stats"][0], json({{"mean", 0.0}, {"rms", c}, {"std", c}, {"var", c * c}}));
    for (std::size_t i = 0; i < kWidth; ++i) {
        if (r["y"][0][i].get<double>() != (i % 2 ? -1.0 : 1.0) || r["grad"]["x"][0][i].get<double>() != 1.0 / c) {
            ADD_FAILURE() << "entry " << i << ": y = " << r["y"][0][i] << ", grad.x = " << r["grad"]["x"][0][i];
            break;
        }
    }
    // Memory in proportion to the input: measured 0.28 GB here (JSON values and matrices of 10^6
    // numbers in and out); 1 KiB per number would mean copies per entry. (ctest runs each test
    // in its own process, so the peak is this test's.)
    EXPECT_LT(grown, static_cast<long>(kWidth) * 1024) << "peak memory grew by " << grown << " bytes";
}

TEST(LargeInputs, AHundredThousandRowCsv) {
    constexpr int kRows = 100000;
    std::string text = "a,b,c,label\n";
    for (int i = 0; i < kRows; ++i)
        text += std::to_string(i) + "," + std::to_string(-i) + ",0.5," + std::to_string(i % 3) + "\n";
    const TempDir dir;
    const std::string path = dir.file("big.csv");
    write_file_atomically(path, text, IfExists::Replace);

    const long before = peak_rss_bytes();
    const Samples s = load_csv(path);
    const long grown = peak_rss_bytes() - before;

    ASSERT_EQ(s.X.rows(), kRows);
    ASSERT_EQ(s.X.cols(), 3);
    EXPECT_EQ(s.feature_names, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(s.classes, 3);
    EXPECT_EQ(s.X(kRows - 1, 0), double{kRows - 1});
    EXPECT_EQ(s.X(kRows - 1, 1), double{1 - kRows});
    EXPECT_EQ(s.X.col(2), Vec::Constant(kRows, 0.5));
    EXPECT_EQ(s.y(kRows - 1), (kRows - 1) % 3);
    EXPECT_EQ(s.y.sum(), kRows / 3 * 3);   // 33333 ones, 33333 twos
    // Text, lines and matrix: measured 4× the file's 2 MB here (64×: room for a sanitizer's
    // quarantine); never per-row copies of it.
    EXPECT_LT(grown, static_cast<long>(text.size()) * 64) << "peak memory grew by " << grown << " bytes";
}

// [SECTION] Files ---------------------------------------------------------------------------

// A full disk, simulated: files may grow to at most `bytes` (RLIMIT_FSIZE), and SIGXFSZ, which a
// larger write would raise, is ignored, so write() fails with EFBIG ("File too large") instead.
// Restores both on destruction. (ENOSPC on a real full disk takes the same path in file_io.cpp.)
class DiskFull {
public:
    explicit DiskFull(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &old_limit_);
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = old_limit_;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~DiskFull() {
        setrlimit(RLIMIT_FSIZE, &old_limit_);
        std::signal(SIGXFSZ, old_handler_);
    }
    DiskFull(const DiskFull&) = delete;
    DiskFull& operator=(const DiskFull&) = delete;

private:
    rlimit old_limit_{};
    void (*old_handler_)(int) = SIG_DFL;
};

Scene big_scene() {
    Scene scene;
    scene.title = std::string(4000, 'T');      // with the caption, more than the limit below
    scene.caption = std::string(16000, 'C');   // (each within the scene's own limits)
    scene.lab = "invariance";
    scene.session.explorer.delta = 7.5;
    return scene;
}

TEST(Files, ADiskFullMidWriteKeepsTheOldFileAndLeavesNoTemporaryFile) {
    const TempDir dir;
    const std::string path = dir.file("lecture.json");
    Scene old_scene;
    old_scene.title = "the old one";
    save_scene(old_scene, path, IfExists::Replace);
    const std::string old_text = read_file(path);

    const Scene scene = big_scene();
    const std::string message = [&] {
        const DiskFull full(4096);
        return message_of([&] { save_scene(scene, path, IfExists::Replace); });
    }();
    EXPECT_EQ(without_temp_ids(message),
              "cannot write \"" + path + "\": write to \"" + path + ".tmp.PID.N\" failed: File too large");
    EXPECT_EQ(read_file(path), old_text) << "the old file must stay whole";
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"lecture.json"}) << "no temporary file left behind";

    // Nothing of the session is lost: with space again, the same scene saves and reads back whole.
    save_scene(scene, path, IfExists::Replace);
    EXPECT_EQ(scene_to_text(load_scene(path)), scene_to_text(scene));
}

TEST(Files, ADiskFullOnANewFileLeavesNothing) {
    const TempDir dir;
    const std::string path = dir.file("figure.svg");
    const std::string message = [&] {
        const DiskFull full(1000);
        return message_of([&] { write_file_atomically(path, std::string(1 << 20, 'x'), IfExists::Replace); });
    }();
    EXPECT_EQ(without_temp_ids(message),
              "cannot write \"" + path + "\": write to \"" + path + ".tmp.PID.N\" failed: File too large");
    EXPECT_TRUE(dir.entries().empty()) << "neither the target nor a temporary file";
}

TEST(Files, MissingDirectoryAndNotADirectoryPathsSayWhatFailed) {
    const TempDir dir;
    const std::string file = dir.file("plain.txt");
    write_file_atomically(file, "a regular file", IfExists::Replace);
    const std::string missing = dir.file("missing.json");
    const std::string under_file = file + "/x.json";   // its parent is a regular file
    const std::string folder = dir.path.string();

    const struct {
        const char* what;
        std::function<void()> run;
        std::string message;
    } cases[] = {
        {"scene missing", [&] { load_scene(missing); },
         "cannot read \"" + missing + "\": cannot open: No such file or directory"},
        {"scene under a file", [&] { load_scene(under_file); },
         "cannot read \"" + under_file + "\": cannot open: Not a directory"},
        {"scene is a directory", [&] { load_scene(folder); }, "cannot read \"" + folder + "\": it is a directory, not a file"},
        {"CSV missing", [&] { load_csv(missing); }, "cannot open " + missing + ": No such file or directory"},
        {"CSV under a file", [&] { load_csv(under_file); }, "cannot open " + under_file + ": Not a directory"},
        {"CSV is a directory", [&] { load_csv(folder); }, "cannot read " + folder + ": Is a directory"},
        {"save under a file", [&] { save_scene(kEmptyScene, under_file, IfExists::Replace); },
         "cannot write \"" + under_file + "\": cannot create temporary file \"" + under_file +
             ".tmp.PID.N\": Not a directory"},
        {"save over a directory", [&] { save_scene(kEmptyScene, folder, IfExists::Replace); },
         "cannot write \"" + folder + "\": it is a directory, not a regular file"},
    };
    for (const auto& c : cases) EXPECT_EQ(without_temp_ids(message_of(c.run)), c.message) << c.what;
    EXPECT_EQ(read_file(file), "a regular file");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"plain.txt"}) << "nothing written";
}

TEST(Files, AReadOnlyTargetIsRefusedAndLeftAlone) {
    // Root may write where permissions say no; /proc refuses everyone.
    const std::string target = "/proc/version";
    const std::string before = read_file(target);
    const std::string message = message_of([&] { write_file_atomically(target, "overwritten", IfExists::Replace); });
    EXPECT_EQ(message.rfind("cannot write \"/proc/version\": cannot create temporary file \"/proc/version.tmp.", 0), 0u)
        << message;
    EXPECT_EQ(read_file(target), before);
}

}  // namespace
}  // namespace normlab
