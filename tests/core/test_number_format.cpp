// The norms in a number format (norm/number_format.hpp): rounding against GCC's _Float16 and
// float, hand-worked vectors (worked op by op with Python's struct 'e', IEEE binary16), and every
// norm × format × arithmetic against an independent emulation written here from scratch.
#include "normlab/norm/number_format.hpp"
#include "normlab/base/i18n.hpp"

#include "normlab/norm/eval.hpp"
#include "normlab/norm/format_eval.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

namespace normlab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// [SECTION] The independent emulation ---------------------------------------------------------
// Each operation in float (correctly rounded), then rounded to the narrower format: float16 by
// GCC's _Float16 conversion, bfloat16 by rounding float's bits to the upper 16 (ties to even).
// float (24 bits) ≥ 2·11 + 2 and 2·8 + 2, so rounding twice is harmless: the results must be the
// same numbers as the double-based emulation's, bit for bit.

float bf16(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return f;
    u += 0x7FFFu + ((u >> 16) & 1u);
    u &= 0xFFFF0000u;
    std::memcpy(&f, &u, 4);
    return f;
}

double independent_round(NumberFormat f, double v) {
    switch (f) {
        case NumberFormat::Float16: return static_cast<double>(static_cast<_Float16>(v));
        case NumberFormat::BFloat16: return static_cast<double>(bf16(static_cast<float>(v)));
        case NumberFormat::Float32: return static_cast<double>(static_cast<float>(v));
        case NumberFormat::Float64: return v;
    }
    return v;
}

// One arithmetic: operations in float (or double for float64) rounded to `f`.
struct Ops {
    NumberFormat f;
    double r(double v) const { return independent_round(f, v); }
    double add(double a, double b) const {
        return f == NumberFormat::Float64 ? a + b : r(static_cast<float>(a) + static_cast<float>(b));
    }
    double mul(double a, double b) const {
        return f == NumberFormat::Float64 ? a * b : r(static_cast<float>(a) * static_cast<float>(b));
    }
    double div(double a, double b) const {
        return f == NumberFormat::Float64 ? a / b : r(static_cast<float>(a) / static_cast<float>(b));
    }
    double root(double a) const { return f == NumberFormat::Float64 ? std::sqrt(a) : r(std::sqrt(static_cast<float>(a))); }
};

// The four norms of one case, as the docs define the order (number_format.hpp).
Vec independent_forward(const NormSpec& spec, const Vec& x, const Vec& g, const Vec& b, NumberFormat format,
                        Arithmetic arithmetic) {
    const bool up = arithmetic == Arithmetic::Float32 &&
                    (format == NumberFormat::Float16 || format == NumberFormat::BFloat16);
    const Ops store{format};
    const Ops op{up ? NumberFormat::Float32 : format};
    const Eigen::Index n = x.size();
    Vec a(n), gs(n), bs(n), top(n), y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        a(i) = store.r(x(i));
        gs(i) = store.r(g(i));
        bs(i) = store.r(b(i));
    }
    const double eps = op.r(spec.eps);
    const Eigen::Index k = spec.norm == Norm::PRMSNorm ? partial_k(n, spec.p, spec.rounding) : n;
    top = a;
    double stat = 0.0;
    if (spec.norm == Norm::LayerNorm) {
        double s = a(0);
        for (Eigen::Index i = 1; i < n; ++i) s = op.add(s, a(i));
        const double mu = op.div(s, op.r(static_cast<double>(n)));
        for (Eigen::Index i = 0; i < n; ++i) top(i) = op.add(a(i), -mu);
    }
    for (Eigen::Index i = 0; i < k; ++i) {
        const double sq = op.mul(top(i), top(i));
        stat = i == 0 ? sq : op.add(stat, sq);
    }
    if (spec.norm != Norm::L2Norm) stat = op.div(stat, op.r(static_cast<double>(k)));
    const double denom = spec.eps_mode == EpsMode::InsideSqrt ? op.root(op.add(stat, eps)) : op.add(op.root(stat), eps);
    for (Eigen::Index i = 0; i < n; ++i) {
        y(i) = op.add(op.mul(op.div(top(i), denom), gs(i)), bs(i));
        if (up) y(i) = store.r(y(i));
    }
    return y;
}

// [SECTION] Rounding ----------------------------------------------------------------------------

TEST(NumberFormat, RoundingMatchesGccFloat16AndFloat) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> mant(-1.0, 1.0);
    std::uniform_int_distribution<int> expo(-30, 18);
    for (int t = 0; t < 200000; ++t) {
        const double v = std::ldexp(mant(rng), expo(rng));
        ASSERT_EQ(round_to(NumberFormat::Float16, v), static_cast<double>(static_cast<_Float16>(v))) << v;
        ASSERT_EQ(round_to(NumberFormat::Float32, v), static_cast<double>(static_cast<float>(v))) << v;
        // bfloat16 from a float: one rounding either way.
        const double vf = static_cast<double>(static_cast<float>(std::ldexp(mant(rng), expo(rng) * 5)));
        ASSERT_EQ(round_to(NumberFormat::BFloat16, vf), static_cast<double>(bf16(static_cast<float>(vf)))) << vf;
    }
}

TEST(NumberFormat, RoundingByHand) {
    const NumberFormat h = NumberFormat::Float16, bf = NumberFormat::BFloat16;
    EXPECT_EQ(round_to(h, 65504.0), 65504.0);
    EXPECT_EQ(round_to(h, 65519.0), 65504.0);
    EXPECT_EQ(round_to(h, 65520.0), kInf);          // the tie goes to even: 2^16, beyond the range
    EXPECT_EQ(round_to(h, -1e6), -kInf);
    EXPECT_EQ(round_to(h, 1e-5), 168 * 0x1p-24);    // a subnormal
    EXPECT_EQ(round_to(h, 1e-8), 0.0);              // below half the smallest subnormal
    EXPECT_EQ(round_to(h, 0x1p-25), 0.0);           // the tie goes to even: 0
    EXPECT_EQ(round_to(h, 3 * 0x1p-26), 0x1p-24);
    EXPECT_EQ(round_to(h, 2049.0), 2048.0);         // ulp 2 above 2048, tie to even
    EXPECT_EQ(round_to(h, 2051.0), 2052.0);
    EXPECT_EQ(round_to(bf, 1.0 + 0x1p-8), 1.0);
    EXPECT_EQ(round_to(bf, 1.0 + 3 * 0x1p-8), 1.0 + 0x1p-6);
    EXPECT_EQ(round_to(bf, 1e39), kInf);
    EXPECT_TRUE(std::isnan(round_to(h, std::nan(""))));
    EXPECT_EQ(ulp(h, 1.0), 0x1p-10);
    EXPECT_EQ(ulp(h, 1e-6), 0x1p-24);
    EXPECT_EQ(ulp(bf, 1.5), 0x1p-7);
    EXPECT_EQ(ulp(NumberFormat::Float32, 1.0), 0x1p-23);
    EXPECT_EQ(*ulp_error(h, 1.0 + 0x1p-9, 1.0), 2.0);
    EXPECT_FALSE(ulp_error(h, kInf, 1.0).has_value());
    EXPECT_EQ(parse_number_format("bfloat16"), NumberFormat::BFloat16);
    EXPECT_FALSE(parse_number_format("half").has_value());
    EXPECT_EQ(parse_arithmetic("float32"), Arithmetic::Float32);
}

// [SECTION] Hand-worked vectors -----------------------------------------------------------------

NormSpec spec_of(Norm norm, double eps) {
    NormSpec s;
    s.norm = norm;
    s.eps = eps;
    return s;
}

FormatResult one_case(Norm norm, double eps, std::vector<double> x, NumberFormat f, Arithmetic a) {
    const Eigen::Index n = static_cast<Eigen::Index>(x.size());
    Mat m(1, n);
    for (Eigen::Index i = 0; i < n; ++i) m(0, i) = x[static_cast<std::size_t>(i)];
    return format_forward(spec_of(norm, eps), m, Vec::Ones(n), Vec::Zero(n), f, a);
}

TEST(NumberFormat, Float16RmsNormOverflowsAt300To600) {
    const FormatResult r =
        one_case(Norm::RMSNorm, 1e-5, {300, 400, 500, 600}, NumberFormat::Float16, Arithmetic::Same);
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(r.y(0, i), 0.0);   // x / inf: silent zeros
    ASSERT_FALSE(r.events.empty());
    const FormatEvent& e = r.events[0];
    EXPECT_EQ(e.kind, EventKind::Overflow);
    EXPECT_EQ(e.where, "x₁²");
    EXPECT_EQ(e.more, 3);
    EXPECT_EQ(e.case_index, 0);
    EXPECT_EQ(e.message, "x₁² = 90000 overflows float16 (max 65504), as do 3 more squares (case 0)");
    // float64: 300 / √215000 = 0.6470; float16's ulp there is 2⁻¹¹.
    EXPECT_NEAR(*ulp_error(NumberFormat::Float16, r.y(0, 0), r.ref_original(0, 0)), -0.6470 / 0x1p-11, 1.0);

    // Accumulated in float32 the same inputs are fine: within one float16 ulp of float64.
    const FormatResult up =
        one_case(Norm::RMSNorm, 1e-5, {300, 400, 500, 600}, NumberFormat::Float16, Arithmetic::Float32);
    EXPECT_TRUE(up.events.empty());
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_LE(std::fabs(up.ulps_stored(0, i)), 1.0);
}

TEST(NumberFormat, Float16RmsNormOf2468ByHand) {
    const FormatResult r = one_case(Norm::RMSNorm, 0.0, {2, 4, 6, 8}, NumberFormat::Float16, Arithmetic::Same);
    EXPECT_EQ(r.stats[0].stat, 30.0);
    EXPECT_EQ(r.stats[0].denom, 5.4765625);   // √30 = 5.4772… rounded to 1402·2⁻⁸
    const double expected[] = {0.365234375, 0.73046875, 1.095703125, 1.4609375};
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(r.y(0, i), expected[i]) << i;
    EXPECT_TRUE(r.events.empty());
}

TEST(NumberFormat, Float16LayerNormCancelsNearAThousand) {
    // Σ: 2001, 3003 → 3004, 4007 → 4008 (ties to even); μ = 1002 instead of 1001.5.
    const FormatResult r =
        one_case(Norm::LayerNorm, 0.0, {1000, 1001, 1002, 1003}, NumberFormat::Float16, Arithmetic::Same);
    EXPECT_EQ(r.stats[0].mean, 1002.0);
    EXPECT_EQ(r.stats[0].stat, 1.5);          // σ² = 1.25 exactly
    EXPECT_EQ(r.stats[0].denom, 1.224609375);
    const double expected[] = {-1.6328125, -0.81640625, 0.0, 0.81640625};
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(r.y(0, i), expected[i]) << i;
    EXPECT_NEAR(r.ref_original(0, 0), -1.3416408, 1e-6);
    // RMSNorm is not centred and keeps its digits here (no event either).
    const FormatResult rms =
        one_case(Norm::RMSNorm, 0.0, {1000, 1001, 1002, 1003}, NumberFormat::Float16, Arithmetic::Float32);
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_LE(std::fabs(rms.ulps_original(0, i)), 1.0);
}

TEST(NumberFormat, EventsForEpsUnderflowNanAndEpsDominance) {
    // ε = 1e-8 is 0 in float16; an all-zero case then divides 0 by 0.
    const FormatResult r = one_case(Norm::RMSNorm, 1e-8, {0, 0, 0}, NumberFormat::Float16, Arithmetic::Same);
    EXPECT_EQ(r.eps_used, 0.0);
    ASSERT_GE(r.events.size(), 2u);
    EXPECT_EQ(r.events[0].kind, EventKind::Underflow);
    EXPECT_EQ(r.events[0].where, "ε");
    EXPECT_EQ(r.events[0].case_index, -1);
    bool nan = false;
    for (const FormatEvent& e : r.events) nan |= e.kind == EventKind::NaN && e.where == "ā₁" && e.more == 2;
    EXPECT_TRUE(nan);
    EXPECT_TRUE(std::isnan(r.y(0, 0)));
    EXPECT_TRUE(std::isnan(r.ulps_original(0, 0)));

    // Tiny inputs: x² underflows to 0 and ε dominates the mean square.
    const FormatResult tiny = one_case(Norm::RMSNorm, 1e-5, {1e-4, 2e-4}, NumberFormat::Float16, Arithmetic::Same);
    bool under = false, dominated = false;
    for (const FormatEvent& e : tiny.events) {
        under |= e.kind == EventKind::Underflow && e.where == "x₁²";
        dominated |= e.kind == EventKind::EpsDominated;
    }
    EXPECT_TRUE(under);
    EXPECT_TRUE(dominated);

    // A stored x beyond float16, and y that overflows when cast back from float32.
    const FormatResult big = one_case(Norm::L2Norm, 0.0, {7e4, 1.0}, NumberFormat::Float16, Arithmetic::Same);
    EXPECT_EQ(big.x_stored(0, 0), kInf);
    EXPECT_EQ(big.events[0].where, "x₁");
    Mat x(1, 2);
    x << 1.0, 2.0;
    const FormatResult cast = format_forward(spec_of(Norm::LayerNorm, 0.0), x, Vec::Constant(2, 6e4),
                                             Vec::Constant(2, 6e4), NumberFormat::Float16, Arithmetic::Float32);
    EXPECT_EQ(cast.y(0, 1), kInf);
    EXPECT_NE(cast.events.back().message.find("y₂ = 120000 overflows float16 when cast back"), std::string::npos)
        << cast.events.back().message;
}

// The sentences are whole translatable texts (docs/i18n/TRANSLATING.md): event_text follows the
// UI's language, the numbers and places unchanged; `message` (the CLI's JSON) stays English.
TEST(NumberFormat, EventSentencesFollowTheLanguage) {
    struct EnglishAfter {
        ~EnglishAfter() { set_language(Language::En, Catalog{}); }
    } restore;
    Mat x(1, 2);
    x << 1.0, 2.0;
    const auto events = [&x] {
        std::vector<FormatEvent> all =
            one_case(Norm::RMSNorm, 1e-5, {300, 400, 500, 600}, NumberFormat::Float16, Arithmetic::Same).events;
        for (const FormatEvent& e : format_forward(spec_of(Norm::LayerNorm, 0.0), x, Vec::Constant(2, 6e4),
                                                   Vec::Constant(2, 6e4), NumberFormat::Float16, Arithmetic::Float32)
                                        .events)
            all.push_back(e);
        return all;
    };
    const std::vector<FormatEvent> en = events();
    for (const FormatEvent& e : en) EXPECT_EQ(event_text(e), e.message);
    ASSERT_TRUE(set_language(Language::Ko, NORMLAB_ASSETS_DIR "/i18n").empty());
    const std::vector<FormatEvent> ko = events();
    ASSERT_EQ(ko.size(), en.size());
    EXPECT_EQ(ko[0].message, en[0].message);
    EXPECT_EQ(event_text(ko[0]),
              "x₁² = 90000이(가) float16 범위를 넘어 오버플로됩니다 (최대 65504). 다른 제곱 3개도 마찬가지입니다 (사례 0)");
    EXPECT_EQ(event_text(ko.back()), "y₂ = 120000을(를) float16(으)로 되돌릴 때 오버플로됩니다 (최대 65504) (사례 0)");
    ASSERT_TRUE(set_language(Language::Zh, NORMLAB_ASSETS_DIR "/i18n").empty());
    EXPECT_EQ(event_text(ko[0]), "x₁² = 90000 超出 float16 的范围而溢出（最大值 65504），另外 3 个平方也是如此（样本 0）");
    for (const FormatEvent& e : ko) EXPECT_EQ(e.message.find("溢出"), std::string::npos) << e.message;
}

TEST(NumberFormat, Float64MatchesTheReferenceClosely) {
    Mat x(2, 5);
    x << 1, -2, 3.5, 4, 0.25, 1e3, 1e3 + 1, 1e3 + 2, 1e3 + 3, 1e3 + 4;
    for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::L2Norm}) {
        const FormatResult r =
            format_forward(spec_of(norm, 1e-5), x, Vec::Ones(5), Vec::Zero(5), NumberFormat::Float64, Arithmetic::Same);
        EXPECT_LE(r.ulps_original.cwiseAbs().maxCoeff(), 8.0) << to_string(norm);
        EXPECT_TRUE(r.events.empty());
    }
}

// [SECTION] Every norm × format × arithmetic against the independent emulation --------------------

TEST(NumberFormat, MatchesIndependentEmulationOnRandomCases) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), decade(-8.0, 6.0);
    std::uniform_int_distribution<int> size(1, 16), pick(0, 4);
    const double epsilons[] = {0.0, 1e-8, 1e-6, 1e-5, 1e-3};
    int compared = 0, non_finite = 0;
    for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::L2Norm})
        for (NumberFormat f : kAllFormats)
            for (Arithmetic a : {Arithmetic::Same, Arithmetic::Float32})
                for (int t = 0; t < 300; ++t) {
                    const Eigen::Index n = size(rng);
                    const double scale = std::pow(10.0, decade(rng));
                    const double offset = pick(rng) == 0 ? scale * 100.0 * unit(rng) : 0.0;
                    Mat x(1, n);
                    Vec g(n), b(n);
                    // Inputs are floats: the independent bfloat16 stores a double through float
                    // (two roundings), which is one rounding only for a float.
                    const auto as_float = [](double v) { return static_cast<double>(static_cast<float>(v)); };
                    for (Eigen::Index i = 0; i < n; ++i) {
                        x(0, i) = as_float(offset + scale * unit(rng));
                        g(i) = as_float(1.0 + 0.5 * unit(rng));
                        b(i) = as_float(0.1 * unit(rng));
                    }
                    NormSpec spec = spec_of(norm, epsilons[pick(rng)]);
                    spec.p = 0.3;
                    if (pick(rng) == 0) spec.eps_mode = EpsMode::AddToRms;
                    const FormatResult r = format_forward(spec, x, g, b, f, a);
                    const Vec want = independent_forward(spec, x.row(0).transpose(), g, b, f, a);
                    for (Eigen::Index i = 0; i < n; ++i) {
                        const double got = r.y(0, i);
                        ++compared;
                        if (std::isnan(want(i))) {
                            EXPECT_TRUE(std::isnan(got));
                            ++non_finite;
                            continue;
                        }
                        // Within 2 ulp is the contract; the double-rounding argument makes it exact.
                        ASSERT_EQ(got, want(i)) << to_string(norm) << " " << to_string(f) << " " << to_string(a)
                                                << " case " << t << " entry " << i;
                    }
                }
    EXPECT_GT(compared, 30000);
    EXPECT_LT(non_finite, compared / 10);
}

// The CLI's whole path (request text → result JSON) against the same emulation: B = 3 cases a
// request, y null exactly where the emulation is NaN or infinite, equal elsewhere.
TEST(NumberFormat, EvalRequestMatchesIndependentEmulation) {
    std::mt19937_64 rng(23);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), decade(-6.0, 5.0);
    const char* norms[] = {"layernorm", "rmsnorm", "prmsnorm", "l2norm"};
    int compared = 0;
    for (const char* norm_name : norms)
        for (NumberFormat f : {NumberFormat::Float16, NumberFormat::BFloat16, NumberFormat::Float32})
            for (Arithmetic a : {Arithmetic::Same, Arithmetic::Float32})
                for (int t = 0; t < 20; ++t) {
                    const double scale = std::pow(10.0, decade(rng));
                    nlohmann::json x = nlohmann::json::array();
                    for (int c = 0; c < 3; ++c) {
                        nlohmann::json row = nlohmann::json::array();
                        for (int i = 0; i < 6; ++i) row.push_back(static_cast<double>(static_cast<float>(scale * unit(rng))));
                        x.push_back(row);
                    }
                    const nlohmann::json request = {{"norm", norm_name}, {"eps", 1e-6}, {"p", 0.5}, {"x", x},
                                                    {"dtype", to_string(f)}, {"accumulate", to_string(a)}};
                    const nlohmann::json result = evaluate_request_with_format(request.dump());
                    NormSpec spec = spec_of(*parse_norm(norm_name), 1e-6);
                    spec.p = 0.5;
                    for (int c = 0; c < 3; ++c) {
                        Vec xc(6);
                        for (int i = 0; i < 6; ++i) xc(i) = x[c][i].get<double>();
                        const Vec want = independent_forward(spec, xc, Vec::Ones(6), Vec::Zero(6), f, a);
                        for (int i = 0; i < 6; ++i) {
                            const nlohmann::json& got = result["y"][c][i];
                            ++compared;
                            if (!std::isfinite(want(i))) {
                                EXPECT_TRUE(got.is_null());
                                continue;
                            }
                            ASSERT_TRUE(got.is_number()) << norm_name << " " << to_string(f);
                            EXPECT_LE(std::fabs(*ulp_error(f, got.get<double>(), want(i))), 2.0);
                            EXPECT_EQ(got.get<double>(), want(i));
                        }
                    }
                }
    EXPECT_EQ(compared, 4 * 3 * 2 * 20 * 18);
}

}  // namespace
}  // namespace normlab
