// Order statistics (normlab/base/stats.hpp), against values worked by hand.
#include <normlab/base/stats.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace normlab {
namespace {

TEST(Stats, PercentileInterpolatesBetweenRanks) {
    const std::vector<double> five = {5.0, 1.0, 4.0, 2.0, 3.0};   // unsorted on purpose
    EXPECT_EQ(percentile(five, 0.0), 1.0);
    EXPECT_EQ(percentile(five, 1.0), 5.0);
    EXPECT_EQ(percentile(five, 0.5), 3.0);
    EXPECT_DOUBLE_EQ(percentile(five, 0.95), 4.8);   // rank 0.95 · 4 = 3.8: 4 + 0.8 · (5 − 4)
    EXPECT_DOUBLE_EQ(percentile({10.0, 20.0}, 0.25), 12.5);
    EXPECT_EQ(percentile({7.0}, 0.95), 7.0);
}

TEST(Stats, MedianIsTheMiddleOrTheMeanOfTheMiddleTwo) {
    EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
}

TEST(Stats, NothingToRankIsNaN) {
    EXPECT_TRUE(std::isnan(percentile({}, 0.5)));
    EXPECT_TRUE(std::isnan(median({})));
    EXPECT_TRUE(std::isnan(percentile({1.0, 2.0}, -0.1)));
    EXPECT_TRUE(std::isnan(percentile({1.0, 2.0}, 1.5)));
    EXPECT_TRUE(std::isnan(percentile({1.0, 2.0}, std::nan(""))));
}

}  // namespace
}  // namespace normlab
