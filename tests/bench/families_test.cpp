// Every declared family's GPU variants x workgroups (x its further axes) on the family's test
// domains, each checked against its reference on the Vulkan device (lavapipe without a GPU) with
// the validation layer on (ctest sets CSBENCH_VALIDATION=1). The points come from the families'
// descriptors: a new family is tested here with no line of its own. A point the device cannot
// run ("unsupported: ...", a missing feature or limit) is skipped with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "bench/families.hpp"
#include "harness/family/family.hpp"
#include "harness/measure/points.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/selection.hpp"
#include "harness/run/json_writer.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

// The points of every family that can describe them. One that throws instead (a bad variant
// table, a peer that no longer matches its twin) fails EveryDeclaredFamily.DescribesItsPoints
// with its message: an exception here would abort the test discovery, and so every test.
std::vector<TestPoint> AllPoints() {
  std::vector<TestPoint> points;
  for (const Declared& family : Declarations()) {
    if (!family.test_points) continue;
    try {
      for (TestPoint& point : family.test_points()) points.push_back(std::move(point));
    } catch (const std::exception&) {
    }
  }
  return points;
}

class DeclaredFamily : public ::testing::TestWithParam<TestPoint> {};

TEST_P(DeclaredFamily, MatchesTheReference) { testing::CheckPoint(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Points, DeclaredFamily, ::testing::ValuesIn(AllPoints()), testing::PointTestName);

// Every declared family describes its test points and what it offers a run, on no device as on
// a GPU: no Vulkan device is needed for this, nor a CUDA one for the CUDA peers.
TEST(EveryDeclaredFamily, DescribesItsPoints) {
  for (const Declared& family : Declarations()) {
    try {
      if (family.test_points) family.test_points();
      if (!family.offered) continue;
      for (const DeviceKind kind : {DeviceKind::kNone, DeviceKind::kCpu, DeviceKind::kGpu}) {
        family.offered(Options{}, RunDevice{.kind = kind, .subgroup_size = kind == DeviceKind::kNone ? 0u : 32u});
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << family.name << ": " << e.what();
    }
  }
}

// The registration order names declared families (a typo would leave a family to the end of the
// run, unordered); the CUDA peers are declared only where a CUDA toolkit built them.
TEST(FamilyOrder, NamesDeclaredFamiliesOnly) {
  for (std::string_view name : kFamilyOrder) {
    const bool declared = std::any_of(Declarations().begin(), Declarations().end(),
                                      [&](const Declared& d) { return d.name == name; });
#ifndef CSBENCH_WITH_CUDA
    if (name == "cuda_peer") {
      EXPECT_FALSE(declared);
      continue;
    }
#endif
    EXPECT_TRUE(declared) << name;
  }
}

std::vector<std::string> Split(const std::string& name) {
  std::vector<std::string> parts;
  for (size_t from = 0;;) {
    const size_t slash = name.find('/', from);
    parts.push_back(name.substr(from, slash - from));
    if (slash == std::string::npos) return parts;
    from = slash + 1;
  }
}

// Every benchmark of the whole suite, as main registers it on the test device (nothing filters
// it here: the selection is everything), is described, and the description is what its name
// says: family/variant, then one part per axis, each the axis's prefix and the value's spelling.
// The JSON report writes these descriptions, and scripts read the axes there.
TEST(EveryBenchmark, IsDescribedAsItsNameSays) {
  Suite* suite = testing::SharedSuite();
  if (suite == nullptr) GTEST_SKIP() << "no Vulkan device";
  RegisterFamilies(*suite);
  ASSERT_GT(SelectedNames().size(), 500u);
  size_t gpu = 0;
  for (size_t index = 0; index < SelectedNames().size(); ++index) {
    const std::string& name = SelectedNames()[index];
    const Record* record = SelectedRecord(index);
    ASSERT_NE(record, nullptr) << name << " has no record";
    ASSERT_EQ(record->name(), name);
    const Description* d = record->description();
    ASSERT_NE(d, nullptr) << name << " has no description";
    const std::vector<std::string> parts = Split(name);
    ASSERT_EQ(parts.size(), 2 + d->axes.size()) << name << ": " << EntryObject(*record, nullptr).dump();
    EXPECT_EQ(parts[0], d->family) << name;
    EXPECT_EQ(parts[1], d->variant) << name;
    for (size_t i = 0; i < d->axes.size(); ++i) {
      const std::string value = Spelled(d->axes[i].value);
      const std::string& part = parts[2 + i];
      ASSERT_TRUE(part.ends_with(value)) << name << ": axis " << d->axes[i].axis << " is " << value;
      const std::string prefix = part.substr(0, part.size() - value.size());
      EXPECT_TRUE(std::all_of(prefix.begin(), prefix.end(), [](char c) { return std::islower(c); }))
          << name << ": " << d->axes[i].axis;
    }
    // Plain loops are timed by the host; and a GPU benchmark names its workgroup first where it has one.
    if (d->variant.starts_with("plain_loop")) {
      EXPECT_EQ(d->clock, Clock::kHost) << name;
    } else if (d->axes.front().axis == "workgroup") {
      ++gpu;
    }
  }
  EXPECT_GT(gpu, 400u);
}

}  // namespace
}  // namespace csbench
