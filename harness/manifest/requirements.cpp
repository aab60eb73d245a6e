// Stage 2, resolve, and the device stage: the names `requires` takes, what each needs of a device,
// and the SPIR-V capabilities that show a shader uses it.
#include "harness/manifest/requirements.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

const std::vector<Requirement>& Requirements() {
  static const std::vector<Requirement> all = {
      {"subgroup_basic", "subgroup basic operations (gl_SubgroupSize, subgroupElect, subgroupBarrier)", {"GroupNonUniform"}},
      {"subgroup_vote", "subgroup vote operations (subgroupAll, subgroupAny)", {"GroupNonUniformVote", "SubgroupVoteKHR"}},
      {"subgroup_arithmetic", "subgroup arithmetic (subgroupAdd, subgroupInclusiveAdd, ...)", {"GroupNonUniformArithmetic"}},
      {"subgroup_ballot", "subgroup ballot operations (subgroupBallot, subgroupBroadcast, ...)",
       {"GroupNonUniformBallot", "SubgroupBallotKHR"}},
      {"subgroup_shuffle", "subgroup shuffles (subgroupShuffle, subgroupShuffleXor)", {"GroupNonUniformShuffle"}},
      {"subgroup_shuffle_relative", "relative subgroup shuffles (subgroupShuffleUp, subgroupShuffleDown)",
       {"GroupNonUniformShuffleRelative"}},
      {"subgroup_clustered", "clustered subgroup operations (subgroupClusteredAdd, ...)", {"GroupNonUniformClustered"}},
      {"subgroup_quad", "subgroup quad operations (subgroupQuadBroadcast, ...)", {"GroupNonUniformQuad"}},
      {"float16", "float16_t arithmetic (shaderFloat16)", {"Float16"}},
      {"float64", "double arithmetic (shaderFloat64)", {"Float64"}},
      {"int8", "int8_t arithmetic (shaderInt8)", {"Int8"}},
      {"int16", "int16_t arithmetic (shaderInt16)", {"Int16"}},
      {"int64", "int64_t arithmetic (shaderInt64)", {"Int64"}},
      {"storage_buffer_8bit", "8-bit values in storage buffers (storageBuffer8BitAccess)", {"StorageBuffer8BitAccess"}},
      {"uniform_buffer_8bit", "8-bit values in uniform buffers (uniformAndStorageBuffer8BitAccess)",
       {"UniformAndStorageBuffer8BitAccess"}},
      {"push_constant_8bit", "8-bit push constants (storagePushConstant8)", {"StoragePushConstant8"}},
      {"storage_buffer_16bit", "16-bit values in storage buffers (storageBuffer16BitAccess)", {"StorageBuffer16BitAccess"}},
      {"uniform_buffer_16bit", "16-bit values in uniform buffers (uniformAndStorageBuffer16BitAccess)",
       {"UniformAndStorageBuffer16BitAccess"}},
      {"push_constant_16bit", "16-bit push constants (storagePushConstant16)", {"StoragePushConstant16"}},
      {"int64_atomics", "64-bit integer atomics on storage buffers (shaderBufferInt64Atomics)", {"Int64Atomics"}},
      {"shared_int64_atomics", "64-bit integer atomics on shared memory (shaderSharedInt64Atomics)", {}},
      {"float_atomic_add", "float atomicAdd on storage buffers (shaderBufferFloat32AtomicAdd)", {"AtomicFloat32AddEXT"}},
      {"float_atomics", "float atomic load, store and exchange on storage buffers (shaderBufferFloat32Atomics)", {}},
      {"float64_atomic_add", "double atomicAdd on storage buffers (shaderBufferFloat64AtomicAdd)", {"AtomicFloat64AddEXT"}},
      {"shared_float_atomic_add", "float atomicAdd on shared memory (shaderSharedFloat32AtomicAdd)", {}},
      {"vulkan_memory_model", "the Vulkan memory model (vulkanMemoryModel)", {"VulkanMemoryModel"}},
      {"integer_dot_product", "integer dot products (shaderIntegerDotProduct)",
       {"DotProduct", "DotProductInputAll", "DotProductInput4x8Bit", "DotProductInput4x8BitPacked"}},
      {"storage_image_read_without_format", "storage images read without a format (shaderStorageImageReadWithoutFormat)",
       {"StorageImageReadWithoutFormat"}},
      {"storage_image_write_without_format",
       "storage images written without a format (shaderStorageImageWriteWithoutFormat)",
       {"StorageImageWriteWithoutFormat"}},
      {"storage_image_extended_formats", "the extended storage image formats (shaderStorageImageExtendedFormats)",
       {"StorageImageExtendedFormats"}},
      {"runtime_descriptor_array", "runtime-sized arrays of descriptors (runtimeDescriptorArray)",
       {"RuntimeDescriptorArray"}},
      {"uniform_buffer_array_non_uniform_indexing",
       "non-uniform indices into arrays of uniform buffers (shaderUniformBufferArrayNonUniformIndexing)",
       {"UniformBufferArrayNonUniformIndexing"}},
      {"sampled_image_array_non_uniform_indexing",
       "non-uniform indices into arrays of sampled images (shaderSampledImageArrayNonUniformIndexing)",
       {"SampledImageArrayNonUniformIndexing"}},
      {"storage_buffer_array_non_uniform_indexing",
       "non-uniform indices into arrays of storage buffers (shaderStorageBufferArrayNonUniformIndexing)",
       {"StorageBufferArrayNonUniformIndexing"}},
      {"storage_image_array_non_uniform_indexing",
       "non-uniform indices into arrays of storage images (shaderStorageImageArrayNonUniformIndexing)",
       {"StorageImageArrayNonUniformIndexing"}},
  };
  return all;
}

std::vector<std::string> UndeclaredRequirements(const ManifestVariant& v) {
  const auto& listed = v.requires_features;
  const bool any_subgroup_class = std::any_of(listed.begin(), listed.end(), [](const std::string& f) {
    return f.starts_with("subgroup_");
  });
  std::vector<std::string> missing;
  for (const Requirement& r : Requirements()) {
    if (std::find(listed.begin(), listed.end(), r.name) != listed.end()) continue;
    if (r.name == "subgroup_basic" && any_subgroup_class) continue;
    for (std::string_view capability : r.spirv) {
      if (std::find(v.capabilities.begin(), v.capabilities.end(), capability) != v.capabilities.end()) {
        missing.push_back(fmt::format("{} (SPIR-V {})", r.name, capability));
        break;
      }
    }
  }
  return missing;
}

}  // namespace manifest_detail

const std::vector<std::string>& KnownFeatures() {
  static const std::vector<std::string> known = [] {
    std::vector<std::string> names;
    for (const Requirement& r : Requirements()) names.emplace_back(r.name);
    return names;
  }();
  return known;
}

}  // namespace csbench
