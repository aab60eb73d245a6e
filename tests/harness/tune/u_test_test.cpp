#include "harness/tune/u_test.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace csbench {
namespace {

// The reference p-values below are scipy 1.10's, from
//   mannwhitneyu(a, b, alternative="greater", method=...).pvalue
// with the method stats.py's utest_pvalues picks for the case.

void ExpectRelativelyNear(double expected, std::optional<double> got, double tolerance) {
  ASSERT_TRUE(got.has_value());
  EXPECT_NEAR(*got, expected, tolerance * expected) << "expected " << expected;
}

std::vector<double> Range(double first, int count) {
  std::vector<double> values;
  for (int i = 0; i < count; ++i) values.push_back(first + i);
  return values;
}

TEST(UTest, NineAgainstNineSeparatedIsOneOverTheOrderings) {
  // 1 / C(18, 9): the normal approximation would say 2.1e-4, tenfold too large.
  ExpectRelativelyNear(1.0 / 48620, UTestGreater(Range(10, 9), Range(1, 9)), 1e-9);
  ExpectRelativelyNear(2.0567667626491154e-05, UTestGreater(Range(10, 9), Range(1, 9)), 1e-9);
}

TEST(UTest, SeparatedTheOtherWayIsOne) {
  ExpectRelativelyNear(0.9999999999999998, UTestGreater(Range(1, 9), Range(10, 9)), 1e-9);
}

TEST(UTest, InterleavedExact) {
  const std::vector<double> a = {1.5, 3.2, 5.1, 7.7, 9.3, 11.0, 13.4, 15.2, 17.9};
  const std::vector<double> b = {2.1, 4.4, 6.0, 8.8, 10.2, 12.5, 14.1, 16.6, 18.3};
  ExpectRelativelyNear(0.6667626491155901, UTestGreater(a, b), 1e-9);
  ExpectRelativelyNear(0.3652200740436034, UTestGreater(b, a), 1e-9);
}

TEST(UTest, TiesWithinASideStayExact) {
  // The asymptotic method would give 0.0488 here, on the other side of alpha.
  ExpectRelativelyNear(0.050699300699300696, UTestGreater({5, 5, 5, 7, 8, 8, 12}, {1, 2, 2, 4, 6, 9}), 1e-9);
}

TEST(UTest, AValueOnBothSidesIsAsymptotic) {
  // The exact method would give 0.0367 here.
  ExpectRelativelyNear(0.03469304769046325, UTestGreater({3, 4, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 4, 5}), 1e-6);
}

TEST(UTest, SixtyAgainstSixtyIsAsymptotic) {
  std::vector<double> a, b;
  for (int i = 0; i < 60; ++i) {
    a.push_back(100 + ((i * 37) % 61) * 0.5);
    b.push_back(98 + ((i * 53) % 67) * 0.5);
  }
  ExpectRelativelyNear(0.4602778877958723, UTestGreater(a, b), 1e-6);
}

TEST(UTest, FiftyAgainstFiftyIsStillExact) {
  std::vector<double> a, b;  // odd against even: no value on both sides
  for (int i = 0; i < 50; ++i) {
    a.push_back(21 + 2 * ((i * 7) % 50));
    b.push_back(2 * ((i * 11) % 50));
  }
  ExpectRelativelyNear(0.000527508235556838, UTestGreater(a, b), 1e-9);
  // The far tail, 1 / C(100, 50), beyond what a 64-bit count of the orderings could hold.
  ExpectRelativelyNear(9.911653021418343e-30, UTestGreater(Range(100, 50), Range(0, 50)), 1e-9);
}

TEST(UTest, FiftyOneIsAsymptotic) {
  ExpectRelativelyNear(1.6518407508330782e-18, UTestGreater(Range(100, 51), Range(0, 51)), 1e-6);
}

TEST(UTest, UnequalSizes) {
  ExpectRelativelyNear(0.9645155272236295, UTestGreater({10, 11, 12, 13}, Range(0.5, 50)), 1e-9);
  // 10 to 13 are on both sides: asymptotic (scipy's exact would give 0.9585329).
  ExpectRelativelyNear(0.9585542761613038, UTestGreater({10, 11, 12, 13}, Range(0, 50)), 1e-6);
}

TEST(UTest, AllEqualIsOne) { EXPECT_EQ(UTestGreater({2, 2, 2, 2}, {2, 2, 2, 2, 2}), 1.0); }

TEST(UTest, TooFewRepetitionsGiveNoTest) {
  EXPECT_FALSE(UTestGreater({1, 2, 3}, {4, 5, 6, 7}).has_value());
  EXPECT_FALSE(UTestGreater({4, 5, 6, 7}, {}).has_value());
  EXPECT_TRUE(UTestGreater({1, 2, 3, 4}, {5, 6, 7, 8}).has_value());
}

TEST(UTest, NanGivesNoTest) { EXPECT_FALSE(UTestGreater({1, 2, 3, std::nan("")}, {4, 5, 6, 7}).has_value()); }

}  // namespace
}  // namespace csbench
