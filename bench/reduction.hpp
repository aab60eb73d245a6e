// The parallel-reduction family: RGBA float image -> per-tile average luminance.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/base/naming.hpp"
#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::reduction {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  Extent fetch{1, 1};                // pixels one invocation reads before the tree
  std::vector<Extent> workgroups;    // each x*y a power of two
  bool needs_subgroup_arithmetic = false;
  // Tiles each workgroup reduces in turn along its tile row (TILES_PER_GROUP; 1: one a workgroup).
  uint32_t tiles_per_group = 1;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// The plain-loop benchmark's tile: the studies' 1080p -> 120x68.
inline constexpr Extent kPlainLoopTile{16, 16};

// Relative error allowed against the double-precision reference: float sums of up to 16384
// values in a tree stay near 1e-6.
inline constexpr double kTolerance = 1e-5;

// The random image of each domain, its rotated copies on the device and its references per tile
// size, made on first use and kept for the run: with repetitions and random interleaving,
// benchmarks of all domains alternate, and remaking a 530 MB image each time would dominate.
class Inputs {
 public:
  struct Domain;
  Inputs();
  ~Inputs();
  // The domain's data; with a context, also its device copies.
  Domain& For(Extent domain, Context* context, CacheMode cache);
  // The domain's random image (RGBA floats), made on first use.
  const std::vector<float>& Image(Extent domain);

 private:
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Domain>> domains_;
};

// The family: every variant x workgroup x domain, each GPU case (its bands of tile rows, its
// kernel, rotated copies of one random image) checked against the CPU reference before timing;
// the plain loop reduces 16x16 tiles.
const Family<Variant>& Descriptor();

}  // namespace csbench::reduction
