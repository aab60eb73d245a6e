#include "harness/device_choice.hpp"

#include <gtest/gtest.h>

#include "harness/error.hpp"

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
