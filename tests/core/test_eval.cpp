// Tests of normlab/norm/eval.hpp: the `normlab-cli eval` request → result path and the JSON readers.
//
// [SECTION] Helpers
// [SECTION] Worked example (docs/ARCHITECTURE.md: [2,4,6,8])
// [SECTION] Result shape and echo
// [SECTION] Gradients against finite differences
// [SECTION] Bad requests: one exact message each
// [SECTION] Non-finite results
// [SECTION] JSON readers
#include <gtest/gtest.h>

#include "normlab/norm/eval.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace normlab {
namespace {

using nlohmann::json;

// [SECTION] Helpers -------------------------------------------------------------------------

json eval(const std::string& request) { return evaluate_request(request); }

// The InputError message of a request, or "" when it evaluates.
std::string error_of(const std::string& request) {
    try {
        evaluate_request(request);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::vector<double> numbers(const json& list) { return list.get<std::vector<double>>(); }

// Shape of a JSON list of lists: {rows, columns of row 0}.
std::pair<std::size_t, std::size_t> shape(const json& m) { return {m.size(), m.at(0).size()}; }

// [SECTION] Worked example ------------------------------------------------------------------

TEST(Eval, LayerNormOf2468) {
    const json r = eval(R"({"norm": "layernorm", "eps": 0, "x": [2, 4, 6, 8]})");
    const std::vector<double> y = numbers(r["y"][0]);
    const std::vector<double> expected = {-3 / std::sqrt(5.0), -1 / std::sqrt(5.0), 1 / std::sqrt(5.0),
                                          3 / std::sqrt(5.0)};  // ≈ −1.3416, −0.4472, 0.4472, 1.3416
    ASSERT_EQ(y.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(y[i], expected[i], 1e-12) << "y[0][" << i << "]";
    EXPECT_NEAR(y[0], -1.3416, 1e-4);
    EXPECT_NEAR(y[3], 1.3416, 1e-4);
}

TEST(Eval, RMSNormOf2468) {
    const json r = eval(R"({"norm": "rmsnorm", "eps": 1e-300, "x": [2, 4, 6, 8]})");
    const std::vector<double> y = numbers(r["y"][0]);
    const std::vector<double> expected = {0.3651, 0.7303, 1.0954, 1.4606};  // x / sqrt(30)
    ASSERT_EQ(y.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(y[i], expected[i], 1e-4) << "y[0][" << i << "]";
        EXPECT_NEAR(y[i], 2.0 * static_cast<double>(i + 1) / std::sqrt(30.0), 1e-12) << "y[0][" << i << "]";
    }
}

TEST(Eval, StatsOf2468) {
    const json s = eval(R"({"norm": "layernorm", "x": [2, 4, 6, 8]})")["stats"];
    ASSERT_EQ(s.size(), 1u);
    EXPECT_DOUBLE_EQ(s[0]["mean"].get<double>(), 5.0);
    EXPECT_NEAR(s[0]["var"].get<double>(), 5.0, 1e-12);  // biased variance
    EXPECT_NEAR(s[0]["std"].get<double>(), std::sqrt(5.0), 1e-12);
    EXPECT_NEAR(s[0]["rms"].get<double>(), std::sqrt(30.0), 1e-12);
    EXPECT_FALSE(s[0].contains("k"));
}

// [SECTION] Result shape and echo -----------------------------------------------------------

TEST(Eval, EchoesWhatWasInForce) {
    const json r = eval(R"({"norm": "rmsnorm", "x": [1, 2]})");
    EXPECT_EQ(r["norm"], "rmsnorm");
    EXPECT_EQ(r["eps"], 1e-5);
    EXPECT_EQ(r["eps_mode"], "inside_sqrt");
    EXPECT_FALSE(r.contains("p"));
    EXPECT_FALSE(r.contains("k"));
    EXPECT_FALSE(r.contains("grad"));
    EXPECT_FALSE(r.contains("notes"));

    const json q = eval(R"({"norm": "rmsnorm", "eps": 0.5, "eps_mode": "add_to_rms", "x": [3, 4]})");
    EXPECT_EQ(q["eps"], 0.5);
    EXPECT_EQ(q["eps_mode"], "add_to_rms");
    const double rms = std::sqrt(12.5);
    EXPECT_NEAR(q["y"][0][1].get<double>(), 4.0 / (rms + 0.5), 1e-12);  // a / (RMS + ε)
}

TEST(Eval, PRMSNormEchoesPAndK) {
    // n = 8, p = 0.3: n·p = 2.4, so k = 3 (ceil, the paper) or 2 (floor, the PyTorch file).
    const std::string x = R"("x": [1, 2, 2, 100, 100, 100, 100, 100])";
    const json ceil = eval(R"({"norm": "prmsnorm", "eps": 0, "p": 0.3, )" + x + "}");
    EXPECT_EQ(ceil["p"], 0.3);
    EXPECT_EQ(ceil["k_rounding"], "ceil");
    EXPECT_EQ(ceil["k"], 3);
    EXPECT_EQ(ceil["stats"][0]["k"], 3);
    EXPECT_NEAR(ceil["y"][0][0].get<double>(), 1.0 / std::sqrt(3.0), 1e-12);  // RMS of 1, 2, 2 = √3

    const json floor = eval(R"({"norm": "prmsnorm", "eps": 0, "p": 0.3, "k_rounding": "floor", )" + x + "}");
    EXPECT_EQ(floor["k_rounding"], "floor");
    EXPECT_EQ(floor["k"], 2);
    EXPECT_NEAR(floor["y"][0][0].get<double>(), 1.0 / std::sqrt(2.5), 1e-12);  // RMS of 1, 2

    EXPECT_EQ(eval(R"({"norm": "prmsnorm", "x": [1, 2]})")["p"], 0.0625);  // the paper's default
}

// The statistics reported are those the norm divided by. pRMSNorm, k = 3 of [1, 2, 2, 100, …]:
// stats.rms = RMS(1, 2, 2) = √3, not the RMS of all 8 (≈ 79). BatchNorm, x = [[1, 10], [3, 30]]:
// per feature over the 2 cases, μ = (2, 20), σ₀ = (1, 10) (hand-worked), named as such.
TEST(Eval, StatsDescribeWhatTheNormUsed) {
    const json p = eval(R"({"norm": "prmsnorm", "eps": 0, "p": 0.3, "x": [1, 2, 2, 100, 100, 100, 100, 100]})");
    EXPECT_NEAR(p["stats"][0]["rms"].get<double>(), std::sqrt(3.0), 1e-15);
    EXPECT_EQ(p["norm_stats"]["per"], "case");
    EXPECT_EQ(p["norm_stats"]["k"], 3);
    EXPECT_NEAR(p["norm_stats"]["groups"][0]["rms"].get<double>(), std::sqrt(3.0), 1e-15);
    EXPECT_NE(p["norm_stats"]["over"].get<std::string>().find("first k = 3"), std::string::npos);

    const json b = eval(R"({"norm": "batchnorm", "eps": 0, "x": [[1, 10], [3, 30]]})");
    EXPECT_EQ(b["norm_stats"]["per"], "feature");
    ASSERT_EQ(b["norm_stats"]["groups"].size(), 2u);
    EXPECT_EQ(b["norm_stats"]["groups"][0]["mean"], 2.0);
    EXPECT_EQ(b["norm_stats"]["groups"][0]["std"], 1.0);
    EXPECT_EQ(b["norm_stats"]["groups"][1]["mean"], 20.0);
    EXPECT_EQ(b["norm_stats"]["groups"][1]["std"], 10.0);
    EXPECT_EQ(b["stats"].size(), 2u);   // the per-case stats of a stay, and a note says what they are
    EXPECT_NE(b["notes"][0].get<std::string>().find("per-feature statistics in norm_stats"), std::string::npos);

    const json l = eval(R"({"norm": "layernorm", "eps": 0, "x": [2, 4, 6, 8]})");
    EXPECT_EQ(l["norm_stats"]["groups"][0]["mean"], 5.0);
    EXPECT_NEAR(l["norm_stats"]["groups"][0]["std"].get<double>(), std::sqrt(5.0), 1e-15);
    EXPECT_TRUE(eval(R"({"norm": "none", "x": [1, 2]})")["norm_stats"].is_null());
}

// WeightNorm follows Salimans & Kingma: w/‖w‖, no ε. W = [[0.01, 0.02], [3, 4]], x = [1, 1]:
// y₀ = 0.03/√0.0005 = 1.3416…, y₁ = 7/5 = 1.4 (hand-worked); with √(‖w‖² + 1e-5), y₀ was 1.3284.
TEST(Eval, WeightNormHasNoEps) {
    const json r = eval(R"({"norm": "weightnorm", "x": [1, 1], "W": [[0.01, 0.02], [3, 4]]})");
    EXPECT_NEAR(r["y"][0][0].get<double>(), 0.03 / std::sqrt(0.0005), 1e-15);
    EXPECT_NEAR(r["y"][0][1].get<double>(), 1.4, 1e-15);
    EXPECT_EQ(r["eps"], 0.0);
    EXPECT_EQ(r["norm_stats"]["per"], "weight_row");
    EXPECT_NEAR(r["norm_stats"]["groups"][1]["norm"].get<double>(), 5.0, 1e-15);
    EXPECT_FALSE(r.contains("notes"));
    const json e = eval(R"({"norm": "weightnorm", "eps": 0.5, "x": [1, 1], "W": [[3, 4]]})");
    EXPECT_NEAR(e["y"][0][0].get<double>(), 1.4, 1e-15);
    ASSERT_EQ(e["notes"].size(), 1u);
    EXPECT_NE(e["notes"][0].get<std::string>().find("no \u03b5"), std::string::npos) << e["notes"][0];
}

// 10¹² + [0, 1, 2, 3]: var = 1.25 exactly and y = ±3/√5, ±1/√5 (was 1.250028 and 7.8e-5 off).
TEST(Eval, LargeOffsetKeepsItsDigits) {
    const json r = eval(R"({"norm":"layernorm","eps":0,"x":[1000000000000,1000000000001,1000000000002,1000000000003]})");
    EXPECT_EQ(r["stats"][0]["var"], 1.25);
    EXPECT_EQ(r["stats"][0]["mean"], 1000000000001.5);
    const double y[] = {-3 / std::sqrt(5.0), -1 / std::sqrt(5.0), 1 / std::sqrt(5.0), 3 / std::sqrt(5.0)};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(r["y"][0][i].get<double>(), y[i], 3e-16) << i;
}

TEST(Eval, IgnoredPrmsnormKeysAreNoted) {
    const json r = eval(R"({"norm": "layernorm", "p": 0.5, "x": [1, 2]})");
    EXPECT_FALSE(r.contains("p"));
    ASSERT_EQ(r["notes"].size(), 1u);
    EXPECT_EQ(r["notes"][0], "p applies to prmsnorm only and was ignored for layernorm.");
}

TEST(Eval, FlatXIsOneCaseAndResultsStayNested) {
    const json r = eval(R"({"norm": "layernorm", "x": [1, 2, 3]})");
    EXPECT_EQ(shape(r["a"]), std::make_pair(std::size_t{1}, std::size_t{3}));
    EXPECT_EQ(shape(r["y"]), std::make_pair(std::size_t{1}, std::size_t{3}));
    EXPECT_EQ(r["y"], eval(R"({"norm": "layernorm", "x": [[1, 2, 3]]})")["y"]);
}

TEST(Eval, WithoutWTheSummedInputsAreX) {
    const json r = eval(R"({"norm": "rmsnorm", "x": [[1, 2, 3], [4, 5, 6]], "dy": [[1, 0, 0], [0, 1, 0]]})");
    EXPECT_EQ(numbers(r["a"][1]), (std::vector<double>{4, 5, 6}));
    EXPECT_EQ(shape(r["grad"]["x"]), std::make_pair(std::size_t{2}, std::size_t{3}));
    EXPECT_FALSE(r["grad"].contains("W"));

    // W = I gives the same numbers, plus ∂L/∂W.
    const json with_identity = eval(R"({"norm": "rmsnorm", "x": [[1, 2, 3], [4, 5, 6]],
        "W": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "dy": [[1, 0, 0], [0, 1, 0]]})");
    EXPECT_EQ(with_identity["y"], r["y"]);
    EXPECT_EQ(with_identity["grad"]["x"], r["grad"]["x"]);
    EXPECT_EQ(shape(with_identity["grad"]["W"]), std::make_pair(std::size_t{3}, std::size_t{3}));
}

TEST(Eval, WMapsMInputsToNFeatures) {
    // B = 2 cases, m = 3 inputs, n = 2 features.
    const json r = eval(R"({"norm": "layernorm", "x": [[1, 2, 3], [0, 1, 0]], "W": [[1, 0, 1], [0, 2, 0]],
        "g": [2, 3], "b": [10, 20], "dy": [[1, 2], [3, 4]]})");
    EXPECT_EQ(numbers(r["a"][0]), (std::vector<double>{4, 4}));
    EXPECT_EQ(numbers(r["a"][1]), (std::vector<double>{0, 2}));
    EXPECT_EQ(shape(r["y"]), std::make_pair(std::size_t{2}, std::size_t{2}));
    // Case 1: a = [0, 2], ā = [−1, 1]/sqrt(1 + ε)·…, y = ā ⊙ g + b.
    const double d = std::sqrt(1.0 + 1e-5);
    EXPECT_NEAR(r["y"][1][0].get<double>(), 10.0 - 2.0 / d, 1e-12);
    EXPECT_NEAR(r["y"][1][1].get<double>(), 20.0 + 3.0 / d, 1e-12);
    // Case 0 has zero spread: ā = 0, y = b.
    EXPECT_EQ(numbers(r["y"][0]), (std::vector<double>{10, 20}));

    const json& grad = r["grad"];
    EXPECT_EQ(shape(grad["x"]), std::make_pair(std::size_t{2}, std::size_t{3}));
    EXPECT_EQ(shape(grad["W"]), std::make_pair(std::size_t{2}, std::size_t{3}));
    EXPECT_EQ(numbers(grad["b"]), (std::vector<double>{4, 6}));      // Σ over cases of dy
    EXPECT_NEAR(grad["g"][0].get<double>(), 3.0 * -1.0 / d, 1e-12);  // Σ dy ⊙ ā
    EXPECT_NEAR(grad["g"][1].get<double>(), 4.0 * 1.0 / d, 1e-12);
}

TEST(Eval, NumbersRoundTrip) {
    const json r = eval(R"({"norm": "rmsnorm", "eps": 0, "x": [2, 4, 6, 8]})");
    const double y1 = r["y"][0][1].get<double>();
    EXPECT_EQ(json::parse(r.dump())["y"][0][1].get<double>(), y1);  // bit for bit through text
}

// [SECTION] Gradients against finite differences --------------------------------------------

// L = Σ dy ⊙ y of a request, for central differences.
double loss(const json& request, const json& dy) {
    const json y = evaluate_request(request.dump())["y"];
    double sum = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i)
        for (std::size_t j = 0; j < y[i].size(); ++j) sum += dy[i][j].get<double>() * y[i][j].get<double>();
    return sum;
}

TEST(Eval, GradientsMatchFiniteDifferences) {
    const json dy = {{0.3, -1.0, 2.0}, {1.5, 0.5, -0.7}};
    for (const char* norm : {"layernorm", "rmsnorm", "prmsnorm", "l2norm", "batchnorm", "weightnorm", "none"}) {
        SCOPED_TRACE(norm);
        json request = {{"norm", norm},
                        {"p", 0.5},
                        {"x", {{0.5, -1.2, 2.0, 0.7}, {1.1, 0.4, -0.3, 2.2}}},
                        {"W", {{0.9, -0.4, 0.3, 0.1}, {0.2, 1.3, -0.8, 0.5}, {-0.6, 0.7, 1.1, -0.2}}},
                        {"g", {1.2, -0.7, 0.9}},
                        {"b", {0.1, 0.2, 0.3}},
                        {"dy", dy}};
        const json grad = evaluate_request(request.dump())["grad"];
        const double h = 1e-6;
        for (const char* key : {"x", "W"}) {
            for (std::size_t i = 0; i < request[key].size(); ++i) {
                for (std::size_t j = 0; j < request[key][i].size(); ++j) {
                    json plus = request, minus = request;
                    plus[key][i][j] = request[key][i][j].get<double>() + h;
                    minus[key][i][j] = request[key][i][j].get<double>() - h;
                    const double numeric = (loss(plus, dy) - loss(minus, dy)) / (2 * h);
                    EXPECT_NEAR(grad[key][i][j].get<double>(), numeric, 1e-6) << key << "[" << i << "][" << j << "]";
                }
            }
        }
        for (const char* key : {"g", "b"}) {
            for (std::size_t j = 0; j < request[key].size(); ++j) {
                json plus = request, minus = request;
                plus[key][j] = request[key][j].get<double>() + h;
                minus[key][j] = request[key][j].get<double>() - h;
                const double numeric = (loss(plus, dy) - loss(minus, dy)) / (2 * h);
                EXPECT_NEAR(grad[key][j].get<double>(), numeric, 1e-6) << key << "[" << j << "]";
            }
        }
    }
}

// [SECTION] Bad requests: one exact message each --------------------------------------------

struct BadRequest {
    const char* request;
    const char* message;
};

const BadRequest kBadRequests[] = {
    {"", "request is empty: expected one JSON object on stdin"},
    {" \n\t ", "request is empty: expected one JSON object on stdin"},
    {R"({"norm": )",
     "request is not valid JSON: parse error at line 1, column 10: syntax error while parsing value - unexpected end "
     "of input; expected '[', '{', or a literal"},
    {"{\"norm\": \"layernorm\",\n \"x\": [1, 2]\n} extra",
     "request is not valid JSON: parse error at line 3, column 3: syntax error while parsing value - invalid "
     "literal; last read: '2]<U+000A>} e'; expected end of input"},
    {"[1, 2]", "request is not a JSON object (got a list)"},
    {"null", "request is not a JSON object (got null)"},
    {R"({"norm": "layernorm", "esp": 0, "x": [1]})",
     R"(unknown key "esp" (expected: norm, eps, eps_mode, p, k_rounding, x, W, g, b, dy))"},
    {R"({"x": [1]})",
     "norm is missing (expected one of: layernorm, rmsnorm, prmsnorm, l2norm, batchnorm, weightnorm, none)"},
    {R"({"norm": 3, "x": [1]})", "norm is not a string (got number 3)"},
    {R"({"norm": "foo", "x": [1]})",
     R"(unknown norm "foo" (expected one of: layernorm, rmsnorm, prmsnorm, l2norm, batchnorm, weightnorm, none))"},
    {R"({"norm": "RMSNorm_with_a_name_much_longer_than_forty_bytes", "x": [1]})",
     R"(unknown norm "RMSNorm_with_a_name_much_longer_than_for..." (expected one of: layernorm, rmsnorm, prmsnorm, )"
     R"(l2norm, batchnorm, weightnorm, none))"},
    {R"({"norm": "layernorm", "eps": -1, "x": [1]})", "eps = -1 must be ≥ 0"},
    {R"({"norm": "layernorm", "eps": "1e-5", "x": [1]})", R"(eps is not a number (got string "1e-5"))"},
    {R"({"norm": "layernorm", "eps_mode": "outside", "x": [1]})",
     R"(unknown eps_mode "outside" (expected one of: inside_sqrt, add_to_rms))"},
    {R"({"norm": "prmsnorm", "p": 1.5, "x": [1]})", "p = 1.5 is out of range (0, 1]"},
    {R"({"norm": "prmsnorm", "p": 0, "x": [1]})", "p = 0 is out of range (0, 1]"},
    {R"({"norm": "prmsnorm", "k_rounding": "round", "x": [1]})",
     R"(unknown k_rounding "round" (expected one of: ceil, floor))"},
    {R"({"norm": "layernorm"})", "x is missing (expected B lists of m numbers, or m numbers)"},
    {R"({"norm": "layernorm", "x": []})", "x is empty"},
    {R"({"norm": "layernorm", "x": [[]]})", "x[0] is empty"},
    {R"({"norm": "layernorm", "x": "abc"})", R"(x is not a list (got string "abc"))"},
    {R"({"norm": "layernorm", "x": [[1, 2, 3], [4, 5, 6], [7, 8, 9, 10]]})", "x[2] has 4 entries, x[0] has 3"},
    {R"({"norm": "layernorm", "x": [[1, 2], [3]]})", "x[1] has 1 entry, x[0] has 2"},
    {R"({"norm": "layernorm", "x": [[1, 2, 3, 4], [5, 6, 7, "abc"]]})",
     R"(x[1][3] is not a number (got string "abc"))"},
    {R"({"norm": "layernorm", "x": [[1, null]]})", "x[0][1] is not a number (got null)"},
    {R"({"norm": "layernorm", "x": [true]})", "x[0] is not a number (got boolean true)"},
    {R"({"norm": "layernorm", "x": [[1], 2]})", "x[1] is not a list of numbers (got number 2)"},
    {R"({"norm": "layernorm", "x": [1, [2]]})", "x[1] is not a number (got a list)"},
    {R"({"norm": "layernorm", "x": [[0, 1e999]]})", "x[0][1] is not finite (it overflows the double range)"},
    {R"({"norm": "layernorm", "x": [0], "g": [-1e999]})", "g[0] is not finite (it overflows the double range)"},
    {R"({"norm": "layernorm", "x": [1, 2, 3], "W": [[1, 2], [3, 4]]})", "W has 2 columns, x has 3 entries"},
    {R"({"norm": "layernorm", "x": [1, 2, 3], "W": [1, 2, 3]})", "W[0] is not a list of numbers (got number 1)"},
    {R"({"norm": "layernorm", "x": [1, 2, 3, 4], "g": [1, 1, 1]})", "g has 3 entries, expected n = 4"},
    {R"({"norm": "layernorm", "x": [1, 2], "W": [[1, 0]], "b": [0, 0]})", "b has 2 entries, expected n = 1"},
    {R"({"norm": "layernorm", "x": [1, 2], "b": {"a": 1}})", "b is not a list of numbers (got an object)"},
    {R"({"norm": "layernorm", "x": [[1, 2], [3, 4], [5, 6]], "dy": [[1, 2], [3, 4]]})", "dy has 2 rows, x has 3 cases"},
    {R"({"norm": "layernorm", "x": [[1, 2], [3, 4]], "dy": [1, 2]})", "dy has 1 row, x has 2 cases"},
    {R"({"norm": "layernorm", "x": [1, 2, 3, 4], "dy": [1, 2, 3]})", "dy has 3 entries per case, expected n = 4"},
};

TEST(Eval, BadRequestsSayWhatAndWhere) {
    for (const BadRequest& bad : kBadRequests) {
        const std::string message = error_of(bad.request);
        EXPECT_EQ(message, bad.message) << "request: " << bad.request;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
    }
}

TEST(Eval, MessagesStayOnOneLine) {
    // A newline inside a key or a string value is escaped, never printed raw.
    EXPECT_EQ(error_of("{\"a\\nb\": 1}"),
              R"(unknown key "a\nb" (expected: norm, eps, eps_mode, p, k_rounding, x, W, g, b, dy))");
    EXPECT_EQ(error_of(R"({"norm": "layernorm", "x": ["line 1\nline 2"]})"),
              R"(x[0] is not a number (got string "line 1\nline 2"))");
    EXPECT_EQ(error_of("{\"norm\": tru\n}").find('\n'), std::string::npos);
    // An overflowing number under an odd key is named with the key quoted.
    EXPECT_EQ(error_of(R"({"a b": [1e999]})"), R"(["a b"][0] is not finite (it overflows the double range))");
}

// [SECTION] Non-finite results --------------------------------------------------------------

TEST(Eval, ZeroSpreadWithZeroEpsIsAnErrorNotANaN) {
    EXPECT_EQ(error_of(R"({"norm": "layernorm", "eps": 0, "x": [[0, 0, 0], [1, 2, 3]], "dy": [[1, 0, 0], [0, 1, 0]]})"),
              "grad.x[0][0] is not finite: case 0 has zero spread and eps = 0");
    EXPECT_EQ(error_of(R"({"norm": "rmsnorm", "eps": 0, "x": [[1, 2], [0, 0]], "dy": [[1, 0], [0, 1]]})"),
              "grad.x[1][0] is not finite: case 1 is all zeros and eps = 0");
    EXPECT_EQ(error_of(R"({"norm": "batchnorm", "eps": 0, "x": [[1, 2], [1, 3]], "dy": [[1, 1], [1, 1]]})"),
              "grad.x[0][0] is not finite: feature 0 has zero spread over the batch and eps = 0");
    // The same requests with ε > 0 evaluate.
    EXPECT_EQ(
        error_of(R"({"norm": "layernorm", "eps": 1e-5, "x": [[0, 0, 0], [1, 2, 3]], "dy": [[1, 0, 0], [0, 1, 0]]})"),
        "");
}

TEST(Eval, OverflowingSummedInputsAreAnError) {
    EXPECT_EQ(error_of(R"({"norm": "none", "x": [1e200], "W": [[1e200]]})"),
              "a[0][0] is not finite: x Wᵀ overflows the double range");
}

TEST(Eval, HugeVarianceIsNullWithANote) {
    const json r = eval(R"({"norm": "rmsnorm", "x": [[1, 2, 3], [1e200, -1e200, 3e200]]})");
    EXPECT_TRUE(r["stats"][0]["var"].is_number());
    EXPECT_TRUE(r["stats"][1]["var"].is_null());
    EXPECT_NEAR(r["stats"][1]["std"].get<double>() / 1e200, std::sqrt(8.0 / 3.0), 1e-12);
    EXPECT_NEAR(r["y"][1][2].get<double>(), 3.0 / std::sqrt(11.0 / 3.0), 1e-12);  // y stays finite
    ASSERT_EQ(r["notes"].size(), 1u);
    EXPECT_EQ(
        r["notes"][0],
        "stats var is null for case 1: the variance exceeds the double range; std = sqrt(var) is given and finite.");
}

// [SECTION] JSON readers --------------------------------------------------------------------

TEST(JsonReaders, RowsAcceptAFlatListMatricesDoNot) {
    const Mat one = read_rows(json::parse("[1, 2, 3]"), "x");
    EXPECT_EQ(one.rows(), 1);
    EXPECT_EQ(one.cols(), 3);
    const Mat two = read_matrix(json::parse("[[1, 2, 3], [4, 5, 6]]"), "W");
    EXPECT_EQ(two(1, 2), 6.0);
    EXPECT_THROW(read_matrix(json::parse("[1, 2, 3]"), "W"), InputError);
}

TEST(JsonReaders, NonFiniteNumbersBuiltInCodeAreRejected) {
    // parse_json never yields one, but a json built in code can hold ∞.
    try {
        read_vector(json::array({1.0, std::numeric_limits<double>::infinity()}), "g");
        FAIL() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "g[1] is not finite");
    }
}

TEST(JsonReaders, QuoteCutsLongStringsAtACharacterBoundary) {
    EXPECT_EQ(quote_for_message("abc"), "\"abc\"");
    // 39 ASCII bytes, then δ (2 bytes) straddles byte 40: the cut falls before δ.
    EXPECT_EQ(quote_for_message(std::string(39, 'a') + "δδδ"), "\"" + std::string(39, 'a') + "...\"");
    EXPECT_EQ(quote_for_message(std::string(38, 'a') + "δδδ"), "\"" + std::string(38, 'a') + "δ...\"");
}

TEST(JsonReaders, DescribeNamesTheKind) {
    EXPECT_EQ(describe_json(json::parse("null")), "null");
    EXPECT_EQ(describe_json(json::parse("false")), "boolean false");
    EXPECT_EQ(describe_json(json::parse("-2.5")), "number -2.5");
    EXPECT_EQ(describe_json(json::parse(R"("s")")), R"(string "s")");
    EXPECT_EQ(describe_json(json::parse("[]")), "a list");
    EXPECT_EQ(describe_json(json::parse("{}")), "an object");
}

}  // namespace
}  // namespace normlab
