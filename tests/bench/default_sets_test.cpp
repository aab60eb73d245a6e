// The default sets the families' descriptors choose, for every kind of device, with no device:
// name by name against tests/bench/default_sets/ (a GPU's included, which no test machine has),
// and the picks they are made of.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "harness/family/family.hpp"

namespace csbench {
namespace {

std::vector<std::string> Golden(const std::string& file) {
  std::ifstream in(std::string(CSBENCH_DEFAULT_SETS_DIR) + "/" + file);
  EXPECT_TRUE(in) << file;
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

// Every declared family's benchmarks in a run of `options` on `device` (the default set's alone
// where `default_only`), sorted. The CUDA peers are left out: the golden lists are of a build
// without them.
std::vector<std::string> Offers(const RunDevice& device, bool default_only, const Options& options = {}) {
  std::vector<std::string> names;
  for (const Declared& d : Declarations()) {
    if (d.name == "cuda_peer") continue;
    EXPECT_TRUE(d.offered) << d.name << " declares no default sets";
    if (!d.offered) continue;
    for (const Offered& o : d.offered(options, device)) {
      if (o.by_default || !default_only) names.push_back(o.name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The names only in `want` and only in `got`, for a failure's message.
std::string Difference(std::vector<std::string> want, std::vector<std::string> got) {
  std::sort(want.begin(), want.end());
  std::vector<std::string> missing;
  std::vector<std::string> extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  std::string text;
  for (const std::string& n : missing) text += "\n  missing: " + n;
  for (const std::string& n : extra) text += "\n  extra:   " + n;
  return text;
}

void ExpectSame(const std::string& file, const std::vector<std::string>& got) {
  std::vector<std::string> want = Golden(file);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(want, got) << file << ":" << Difference(want, got);
}

TEST(DefaultSets, EveryBenchmarkAsTheGoldenList) {
  ExpectSame("all.txt", Offers({.kind = DeviceKind::kGpu, .subgroup_size = 32}, false));
  ExpectSame("all.txt", Offers({.kind = DeviceKind::kCpu, .subgroup_size = 8}, false));
  ExpectSame("plain_loop_all.txt", Offers({}, false));
}

TEST(DefaultSets, ACpuDeviceRunsTheQuickSetWithGroupsOfItsSubgroupAndHalfOfIt) {
  ExpectSame("cpu_subgroup8.txt", Offers({.kind = DeviceKind::kCpu, .subgroup_size = 8}, true));
  ExpectSame("cpu_subgroup4.txt", Offers({.kind = DeviceKind::kCpu, .subgroup_size = 4}, true));
}

TEST(DefaultSets, AGpuRunsAllButTheHostsGrayScottLoopsTheShortRunAndGroupsBelowASubgroup) {
  ExpectSame("gpu.txt", Offers({.kind = DeviceKind::kGpu, .subgroup_size = 32}, true));
  ExpectSame("gpu.txt", Offers({.kind = DeviceKind::kGpu, .subgroup_size = 64}, true));
}

TEST(DefaultSets, ThePlainLoopBackendRunsTheQuickSetsPlainLoops) {
  ExpectSame("plain_loop.txt", Offers({}, true));
}

TEST(DefaultSets, ADomainOverrideKeepsTheRunLengthsOutOfTheShortRunsPicks) {
  // --domain=1024x512 runs the chapter's 512 steps there: not the short run, so a GPU's default
  // set keeps it and a CPU device's does not take it.
  const Options options{.domains = {{1024, 512}}};
  const std::string chapter = "run_simulation/global/workgroup32x16/domain1024x512/total512/image32/compute";
  const std::vector<std::string> gpu = Offers({.kind = DeviceKind::kGpu, .subgroup_size = 32}, true, options);
  EXPECT_TRUE(std::binary_search(gpu.begin(), gpu.end(), chapter));
  const std::vector<std::string> cpu = Offers({.kind = DeviceKind::kCpu, .subgroup_size = 8}, true, options);
  EXPECT_FALSE(std::binary_search(cpu.begin(), cpu.end(), chapter));
  // The families without a workgroup or domain in their picks follow the override.
  EXPECT_TRUE(std::binary_search(cpu.begin(), cpu.end(), "packing/fp32/wg16x16/domain1024x512"));
}

TEST(DefaultSets, AGpuLeavesOutTheCudaPeersShortRun) {
  const RunDevice gpu{.kind = DeviceKind::kGpu, .subgroup_size = 32};
  std::vector<Offered> peers;
  for (const Declared& d : Declarations()) {
    if (d.name == "cuda_peer") peers = d.offered({}, gpu);
  }
  if (peers.empty()) GTEST_SKIP() << "no CUDA peers: not built, or no CUDA device";
  auto offered = [&](const std::string& name) {
    return std::find_if(peers.begin(), peers.end(), [&](const Offered& o) { return o.name == name; });
  };
  const auto short_run = offered("run_simulation/cuda_peer/domain1024x512/total32/image4/compute");
  ASSERT_NE(short_run, peers.end());
  EXPECT_FALSE(short_run->by_default);
  const auto chapter = offered("run_simulation/cuda_peer/domain2048x1024/total512/image32/compute");
  ASSERT_NE(chapter, peers.end());
  EXPECT_TRUE(chapter->by_default);
  const auto cub = offered("reduction/cub_peer/domain1920x1080");
  ASSERT_NE(cub, peers.end());
  EXPECT_TRUE(cub->by_default);
}

Point At(const char* workgroup, Extent wg, Extent domain, std::vector<Coordinate> further = {}) {
  Point p{.workgroup = wg, .domain = domain};
  if (workgroup != nullptr) p.axes.push_back({"workgroup", workgroup});
  p.axes.push_back({"domain", "d"});
  p.axes.insert(p.axes.end(), further.begin(), further.end());
  return p;
}

TEST(Pick, AnEmptyListTakesEveryValueAndAListOnlyItsOwn) {
  const Point p = At("16x16", {16, 16}, {640, 480}, {{"keep", 50}, {"mode", "compute"}});
  EXPECT_TRUE(Pick{}.Takes(p, 0));
  EXPECT_TRUE((Pick{.workgroups = {{8, 8}, {16, 16}}}.Takes(p, 0)));
  EXPECT_FALSE((Pick{.workgroups = {{16, 8}}}.Takes(p, 0)));
  EXPECT_TRUE((Pick{.domains = {{640, 480}}}.Takes(p, 0)));
  EXPECT_FALSE((Pick{.workgroups = {{16, 16}}, .domains = {{1920, 1080}}}.Takes(p, 0)));
  EXPECT_TRUE((Pick{.axes = {{"keep", 50}}}.Takes(p, 0)));
  EXPECT_FALSE((Pick{.axes = {{"keep", 1}}}.Takes(p, 0)));
  // Values of one axis: any of them; of two axes: one of each.
  EXPECT_TRUE((Pick{.axes = {{"mode", "compute+download"}, {"mode", "compute"}}}.Takes(p, 0)));
  EXPECT_FALSE((Pick{.axes = {{"mode", "compute"}, {"keep", 99}}}.Takes(p, 0)));
  // A point without the axis has none of its values.
  EXPECT_FALSE((Pick{.axes = {{"steps", 4}}}.Takes(p, 0)));
}

TEST(Pick, APlainLoopHasNoWorkgroup) {
  const Point loop = At(nullptr, {1, 1}, {1000});
  EXPECT_TRUE((Pick{.domains = {{1000}}}.Takes(loop, 0)));
  EXPECT_FALSE((Pick{.workgroups = {{1, 1}}}.Takes(loop, 0)));
  EXPECT_FALSE((Pick{.subgroup_divisors = {1}}.Takes(loop, 8)));
}

TEST(Pick, SubgroupDivisorsTakeTheDevicesSubgroupAndItsParts) {
  const Pick pick{.workgroups = {{64}}, .subgroup_divisors = {1, 2}};
  EXPECT_TRUE(pick.Takes(At("8x1", {8}, {1000}), 8));
  EXPECT_TRUE(pick.Takes(At("4x1", {4}, {1000}), 8));
  EXPECT_FALSE(pick.Takes(At("2x1", {2}, {1000}), 8));
  EXPECT_TRUE(pick.Takes(At("64x1", {64}, {1000}), 8));
  EXPECT_TRUE(pick.Takes(At("2x1", {2}, {1000}), 4));
  // No subgroup size (the plain_loop backend), or a subgroup of one: the listed workgroups only.
  EXPECT_FALSE(pick.Takes(At("8x1", {8}, {1000}), 0));
  EXPECT_FALSE(pick.Takes(At("1x1", {1}, {1000}), 1));
  EXPECT_TRUE(pick.Takes(At("64x1", {64}, {1000}), 0));
  // Divisors alone take no workgroup where the device has no subgroup size.
  EXPECT_FALSE((Pick{.subgroup_divisors = {1}}.Takes(At("8x1", {8}, {1000}), 0)));
}

}  // namespace
}  // namespace csbench
