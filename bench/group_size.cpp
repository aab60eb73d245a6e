#include "bench/group_size.hpp"

#include "harness/family/float_inputs.hpp"
#include "harness/vulkan/context.hpp"
#include "kernels/group_size/reference.hpp"

namespace csbench::group_size {
namespace {

constexpr uint64_t kSeed = 20100309;  // GDC 2010's first day

struct Push {
  uint32_t count;
  float a;
  float b;
};

void Reference(std::span<const float> values, std::span<float> out) { ScaleAdd(values, kScale, kOffset, out); }

}  // namespace

const Family<Variant>& Descriptor() {
  // The talk's sizes: one thread (its "bad idea"), below a wavefront (16: below NVIDIA's 32 and
  // AMD's 64), one warp, one AMD wavefront, and the larger sizes it recommends. 16 Mi floats:
  // 64 MiB in, 64 MiB out. Tests: 100003 is a prime, so the last group is partial at every size,
  // and at one thread per group it needs more than 65535 groups (the grid-stride loop covers the rest).
  // 2, 4 and 8 come last: below a CPU device's subgroup (lavapipe's is 8 or 4), for the
  // quick set's "smaller than a subgroup" claim; a GPU's default set leaves them out. A CPU
  // device's default set takes the contrasts scripts/findings-rules.toml decides: one thread,
  // one and two warps, 256, and the device's subgroup size against half of it (the claim that a
  // group below one subgroup wastes the machine).
  static const Family<Variant> family{
      .name = "group_size",
      .variants = {{.name = "scale_add",
                    .source = "group_size/scale_add.comp",
                    .workgroups = {{1}, {16}, {32}, {64}, {128}, {256}, {512}, {1024}, {2}, {4}, {8}},
                    .cpu_default = {{.workgroups = {{1}, {32}, {64}, {256}}, .subgroup_divisors = {1, 2}}},
                    .gpu_leaves_out = {{.workgroups = {{2}, {4}, {8}}}}}},
      .domains = {{16u << 20}},
      .test_domains = {{100003}, {37}},
      .make = FloatMapMaker<Variant>(
          "group_size", kSeed, [](const Point& p) { return PushBytes(Push{p.domain.x, kScale, kOffset}); }, Reference,
          kTolerance),
      .plain_loop = FloatPlainLoop("group_size", kSeed, Reference)};
  return family;
}

namespace {
const Declaration kDeclared = Declare("group_size", &Descriptor);
}

}  // namespace csbench::group_size
