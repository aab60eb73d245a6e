// Probes of driver behaviour that a device's properties do not tell: each runs a small kernel of
// one pattern once a process, and a family whose kernels rely on the pattern skips them with the
// probe's finding where it failed. They catch driver defects, not missing features.
#pragma once

#include <string>

namespace csbench {

class Context;

// "" where subgroupBarrier() in a branch that only subgroup 0 takes completes and orders shared
// memory within the subgroup (kernels/harness/subgroup_barrier_probe.comp); else what went wrong,
// for a skip message. Devices with one subgroup per workgroup at most cannot diverge so: "".
const std::string& SubgroupBarrierInBranchDefect(Context& context);

// One run of the probe, not cached: `in_branch` false is its control, the same tree run by every
// subgroup on its own slots, which every driver must pass.
std::string ProbeSubgroupBarrier(Context& context, bool in_branch);

}  // namespace csbench
