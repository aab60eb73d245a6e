// The occupancy family's plain-loop implementation: live.comp's rounds of partner exchange, in
// the same float operations and order, as the correctness reference and the CPU fallback.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::occupancy {

// One output per invocation of `count`: `seeds` holds 4 floats per invocation. The result does
// not depend on the workgroup size as long as it is a multiple of 64 (partners are invocations
// whose indices differ in one of the six low bits). `count` must be a multiple of 64 too.
void LiveValues(std::span<const float> seeds, uint32_t count, uint32_t live, uint32_t rounds, std::span<float> out);
std::vector<float> LiveValues(std::span<const float> seeds, uint32_t count, uint32_t live, uint32_t rounds);

}  // namespace csbench::occupancy
