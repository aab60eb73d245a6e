#include "harness/vulkan/device_choice.hpp"

#include <gtest/gtest.h>

#include "harness/base/error.hpp"
#include "harness/run/launcher.hpp"

namespace csbench {
namespace {

std::vector<DeviceInfo> Devices() {
  std::vector<DeviceInfo> d(3);
  d[0] = {.index = 0, .name = "llvmpipe (LLVM 15.0.6, 256 bits)", .type = "cpu"};
  d[1] = {.index = 1, .name = "Intel(R) UHD Graphics 770", .type = "integrated"};
  d[2] = {.index = 2, .name = "NVIDIA H100 80GB HBM3", .type = "discrete"};
  return d;
}

TEST(ChooseDevice, PrefersDiscreteThenIntegratedThenCpu) {
  auto d = Devices();
  EXPECT_EQ(ChooseDevice(d, ""), 2u);
  d.pop_back();
  EXPECT_EQ(ChooseDevice(d, ""), 1u);
  d.pop_back();
  EXPECT_EQ(ChooseDevice(d, ""), 0u);
}

TEST(ChooseDevice, ByIndexAndByNameSubstring) {
  auto d = Devices();
  EXPECT_EQ(ChooseDevice(d, "0"), 0u);
  EXPECT_EQ(ChooseDevice(d, "h100"), 2u);
  EXPECT_EQ(ChooseDevice(d, "LLVMpipe"), 0u);
}

TEST(ChooseDevice, NoMatchListsTheDevices) {
  auto d = Devices();
  try {
    ChooseDevice(d, "radeon");
    FAIL() << "no Error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("radeon"), std::string::npos);
    EXPECT_NE(what.find("2: NVIDIA H100 80GB HBM3 (discrete)"), std::string::npos) << what;
  }
  EXPECT_THROW(ChooseDevice(d, "7"), Error);
  EXPECT_THROW(ChooseDevice({}, ""), Error);
}

}  // namespace
}  // namespace csbench

namespace csbench {
namespace {

std::vector<DeviceInfo> TwinGpus() {
  std::vector<DeviceInfo> d(3);
  d[0] = {.index = 0, .name = "NVIDIA H200", .type = "discrete", .vendor_id = 0x10de, .device_id = 0x2335};
  d[1] = {.index = 1, .name = "NVIDIA H200", .type = "discrete", .vendor_id = 0x10de, .device_id = 0x2335};
  d[2] = {.index = 2, .name = "llvmpipe (LLVM 15.0.6, 256 bits)", .type = "cpu", .vendor_id = 0x10005};
  return d;
}

std::vector<uint32_t> Indexes(const std::vector<DeviceInfo>& devices) {
  std::vector<uint32_t> out;
  for (const auto& d : devices) out.push_back(d.index);
  return out;
}

TEST(ChooseDevices, AllMeansEveryGpuElseEveryDevice) {
  auto d = TwinGpus();
  EXPECT_TRUE(NamesSeveralDevices("all"));
  EXPECT_TRUE(NamesSeveralDevices("0,1"));
  EXPECT_FALSE(NamesSeveralDevices("h200"));
  EXPECT_EQ(Indexes(ChooseDevices(d, "all")), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(Indexes(ChooseDevices({d[2]}, "all")), (std::vector<uint32_t>{2}));
}

TEST(ChooseDevices, ListInOrderEachOnceAndNamesWhatMatchesNothing) {
  auto d = TwinGpus();
  EXPECT_EQ(Indexes(ChooseDevices(d, "2,0,0")), (std::vector<uint32_t>{2, 0}));
  EXPECT_EQ(Indexes(ChooseDevices(d, "llvmpipe,1")), (std::vector<uint32_t>{2, 1}));
  EXPECT_THROW(ChooseDevices(d, "0,radeon"), Error);
  EXPECT_THROW(ChooseDevices(d, "0,"), Error);
}

TEST(ExpandDevicePlaceholders, IndexAndKey) {
  EXPECT_EQ(ExpandDevicePlaceholders("out/{device_key}-{device}.json", "1", "10de-2335-1"), "out/10de-2335-1-1.json");
  EXPECT_EQ(ExpandDevicePlaceholders("plain.json", "3", "k"), "plain.json");
  EXPECT_EQ(ExpandDevicePlaceholders("{device}{device}{dev}", "7", "k"), "77{dev}");
  EXPECT_EQ(ExpandDevicePlaceholders("{device}-{device_key}.json", "plain_loop", "plain_loop-cpu"),
            "plain_loop-plain_loop-cpu.json");
}

}  // namespace
}  // namespace csbench

namespace csbench {
namespace {

TEST(CombineExitCodes, UsageThenInterruptThenFailureThenValidation) {
  EXPECT_EQ(CombineExitCodes({0, 0}), 0);
  EXPECT_EQ(CombineExitCodes({0, 3}), 3);
  EXPECT_EQ(CombineExitCodes({3, 1}), 1);
  EXPECT_EQ(CombineExitCodes({127, 0}), 1);  // a child that could not start
  EXPECT_EQ(CombineExitCodes({1, 143}), 143);
  EXPECT_EQ(CombineExitCodes({130, 2}), 2);
}

TEST(CheckOutputsDiffer, TwinGpusNeedTheIndex) {
  auto d = TwinGpus();
  std::vector<DeviceInfo> twins{d[0], d[1]};
  EXPECT_THROW(CheckOutputsDiffer("run.json", twins), UsageError);
  EXPECT_THROW(CheckOutputsDiffer("run-{device_key}.json", twins), UsageError);
  EXPECT_NO_THROW(CheckOutputsDiffer("run-{device}.json", twins));
  EXPECT_NO_THROW(CheckOutputsDiffer("run-{device_key}.json", {d[0], d[2]}));
  EXPECT_NO_THROW(CheckOutputsDiffer("", twins));
  EXPECT_NO_THROW(CheckOutputsDiffer("run.json", {d[0]}));
}

}  // namespace
}  // namespace csbench
