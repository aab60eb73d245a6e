// A user's variant at one point as a case: inputs from a fixed seed, rotated past the last-level
// cache under --cache=cold; outputs poisoned (or started from their init), then checked against
// the reference variant run on the same device and against the manifest's [check] expressions,
// before anything is timed; the timed loop and its counters are the harness's
// (MeasureDispatches, or MeasureTimedRuns where outputs are restored). A user's kernel is a
// stranger's: its check run also gives every storage buffer a guard region and compares its
// inputs afterwards, so that a kernel that writes where it must not fails.
#pragma once

#include <memory>

#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"
#include "harness/manifest/manifest.hpp"
#include "harness/measure/measure.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {

// The case of variant `base` of `m` at `point` (at its [axes] values, its subgroup size).
std::unique_ptr<Case> MakeManifestCase(Suite& suite, const Manifest& m, const ManifestVariant& base, const Point& point);

// The expressions' device variables on `info`'s device.
DeviceValues ValuesOf(const DeviceInfo& info);

// The subgroup size a point of a family with a /sg<N> axis requires (0: none).
uint32_t SubgroupOf(const Point& point);

// Variant `base` at a point's [axes] values: made once per variant object and combination, and
// kept for the process (a case and the reference run at its point refer to it). By the object, not
// its name: a family's copy of a variant (its workgroups placed on the device) and the manifest's
// own are two, and each gets its own.
const ManifestVariant& MadeAt(const Manifest& m, const ManifestVariant& base, const Point& point);

}  // namespace csbench
