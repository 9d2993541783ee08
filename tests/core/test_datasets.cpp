// Tests of core/src/models/datasets.cpp and random.hpp: the generators' shapes, balance and ranges,
// determinism, the digits file, the stratified split and its scaling, and the CSV loader's
// messages (exact strings: users read them).
#include "normlab/models/datasets.hpp"

#include "normlab/base/input_error.hpp"
#include "normlab/base/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace normlab {
namespace {

using Eigen::Index;

// [SECTION] Random numbers -----------------------------------------------------------------------

TEST(Random, EngineIsTheStandardOne) {
    // The C++ standard fixes mt19937_64's 10000th output for the default seed 5489.
    Rng rng(5489);
    for (int i = 0; i < 9999; ++i) rng.next();
    EXPECT_EQ(rng.next(), 9981545732273789042ull);
}

TEST(Random, TransformsHaveTheRightMoments) {
    Rng rng(7);
    const int n = 200000;
    double su = 0, sn = 0, sn2 = 0;
    for (int i = 0; i < n; ++i) {
        const double u = rng.uniform();
        ASSERT_TRUE(u >= 0.0 && u < 1.0);
        su += u;
        const double z = rng.normal();
        sn += z;
        sn2 += z * z;
    }
    EXPECT_NEAR(su / n, 0.5, 0.005);
    EXPECT_NEAR(sn / n, 0.0, 0.01);
    EXPECT_NEAR(sn2 / n, 1.0, 0.02);
    std::vector<int> counts(5, 0);
    for (int i = 0; i < 50000; ++i) ++counts[static_cast<std::size_t>(rng.below(5))];
    for (int c : counts) EXPECT_NEAR(c, 10000, 400);
    std::vector<int> perm{0, 1, 2, 3, 4, 5, 6, 7};
    rng.shuffle(perm);
    std::vector<int> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_NE(derive_seed(1, 0), derive_seed(1, 1));
    EXPECT_NE(derive_seed(1, 0), derive_seed(2, 0));
}

// [SECTION] 2D generators ------------------------------------------------------------------------

Index count_class(const Samples& s, int c) { return (s.y.array() == c).count(); }

TEST(Datasets, GeneratorsShapesBalanceAndRanges) {
    for (DatasetKind kind : {DatasetKind::Circle, DatasetKind::Xor, DatasetKind::Gauss, DatasetKind::Spiral,
                             DatasetKind::Moons}) {
        SCOPED_TRACE(std::string(to_string(kind)));
        const Samples s = make_synthetic(kind, 501, 0.0, 3);
        ASSERT_EQ(s.X.rows(), 501);
        ASSERT_EQ(s.X.cols(), 2);
        ASSERT_EQ(s.y.size(), 501);
        EXPECT_EQ(s.classes, 2);
        EXPECT_TRUE((s.y.array() == 0 || s.y.array() == 1).all());
        EXPECT_TRUE(s.X.allFinite());
        const Index ones = count_class(s, 1);
        if (kind == DatasetKind::Xor) {
            EXPECT_NEAR(static_cast<double>(ones), 250.5, 40.0);  // quadrants drawn at random
        } else {
            EXPECT_EQ(ones, kind == DatasetKind::Moons ? 250 : 251);  // ⌈n/2⌉ positives (moons: the inner moon)
        }
        EXPECT_LE(s.X.cwiseAbs().maxCoeff(), 6.5);
    }
}

TEST(Datasets, GeneratorsFollowThePlayground) {
    const Samples circle = make_synthetic(DatasetKind::Circle, 400, 0.0, 1);
    for (Index i = 0; i < 400; ++i) {
        const double r = circle.X.row(i).norm();
        if (circle.y(i) == 1) {
            EXPECT_LT(r, 2.5);
        } else {
            EXPECT_TRUE(r >= 3.5 && r <= 5.0) << r;
        }
    }
    const Samples xr = make_synthetic(DatasetKind::Xor, 400, 0.0, 1);
    for (Index i = 0; i < 400; ++i) {
        EXPECT_GE(std::abs(xr.X(i, 0)), 0.3);
        EXPECT_EQ(xr.y(i), xr.X(i, 0) * xr.X(i, 1) >= 0 ? 1 : 0);
    }
    const Samples spiral = make_synthetic(DatasetKind::Spiral, 400, 0.0, 1);
    for (Index i = 0; i < 400; ++i) EXPECT_LE(spiral.X.row(i).norm(), 5.0 + 1e-12);
    // The two arms are point reflections of each other (Δt = π).
    EXPECT_NEAR(spiral.X(10, 0), -spiral.X(210, 0), 1e-12);
    const Samples gauss = make_synthetic(DatasetKind::Gauss, 2000, 0.0, 1);
    const Vec mean1 = gauss.X.topRows(1000).colwise().mean().transpose();
    EXPECT_NEAR(mean1(0), 2.0, 0.1);
    EXPECT_NEAR(mean1(1), 2.0, 0.1);
    // Noise moves the circle's labels near the boundary, and the spiral's points.
    const Samples noisy = make_synthetic(DatasetKind::Spiral, 400, 0.5, 1);
    EXPECT_GT((noisy.X - spiral.X).cwiseAbs().maxCoeff(), 0.1);
}

TEST(Datasets, SameSeedSameData) {
    for (DatasetKind kind : {DatasetKind::Circle, DatasetKind::Xor, DatasetKind::Gauss, DatasetKind::Spiral,
                             DatasetKind::Moons}) {
        const Samples a = make_synthetic(kind, 300, 0.2, 9), b = make_synthetic(kind, 300, 0.2, 9);
        const Samples c = make_synthetic(kind, 300, 0.2, 10);
        EXPECT_EQ(a.X, b.X);
        EXPECT_EQ(a.y, b.y);
        EXPECT_NE(a.X, c.X);
    }
    EXPECT_THROW(make_synthetic(DatasetKind::Digits, 10, 0.0, 1), std::invalid_argument);
    EXPECT_THROW(make_synthetic(DatasetKind::Spiral, 1, 0.0, 1), std::invalid_argument);
}

// [SECTION] Digits ---------------------------------------------------------------------------------

TEST(Datasets, DigitsFile) {
    const Samples d = load_digits();
    ASSERT_EQ(d.X.rows(), 1797);
    ASSERT_EQ(d.X.cols(), 64);
    EXPECT_EQ(d.classes, 10);
    EXPECT_EQ(d.X.minCoeff(), 0.0);
    EXPECT_EQ(d.X.maxCoeff(), 16.0);
    const int expected[10] = {178, 182, 177, 183, 181, 182, 181, 179, 174, 180};  // scikit-learn's counts
    for (int c = 0; c < 10; ++c) {
        EXPECT_EQ(count_class(d, c), expected[c]) << c;
        EXPECT_EQ(d.class_names[static_cast<std::size_t>(c)], std::to_string(c));
    }
    EXPECT_EQ(d.feature_names[9], "px11");
    // The first row of the file: a 0.
    EXPECT_EQ(d.y(0), 0);
    EXPECT_EQ(d.X(0, 2), 5.0);
}

// [SECTION] Split and scaling ------------------------------------------------------------------

TEST(Datasets, StratifiedSplitAndStandardization) {
    const Dataset ds = make_dataset(default_data_spec(DatasetKind::Digits, 4));
    EXPECT_EQ(ds.train_x.rows() + ds.test_x.rows(), 1797);
    EXPECT_EQ(ds.train_x.cols(), 64);
    for (int c = 0; c < 10; ++c) {
        const double n_train = static_cast<double>((ds.train_y.array() == c).count());
        const double n_all = n_train + static_cast<double>((ds.test_y.array() == c).count());
        EXPECT_NEAR(n_train, std::round(0.8 * n_all), 0.5) << c;
    }
    // Training features: mean 0 and std 1, except constant ones (std 1 → scale 1, all 0).
    const Vec mean = ds.train_x.colwise().mean().transpose();
    for (Index j = 0; j < 64; ++j) {
        EXPECT_NEAR(mean(j), 0.0, 1e-12) << j;
        const double sd = std::sqrt((ds.train_x.col(j).array() - mean(j)).square().mean());
        if (ds.scaler.scale(j) != 1.0 || sd > 0) {
            EXPECT_NEAR(sd, 1.0, 1e-12) << j;
        }
    }
    EXPECT_EQ(ds.scaler.scale(0), 1.0);  // the top-left pixel is always blank
    // Raw and scaled agree through the scaler.
    EXPECT_LT((ds.scaler.apply(ds.test_raw) - ds.test_x).cwiseAbs().maxCoeff(), 1e-15);
    // Same seed, same split.
    const Dataset again = make_dataset(default_data_spec(DatasetKind::Digits, 4));
    EXPECT_EQ(ds.train_y, again.train_y);
    EXPECT_EQ(ds.test_x, again.test_x);
}

TEST(Datasets, SpiralSplitAndBox) {
    const Dataset ds = make_dataset(default_data_spec(DatasetKind::Spiral, 2));
    EXPECT_EQ(ds.train_x.rows(), 250);
    EXPECT_EQ(ds.test_x.rows(), 250);
    EXPECT_EQ((ds.train_y.array() == 1).count(), 125);
    EXPECT_LT(ds.box.x_min, ds.train_raw.col(0).minCoeff());
    EXPECT_GT(ds.box.x_max, ds.train_raw.col(0).maxCoeff());
    EXPECT_GT(ds.box.y_max, ds.test_raw.col(1).maxCoeff());
    EXPECT_THROW(split_dataset(make_synthetic(DatasetKind::Spiral, 10, 0, 1), 1.0, 1, true, "s", DatasetKind::Spiral),
                 std::invalid_argument);
}

// [SECTION] CSV ------------------------------------------------------------------------------------

std::string csv_error(const std::string& text) {
    try {
        parse_csv(text, "data.csv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Csv, ParsesFeaturesAndRemapsLabels) {
    const Samples s = parse_csv("x,y,label\r\n1.5, 2,1\n\n-3,+4e0,-1\n\"5\",6,1\n", "CSV");
    ASSERT_EQ(s.X.rows(), 3);
    ASSERT_EQ(s.X.cols(), 2);
    EXPECT_EQ(s.X(0, 0), 1.5);
    EXPECT_EQ(s.X(1, 1), 4.0);
    EXPECT_EQ(s.X(2, 0), 5.0);
    EXPECT_EQ(s.classes, 2);
    EXPECT_EQ(s.class_names, (std::vector<std::string>{"-1", "1"}));
    EXPECT_EQ(s.y, (Labels(3) << 1, 0, 1).finished());
    EXPECT_EQ(s.feature_names, (std::vector<std::string>{"x", "y"}));
    // Semicolons, no header, a label written 2.0.
    const Samples t = parse_csv("1;2;0\n3;4;2.0\n", "CSV");
    EXPECT_EQ(t.classes, 2);
    EXPECT_EQ(t.class_names, (std::vector<std::string>{"0", "2"}));
    EXPECT_EQ(t.feature_names, (std::vector<std::string>{"x1", "x2"}));
}

TEST(Csv, ErrorMessagesNameLineAndColumn) {
    EXPECT_EQ(csv_error(""), "data.csv is empty: expected rows of numbers, each ending with an integer class label");
    EXPECT_EQ(csv_error("\n  \n"), "data.csv is empty: expected rows of numbers, each ending with an integer class label");
    EXPECT_EQ(csv_error("a,b,label\n"), "data.csv has a header line but no data rows");
    EXPECT_EQ(csv_error("1,2,0\n3,abc,1\n"), "data.csv line 2, column 2 is not a number");
    EXPECT_EQ(csv_error("1,2,0\n3,nan,1\n"), "data.csv line 2, column 2 is not a finite number");
    EXPECT_EQ(csv_error("1,2,0\n3,1e999,1\n"), "data.csv line 2, column 2 is not a finite number");
    EXPECT_EQ(csv_error("1,2,0\n3,,1\n"), "data.csv line 2, column 2 is empty");
    EXPECT_EQ(csv_error("1,2,0\n3,-2.5e400,1\n"), "data.csv line 2, column 2 is not a finite number");
    EXPECT_EQ(parse_csv("1e-400,2,0\n3,4,1\n", "CSV").X(0, 0), 0.0);  // underflow is harmless
    // Exponents at the ends of long long (found by fuzz_csv: fuzz/regressions/csv/).
    EXPECT_EQ(csv_error("1,2,0\n1e9223372036854775807,4,1\n"),
              "data.csv line 2, column 1 is not a finite number");
    EXPECT_EQ(parse_csv("0.01e-9223372036854775808,2,0\n3,4,1\n", "CSV").X(0, 0), 0.0);
    EXPECT_EQ(csv_error("1,2,3,4,0\n\n5,6,1\n"), "data.csv line 3 has 3 columns, line 1 has 5");
    EXPECT_EQ(csv_error("1\n2\n"), "data.csv line 1 has 1 column: need at least one feature and a label");
    EXPECT_EQ(csv_error("1,2,0\n3,4,1.5\n"), "data.csv line 2, column 3: the label is not an integer");
    EXPECT_EQ(csv_error("1,2,1\n3,4,1\n"), "data.csv: every row has label 1; need at least 2 classes");
    EXPECT_EQ(csv_error("a,b,c\n1,2\n"), "data.csv line 2 has 2 columns, the header (line 1) has 3");
    std::string many;
    for (int i = 0; i < 101; ++i) many += std::to_string(i) + "," + std::to_string(i) + "\n";
    EXPECT_EQ(csv_error(many), "data.csv: the label column has 101 distinct values; at most 100 classes");
}

TEST(Csv, Files) {
    const std::string path = ::testing::TempDir() + "normlab_test_data.csv";
    {
        std::ofstream out(path);
        out << "0.5,1,0\n1.5,2,1\n2.5,3,1\n";
    }
    const Samples s = load_csv(path);
    EXPECT_EQ(s.X.rows(), 3);
    EXPECT_EQ(s.y(0), 0);
    std::remove(path.c_str());
    try {
        load_csv("/nonexistent/normlab/data.csv");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot open /nonexistent/normlab/data.csv: No such file or directory");
    }
}

TEST(Datasets, Names) {
    for (DatasetKind k : kBuiltinDatasets) EXPECT_EQ(parse_dataset(to_string(k)), k);
    EXPECT_FALSE(parse_dataset("mnist"));
    EXPECT_TRUE(is_synthetic_2d(DatasetKind::Moons));
    EXPECT_FALSE(is_synthetic_2d(DatasetKind::Digits));
}

}  // namespace
}  // namespace normlab
