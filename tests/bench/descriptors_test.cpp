// What each family's descriptor promises beyond its points (those are checked on the device by
// families_test.cpp): its table's shape, its names, and checks that must be able to fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <iostream>
#include <set>
#include <string>
#include <utility>

#include "bench/append.hpp"
#include "bench/atomics.hpp"
#include "bench/bank_conflicts.hpp"
#include "bench/barriers.hpp"
#include "bench/group_size.hpp"
#include "bench/neighborhood.hpp"
#include "bench/neighborhood3d.hpp"
#include "bench/occupancy.hpp"
#include "bench/packing.hpp"
#include "bench/reduction.hpp"
#include "bench/uniform_data.hpp"
#include "bench/vector_width.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/pipeline_stats.hpp"
#include "kernels/atomics/reference.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

// The GPU benchmark names of `family` with its built-in values.
template <typename V>
std::vector<std::string> Names(const Family<V>& family) {
  std::vector<std::string> names;
  for (const Point& p : GpuPoints(family, {}, {}, nullptr)) names.push_back(p.name);
  return names;
}

template <typename V>
bool Named(const Family<V>& family, const std::string& name) {
  const std::vector<std::string> names = Names(family);
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Makes `variant`'s case at one point of `family` on the shared device and checks it.
template <typename V>
Comparison CheckOn(const Family<V>& family, const V& variant, Extent workgroup, Extent domain) {
  std::unique_ptr<Case> gpu =
      family.make(*testing::SharedSuite(), variant, {.name = "test", .workgroup = workgroup, .domain = domain});
  return gpu->Check();
}

TEST(GroupSizeTable, CoversTheTalksSizes) {
  std::set<uint32_t> sizes;
  for (const auto& v : group_size::Descriptor().variants) {
    for (Extent wg : v.workgroups) sizes.insert(wg.x);
  }
  // The talk's sizes, and 2, 4 and 8: below a CPU device's subgroup, for its quick set.
  EXPECT_EQ(sizes, (std::set<uint32_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_TRUE(Named(group_size::Descriptor(), "group_size/scale_add/wg256x1/domain16777216x1"));
}

TEST(VectorWidthTable, WidthsMatchTheirElementsAndRunAtTheSameGroupSizes) {
  std::set<uint32_t> widths;
  const auto& variants = vector_width::Descriptor().variants;
  for (const auto& v : variants) {
    widths.insert(v.width);
    bool found = false;
    for (const Define& d : v.defines) {
      if (d.name == "WIDTH") found = d.value == std::to_string(v.width);
    }
    EXPECT_TRUE(found) << v.name;
    // The widths are compared at each group size, so each needs the same sizes, more than one.
    EXPECT_EQ(v.workgroups, variants.front().workgroups) << v.name;
  }
  EXPECT_GT(variants.front().workgroups.size(), 1u);
  EXPECT_EQ(widths, (std::set<uint32_t>{1, 2, 4}));
}

TEST(VectorWidthCheck, SkipsACountThatIsNotWholeVec4) {
  if (testing::SharedSuite() == nullptr) GTEST_SKIP() << "no Vulkan device";
  const auto& family = vector_width::Descriptor();
  try {
    CheckOn(family, family.variants[0], {64}, {102});
    FAIL() << "102 floats were accepted";
  } catch (const std::exception& e) {
    EXPECT_TRUE(std::string_view(e.what()).starts_with("unsupported: vector_width: 102 floats")) << e.what();
  }
}

TEST(BarriersTable, OneFourAndSixteenBarriersAtBothSizesForEveryKindOfWork) {
  std::set<std::pair<uint32_t, uint32_t>> rounds_and_work;
  for (const auto& v : barriers::Descriptor().variants) {
    EXPECT_EQ(v.workgroups, (std::vector<Extent>{{64}, {1024}})) << v.name;
    rounds_and_work.insert({v.rounds, static_cast<uint32_t>(v.work)});
  }
  EXPECT_EQ(rounds_and_work.size(), 9u);
  EXPECT_TRUE(Named(barriers::Descriptor(), "barriers/b16_uneven/wg1024x1/domain262144x1"));
}

TEST(UniformDataTable, Names) {
  EXPECT_TRUE(Named(uniform_data::Descriptor(), "uniform_data/per_lane_4x4/wg256/domain2097152"));
}

TEST(OccupancyTable, NamesAndSharedMemory) {
  EXPECT_TRUE(Named(occupancy::Descriptor(), "occupancy/live32/wg1024/domain1048576"));
  // 32 bytes per invocation: 32 KiB for the article's 1024-invocation group. The shared<N>k rows
  // declare N KiB at 256 invocations, more than the 8 KiB they exchange.
  for (const auto& v : occupancy::Descriptor().variants) {
    if (v.shared_bytes == 0) {
      EXPECT_EQ(v.workgroups.front().x * 32, 32768u) << v.name;
      EXPECT_EQ(occupancy::SharedBytes(v, 1024), 32768u) << v.name;
    } else {
      EXPECT_EQ(v.name, "live16_shared" + std::to_string(v.shared_bytes / 1024) + "k");
      EXPECT_GT(occupancy::SharedBytes(v, 256), 256u * 32) << v.name;
      EXPECT_EQ(occupancy::SharedBytes(v, 256), v.shared_bytes) << v.name;
    }
  }
}

TEST(PipelineStatistics, ReportedWhereExposed) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  auto stats = PipelineStatistics(*context, occupancy::Spec(occupancy::Descriptor().variants.at(0), 64));
  if (!context->info().pipeline_executable_info) {
    EXPECT_TRUE(stats.empty());
    GTEST_SKIP() << context->info().name << " does not expose VK_KHR_pipeline_executable_properties";
  }
  EXPECT_FALSE(stats.empty());
  for (const auto& s : stats) std::cout << "  " << s.executable << " / " << s.name << " = " << s.value << "\n";
  testing::ExpectNoNewValidationMessages();
}

TEST(AtomicsTable, OneVariantPerPlaceOfTheAtomicsAndElement) {
  using atomics::Atomics, atomics::Element;
  std::set<std::pair<Atomics, Element>> rows;
  std::set<std::string> names;
  for (const auto& v : atomics::Descriptor().variants) {
    EXPECT_TRUE(rows.insert({v.atomics, v.element}).second) << v.name;
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
  }
  EXPECT_EQ(rows.size(), 8u);
}

// A float row differs from its uint row in the element alone, so their ratio prices float atomics.
TEST(AtomicsTable, EveryFloatRowMirrorsAUintRow) {
  using atomics::Element;
  const auto& variants = atomics::Descriptor().variants;
  for (const auto& f : variants) {
    if (f.element != Element::kFloat) continue;
    auto uint_row =
        std::find_if(variants.begin(), variants.end(), [&](const auto& u) { return f.name == u.name + "_float"; });
    ASSERT_NE(uint_row, variants.end()) << f.name;
    EXPECT_EQ(uint_row->element, Element::kUint);
    EXPECT_EQ(uint_row->atomics, f.atomics) << f.name;
    EXPECT_EQ(uint_row->source, f.source) << f.name;
    EXPECT_EQ(uint_row->workgroups, f.workgroups) << f.name;
    EXPECT_EQ(uint_row->needs_subgroup_arithmetic, f.needs_subgroup_arithmetic) << f.name;
    // Only the rows with float atomics need the extension; two_pass_float runs everywhere.
    EXPECT_EQ(f.needs_float_atomic_add(), !f.two_pass()) << f.name;
    EXPECT_FALSE(uint_row->needs_float_atomic_add()) << uint_row->name;
  }
}

TEST(AtomicsInputs, RefuseAFloatCountWhoseSumCouldRound) {
  if (testing::SharedSuite() == nullptr) GTEST_SKIP() << "no Vulkan device";
  const auto& family = atomics::Descriptor();
  const auto& two_pass_float = family.variants.back();
  ASSERT_EQ(two_pass_float.name, "two_pass_float");
  EXPECT_THROW(CheckOn(family, two_pass_float, {256}, {atomics::kMaxExactFloatCount + 1}), std::exception);
}

TEST(AppendTable, OneVariantPerMethodAndOnlyTheScanOrdered) {
  std::set<append::Method> methods;
  for (const auto& v : append::Descriptor().variants) {
    EXPECT_TRUE(methods.insert(v.method).second) << v.name;
    EXPECT_EQ(v.ordered(), v.method == append::Method::kScan) << v.name;
  }
  EXPECT_EQ(methods.size(), 3u);
}

TEST(AppendNames, CarryTheKeepRatio) {
  EXPECT_TRUE(Named(append::Descriptor(), "append/ballot/wg256/domain16777216/keep50"));
}

TEST(AppendInputs, TheRatiosShareOneInputAndKeepAboutTheirFraction) {
  append::Inputs inputs;
  const append::Inputs::Domain& data = inputs.For(100003, nullptr, CacheMode::kWarm);
  for (const AxisValue& value : append::Descriptor().axes.at(0).values) {
    const uint32_t keep = static_cast<uint32_t>(value.number());
    const double kept = static_cast<double>(inputs.Kept(data, keep).size()) / data.count;
    EXPECT_NEAR(kept, keep / 100.0, 0.01) << keep << "%";
  }
  EXPECT_EQ(&inputs.Kept(data, 50), &inputs.Kept(data, 50));  // made once
}

TEST(BankConflictsTable, StridesDoubleFrom1To32AndTheTileIsPaddedOnce) {
  std::set<uint32_t> strides;
  std::set<std::string> names;
  for (const auto& v : bank_conflicts::Descriptor().variants) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    if (v.stride != 0) strides.insert(v.stride);
  }
  EXPECT_EQ(strides, (std::set<uint32_t>{1, 2, 4, 8, 16, 32}));
  EXPECT_TRUE(names.count("transpose_tile32x32"));
  EXPECT_TRUE(names.count("transpose_tile32x33"));
  // Each variant on its own domains only.
  EXPECT_TRUE(Named(bank_conflicts::Descriptor(), "bank_conflicts/stride4/wg256x1/domain262144x1"));
  EXPECT_FALSE(Named(bank_conflicts::Descriptor(), "bank_conflicts/stride4/wg256x1/domain4096x4096"));
}

TEST(ReductionTable, WorkgroupsArePowersOfTwoAndNamesUnique) {
  std::set<std::string> names;
  for (const auto& v : reduction::Descriptor().variants) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_FALSE(v.workgroups.empty()) << v.name;
    for (Extent wg : v.workgroups) {
      EXPECT_TRUE(std::has_single_bit(wg.x * wg.y)) << v.name;
      EXPECT_GE(wg.x * wg.y, 16u) << v.name;
      EXPECT_LE(wg.x * wg.y, 1024u) << v.name;
    }
  }
  EXPECT_TRUE(Named(reduction::Descriptor(), "reduction/prefetch4/wg8x32/domain1920x1080"));
}

TEST(ReductionTable, StudyGeometry) {
  // The 2015 follow-up's shapes: 16x64 invocations fetching 8x2 reduce 1080p to 15x9.
  for (const auto& v : reduction::Descriptor().variants) {
    if (v.name != "prefetch16") continue;
    Extent tile{v.workgroups[0].x * v.fetch.x, v.workgroups[0].y * v.fetch.y};
    EXPECT_EQ((1920 + tile.x - 1) / tile.x, 15u);
    EXPECT_EQ((1080 + tile.y - 1) / tile.y, 9u);
  }
}

TEST(ReductionCheck, CatchesAWrongKernel) {
  // The check must be able to fail: an output off by 1e-4 (ten times the tolerance) must not pass.
  if (testing::SharedSuite() == nullptr) GTEST_SKIP() << "no Vulkan device";
  reduction::Variant wrong{.name = "sequential_injected_error",
                           .source = "reduction/tree.comp",
                           .defines = {{"INJECT_ERROR", "1"}},
                           .workgroups = {{8, 8}}};
  Comparison check = CheckOn(reduction::Descriptor(), wrong, {8, 8}, {97, 61});
  EXPECT_FALSE(check.passed);
  EXPECT_NEAR(check.max_relative_error, 1e-4, 2e-5);
  testing::ExpectNoNewValidationMessages();
}

TEST(NeighborhoodTable, NamesFollowTheIssue) {
  EXPECT_TRUE(Named(neighborhood::Descriptor(), "neighborhood/shared_tile/wg16x16/domain1920x1080"));
  EXPECT_TRUE(Named(neighborhood3d::Descriptor(), "neighborhood3d/direct/wg4x4x4/domain128x128x128"));
  EXPECT_TRUE(Named(packing::Descriptor(), "packing/fp16/wg16x16/domain1920x1080"));
  std::set<std::string> names;
  for (const auto& v : neighborhood::Descriptor().variants) EXPECT_TRUE(names.insert(v.name).second) << v.name;
}

TEST(NeighborhoodCheck, CatchesAWrongKernel) {
  if (testing::SharedSuite() == nullptr) GTEST_SKIP() << "no Vulkan device";
  neighborhood::Variant wrong{.name = "direct_injected_error",
                              .source = "neighborhood/blur.comp",
                              .defines = {{"INJECT_ERROR", "1"}},
                              .workgroups = {{8, 8}}};
  Comparison check = CheckOn(neighborhood::Descriptor(), wrong, {8, 8}, {13, 7});
  EXPECT_FALSE(check.passed);
  EXPECT_NEAR(check.max_relative_error, 1e-4, 2e-5);
  testing::ExpectNoNewValidationMessages();
}

TEST(PackingCheck, Fp16IsNotExact) {
  // The fp16 result must differ from fp32's by more than fp32 rounding, or the variant would not
  // be computing in fp16: checked against the fp32 reference with fp32's tolerance, it fails.
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  if (!context->info().shader_float16 || !context->info().storage_buffer_16bit) GTEST_SKIP() << "no fp16";
  neighborhood::Variant strict = packing::Descriptor().variants.at(2);
  strict.tolerance = 1e-5;
  Comparison check = CheckOn(packing::Descriptor(), strict, strict.workgroups[0], {67, 45});
  EXPECT_FALSE(check.passed);
  EXPECT_LT(check.max_relative_error, packing::Descriptor().variants.at(2).tolerance);
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench
