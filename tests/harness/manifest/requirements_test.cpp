// `requires`: every name the docs list is known, a device has each as its features say, and a
// shader's SPIR-V capabilities its variant does not list are found.
#include "harness/manifest/requirements.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {
using manifest_detail::DeviceMeets;
using manifest_detail::UndeclaredRequirements;

TEST(Requirements, EverySubgroupClassAndTypeIsANameRequiresTakes) {
  const std::vector<std::string>& known = KnownFeatures();
  for (const char* name : {"subgroup_basic", "subgroup_vote", "subgroup_arithmetic", "subgroup_ballot", "subgroup_shuffle",
                           "subgroup_shuffle_relative", "subgroup_clustered", "subgroup_quad", "float16", "float64",
                           "int8", "int16", "int64", "storage_buffer_8bit", "storage_buffer_16bit", "int64_atomics",
                           "float_atomic_add", "float64_atomic_add", "shared_float_atomic_add", "vulkan_memory_model"}) {
    EXPECT_NE(std::find(known.begin(), known.end(), name), known.end()) << name;
  }
}

TEST(Requirements, ADeviceMeetsWhatItsFeaturesSay) {
  DeviceInfo info;
  // Basic and ballot in compute shaders (VkSubgroupFeatureFlagBits 1 and 8), not arithmetic (4).
  info.subgroup_operations = 1u | 8u;
  info.capability_features["Float16"] = true;
  info.capability_features["Int64"] = false;
  info.float64_atomic_add = true;
  EXPECT_TRUE(DeviceMeets(info, "subgroup_basic"));
  EXPECT_TRUE(DeviceMeets(info, "subgroup_ballot"));
  EXPECT_FALSE(DeviceMeets(info, "subgroup_arithmetic"));
  EXPECT_TRUE(DeviceMeets(info, "float16"));
  EXPECT_FALSE(DeviceMeets(info, "int64"));
  EXPECT_FALSE(DeviceMeets(info, "int8"));  // not reported: lacking
  EXPECT_TRUE(DeviceMeets(info, "float64_atomic_add"));
  EXPECT_FALSE(DeviceMeets(info, "float_atomic_add"));
  // A class without the basic operations is no use.
  info.subgroup_operations = 4u;
  EXPECT_FALSE(DeviceMeets(info, "subgroup_arithmetic"));
}

TEST(Requirements, CapabilitiesTheVariantDoesNotListAreFound) {
  ManifestVariant v;
  v.capabilities = {"Shader", "GroupNonUniform", "GroupNonUniformBallot", "StorageBuffer16BitAccess", "Int64Atomics"};
  v.requires_features = {"subgroup_ballot"};
  // Ballot is listed and covers basic; the 16-bit storage and the atomics are not.
  EXPECT_EQ(UndeclaredRequirements(v),
            (std::vector<std::string>{"storage_buffer_16bit (SPIR-V StorageBuffer16BitAccess)",
                                      "int64_atomics (SPIR-V Int64Atomics)"}));
  v.requires_features = {};
  v.capabilities = {"Shader", "GroupNonUniform"};
  EXPECT_EQ(UndeclaredRequirements(v), (std::vector<std::string>{"subgroup_basic (SPIR-V GroupNonUniform)"}));
}

}  // namespace
}  // namespace csbench
