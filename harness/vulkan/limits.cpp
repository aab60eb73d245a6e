#include "harness/vulkan/limits.hpp"

#include <fmt/format.h>

#include "harness/base/error.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {

void RequireWorkgroup(const Context& context, Extent workgroup) {
  const DeviceInfo& info = context.info();
  const uint64_t invocations = uint64_t{workgroup.x} * workgroup.y * workgroup.z;
  RequireSupport(invocations <= info.max_workgroup_invocations,
                   fmt::format("workgroup {} has {} invocations, over the device's maxComputeWorkGroupInvocations ({})",
                               Sized("", workgroup), invocations, info.max_workgroup_invocations));
  RequireSupport(
      workgroup.x <= info.max_workgroup_size[0] && workgroup.y <= info.max_workgroup_size[1] &&
          workgroup.z <= info.max_workgroup_size[2],
      fmt::format("workgroup {} exceeds the device's maxComputeWorkGroupSize ({}x{}x{})", Sized("", workgroup),
                  info.max_workgroup_size[0], info.max_workgroup_size[1], info.max_workgroup_size[2]));
}

void RequireStorage(const Context& context, uint64_t bytes) {
  const DeviceInfo& info = context.info();
  RequireSupport(bytes <= info.max_storage_buffer_range,
                   fmt::format("a buffer of {} MiB exceeds the device's maxStorageBufferRange ({} MiB)", bytes >> 20,
                               info.max_storage_buffer_range >> 20));
  RequireMemory(context, bytes);
}

void RequireMemory(const Context& context, uint64_t bytes) {
  const DeviceInfo& info = context.info();
  RequireSupport(info.device_local_bytes == 0 || bytes <= info.device_local_bytes,
                   fmt::format("a buffer of {} MiB exceeds the device's memory ({} MiB)", bytes >> 20,
                               info.device_local_bytes >> 20));
  RequireSupport(bytes <= info.max_allocation_bytes,
                   fmt::format("a buffer of {} MiB exceeds the device's maxMemoryAllocationSize ({} MiB)", bytes >> 20,
                               info.max_allocation_bytes >> 20));
}

}  // namespace csbench
