// The sweep a descriptor makes: names built once, in a fixed order, the overrides of the command
// line, and the points its test checks. No device needed.
#include "harness/base/error.hpp"
#include "harness/family/family.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace csbench {
namespace {

struct Row {
  std::string name;
  std::vector<Extent> workgroups;
  std::vector<Extent> domains;  // empty: the family's
};

Family<Row> OneDimensional() {
  return {.name = "fam",
          .variants = {{.name = "a", .workgroups = {{64}, {256}}}, {.name = "b", .workgroups = {{32}}}},
          .domains = {{1000}, {4000}},
          .test_domains = {{37}}};
}

std::vector<std::string> Names(const std::vector<Point>& points) {
  std::vector<std::string> names;
  for (const Point& p : points) names.push_back(p.name);
  return names;
}

TEST(FamilySweep, DomainThenVariantThenWorkgroup) {
  EXPECT_EQ(Names(GpuPoints(OneDimensional(), {}, {}, nullptr)),
            (std::vector<std::string>{"fam/a/wg64x1/domain1000x1", "fam/a/wg256x1/domain1000x1",
                                      "fam/b/wg32x1/domain1000x1", "fam/a/wg64x1/domain4000x1",
                                      "fam/a/wg256x1/domain4000x1", "fam/b/wg32x1/domain4000x1"}));
}

TEST(FamilySweep, PointsCarryTheirAxes) {
  const std::vector<Point> points = GpuPoints(OneDimensional(), {}, {}, nullptr);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[2].variant, 1u);
  EXPECT_EQ(points[2].workgroup, (Extent{32, 1}));
  EXPECT_EQ(points[2].domain, (Extent{1000, 1}));
}

TEST(FamilySweep, CountStyleAndAFurtherAxis) {
  Family<Row> family = OneDimensional();
  family.style = Style::kCount;
  family.axes = {{.name = "keep", .prefix = "keep", .values = {1, 99}}};
  const std::vector<Point> points = GpuPoints(family, {}, {}, nullptr);
  EXPECT_EQ(points.front().name, "fam/a/wg64/domain1000/keep1");
  EXPECT_EQ(points.size(), 12u);
  EXPECT_EQ(points[1].name, "fam/a/wg64/domain1000/keep99");
  EXPECT_EQ(points[1].Number("keep"), 99.0);
  // The coordinates are the name's parts without their prefixes, numbers as numbers.
  EXPECT_EQ(points[1].axes, (std::vector<Coordinate>{{"workgroup", "64"}, {"domain", "1000"}, {"keep", 99}}));
}

TEST(FamilySweep, SeveralAxesVaryTheLastFastestAndAnEmptyPrefixWritesTheValueAlone) {
  Family<Row> family = OneDimensional();
  family.variants.resize(1);
  family.variants[0].workgroups = {{64}};
  family.domains = {{1000}};
  family.axes = {{.name = "total", .prefix = "total", .values = {512, 64}},
                 {.name = "mode", .prefix = "", .values = {"compute", "compute+download"}}};
  const std::vector<Point> points = GpuPoints(family, {}, {}, nullptr);
  EXPECT_EQ(Names(points), (std::vector<std::string>{"fam/a/wg64x1/domain1000x1/total512/compute",
                                                     "fam/a/wg64x1/domain1000x1/total512/compute+download",
                                                     "fam/a/wg64x1/domain1000x1/total64/compute",
                                                     "fam/a/wg64x1/domain1000x1/total64/compute+download"}));
  EXPECT_EQ(points[3].Number("total"), 64.0);
  EXPECT_EQ(points[3].Text("mode"), "compute+download");
  EXPECT_EQ(points[3].Text("domain"), "1000x1");
  // A missing axis, or a value of the other kind, is an error, not a default.
  EXPECT_THROW(points[3].Value("keep"), Error);
  EXPECT_THROW(points[3].Number("mode"), Error);
  EXPECT_THROW(points[3].Text("total"), Error);
}

TEST(FamilySweep, PlainLoopsHaveNoWorkgroupAndTakeEveryCombination) {
  Family<Row> family = OneDimensional();
  family.axes = {{.name = "keep", .prefix = "keep", .values = {1, 99}}};
  std::vector<Point> loops;
  std::vector<Description> described;  // what each loop's record would be given
  family.plain_loop = [&](Suite&, const Point& p) {
    loops.push_back(p);
    if (const Description* d = DescriptionBeingRegistered()) described.push_back(*d);
  };
  Suite suite;  // no device: only the plain loops register
  RegisterFamily(suite, family);
  ASSERT_EQ(loops.size(), 4u);
  EXPECT_EQ(loops[1].name, "fam/plain_loop/domain1000x1/keep99");
  EXPECT_EQ(loops[1].axes, (std::vector<Coordinate>{{"domain", "1000x1"}, {"keep", 99}}));
  ASSERT_EQ(described.size(), 4u);
  EXPECT_EQ(described[1], (Description{.family = "fam", .variant = "plain_loop", .clock = Clock::kHost, .axes = loops[1].axes}));
  EXPECT_EQ(DescriptionBeingRegistered(), nullptr);  // the scope ends with the registration
}

TEST(FamilySweep, OverridesReplaceTheBuiltInValues) {
  const std::vector<Point> points = GpuPoints(OneDimensional(), {{5000}}, {{128}, {512}}, nullptr);
  EXPECT_EQ(Names(points), (std::vector<std::string>{"fam/a/wg128x1/domain5000x1", "fam/a/wg512x1/domain5000x1",
                                                     "fam/b/wg128x1/domain5000x1", "fam/b/wg512x1/domain5000x1"}));
}

TEST(FamilySweep, AOneDimensionalFamilyTakesOnlyOverridesOfHeightOne) {
  // 2560x1440 is not a one-dimensional domain: the family keeps none of it, and registers only
  // the 1-D values given.
  EXPECT_EQ(
      Names(GpuPoints(OneDimensional(), {{2560, 1440}, {300}}, {}, nullptr)),
      (std::vector<std::string>{"fam/a/wg64x1/domain300x1", "fam/a/wg256x1/domain300x1", "fam/b/wg32x1/domain300x1"}));
  EXPECT_TRUE(GpuPoints(OneDimensional(), {{2560, 1440}}, {}, nullptr).empty());
  Family<Row> image = OneDimensional();
  image.one_dimensional = false;
  EXPECT_EQ(GpuPoints(image, {{2560, 1440}}, {{8, 8}}, nullptr).front().name, "fam/a/wg8x8/domain2560x1440");
}

TEST(FamilySweep, OnlyAThreeDimensionalFamilyTakesOverridesWithADepth) {
  Family<Row> image = OneDimensional();
  image.one_dimensional = false;
  // A depth is not a 2-D family's: it keeps only the overrides of depth 1.
  EXPECT_EQ(Names(GpuPoints(image, {{64, 40, 8}, {64, 40}}, {{8, 8}}, nullptr)),
            (std::vector<std::string>{"fam/a/wg8x8/domain64x40", "fam/b/wg8x8/domain64x40"}));
  EXPECT_TRUE(GpuPoints(image, {{64, 40, 8}}, {}, nullptr).empty());
  image.three_dimensional = true;
  EXPECT_EQ(GpuPoints(image, {{64, 40, 8}}, {{4, 4, 4}}, nullptr).front().name, "fam/a/wg4x4x4/domain64x40x8");
}

TEST(FamilySweep, AVariantsOwnDomains) {
  Family<Row> family = OneDimensional();
  family.variants[1].domains = {{7}};
  EXPECT_EQ(
      Names(GpuPoints(family, {}, {}, nullptr)),
      (std::vector<std::string>{"fam/a/wg64x1/domain1000x1", "fam/a/wg256x1/domain1000x1", "fam/a/wg64x1/domain4000x1",
                                "fam/a/wg256x1/domain4000x1", "fam/b/wg32x1/domain7x1"}));
  // An override replaces a variant's own domains too.
  EXPECT_EQ(GpuPoints(family, {{9}}, {}, nullptr).size(), 3u);
}

TEST(FamilySweep, TestPointsAreEveryVariantAndWorkgroupOnTheTestDomains) {
  Family<Row> family = OneDimensional();
  family.make = [](Suite&, const Row&, const Point&) -> std::unique_ptr<Case> { return nullptr; };
  const std::vector<TestPoint> tests = TestPoints(family);
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests[0].name, "fam/a/wg64x1/domain37x1");
  EXPECT_EQ(tests[2].name, "fam/b/wg32x1/domain37x1");
}

TEST(FamilySweep, ThreeDimensionalNames) {
  EXPECT_EQ(SizedAs("wg", {4, 4, 4}, Style::kPair), "wg4x4x4");
  EXPECT_EQ(SizedAs("domain", {1920, 1080}, Style::kPair), "domain1920x1080");
  EXPECT_EQ(SizedAs("domain", {2097152}, Style::kCount), "domain2097152");
}

TEST(FamilyLimits, UnsupportedNamesTheLimit) {
  try {
    RequireSupport(false, "a workgroup of 2048 invocations");
    FAIL() << "no throw";
  } catch (const std::exception& e) {
    EXPECT_TRUE(std::string_view(e.what()).starts_with("unsupported: a workgroup of 2048 invocations")) << e.what();
  }
  EXPECT_NO_THROW(RequireSupport(true, "anything"));
}

}  // namespace
}  // namespace csbench
