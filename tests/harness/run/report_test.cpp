#include "harness/base/host.hpp"
#include "harness/run/report.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {

DeviceInfo Lavapipe(const std::string& driver_info) {
  DeviceInfo d;
  d.type = "cpu";
  d.vendor_id = 0x10005;
  d.device_id = 0;
  d.driver_version = 1;
  d.driver_name = "llvmpipe";
  d.driver_info = driver_info;
  return d;
}

TEST(DeviceKey, GpuNamesIdsAndDriverVersion) {
  DeviceInfo d;
  d.type = "discrete";
  d.vendor_id = 0x10de;
  d.device_id = 0x2335;
  d.driver_version = 2435301632;
  EXPECT_EQ(d.Key(), "10de-2335-2435301632");
}

TEST(DeviceKey, CpuDeviceNamesDriverStringHostCpuAndCount) {
  unsetenv("LP_NUM_THREADS");
  std::string key = Lavapipe("Mesa 22.3.6 (LLVM 15.0.6)").Key();
  std::string tail = fmt::format("-{}-{}cpu", FileSafe(HostCpuName()), HostCpuCount());
  EXPECT_TRUE(key.starts_with("10005-0000-mesa-22-3-6-llvm-15-0-6-")) << key;
  EXPECT_TRUE(key.ends_with(tail)) << key << " does not end with " << tail;
  // Another Mesa release is another device: its baseline is not the other's. A Debian stable
  // update of the same release is not.
  std::string mesa25 = Lavapipe("Mesa 25.0.7-2+deb13u1 (LLVM 19.1.7)").Key();
  EXPECT_NE(mesa25, key);
  EXPECT_TRUE(mesa25.starts_with("10005-0000-mesa-25-0-7-llvm-19-1-7-")) << mesa25;
  EXPECT_EQ(Lavapipe("Mesa 25.0.7-2+deb13u2 (LLVM 19.1.7)").Key(), mesa25);
  EXPECT_NE(Lavapipe("Mesa 25.0.8-1 (LLVM 19.1.7)").Key(), mesa25);
  EXPECT_EQ(FileSafe(key), key);
}

TEST(DeviceKey, CpuCountFollowsLlvmpipesThreadSetting) {
  unsetenv("LP_NUM_THREADS");
  unsigned native = HostCpuCount();
  EXPECT_GE(native, 1u);
  setenv("LP_NUM_THREADS", "3", 1);
  EXPECT_EQ(HostCpuCount(), 3u);
  EXPECT_TRUE(Lavapipe("Mesa 25.0.7").Key().ends_with("-3cpu"));
  for (const char* ignored : {"many", "0", "-2", "4x"}) {  // not a count: llvmpipe ignores it too
    setenv("LP_NUM_THREADS", ignored, 1);
    EXPECT_EQ(HostCpuCount(), native) << ignored;
  }
  unsetenv("LP_NUM_THREADS");
}

TEST(DeviceKey, CpuDeviceWithoutDriverStringFallsBackToDriverVersion) {
  std::string key = Lavapipe("").Key();
  EXPECT_TRUE(key.starts_with("10005-0000-llvmpipe-1-")) << key;
}

}  // namespace
}  // namespace csbench
