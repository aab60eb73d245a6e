// The occupancy family: 1024-invocation groups with 32 KiB of shared memory and LIVE values kept
// alive per invocation (16, 32, 48, 64), against 256- and 64-invocation groups doing the same
// work, after the article's "48 -> 32 VGPRs let two groups fit per CU: +50%". Where the driver
// exposes VK_KHR_pipeline_executable_properties, each benchmark also reports its pipeline's
// statistics (registers, shared memory, spills...) as `stat:<name>` counters. The shared<N>k rows
// keep 256-invocation groups of 16 live values and declare N KiB of shared memory per group, so
// that shared memory alone decides how many groups an SM holds (what the driver's choice of the
// shared-memory carve-out allows, which Vulkan does not expose).
#pragma once

#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::occupancy {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t live = 0;               // the LIVE macro: values each invocation keeps alive
  std::vector<Extent> workgroups;  // invocations per group, multiples of 64
  // Shared memory a group declares, in bytes (0: the 32 bytes an invocation exchanges). A larger
  // size is declared but not touched: it only limits how many groups an SM can hold.
  uint32_t shared_bytes = 0;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// The shared memory a group of `workgroup` invocations of `variant` declares.
uint32_t SharedBytes(const Variant& variant, uint32_t workgroup);

inline constexpr uint32_t kRounds = 16;
// Relative error allowed: both sides compute in float in the same order; a GPU compiler may fuse
// the multiply-adds (16 rounds of three terms), which moves results by a few 1e-7.
inline constexpr double kTolerance = 1e-5;

// Domains count invocations per dispatch (one output each); names are
// occupancy/<variant>/wg<n>/domain<count>.
const Family<Variant>& Descriptor();

// The kernel of `variant` at `workgroup` invocations (for its pipeline statistics).
KernelSpec Spec(const Variant& variant, uint32_t workgroup);

}  // namespace csbench::occupancy
