// The Gray-Scott family's test points (families_test.cpp checks each against the plain loop), the
// download pipeline's images against the plain loop's, and the refusals, on the Vulkan device with
// validation (synchronization validation included) on.
#include "bench/grayscott.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "harness/base/error.hpp"
#include "harness/vulkan/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::grayscott {
namespace {

// Callers keep a copy: GCC 13 and later warn (-Wdangling-reference) of a reference bound to what a
// call returns when one of its arguments was a temporary, here the name.
const Variant& Named(const std::string& name) {
  for (const Variant& v : Variants()) {
    if (v.name == name) return v;
  }
  throw std::logic_error("no variant " + name);
}

// The workgroup a table entry runs at on this device: a variant whose workgroup rows are
// subgroups runs the table's rows at the device's subgroup size (8 on lavapipe, 32 on NVIDIA),
// where the table's x would be refused; none where the device's compute subgroups vary in size,
// which such a variant skips.
std::optional<Extent> OnDevice(const Variant& variant, Extent workgroup, const DeviceInfo& info) {
  if (!variant.subgroup_rows) return workgroup;
  if (info.min_subgroup_size != info.max_subgroup_size) return std::nullopt;
  return Extent{info.subgroup_size, workgroup.y};
}

// The family's test (families_test.cpp checks each of its points on the device): every variant
// at every workgroup of its table on 67x45 and 13x7, the fused ones also on 131x97, and a fused
// variant whose tiles all exceed a CPU device's 32 KiB also at a smaller workgroup; each at one
// run length and mode, which the check does not depend on, and on its own domain.
TEST(GrayScottTest, CoversEveryVariantAndWorkgroupOnTheTestDomains) {
  std::set<std::string> names;
  for (const TestPoint& p : TestPoints(Descriptor())) EXPECT_TRUE(names.insert(p.name).second) << p.name;
  size_t want = 0;
  for (const Variant& v : Variants()) want += v.workgroups.size() * (v.steps > 1 ? 3 : 2);
  const Variant rows12 = Named("fused6_rows12");
  ASSERT_EQ(rows12.workgroups, (std::vector<Extent>{{64, 8}}));
  EXPECT_EQ(names.size(), want + 3);  // fused6_rows12 at 64x5 on three domains
  // The mode the test takes is the first a run takes (the host-clocked ones come first, so that the
  // next simulation is made ahead beside the compute mode); the check is the same for all three.
  EXPECT_TRUE(names.count("run_simulation/fused6_rows12/workgroup64x5/domain131x97/total512/image32/compute+download"));
  EXPECT_TRUE(names.count("run_simulation/global/workgroup8x8/domain13x7/total512/image32/compute+download"));
  EXPECT_FALSE(names.count("run_simulation/global/workgroup8x8/domain131x97/total512/image32/compute+download"));
  EXPECT_FALSE(names.count("run_simulation/global/workgroup8x8/domain13x7/total512/image32/compute"));
  for (const Point& p : GpuPoints(Descriptor(), {}, {}, &Descriptor().test_domains)) EXPECT_TRUE(p.test) << p.name;
}

// The benchmarks' names: each built-in domain with its own run, a --domain with the chapter's.
TEST(GrayScottTest, EachDomainRunsItsOwnScheduleAndAnOverrideTheChapters) {
  const std::vector<Point> points = GpuPoints(Descriptor(), {}, {}, nullptr);
  std::set<std::string> runs;
  for (const Point& p : points) {
    runs.insert(p.name.substr(p.name.find("/domain")));
    EXPECT_FALSE(p.test);
  }
  EXPECT_EQ(runs, (std::set<std::string>{"/domain1024x512/total32/image4/compute",
                                         "/domain1024x512/total32/image4/compute+download",
                                         "/domain1024x512/total32/image4/compute+download+sum",
                                         "/domain2048x1024/total512/image32/compute",
                                         "/domain2048x1024/total512/image32/compute+download",
                                         "/domain2048x1024/total512/image32/compute+download+sum",
                                         "/domain8192x8192/total64/image16/compute",
                                         "/domain8192x8192/total64/image16/compute+download",
                                         "/domain8192x8192/total64/image16/compute+download+sum"}));
  EXPECT_EQ(GpuPoints(Descriptor(), {{8192, 8192}}, {{16, 8}}, nullptr).front().name,
            "run_simulation/global/workgroup16x8/domain8192x8192/total512/image32/compute+download");
  // A simulation's three modes one after another, the compute mode last (harness/measure/measure.hpp).
  EXPECT_TRUE(points[0].name.ends_with("/compute+download"));
  EXPECT_TRUE(points[1].name.ends_with("/compute+download+sum"));
  EXPECT_TRUE(points[2].name.ends_with("/compute"));
}

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

TEST(GrayScottCheck, CatchesAWrongFusedKernel) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  for (const char* name : {"fused4", "fused6_shuffle12"}) {
    Variant wrong = Named(name);
    wrong.name += "_injected_error";
    wrong.defines.push_back({"INJECT_ERROR", "1"});
    const std::optional<Extent> workgroup = OnDevice(wrong, wrong.workgroups.front(), context->info());
    if (!workgroup) continue;
    Comparison check = Check(*context, wrong, *workgroup);
    EXPECT_FALSE(check.passed) << name;
    EXPECT_GT(check.max_relative_error, 10 * kTolerance) << name;
  }
  testing::ExpectNoNewValidationMessages();
}

// The on-chip ceiling of fused6_shuffle12 (ceiling/fused6_shuffle12_on_chip): the simulation's
// own pipeline over the grid of a domain of 17 tiles a row, its workgroup IDs masked to 16 x 16
// tiles, matches the plain loop's pass over those tiles' domain, and a kernel off by 1e-4 a step
// does not pass. A plain variant is refused.
TEST(GrayScottOnChip, MatchesThePlainLoopOnItsTilesAndCatchesAWrongKernel) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  Variant variant = Named("fused6_shuffle12");
  const std::optional<Extent> workgroup = OnDevice(variant, variant.workgroups.front(), context->info());
  if (!workgroup) GTEST_SKIP() << "the device's compute subgroups vary in size";
  const uint32_t output_x = 2 * workgroup->x - 2 * variant.steps;
  const Extent domain{17 * output_x + 5, 97};  // 18 tiles a row: the mask folds two onto others
  OnChip on_chip(*context, variant, *workgroup, domain);
  const Comparison right = on_chip.Check();
  EXPECT_TRUE(right.passed) << right.message;
  // The cell-steps of a simulation pass over the same grid: the domain's cells, 6 steps.
  EXPECT_EQ(on_chip.cell_steps(), static_cast<double>(domain.x) * domain.y * 6);
  variant.defines.push_back({"INJECT_ERROR", "1"});
  const Comparison wrong = OnChip(*context, variant, *workgroup, domain).Check();
  EXPECT_FALSE(wrong.passed);
  EXPECT_GT(wrong.max_relative_error, 10 * kTolerance);
  EXPECT_NE(wrong.message.find("ceiling's tiles"), std::string::npos) << wrong.message;
  EXPECT_THROW(OnChip(*context, Named("fused4"), {64, 4}, {131, 97}), Error);
  testing::ExpectNoNewValidationMessages();
}

// The kernel honours the mask: with a mask of 0, every workgroup of a 3 x 2 grid advances tile
// (0, 0), whose output cells match the plain loop's pass, and no other cell is written (a kernel
// that ignored the mask would write them all, and the ceiling would time a simulation pass).
TEST(GrayScottOnChip, EveryWorkgroupTakesTheTileOfItsMaskedId) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Variant variant = Named("fused6_shuffle12");
  const std::optional<Extent> workgroup = OnDevice(variant, variant.workgroups.front(), context->info());
  if (!workgroup) GTEST_SKIP() << "the device's compute subgroups vary in size";
  const Extent output{2 * workgroup->x - 2 * variant.steps, workgroup->y * variant.cells.y - 2 * variant.steps};
  const Extent domain{3 * output.x, 2 * output.y};
  const State initial = InitialState(domain.x, domain.y, {0, 0, domain.x, domain.y}, kSeed);
  Simulation simulation(*context, variant, *workgroup, initial);
  const State got = simulation.MaskedPass({3, 2, 1}, 0);
  State want = initial;
  State scratch = initial;
  Simulate(want, scratch, variant.steps);
  uint32_t written = 0;
  uint32_t wrong = 0;
  for (uint32_t y = 0; y < domain.y; ++y) {
    for (uint32_t x = 0; x < domain.x; ++x) {
      const size_t i = initial.layout.Index(x, y);
      if (x < output.x && y < output.y) {
        wrong += std::abs(got.v[i] - want.v[i]) > 1e-5f || std::abs(got.u[i] - want.u[i]) > 1e-5f;
      } else {
        written += !std::isnan(got.u[i]) || !std::isnan(got.v[i]);
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(written, 0u);
  testing::ExpectNoNewValidationMessages();
}

// Any step count: full passes, a shorter last pass, and runs that resume from either state.
TEST(GrayScottFused, AnyStepCountMatchesThePlainLoop) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Variant fused = Named("fused4");
  const State initial = InitialState(kCheckDomain.x, kCheckDomain.y, {0, 0, kCheckDomain.x, kCheckDomain.y}, 5);
  Simulation simulation(*context, fused, {64, 4}, initial);
  simulation.Reset(/*poison=*/true);
  uint32_t done = 0;
  for (uint32_t steps : {1u, 3u, 4u, 5u, 9u, 2u}) {
    const State got = simulation.Simulate(steps);
    done += steps;
    const Comparison c = CompareWithReference(initial, got, done);
    EXPECT_TRUE(c.passed) << "after " << steps << " more steps: " << c.message;
  }
  EXPECT_EQ(Passes(fused, 1), 1u);
  EXPECT_EQ(Passes(fused, 4), 1u);
  EXPECT_EQ(Passes(fused, 9), 3u);
  EXPECT_EQ(Passes(Named("strip4x4"), 9), 9u);
  testing::ExpectNoNewValidationMessages();
}

TEST(GrayScottWorkgroups, FusedRefusesATileWithoutRoomForItsHalo) {
  const Variant fused = Named("fused4");  // 8 rows per work-item, a 4-cell halo
  for (Extent wg : {Extent{8, 8}, Extent{4, 8}, Extent{64, 1}}) {
    try {
      RequireWorkgroup(fused, wg);
      ADD_FAILURE() << "fused4 accepted " << wg.x << "x" << wg.y;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("must be more than 8 cells on each side"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(RequireWorkgroup(fused, {9, 2}));
  Context* context = testing::SharedContext();
  if (context != nullptr) {
    State initial = InitialState(13, 7, {}, 1);
    EXPECT_THROW(Simulation(*context, fused, {8, 8}, initial), Error);
    // More shared memory than the device has is refused with the numbers, not left to the driver.
    const uint32_t limit = context->info().max_shared_memory_bytes;
    const Extent huge{64, limit / (16 * 64 * fused.cells.y) + 1};
    try {
      Simulation(*context, fused, huge, initial);
      ADD_FAILURE() << "accepted " << SharedBytes(fused, huge) << " bytes of shared memory";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bytes of shared memory; the device allows"), std::string::npos)
          << e.what();
    }
  }
}

TEST(GrayScottWorkgroups, SubgroupRowsRefuseAnotherRowWidth) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Variant shuffle = Named("fused6_shuffle12");
  ASSERT_TRUE(shuffle.subgroup_rows);
  const uint32_t size = context->info().subgroup_size;
  // The devices the tests run on (lavapipe, NVIDIA) have one compute subgroup size.
  EXPECT_LE(context->info().min_subgroup_size, size);
  EXPECT_GE(context->info().max_subgroup_size, size);
  if (context->info().min_subgroup_size != context->info().max_subgroup_size) {
    GTEST_SKIP() << "the device's compute subgroups vary in size; the variants skip it";
  }
  State initial = InitialState(13, 7, {}, 1);
  // Wider rows than a subgroup (narrower ones first fail the halo rule on a small subgroup).
  for (uint32_t x : {2 * size, 4 * size}) {
    try {
      Simulation(*context, shuffle, {x, 2}, initial);
      ADD_FAILURE() << "accepted workgroup " << x << "x2 with subgroups of " << size;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("must be the device's subgroup size (" + std::to_string(size) + ")"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_NO_THROW(Simulation(*context, shuffle, {size, 8}, initial));
  // An odd step count would start tiles at odd columns, where a pair of cells is not one aligned load.
  Variant odd = shuffle;
  odd.steps = 5;
  EXPECT_THROW(RequireWorkgroup(odd, {32, 8}), Error);
  // Two buffers of each work-item's first and last rows of two (U, V) pairs: 64 bytes a work-item.
  EXPECT_EQ(SharedBytes(shuffle, {32, 8}), 64u * 256);
  testing::ExpectNoNewValidationMessages();
}

TEST(GrayScottWorkgroups, SharedMemoryRefusesASideBelowThree) {
  Context* context = testing::SharedContext();
  for (const Variant& v : Variants()) {
    if (v.steps > 1) continue;  // FusedRefusesATileWithoutRoomForItsHalo
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
  // fused4: each 5-step image is a 4-step pass and a 1-step pass, so images alternate between
  // starting from either state too.
  for (const char* name : {"global", "strip4x8", "fused4"}) {
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
  uint32_t fused = 0;
  for (const Variant& v : Variants()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    std::set<std::pair<uint32_t, uint32_t>> distinct;
    for (Extent e : v.workgroups) distinct.insert({e.x, e.y});
    EXPECT_EQ(distinct.size(), v.workgroups.size()) << v.name << " repeats a workgroup";
    if (v.steps > 1) {
      ++fused;
      // The check runs at least two full passes and a shorter one.
      EXPECT_GE(kCheckSteps / v.steps, 2u) << v.name;
      EXPECT_NE(kCheckSteps % v.steps, 0u) << v.name;
      for (Extent wg : v.workgroups) {
        EXPECT_NO_THROW(RequireWorkgroup(v, wg)) << v.name;
        // NVIDIA's Vulkan drivers allow 48 KiB of shared memory per workgroup.
        EXPECT_LE(SharedBytes(v, wg), 48u * 1024) << v.name << " " << wg.x << "x" << wg.y;
      }
      continue;
    }
    EXPECT_EQ(SharedBytes(v, v.workgroups.front()), 0u) << v.name;
    // Every one-step variant runs the chapter's workgroups first, in its order; the strip
    // variants add wide ones after them.
    ASSERT_GE(v.workgroups.size(), chapter.size()) << v.name;
    EXPECT_TRUE(std::equal(chapter.begin(), chapter.end(), v.workgroups.begin())) << v.name;
  }
  for (const char* name : {"global", "shared_aos", "shared_soa", "fused2", "fused4"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
  EXPECT_GE(fused, 2u);
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
