// The families of users' manifests (--manifest): each manifest's descriptor, built once and kept
// for the process, and its registration.
#pragma once

#include <deque>

#include "harness/family/family.hpp"
#include "harness/base/options.hpp"
#include "harness/family/suite.hpp"
#include "harness/manifest/manifest.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench::manifest {

// A loaded manifest and the descriptor built from it (whose cases refer to the manifest).
struct Loaded {
  Manifest manifest;
  Family<ManifestVariant> family;
  // The device's values of the expressions' variables, for [tune] restrict (PlaceOnDevice).
  DeviceValues device;
  // The points' expressions, parsed once for registration and the restrictions.
  std::shared_ptr<PointEvaluations> evaluations;
};

// Keeps `manifest` at the end of `loaded` (whose elements stay where they are: the family's
// functions refer to them) and builds its family's descriptor: its variants, workgroups and
// domains, with names as the built-in families': <family>/<variant>/wg<X>x<Y>/domain<W>x<H>.
const Loaded& Adopt(std::deque<Loaded>& loaded, Manifest manifest);

// Registers the family's benchmarks, after evaluating every point's expressions under the run's
// --domain and --workgroup overrides (throws ManifestError for a value that is no use there).
void Register(Suite& suite, const Loaded& loaded);

// Gives each manifest axis that `overrides` names (--axis) those values in place of its own;
// throws UsageError for a name no manifest's axis has, or a value of another kind than the axis's.
void OverrideAxes(std::deque<Loaded>& all, const std::vector<AxisOverride>& overrides);

// Variant `base` of `m` at point `p`'s [axes] values (itself where the manifest has none): made
// once per combination and kept for the process.
const ManifestVariant& VariantAt(const Manifest& m, const ManifestVariant& base, const Point& p);

// The SHA-256 of the SPIR-V a manifest's point runs: every pass's, compiled at the point (the
// family's shader_hash, which its benchmarks' records take). Throws where a shader does not
// compile there.
std::string ShaderHash(const Loaded& loaded, const Point& p);

// Where [family] workgroups are expressions of SUBGROUP_SIZE: their values on `info`'s device, in
// every variant that takes the family's (names and selection are made after this).
void PlaceOnDevice(Loaded& loaded, const DeviceInfo& info);

}  // namespace csbench::manifest
