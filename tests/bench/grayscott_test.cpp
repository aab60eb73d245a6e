// Every Gray-Scott variant x workgroup against the plain loop on small odd-sized domains, the
// download pipeline's images against the plain loop's, and the refusals, on the Vulkan device with
// validation (synchronization validation included) on.
#include "bench/grayscott.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "harness/context.hpp"
#include "harness/error.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::grayscott {
namespace {

struct Case {
  const Variant* variant;
  Extent workgroup;
  Extent domain;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 67x45: partial tiles on the right and bottom edges for every tile size. 13x7: a domain smaller
  // than most tiles, so one workgroup covers it and most of its work-items have no cell.
  for (Extent domain : {kCheckDomain, Extent{13, 7}}) {
    for (const Variant& v : Variants()) {
      for (Extent wg : v.workgroups) cases.push_back({&v, wg, domain});
    }
  }
  return cases;
}

const Variant& Named(const std::string& name) {
  for (const Variant& v : Variants()) {
    if (v.name == name) return v;
  }
  throw std::logic_error("no variant " + name);
}

class GrayScottVariant : public ::testing::TestWithParam<Case> {};

TEST_P(GrayScottVariant, MatchesThePlainLoop) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  Comparison check = Check(*context, *c.variant, c.workgroup, c.domain, kCheckSteps);
  EXPECT_TRUE(check.passed) << check.message;
  EXPECT_LE(check.max_relative_error, kTolerance);
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, GrayScottVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_workgroup" + std::to_string(c.workgroup.x) + "x" +
                                  std::to_string(c.workgroup.y) + "_domain" + std::to_string(c.domain.x) + "x" +
                                  std::to_string(c.domain.y);
                         });

TEST(GrayScottCheck, CatchesAWrongKernel) {
  // The check must be able to fail: V off by 1e-4 per step must not pass.
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  Variant wrong = Named("shared_soa");
  wrong.name = "shared_soa_injected_error";
  wrong.defines.push_back({"INJECT_ERROR", "1"});
  Comparison check = Check(*context, wrong, {16, 8});
  EXPECT_FALSE(check.passed);
  EXPECT_GT(check.max_relative_error, 10 * kTolerance);
  EXPECT_NE(check.message.find("V at x="), std::string::npos) << check.message;
  testing::ExpectNoNewValidationMessages();
}

TEST(GrayScottWorkgroups, SharedMemoryRefusesASideBelowThree) {
  Context* context = testing::SharedContext();
  for (const Variant& v : Variants()) {
    for (Extent wg : {Extent{2, 16}, Extent{16, 2}, Extent{1, 1}}) {
      if (v.border == 0) {
        EXPECT_NO_THROW(RequireWorkgroup(v, wg)) << v.name;
        continue;
      }
      try {
        RequireWorkgroup(v, wg);
        ADD_FAILURE() << v.name << " accepted " << wg.x << "x" << wg.y;
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("at least 3 work-items in each dimension"), std::string::npos) << e.what();
      }
      if (context != nullptr) {
        // The simulation itself refuses, not only the registration.
        State initial = InitialState(13, 7, {}, 1);
        EXPECT_THROW(Simulation(*context, v, wg, initial), Error) << v.name;
      }
    }
    EXPECT_NO_THROW(RequireWorkgroup(v, {3, 3})) << v.name;
  }
}

// The download pipeline: every image's V sum, as the host sees it in its slot, against the plain
// loop's. More images than slots, so slots are reused while later images are in flight; an odd
// image length, so images start from either state.
TEST(GrayScottImages, EachImageIsTheStateAfterItsSteps) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const uint32_t total = 35, image = 5;
  const State initial = InitialState(kCheckDomain.x, kCheckDomain.y, CentralRegion(kCheckDomain.x, kCheckDomain.y), 9);
  std::vector<double> want;
  State reference = initial;
  State scratch = initial;
  for (uint32_t k = 0; k < total / image; ++k) {
    Simulate(reference, scratch, image);
    want.push_back(CellSum(reference.layout, reference.v));
  }
  for (const char* name : {"global", "strip4x8"}) {
    Simulation simulation(*context, Named(name), {16, 8}, initial);
    simulation.PrepareImages(total, image);
    for (int run = 0; run < 2; ++run) {  // the recorded submissions run again after a reset
      simulation.Reset();
      std::vector<double> got;
      simulation.RunImages([&](uint32_t k, std::span<const float> v) {
        EXPECT_EQ(k, got.size());
        got.push_back(CellSum(initial.layout, v));
      });
      ASSERT_EQ(got.size(), want.size()) << name;
      for (size_t k = 0; k < want.size(); ++k) {
        EXPECT_NEAR(got[k], want[k], 1e-5 * want[k]) << name << " image " << k << " run " << run;
      }
    }
    // Images of a different length are refused, not silently truncated.
    EXPECT_THROW(simulation.PrepareImages(total, 6), Error);
  }
  testing::ExpectNoNewValidationMessages();
}

TEST(GrayScottTable, NamesUniqueWorkgroupsTheChaptersRunsWhole) {
  std::set<std::string> names;
  const std::vector<Extent> chapter = {{8, 8}, {16, 8}, {16, 16}, {32, 16}, {32, 32}};
  for (const Variant& v : Variants()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    // Every variant runs the chapter's workgroups first, in its order; the strip variants add
    // wide ones after them.
    ASSERT_GE(v.workgroups.size(), chapter.size()) << v.name;
    EXPECT_TRUE(std::equal(chapter.begin(), chapter.end(), v.workgroups.begin())) << v.name;
    std::set<std::pair<uint32_t, uint32_t>> distinct;
    for (Extent e : v.workgroups) distinct.insert({e.x, e.y});
    EXPECT_EQ(distinct.size(), v.workgroups.size())
        << v.name << " repeats a workgroup";
  }
  for (const char* name : {"global", "shared_aos", "shared_soa"}) EXPECT_TRUE(names.count(name)) << name;
  bool chapter_run = false;
  for (const Schedule& r : Schedules()) {
    EXPECT_EQ(r.total % r.image, 0u);
    EXPECT_GT(r.total / r.image, kSlots) << "too few images for the pipeline to show";
    chapter_run |= r.domain == Extent{2048, 1024} && r.total == 512 && r.image == 32;
  }
  EXPECT_TRUE(chapter_run);
  EXPECT_EQ(ToString(Mode::kComputeDownloadSum), "compute+download+sum");
}

}  // namespace
}  // namespace csbench::grayscott
