// The barriers family's plain-loop implementation: the reference of exchange.comp and the CPU
// fallback backend.
#pragma once

#include <cstdint>
#include <span>

namespace csbench::barriers {

// Work before each barrier: none, the same for every invocation, or uneven across a subgroup.
enum class Work : uint32_t { kNone = 0, kEven = 1, kUneven = 2 };

// exchange.comp over `in`: chunks of `workgroup` consecutive elements (zero past the end), each
// `rounds` times replaced by v[l] = 0.5 * (work(v[l]) + work(v[(l + 1) % workgroup])), all lanes
// at once, in float as the kernel computes it.
void Exchange(std::span<const float> in, uint32_t workgroup, uint32_t rounds, Work work, std::span<float> out);

}  // namespace csbench::barriers
