#include "harness/vulkan/driver_probes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "harness/base/check.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench {

namespace {

constexpr uint32_t kGroups = 4;

}  // namespace

std::string ProbeSubgroupBarrier(Context& context, bool in_branch) {
  const DeviceInfo& info = context.info();
  const uint32_t subgroup = std::max<uint32_t>(1, info.subgroup_size);
  const uint32_t local = 2 * subgroup;
  if (local > info.max_workgroup_invocations) return "";
  std::vector<Define> defines;
  if (!in_branch) defines.push_back({"EVERY_SUBGROUP", "1"});
  Kernel kernel(context, KernelSpec{.label = "subgroup_barrier_probe",
                                    .source = "harness/subgroup_barrier_probe.comp",
                                    .defines = defines,
                                    .local_size = {local, 1, 1},
                                    .bindings = 1});
  Buffer result(context, 2 * kGroups * sizeof(uint32_t));
  Bindings bindings = kernel.Bind({{&result, 0}});
  context.Run([&](Commands& c) {
    c.Fill(result, kPoison);
    c.Barrier();
    c.Dispatch(kernel, bindings, {kGroups, 1, 1});
  });
  std::vector<uint32_t> words(2 * kGroups);
  result.Download(std::as_writable_bytes(std::span(words)));
  const std::string pattern = in_branch ? "subgroupBarrier() in a branch that only some subgroups of a workgroup take"
                                        : "subgroupBarrier() in every subgroup";
  for (uint32_t g = 0; g < kGroups; ++g) {
    const uint32_t sum = words[2 * g], n = words[2 * g + 1];
    if (sum == kPoison) {
      return pattern + " never completes on this driver (csbench's probe of the pattern left its output unwritten)";
    }
    if (n == 0 || n > local || sum != n * (n + 1) / 2) {
      return fmt::format("{} does not order shared memory on this driver (csbench's probe summed {} over a subgroup "
                         "of {}, not {})",
                         pattern, sum, n, n * (n + 1) / 2);
    }
  }
  return "";
}

const std::string& SubgroupBarrierInBranchDefect(Context& context) {
  auto& findings = context.probe_findings();
  auto it = findings.find("subgroup_barrier_in_branch");
  if (it == findings.end()) {
    it = findings.emplace("subgroup_barrier_in_branch", ProbeSubgroupBarrier(context, true)).first;
  }
  return it->second;
}

}  // namespace csbench
